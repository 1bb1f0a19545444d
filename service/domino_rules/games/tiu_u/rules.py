"""Tiu U (fishing): mate hand tiles and drawn tiles with the lake, two Chinese sets.

Sources: seed 002, with Culin's account where the seed is garbled, as decided by
RULES.md ``[TU-1]``..``[TU-10]``.

Options (``TiuUOptions``): ``may_decline`` (default false: a player who can capture or
pile must, ``[TU-5]``), ``red_sixes`` (``DOUBLE_SIX_ONLY`` default, ``ALL_SIXES``:
which sixes are half red, ``[TU-9]``), ``hands`` (1..1000, default 1: hands in the
match, ``[TU-10]``).

The deal of hand ``h`` with ``P`` players (``[TU-2]``): the 64 tiles of two Chinese sets
in ascending order (``two_chinese_sets()``) are shuffled with label ``deal/<h>/0``
(``rng.shuffled(seed, "deal/<h>/0", two_chinese_sets())``), giving ``order[0..63]``.
Stack ``i`` (``i = 0..15``) is ``order[4i : 4i+4]``. The lake is stacks 0..3, i.e.
``order[0:16]``, face up. Each player takes ``k`` stacks (``k`` = 3, 2, 1 for 2, 3, 4
players) from the other end: seat 0 takes the last ``k`` stacks, ``order[64-4k : 64]``;
seat ``s`` takes ``order[64-4k(s+1) : 64-4ks]``. The woodpile is what remains,
``order[16 : 64-4kP]``, drawn one tile at a time from the end the hands came from,
highest index first: it is stored in draw order, ``order[64-4kP-1]`` first and
``order[16]`` last. Hands and the lake are kept sorted (their order is no part of the
game); a catch lists its tiles in the order they were taken. ``[TU-4]``: then each
seat holding two ``[6-6]`` lays the pair into its catch (event ``PAIR_LAID``), two
pairs with four. ``deal_from`` does all this from a given order, so a test can deal
an exact position.

Matching (``[TU-3]``): equal pip totals, and also ``[2-1]`` with ``[4-2]``. A turn is one
move: the hand step (``CAPTURE`` a lake tile or a pile with a hand tile, ``PILE``, or
``PASS``), then at once the draw step (``[TU-6]``). Only when the drawn tile has two or
more different things to take does the same seat make a second move, ``CAPTURE_DRAWN``.

Decisions where RULES.md leaves a case open (each has a test):

* The hand step offers one ``CAPTURE`` per distinct (hand tile, target) pair, where the
  target is a single lake tile the hand tile matches, or a piled tile when the hand tile
  is identical to it (the fourth copy). A ``PILE`` is offered whenever ``[TU-7]`` allows
  it, also when the player could capture instead: both are the hand step, so either
  satisfies the duty to mate. ``PASS`` is legal only when no ``CAPTURE`` or ``PILE`` is
  (under ``may_decline``, always). A player whose hand is empty has ``PASS`` as their
  hand step, and still draws.
* "The fourth copy is unseen" means: exactly two copies lie single in the lake (with
  three there, the fourth is in the lake) and no catch holds a copy; the fourth is then
  in a hand, the piler's own included, or in the woodpile. Only civil tiles (four copies)
  can ever be piled.
* Two identical lake tiles are one option, not two: a drawn tile whose only matches are
  copies of one tile takes one of them at once. ``CAPTURE_DRAWN`` names the drawn tile
  and the chosen target. A pile created in the hand step may be taken by the fourth
  copy drawn in the same turn.
* A drawn ``[6-6]`` is just a tile ( ``[TU-4]`` is about the deal; hands never grow
  after it). A seat dealt three ``[6-6]`` lays one pair and keeps the third.
* Events: ``CAPTURE`` has the capturing tile, the target and ``tiles`` = every tile that
  went into the catch (the capturing tile first, then the tile or the three piled tiles
  taken); ``REVEAL`` shows the drawn tile to all; ``CHOICE`` has the drawn tile and, in
  ``tiles``, the distinct targets to choose from; ``PILE`` has the tile and ``tiles`` =
  the three piled. Every tile in an event is face up on the table by then, so no event is
  private; no hand tile or woodpile tile appears before it is played or revealed.
* A hand's winners are the seats with the highest count; its points are the counts
  themselves (the match adds them up, ``[TU-10]``); its settlement is each seat's net
  payment of that hand. ``settlement`` of a match is the sum over finished hands (zeros
  before the first ends). Its ``end`` is always ``WOODPILE_EXHAUSTED`` ``[TU-8]``.
* A hand's reason in words (``explain_hand``) names the highest count and what it
  collects in all; equal highest counts are named as collecting each from every lower
  seat, paying each other nothing; then every seat's count.

What a reachable hand state is (``check_hand_state``; everything else is refused):

* Hands only shrink from the tiles dealt, and none holds two ``[6-6]`` (a pair is laid
  out at the deal) ``[TU-2]`` ``[TU-4]``. The woodpile only shrinks from the tiles left
  after the deal. The lake and the piles are in ascending order; a pile's tile has no
  copy single in the lake, and there is one pile at most of a tile ``[TU-7]``.
* A catch is a sequence of matching pairs: a ``[6-6]`` pair laid at the deal, a
  capturing tile and the tile it took, or the fourth tile and a pile (two pairs of
  identical tiles) ``[TU-3]`` ``[TU-7]``.
* Hand ``h`` is led by seat ``(h - 1) % players`` ``[TU-5]``; every turn draws one tile, so
  the seat to act is the leader plus the turns completed (tiles drawn, less the drawn tile
  still to be resolved) ``[TU-6]``.
* A drawn tile waiting for ``CAPTURE_DRAWN`` has a choice of two or more different things
  to take ``[TU-6]``.
"""

