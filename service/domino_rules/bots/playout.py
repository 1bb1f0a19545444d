"""Random playouts in process: seeded random legal moves until a match (or a hand) ends.

The one loop the tests, the benchmarks and bot writers share: the uniform random player,
pure like the bots (no I/O, no clock; the randomness is the caller's ``chooser``).

>>> import random
>>> from domino_rules import rules
>>> joe = rules.get("one_arm_joe")
>>> seen: list[Step] = []
>>> end = random_match(joe, joe.make_options({}), 3, "doc", observe=seen.append)
>>> end.status.name, seen[-1].after is end, seen[0].number
('MATCH_OVER', True, 1)
>>> first = play_out(joe, joe.new_match(joe.make_options({}), 3, "doc"), random.Random("doc"),
...                  until=hand_over)
>>> first.status.name, first.hand_number
('HAND_OVER', 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..rules import Event, Match, Move, Ruleset, Status

__all__ = [
    "MAX_MOVES",
    "AnyMatch",
    "AnyRuleset",
    "Observer",
    "PlayoutError",
    "Rules",
    "Step",
    "hand_over",
    "match_over",
    "play_out",
    "random_match",
]

AnyMatch = Match[Any, Any]
AnyRuleset = Ruleset[Any, Any]

#: A playout that has not ended after this many moves is a failure (the longest random
#: matches of the test cases take a few thousand).
MAX_MOVES = 50_000


class PlayoutError(RuntimeError):
    """A playout that cannot go on: a bug in a ruleset."""


class Rules(Protocol):
    """What a playout uses of a ruleset; a benchmark may pass a wrapper that times it."""

    def legal_moves(self, match: AnyMatch, /) -> tuple[Move, ...]: ...

    def apply(self, match: AnyMatch, move: Move, /) -> tuple[AnyMatch, tuple[Event, ...]]: ...


@dataclass(frozen=True, slots=True)
class Step:
    """One applied move: the state before it, its legal moves, the move chosen among them,
    the state after it and the events it produced."""

    number: int  # 1 for the first move of the playout
    before: AnyMatch
    legal: tuple[Move, ...]
    move: Move
    after: AnyMatch
    events: tuple[Event, ...]


Observer = Callable[[Step], None]


def match_over(match: AnyMatch) -> bool:
    """The default end of a playout: the match is over."""
    return match.status is Status.MATCH_OVER


def hand_over(match: AnyMatch) -> bool:
    """The end of the current hand (``HAND_OVER``, or ``MATCH_OVER`` for the last one)."""
    return match.status is not Status.IN_PROGRESS


def play_out(
    rules: Rules,
    match: AnyMatch,
    chooser: random.Random,
    *,
    until: Callable[[AnyMatch], bool] = match_over,
    observe: Observer | None = None,
    max_moves: int = MAX_MOVES,
) -> AnyMatch:
    """Apply moves drawn by ``chooser`` from ``rules.legal_moves`` until ``until(match)``;
    return the last state. ``observe`` sees every step, after the move is applied.

    Raises :class:`PlayoutError` when a state that has not ended has no legal move, or
    when the playout has not ended after ``max_moves`` moves.
    """
    for number in range(1, max_moves + 1):
        if until(match):
            return match
        legal = rules.legal_moves(match)
        if not legal:
            raise PlayoutError(f"no legal move, yet the playout has not ended: {match!r}")
        move = chooser.choice(legal)
        after, events = rules.apply(match, move)
        if observe is not None:
            observe(Step(number, match, legal, move, after, events))
        match = after
    if until(match):
        return match
    raise PlayoutError(f"the playout has not ended after {max_moves} moves")


def random_match(
    ruleset: AnyRuleset,
    options: Any,
    players: int,
    seed: str,
    *,
    chooser: random.Random | None = None,
    until: Callable[[AnyMatch], bool] = match_over,
    observe: Observer | None = None,
) -> AnyMatch:
    """A new match dealt from ``seed``, played out; moves are drawn by ``chooser``
    (default: ``random.Random(seed)``)."""
    match = ruleset.new_match(options, players, seed)
    return play_out(
        ruleset,
        match,
        random.Random(seed) if chooser is None else chooser,
        until=until,
        observe=observe,
    )
