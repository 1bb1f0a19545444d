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

The fast playouts of the games (each game bot's ``Rollouts``) share the pieces below:
tables of every tile's halves by its code (:data:`TILE_HIGH` and the others, up to
double-eighteen); on a line with two open ends, :func:`lay_on` (the ends a tile laid
leaves) and :func:`line_play` (the GREEDY play of Block and Dancing Dragons); and
:func:`discard_points`, the points of a hand scored by its discards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..rules import End, Event, Match, Move, Ruleset, Status
from ..rules.tiles import MAX_PIP, double_n

__all__ = [
    "MAX_MOVES",
    "TILE_HALVES",
    "TILE_HIGH",
    "TILE_LOW",
    "TILE_PIPS",
    "AnyMatch",
    "AnyRuleset",
    "Observer",
    "PlayoutError",
    "Rules",
    "Step",
    "discard_points",
    "hand_over",
    "lay_on",
    "line_play",
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


# --------------------------------------------------------------- fast playouts' pieces

_TILES = double_n(MAX_PIP)
#: Per tile code (every set, up to double-eighteen): its high half, its low half, its
#: pips, and its halves as a bit set (``TILE_HALVES[code] & 1 << pip``: it has ``pip``).
TILE_HIGH = tuple(tile.high for tile in _TILES)
TILE_LOW = tuple(tile.low for tile in _TILES)
TILE_PIPS = tuple(tile.pips for tile in _TILES)
TILE_HALVES = tuple(tile.halves for tile in _TILES)


def lay_on(tile: int, end: End | None, left: int, right: int) -> tuple[int, int]:
    """The ends of a two-ended line that showed ``left`` and ``right`` once ``tile`` (a
    code that fits ``end``) is laid at ``end`` (``None``: the first tile, high half left):
    :func:`domino_rules.rules.lines.lay` on codes.

    >>> from domino_rules.rules import Tile
    >>> lay_on(Tile(5, 3).code, None, -1, -1), lay_on(Tile(3, 1).code, End.RIGHT, 5, 3)
    ((5, 3), (5, 1))
    """
    high, low = TILE_HIGH[tile], TILE_LOW[tile]
    if end is End.LEFT:
        return (low if high == left else high), right
    if end is End.RIGHT:
        return left, (low if high == right else high)
    return high, low


def line_play(hand: list[int], left: int, right: int, weight: tuple[int, ...]) -> int:
    """The GREEDY play from ``hand`` (tile codes, ascending) on a line whose ends show
    ``left`` and ``right``: of the tiles that fit, the one of the highest ``weight`` (by
    code), then the one that leaves the most tiles of the hand fitting the ends it leaves
    (the Block and Dancing Dragons heuristics, as each game bot's ``_key`` scores a
    move); of equal scores, the first in the order of the legal moves (each distinct tile
    ascending, at the left end before the right). ``2 * tile`` for a play at the left
    end, ``2 * tile + 1`` at the right end, ``-1`` when no tile fits.

    >>> from domino_rules.rules import Tile
    >>> hand = [Tile(3, 1).code, Tile(5, 3).code, Tile(6, 5).code]
    >>> divmod(line_play(hand, 3, 1, TILE_PIPS), 2) == (Tile(5, 3).code, 0)
    True
    >>> line_play(hand, 2, 2, TILE_PIPS)
    -1
    """
    at_left, at_right = 1 << left, 1 << right
    ends = at_left | at_right
    top, top_weight, ties, last = -1, -1, 0, -1
    for tile in hand:
        if tile == last:
            continue
        last = tile
        halves = TILE_HALVES[tile]
        if halves & ends:
            score = weight[tile]
            if score >= top_weight:
                # plays of the tile: at the left end, the right end, or both
                both = halves & at_left and halves & at_right
                if score > top_weight:
                    top, top_weight = (2 * tile if halves & at_left else 2 * tile + 1), score
                    ties = 1 if both else 0
                else:
                    ties += 2 if both else 1
    if not ties:
        return top
    # a tie of weights: the tiles left fitting the new ends decide, the first on a tie
    top_count, last = -1, -1
    for tile in hand:
        if tile == last or weight[tile] != top_weight:
            continue
        last = tile
        high, low = TILE_HIGH[tile], TILE_LOW[tile]
        if high == left or low == left:
            count = _fitting(hand, 1 << (low if high == left else high) | at_right)
            if count > top_count:
                top, top_count = 2 * tile, count
        if high == right or low == right:
            count = _fitting(hand, at_left | 1 << (low if high == right else high))
            if count > top_count:
                top, top_count = 2 * tile + 1, count
    return top


def _fitting(hand: list[int], ends: int) -> int:
    """How many tiles of ``hand`` have a half among ``ends`` (a bit set of pips)."""
    count = 0
    for tile in hand:
        if TILE_HALVES[tile] & ends:
            count += 1
    return count


def discard_points(pips: list[int], discards: list[int]) -> tuple[int, ...]:
    """The points of a hand scored by its discards, from each seat's discarded ``pips``
    and number of ``discards``: the pips, doubled for every seat when some seat discarded
    nothing (:func:`domino_rules.rules.discards.discard_points`, on numbers).

    >>> discard_points([0, 11, 5], [0, 1, 2]), discard_points([3, 11], [1, 1])
    ((0, 22, 10), (3, 11))
    """
    if 0 in discards:
        return tuple([2 * p for p in pips])
    return tuple(pips)