from __future__ import annotations

import enum
import functools
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...rules.building import frozen_builder
from ...rules.checks import check_length, check_sorted, fail, require
from ...rules.events import Event, EventKind
from ...rules.match import HandEnd, HandResult, Match, hand_result, held_tiles
from ...rules.moves import Move, MoveKind
from ...rules.options import option
from ...rules.ruleset import Ruleset, points_text, seats_text
from ...rules.tiles import (
    SUPREME_PAIR,
    Tile,
    distinct,
    double_n,
    insert_tile,
    red_pips,
    remove_tile,
    sorted_tiles,
    two_chinese_sets,
)

__all__ = [
    "Catch",
    "RedSixes",
    "TiuU",
    "TiuUHandState",
    "TiuUOptions",
    "TiuUTable",
    "catch_count",
    "fish_value",
    "matches",
]

STACK = 4
LAKE_STACKS = 4
#: [TU-2] stacks each player takes, by number of players
STACKS_PER_PLAYER = {2: 3, 3: 2, 4: 1}
#: [TU-9] a big fish has at least this many pips
BIG_FISH = 8
SIX_SIX = Tile(6, 6)  # the tile [6-6] (a double six is a set elsewhere)
_SIX_SIX = SIX_SIX.code


class RedSixes(enum.Enum):
    DOUBLE_SIX_ONLY = "DOUBLE_SIX_ONLY"
    ALL_SIXES = "ALL_SIXES"


@dataclass(frozen=True, slots=True)
class TiuUOptions:
    may_decline: bool = option(
        False, "PASS is always legal, even when the player could capture or pile [TU-5]"
    )
    red_sixes: RedSixes = option(
        RedSixes.DOUBLE_SIX_ONLY,
        "DOUBLE_SIX_ONLY: only [6-6]'s sixes are half red; ALL_SIXES: every 6 (Culin) [TU-9]",
    )
    hands: int = option(
        1, "hands in the match; counts and settlements add up [TU-10]", minimum=1, maximum=1000
    )


@dataclass(frozen=True)
class TiuUHandState:
    hands: tuple[tuple[Tile, ...], ...]
    woodpile: tuple[Tile, ...]  # in draw order: woodpile[0] is drawn next
    lake: tuple[Tile, ...]  # single lake tiles, sorted
    piles: tuple[Tile, ...]  # one entry per pile of three identical tiles, sorted
    catches: tuple[tuple[Tile, ...], ...]  # per seat, in the order taken
    to_act: int
    leader: int
    drawn: Tile | None = None  # the drawn tile while its capture is to be chosen


#: ``TiuUHandState(*fields)``, every field given in order (:func:`frozen_builder`).
_state: Callable[..., TiuUHandState] = frozen_builder(TiuUHandState)


