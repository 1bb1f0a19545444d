"""Sampled worlds: a whole match built from one seat's view, hidden tiles dealt at random.

A *world* is a :class:`~domino_rules.rules.Match` that gives the seat exactly the view
it has (the same hand, the same public tiles, the same sizes, the same legal moves) and
that :meth:`Ruleset.check_match` accepts. Its hidden tiles are dealt by the ruleset's
game bot (the ``bot`` module of each game package, :mod:`domino_rules.games`), which
:func:`bot_for` finds in the catalogue (see :func:`use_catalogue`).
The rest of the match is built from public facts:

* the seed is the bot's own (``bot-world-<64 random bits in hex>``, from the bot's
  generator): every deal and throw after the view comes from it, never from the game's
  seed, which the view does not carry;
* the history of the hands before this one is *fabricated*: the view gives only the
  match totals, so ``hand_number - 1`` results are written whose points add up to them
  (the first result takes as much as a hand can hold, :data:`MAX_HAND_POINTS`; the
  others the rest). Every rule that reads the history reads the totals, except the
  first winner of the last hand (who leads the next Tsair Deng hand), which a rollout
  never needs: rollouts stop at the end of the hand;
* the last move's events are left out (a world is where play goes on, not a record).

:func:`world_sampler` does what depends on the view only once and returns a function
that deals one world per call; :func:`sample_world` is one such call.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from ..rules import HandResult, Match, Ruleset, Status, View
from ..rules.limits import MAX_HAND_POINTS
from ..rules.match import build_match
from .dealing import GameBot

__all__ = [
    "WORLD_TRIES",
    "NoWorldError",
    "bot_for",
    "fabricated_history",
    "sample_world",
    "use_catalogue",
    "world_sampler",
]


def _no_game(ruleset_id: str) -> GameBot | None:
    """No bot: no game is installed before the catalogue hands its lookup over."""
    return None


#: The game bot of a ruleset id: the catalogue's own lookup (:func:`use_catalogue`).
_bot_of: Callable[[str], GameBot | None] = _no_game

_IN_PROGRESS = Status.IN_PROGRESS

T = TypeVar("T")

#: Times a world's deal is tried (with and without the inferences) before giving up.
WORLD_TRIES = 5


class NoWorldError(ValueError):
    """No world agrees with the view: the view, the options and the player count do not
    belong together. :func:`~.engine.suggest` raises it as the cause of a
    :class:`~.engine.MismatchError`; the service, whose views are of games the rules
    made, answers it as a bug (``INTERNAL``, ``BOT_FAILED``)."""


def use_catalogue(bot_of: Callable[[str], GameBot | None]) -> None:
    """Find the game bot of a ruleset with ``bot_of`` (a ruleset id to the bot of the game
    installed under it, or ``None``). The catalogue (:mod:`domino_rules.games`) hands its
    own lookup over when it is imported, before it installs a game: the bots keep no list
    of games, and import nothing above their kernel. A game's ruleset cannot exist before
    that (importing a game package imports the catalogue first), so every installed game
    has its bot."""
    global _bot_of
    _bot_of = bot_of


def bot_for(ruleset: Ruleset[Any, Any]) -> GameBot | None:
    """The game bot of ``ruleset``, the catalogue's; ``None`` for a ruleset the bots do not
    play (no game of the catalogue has its id)."""
    return _bot_of(ruleset.id)


def fabricated_history(
    ruleset: Ruleset[Any, Any], view: View, players: int, running: tuple[int, ...]
) -> tuple[HandResult, ...]:
    """``view.hand_number - 1`` hand results whose points add up to the match totals less
    the points of the hand in progress (``running``); see the module docstring."""
    left = [total - now for total, now in zip(view.match_points, running, strict=True)]
    if any(points < 0 for points in left):
        raise NoWorldError(f"match points {view.match_points} less {running} are negative")
    end = min(ruleset.hand_ends, key=lambda e: e.value)
    settlement = (0,) * players if ruleset.settles_hands else ()
    results = []
    for _ in range(view.hand_number - 1):
        points = tuple(min(p, MAX_HAND_POINTS) for p in left)
        left = [p - q for p, q in zip(left, points, strict=True)]
        top = min(points) if ruleset.low_wins else max(points)
        winners = tuple(s for s, p in enumerate(points) if p == top)
        results.append(HandResult(points, points, winners, end, settlement))
    if any(left):
        raise NoWorldError(f"match points {view.match_points} do not fit hand {view.hand_number}")
    return tuple(results)


def sample_world(
    ruleset: Ruleset[Any, Any],
    options: Any,
    players: int,
    view: View,
    rng: random.Random,
) -> Match[Any, Any]:
    """A world for ``view`` (of the seat to act, a hand in progress), its hidden tiles
    dealt with ``rng``: ``world_sampler(ruleset, options, players, view)(rng)``."""
    return world_sampler(ruleset, options, players, view)(rng)


def world_sampler(
    ruleset: Ruleset[Any, Any], options: Any, players: int, view: View
) -> Callable[[random.Random], Match[Any, Any]]:
    """The worlds of ``view`` (of the seat to act, a hand in progress), as a function of
    the generator that deals each; what depends on the view only is done once, here.

    The deal keeps what the seat can infer (see each game bot); should no such deal be
    found, it is dealt again without the inferences from the last move (the rules'
    own constraints always hold), and the two are tried :data:`WORLD_TRIES` times (a
    deal draws at random and may give up where a deal exists). Raises
    :class:`NoWorldError` when no deal agrees with the view (here, or from the function
    for a deal).
    """
    bot = bot_for(ruleset)
    if bot is None:
        raise NoWorldError(f"no bot plays {ruleset.id}")
    if view.status is not Status.IN_PROGRESS or view.seat is None:
        raise NoWorldError("a world is built for a seat's view of a hand in progress")
    try:
        deal = bot.dealer(view, options, players)
    except ValueError as exc:
        raise NoWorldError(f"the view does not fit the set: {exc}") from None
    history = fabricated_history(ruleset, view, players, bot.running_points(view, players))
    hand_number = view.hand_number

    def sample(rng: random.Random) -> Match[Any, Any]:
        seed = _world_seed(rng)
        state = _dealt(deal, rng)
        # Match(...), every field given, built without its __init__ (a world a playout)
        return build_match(players, options, seed, hand_number, state, history, _IN_PROGRESS, ())

    return sample


def _world_seed(rng: random.Random) -> str:
    """A world's seed (see the module docstring): its first draw from ``rng``."""
    return f"bot-world-{rng.getrandbits(64):016x}"


def _dealt(deal: Callable[[random.Random, bool], T | None], rng: random.Random) -> T:
    """What ``deal`` deals with the inferences, or else without them, tried
    :data:`WORLD_TRIES` times (see :func:`world_sampler`)."""
    try:
        for _ in range(WORLD_TRIES):
            dealt = deal(rng, True)
            if dealt is None:
                dealt = deal(rng, False)
            if dealt is not None:
                return dealt
    except ValueError as exc:
        raise NoWorldError(f"the view does not fit the set: {exc}") from None
    raise NoWorldError("no deal of the hidden tiles agrees with the view")
