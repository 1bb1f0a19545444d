"""Framework limits that bound every match, whatever its options.

No play reaches them in practice; they keep the work of a request bounded:

* a match ends after hand :data:`MAX_HANDS` (1 000, the longest match an option asks
  for: Tiu U's and Tsair Deng's ``hands``) at the latest; only a match played to a
  target score can reach it, through a long run of hands that score nothing or little;
* a move produces at most :data:`MAX_EVENTS` (1 000) events: a deal is tried
  :data:`MAX_DEAL_ATTEMPTS` (100) times at most and a throw of the dice repeated
  ``throw_up.MAX_THROWS`` (100) times at most (a run of 100 void deals or tied throws
  has a probability below 10**-60), so a move's events are at most 100 redeals and
  400 throws of three seats, and a few dozen others.
"""

from __future__ import annotations

__all__ = [
    "MAX_COUNT",
    "MAX_DEAL_ATTEMPTS",
    "MAX_EVENTS",
    "MAX_HANDS",
    "MAX_HAND_POINTS",
    "MAX_PLAYOUT_MOVES",
    "MAX_SEED_CHARS",
    "MAX_TOTAL",
]


#: A match ends after this hand at the latest (see the module docstring). It bounds a
#: token's history, and so the work of opening one (:meth:`Ruleset.max_hands`).
MAX_HANDS = 1_000
#: No event's ``count`` is larger than this (hand numbers, deal attempts).
MAX_COUNT = 100_000
#: At most this many events in one move (``last_events``; see the module docstring).
MAX_EVENTS = 1_000
#: Deals tried while a ruleset finds them void ([OAJ-3]).
MAX_DEAL_ATTEMPTS = 100
#: No count, points or settlement of one hand is larger than this.
MAX_HAND_POINTS = 10**6
#: No seat's match total or settlement is larger than this.
MAX_TOTAL = 10**8
#: A hand played out by a bot (:meth:`Ruleset.play_hand`) that has not ended after this many
#: moves is a bug in a ruleset, not a long hand.
MAX_PLAYOUT_MOVES = 100_000
#: A seed has 1 to this many characters (as ``NewGame`` accepts them).
MAX_SEED_CHARS = 128