@dataclass(frozen=True, slots=True)
class Catch:
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class TiuUTable:
    """The lake, the piles and every catch: all face up."""

    lake: tuple[Tile, ...]
    piles: tuple[Tile, ...]
    catches: tuple[Catch, ...]
    catch_counts: tuple[int, ...]
    drawn: Tile | None
    leader: int


def matches(a: Tile, b: Tile) -> bool:
    """[TU-3] equal pip totals, and the supreme pair with each other.

    >>> matches(Tile(2, 1), Tile(4, 2)), matches(Tile(2, 1), Tile(5, 1))
    (True, False)
    >>> [str(t) for t in (Tile(4, 2), Tile(5, 1), Tile(3, 3), Tile(2, 1)) if matches(Tile(4, 2), t)]
    ['[4-2]', '[5-1]', '[3-3]', '[2-1]']
    """
    return a.pips == b.pips or (a.code, b.code) in _SUPREME


#: [TU-3] the supreme pair, by tile codes, in either order.
_SUPREME = frozenset(
    {(SUPREME_PAIR[0].code, SUPREME_PAIR[1].code), (SUPREME_PAIR[1].code, SUPREME_PAIR[0].code)}
)
#: The other half of the supreme pair, by tile code.
_PARTNER = {a: b for a, b in _SUPREME}


def _pairs_match(caught: tuple[Tile, ...]) -> bool:
    """Tiles 0 and 1 match, tiles 2 and 3, and so on ([TU-3])."""
    for i in range(0, len(caught) - 1, 2):
        a, b = caught[i], caught[i + 1]
        if a.pips != b.pips and (a.code, b.code) not in _SUPREME:
            return False
    return True


def catch_count(tiles: tuple[Tile, ...], red_sixes: RedSixes = RedSixes.DOUBLE_SIX_ONLY) -> int:
    """[TU-9] big fish 2 per pip; small fish 1 per red pip, rounded up to tens.

    >>> catch_count((Tile(6, 6), Tile(4, 1), Tile(4, 3), Tile(4, 2)))
    44
    """
    points = _FISH_POINTS[red_sixes]
    both = sum([points[t.code] for t in tiles])
    return (both & _BIG_MASK) + -(-(both >> _SMALL_SHIFT) // 10) * 10


def _drawn_options(state: TiuUHandState, tile: Tile) -> tuple[Tile, ...]:
    """[TU-6] [TU-7] the distinct things a drawn tile can take: matching single lake
    tiles, and the pile of its own kind (it is the fourth copy)."""
    found = _found(_read_lake(state.lake)[2], state.piles, tile.code)
    return tuple([Tile.from_code(code) for code in _MATCHING[tile.code] if found >> code & 1])


# Tables by tile code, built once: what the hooks read on every move.

_TILE_CODES = len(double_n(18))
_BY_PIPS: dict[int, list[int]] = {}
for _code in range(_TILE_CODES):
    _BY_PIPS.setdefault(Tile.from_code(_code).pips, []).append(_code)
#: [TU-3] per tile code, the codes of the tiles it matches, ascending: equal pip totals,
#: and the other half of the supreme pair.
_MATCHING: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({*_BY_PIPS[Tile.from_code(code).pips], _PARTNER.get(code, code)}))
    for code in range(_TILE_CODES)
)
#: [TU-3] per tile code, the tiles it matches as a bit set of their codes.
_MATCH_BITS = tuple(sum(1 << c for c in codes) for codes in _MATCHING)

#: A lake as the hooks read it: the tiles, their codes in the same (ascending) order, and
#: the codes present as a bit set.
LakeRead = tuple[tuple[Tile, ...], tuple[int, ...], int]


def _read_lake(lake: tuple[Tile, ...]) -> LakeRead:
    codes = tuple([t.code for t in lake])
    bits = 0
    for code in codes:
        bits |= 1 << code
    return lake, codes, bits


def _pile_at(piles: tuple[Tile, ...], code: int) -> int:
    """Where the pile of ``code`` is in ``piles``; -1 when there is none."""
    for i, piled in enumerate(piles):
        if piled.code == code:
            return i
    return -1


def _found(lake_bits: int, piles: tuple[Tile, ...], code: int) -> int:
    """The distinct things the tile of ``code`` can take, as a bit set of their codes: the
    single lake tiles it matches [TU-3], and its own pile, of which it is the fourth
    copy [TU-7]."""
    found = lake_bits & _MATCH_BITS[code]
    if piles and _pile_at(piles, code) >= 0:
        found |= 1 << code
    return found


#: Small fish points are kept above this bit of a tile's points (:data:`_FISH_POINTS`).
_SMALL_SHIFT = 16
#: [TU-9] per ``red_sixes`` and tile code, what a tile adds to a catch: a big fish 2 per
#: pip, a small fish its red pips shifted left by :data:`_SMALL_SHIFT` (the small fish
#: total is rounded on its own), so that a catch's points are one sum.
_FISH_POINTS = {
    red_sixes: tuple(
        2 * t.pips
        if t.pips >= BIG_FISH
        else red_pips(t, all_sixes=red_sixes is RedSixes.ALL_SIXES) << _SMALL_SHIFT
        for t in double_n(18)
    )
    for red_sixes in RedSixes
}
_BIG_MASK = (1 << _SMALL_SHIFT) - 1


def fish_value(tile: Tile, red_sixes: RedSixes = RedSixes.DOUBLE_SIX_ONLY) -> int:
    """[TU-9] what ``tile`` adds to a catch before the small fish are rounded: a big fish
    2 per pip, a small fish its red pips.

    >>> fish_value(Tile(6, 6)), fish_value(Tile(4, 1)), fish_value(Tile(3, 2))
    (24, 5, 0)
    """
    points = _FISH_POINTS[red_sixes][tile.code]
    return points & _BIG_MASK or points >> _SMALL_SHIFT


# Moves and events are immutable values: the ones made on every move are made once, each
# by one integer key (the cheapest to look up).


@functools.cache
def _capture(key: int) -> Move:
    """``Move(seat, CAPTURE, tile, target)`` by ``(seat * _TILE_CODES + code) * _TILE_CODES
    + target code``."""
    rest, target = divmod(key, _TILE_CODES)
    seat, code = divmod(rest, _TILE_CODES)
    return Move(seat, MoveKind.CAPTURE, Tile.from_code(code), Tile.from_code(target))


@functools.cache
def _capture_drawn(key: int) -> Move:
    """``Move(seat, CAPTURE_DRAWN, tile, target)``, by the key of :func:`_capture`."""
    rest, target = divmod(key, _TILE_CODES)
    seat, code = divmod(rest, _TILE_CODES)
    return Move(seat, MoveKind.CAPTURE_DRAWN, Tile.from_code(code), Tile.from_code(target))


#: Per seat: ``PASS``, ``PASS`` as the only legal move, and ``PILE`` of each tile by code.
_PASSING = tuple(Move(seat, MoveKind.PASS) for seat in range(max(STACKS_PER_PLAYER)))
_ONLY_PASSING = tuple((passing,) for passing in _PASSING)
_PILING = tuple(
    tuple(Move(seat, MoveKind.PILE, tile) for tile in double_n(18))
    for seat in range(max(STACKS_PER_PLAYER))
)


@functools.cache
def _caught(key: int) -> Event:
    """[TU-5] [TU-6] ``Event(CAPTURE, seat, tile, target, tiles)``, by the key of
    :func:`_capture` times two, plus one when the target is a pile: [TU-7] the fourth
    tile takes all three."""
    rest, piled = divmod(key, 2)
    rest, target = divmod(rest, _TILE_CODES)
    seat, code = divmod(rest, _TILE_CODES)
    tile, taken = Tile.from_code(code), Tile.from_code(target)
    tiles = (tile, taken, taken, taken) if piled else (tile, taken)
    return Event(EventKind.CAPTURE, seat=seat, tile=tile, target=taken, tiles=tiles)


@functools.cache
def _revealed(key: int) -> Event:
    """[TU-6] ``Event(REVEAL, seat, tile)``: the drawn tile shown to all; by ``seat *
    _TILE_CODES + code``."""
    seat, code = divmod(key, _TILE_CODES)
    return Event(EventKind.REVEAL, seat=seat, tile=Tile.from_code(code))


@functools.cache
def _passed_to_lake(key: int) -> tuple[Event, Event, Event]:
    """[TU-5] [TU-6] the events of a pass whose drawn tile joins the lake, by the key of
    :func:`_revealed`."""
    seat, code = divmod(key, _TILE_CODES)
    return (
        _PASSED[seat],
        _revealed(key),
        Event(EventKind.TO_LAKE, seat=seat, tile=Tile.from_code(code)),
    )


#: [TU-5] per seat, its ``PASS``.
_PASSED = tuple(Event(EventKind.PASS, seat=seat) for seat in range(max(STACKS_PER_PLAYER)))


def _take(
    read: LakeRead,
    piles: tuple[Tile, ...],
    catches: tuple[tuple[Tile, ...], ...],
    seat: int,
    code: int,
    target: int,
) -> tuple[LakeRead, tuple[Tile, ...], tuple[tuple[Tile, ...], ...], Event]:
    """``seat`` takes the tile of code ``target`` with the tile of code ``code``: the lake,
    the piles and the catches after it, and its event."""
    key = ((seat * _TILE_CODES + code) * _TILE_CODES + target) * 2
    i = _pile_at(piles, target) if code == target and piles else -1
    if i >= 0:
        # [TU-7] the fourth tile takes all three
        piles = piles[:i] + piles[i + 1 :]
        event = _caught(key + 1)
    else:
        lake, codes, bits = read
        i = bisect_left(codes, target)
        codes = codes[:i] + codes[i + 1 :]
        if i == len(codes) or codes[i] != target:
            bits ^= 1 << target  # the last copy single in the lake
        read = lake[:i] + lake[i + 1 :], codes, bits
        event = _caught(key)
    caught = catches[seat] + event.tiles
    return read, piles, (*catches[:seat], caught, *catches[seat + 1 :]), event


# members read on every move, as module constants (an Enum's class attribute is a slow
# lookup)
_EXHAUSTED = HandEnd.WOODPILE_EXHAUSTED
_CAPTURE, _CAPTURE_DRAWN, _PILE, _PASS = (
    MoveKind.CAPTURE,
    MoveKind.CAPTURE_DRAWN,
    MoveKind.PILE,
    MoveKind.PASS,
)


class TiuU(Ruleset[TiuUOptions, TiuUHandState]):
    id = "tiu_u"
    name = "Tiu U (fishing)"
    source = "RULES.md [TU-1]..[TU-10]; seed 002 (Tiu u), with Culin's account"
    description = (
        "Fishing with two Chinese sets: mate a hand tile with a lake tile of equal pips "
        "([2-1] with [4-2]), then draw and mate or add to the lake; pile three alike for "
        "the fourth; big fish score 2 per pip, small fish their red pips."
    )
    options_type = TiuUOptions
    hand_state_type = TiuUHandState
    table_type = TiuUTable
    hand_ends = frozenset({HandEnd.WOODPILE_EXHAUSTED})
    settles_hands = True

    def full_set(self, options: TiuUOptions) -> tuple[Tile, ...]:
        return two_chinese_sets()  # [TU-1]

    def max_players(self, options: TiuUOptions) -> int:
        return max(STACKS_PER_PLAYER)

    # ---- the deal ----------------------------------------------------------------

    def deal_from(
        self, match: Match[TiuUOptions, Any], hand_number: int, order: tuple[Tile, ...]
    ) -> tuple[TiuUHandState, tuple[Event, ...]]:
        """Deal hand ``hand_number`` from the shuffled ``order`` (see the module docstring)."""
        players = match.players
        size = STACK * STACKS_PER_PLAYER[players]
        top = len(order)
        # [TU-2] the lake is the first four stacks; hands come from the other end
        lake = sorted_tiles(order[: STACK * LAKE_STACKS])
        hands = tuple(
            [sorted_tiles(order[top - size * (s + 1) : top - size * s]) for s in range(players)]
        )
        woodpile = tuple(reversed(order[STACK * LAKE_STACKS : top - size * players]))
        # [TU-5] seat 0 leads the first hand; each later hand starts one seat on
        leader = (hand_number - 1) % players
        events = [Event(EventKind.DEAL, count=size)]
        catches: list[tuple[Tile, ...]] = []
        laid_hands: list[tuple[Tile, ...]] = []
        for seat, tiles in enumerate(hands):
            caught: tuple[Tile, ...] = ()
            # [TU-4] a pair of [6-6] is laid out at once; four make two pairs
            while tiles.count(SIX_SIX) >= 2:
                tiles = remove_tile(remove_tile(tiles, SIX_SIX), SIX_SIX)
                caught += (SIX_SIX, SIX_SIX)
                events.append(Event(EventKind.PAIR_LAID, seat=seat, tiles=(SIX_SIX, SIX_SIX)))
            catches.append(caught)
            laid_hands.append(tiles)
        events.append(Event(EventKind.LEADER, seat=leader))
        state = _state(tuple(laid_hands), woodpile, lake, (), tuple(catches), leader, leader, None)
        return state, tuple(events)

    # ---- play --------------------------------------------------------------------

    def stock(self, state: TiuUHandState) -> int:
        return len(state.woodpile)

    def all_tiles(self, state: TiuUHandState) -> tuple[Tile, ...]:
        drawn = (state.drawn,) if state.drawn is not None else ()
        return (
            held_tiles(state)
            + state.lake
            + tuple([t for t in state.piles for _ in range(3)])
            + tuple([t for caught in state.catches for t in caught])
            + state.woodpile
            + drawn
        )

    def can_pile(self, state: TiuUHandState, tile: Tile) -> bool:
        """[TU-7] ``tile`` (held by the seat to act) may pile with two identical lake tiles:
        exactly two lie in the lake and no catch holds a copy, so the fourth is unseen."""
        code = tile.code
        return (
            any(t.code == code for t in state.hands[state.to_act])
            and sum(1 for t in state.lake if t.code == code) == 2
            and not any(t.code == code for caught in state.catches for t in caught)
        )

    def hand_legal_moves(self, state: TiuUHandState, options: TiuUOptions) -> tuple[Move, ...]:
        seat = state.to_act
        hand = state.hands[seat]
        drawn = state.drawn
        if drawn is None and not hand:
            return _ONLY_PASSING[seat]  # [TU-5] nothing to mate with
        read = _read_lake(state.lake)
        bits = read[2]
        piles = state.piles
        if drawn is not None:
            # [TU-6] the drawn tile must capture; the player chooses what
            code = drawn.code
            found = _found(bits, piles, code)
            first = (seat * _TILE_CODES + code) * _TILE_CODES
            return tuple(
                [
                    _capture_drawn(first + target)
                    for target in _MATCHING[code]
                    if found >> target & 1
                ]
            )
        piled = 0
        for t in piles:
            piled |= 1 << t.code
        for tile in hand:
            if bits & _MATCH_BITS[tile.code] or piled >> tile.code & 1:
                break
        else:
            return _ONLY_PASSING[seat]  # [TU-5] nothing to capture, so nothing to pile
        own = distinct(hand)
        moves: list[Move] = []
        key = seat * _TILE_CODES
        pairs = False
        for tile in own:
            code = tile.code
            # [TU-5] [TU-3] capture a matching single lake tile; [TU-7] a pile is taken
            # only by its fourth, identical tile
            found = bits & _MATCH_BITS[code] | piled & 1 << code
            if found:
                first = (key + code) * _TILE_CODES
                for target in _MATCHING[code]:
                    if found >> target & 1:
                        moves.append(_capture(first + target))
                if bits >> code & 1:
                    pairs = True
        if pairs:
            codes = read[1]
            caught: set[int] | None = None
            for tile in own:
                # [TU-7] exactly two identical tiles single in the lake and no copy caught
                code = tile.code
                if bits >> code & 1 and codes.count(code) == 2:
                    if caught is None:
                        caught = {t.code for tiles in state.catches for t in tiles}
                    if code not in caught:
                        moves.append(_PILING[seat][code])
        # [TU-5] a player who can mate must; may_decline makes passing always legal
        if not moves or options.may_decline:
            moves.append(_PASSING[seat])
        return tuple(moves)

    def hand_apply(
        self, match: Match[TiuUOptions, TiuUHandState], move: Move
    ) -> tuple[TiuUHandState, tuple[Event, ...]]:
        state, seat, kind = match.hand_state, move.seat, move.kind
        hands, woodpile, piles, catches = state.hands, state.woodpile, state.piles, state.catches
        read = _read_lake(state.lake)
        if kind is _PASS:
            event = _PASSED[seat]
        elif kind is _CAPTURE or kind is _CAPTURE_DRAWN:
            assert move.tile is not None and move.target is not None
            tile = move.tile
            read, piles, catches, event = _take(
                read, piles, catches, seat, tile.code, move.target.code
            )
            if kind is _CAPTURE:
                hands = (*hands[:seat], remove_tile(hands[seat], tile), *hands[seat + 1 :])
            else:
                # [TU-6] the drawn tile's capture ends the turn
                woodpile = ()
        else:  # PILE
            assert move.tile is not None
            tile = move.tile
            code = tile.code
            # [TU-7] the hand tile and the two lake tiles, the only ones of their kind
            # there, become one pile
            lake, codes, bits = read
            i = bisect_left(codes, code)
            read = lake[:i] + lake[i + 2 :], codes[:i] + codes[i + 2 :], bits & ~(1 << code)
            hands = (*hands[:seat], remove_tile(hands[seat], tile), *hands[seat + 1 :])
            piles = insert_tile(piles, tile)
            event = Event(EventKind.PILE, seat=seat, tile=tile, tiles=(tile, tile, tile))
        following = seat + 1 if seat + 1 < match.players else 0
        if not woodpile:
            woodpile = state.woodpile
            return _state(
                hands, woodpile, read[0], piles, catches, following, state.leader, None
            ), (event,)
        # the draw step, in the same turn: [TU-6] the top woodpile tile is shown to all,
        # and takes what it matches
        drawn = woodpile[0]
        code = drawn.code
        key = seat * _TILE_CODES + code
        found = read[2] & _MATCH_BITS[code]
        if piles and _pile_at(piles, code) >= 0:
            found |= 1 << code
        events: tuple[Event, ...]
        if not found:
            # nothing: it joins the lake
            lake, codes, bits = read
            i = bisect_right(codes, code)
            read = (*lake[:i], drawn, *lake[i:]), (*codes[:i], code, *codes[i:]), bits | 1 << code
            events = _passed_to_lake(key)
            if kind is not _PASS:
                events = (event, *events[1:])
        elif not found & (found - 1):
            # one thing: it is taken at once
            read, piles, catches, taken = _take(
                read, piles, catches, seat, code, found.bit_length() - 1
            )
            events = (event, _revealed(key), taken)
        else:
            # a choice of different things: the same seat chooses with CAPTURE_DRAWN
            targets = tuple([Tile.from_code(c) for c in _MATCHING[code] if found >> c & 1])
            choice = Event(EventKind.CHOICE, seat=seat, tile=drawn, tiles=targets)
            state = _state(hands, woodpile[1:], read[0], piles, catches, seat, state.leader, drawn)
            return state, (event, _revealed(key), choice)
        return _state(
            hands, woodpile[1:], read[0], piles, catches, following, state.leader, None
        ), events

    def hand_over(self, state: TiuUHandState) -> bool:
        # [TU-8] the woodpile is exhausted and the last draw resolved
        return not state.woodpile and state.drawn is None

    # ---- scoring -----------------------------------------------------------------

    def counts(self, state: TiuUHandState, options: TiuUOptions) -> tuple[int, ...]:
        """[TU-9] each seat's count; [TU-8] hands, lake and piles score for no one."""
        red_sixes = options.red_sixes
        return tuple([catch_count(caught, red_sixes) for caught in state.catches])

    def score_hand(self, match: Match[TiuUOptions, TiuUHandState]) -> HandResult:
        counts = self.counts(match.hand_state, match.options)
        best = max(counts)
        winners = tuple([seat for seat, count in enumerate(counts) if count == best])
        # [TU-10] each highest count collects the difference from every lower player;
        # equal highest counts pay each other nothing
        collected = best * len(counts) - sum(counts)
        paid = len(winners)
        settlement = tuple([collected if c == best else (c - best) * paid for c in counts])
        # [TU-8] the hand ends when the woodpile is exhausted
        return hand_result(counts, counts, winners, _EXHAUSTED, settlement)

    def explain_hand(
        self, match: Match[TiuUOptions, TiuUHandState], number: int, before: tuple[int, ...]
    ) -> str:
        # [TU-8] the end; [TU-9] the counts; [TU-10] the highest count collects
        result = match.history[number - 1]
        counts, winners, settlement = result.counts, result.winners, result.settlement
        best = max(counts)
        if winners != tuple([seat for seat, count in enumerate(counts) if count == best]):
            # not a result these rules give (a state from outside): the facts
            return super().explain_hand(match, number, before)
        if len(winners) == match.players:
            every = "both" if len(winners) == 2 else "all"
            decided = (
                f"the catches of {seats_text(winners)} {every} count {best}, so nobody pays "
                f"anybody [TU-10]"
            )
        elif len(winners) == 1:
            (seat,) = winners
            decided = (
                f"seat {seat}'s catch counts the most, {best}, and seat {seat} collects the "
                f"difference from each other seat, {settlement[seat]} in all [TU-10]"
            )
        else:
            decided = (
                f"{seats_text(winners)} tie for the highest count, {best} each: each collects "
                f"the difference from every lower seat, {settlement[winners[0]]} in all, and "
                f"they pay each other nothing [TU-10]"
            )
        return (
            f"The woodpile is exhausted [TU-8]: {decided}. Catch counts [TU-9]: "
            f"{points_text(counts)}."
        )

    def max_hands(self, options: TiuUOptions, players: int) -> int:
        return options.hands  # [TU-10]

    def match_over(self, match: Match[TiuUOptions, TiuUHandState]) -> bool:
        # [TU-10] a match of `hands` hands
        return len(match.history) >= match.options.hands

    def settlement(self, match: Match[TiuUOptions, TiuUHandState]) -> tuple[int, ...] | None:
        # [TU-10] each hand's settlement adds up
        totals = [0] * match.players
        for result in match.history:
            for seat, net in enumerate(result.settlement):
                totals[seat] += net
        return tuple(totals)

    def table(self, match: Match[TiuUOptions, TiuUHandState], seat: int | None) -> TiuUTable:
        state = match.hand_state
        return TiuUTable(
            lake=state.lake,
            piles=state.piles,
            catches=tuple(Catch(caught) for caught in state.catches),
            catch_counts=self.counts(state, match.options),
            drawn=state.drawn,
            leader=state.leader,
        )

    # ---- the check of a state from outside ------------------------------------------

    def check_hand_state(self, match: Match[TiuUOptions, TiuUHandState]) -> None:
        state, players = match.hand_state, match.players
        full = len(self.full_set(match.options))
        size = STACK * STACKS_PER_PLAYER[players]
        # [TU-2] hands and the woodpile only shrink from what the deal gave them
        for seat, tiles in enumerate(state.hands):
            if len(tiles) > size:
                check_length(tiles, 0, size, f"seat {seat}'s hand")
            # [TU-4] a pair of [6-6] is laid out at the deal
            pair = False
            for t in tiles:
                if t.code == _SIX_SIX:
                    if pair:
                        fail(f"seat {seat} holds a pair of [6-6]")
                    pair = True
        dealt_woodpile = full - STACK * LAKE_STACKS - size * players
        check_length(state.woodpile, 0, dealt_woodpile, "the woodpile")
        check_length(state.lake, 0, full, "the lake")
        check_sorted(state.lake, "the lake")
        check_length(state.piles, 0, full // 3, "the piles")
        check_sorted(state.piles, "the piles")
        # [TU-7] a pile holds three of the four copies: one pile of a tile, none single
        piled = {t.code for t in state.piles}
        require(len(piled) == len(state.piles), "two piles of one tile")
        if piled and any(t.code in piled for t in state.lake):
            fail("a piled tile lies single in the lake")
        check_length(state.catches, players, players, "catches")
        for seat, caught in enumerate(state.catches):
            if len(caught) > full:
                check_length(caught, 0, full, f"seat {seat}'s catch")
            # [TU-3] [TU-4] [TU-7] a catch is made of matching pairs
            if len(caught) % 2 or not _pairs_match(caught):
                fail(f"seat {seat}'s catch is not a sequence of matching pairs")
        # [TU-5] hand h is led by seat (h - 1) % players; [TU-6] one draw a turn
        require(
            state.leader == (match.hand_number - 1) % players,
            "the leader is not the seat that leads this hand",
        )
        waiting = 1 if state.drawn is not None else 0
        turns = dealt_woodpile - len(state.woodpile) - waiting
        require(turns >= 0, "a drawn tile waits before any tile was drawn")
        require(
            state.to_act == (state.leader + turns) % players,
            "to_act is not the seat whose turn it is",
        )
        if state.drawn is not None:
            # [TU-6] a drawn tile waits only for a choice of two or more
            require(
                len(_drawn_options(state, state.drawn)) >= 2,
                "a drawn tile waits without a choice to make",
            )
