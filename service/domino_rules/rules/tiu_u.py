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

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from .base import (
    Event,
    EventKind,
    HandEnd,
    HandResult,
    Match,
    Move,
    MoveKind,
    Ruleset,
    held_tiles,
    next_seat,
    option,
    replace_at,
)
from .checks import check_length, check_sorted, require
from .registry import register
from .tiles import SUPREME_PAIR, Tile, red_pips, remove_tile, two_chinese_sets

__all__ = [
    "Catch",
    "RedSixes",
    "TiuU",
    "TiuUHandState",
    "TiuUOptions",
    "TiuUTable",
    "catch_count",
    "matches",
]

STACK = 4
LAKE_STACKS = 4
#: [TU-2] stacks each player takes, by number of players
STACKS_PER_PLAYER = {2: 3, 3: 2, 4: 1}
#: [TU-9] a big fish has at least this many pips
BIG_FISH = 8
SIX_SIX = Tile(6, 6)  # the tile [6-6] (a double six is a set elsewhere)


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


@dataclass(frozen=True, slots=True)
class TiuUHandState:
    hands: tuple[tuple[Tile, ...], ...]
    woodpile: tuple[Tile, ...]  # in draw order: woodpile[0] is drawn next
    lake: tuple[Tile, ...]  # single lake tiles, sorted
    piles: tuple[Tile, ...]  # one entry per pile of three identical tiles, sorted
    catches: tuple[tuple[Tile, ...], ...]  # per seat, in the order taken
    to_act: int
    leader: int
    drawn: Tile | None = None  # the drawn tile while its capture is to be chosen


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
    return a.pips == b.pips or {a, b} == set(SUPREME_PAIR)


def catch_count(tiles: tuple[Tile, ...], red_sixes: RedSixes = RedSixes.DOUBLE_SIX_ONLY) -> int:
    """[TU-9] big fish 2 per pip; small fish 1 per red pip, rounded up to tens.

    >>> catch_count((Tile(6, 6), Tile(4, 1), Tile(4, 3), Tile(4, 2)))
    44
    """
    all_sixes = red_sixes is RedSixes.ALL_SIXES
    big = sum(2 * t.pips for t in tiles if t.pips >= BIG_FISH)
    small = sum(red_pips(t, all_sixes=all_sixes) for t in tiles if t.pips < BIG_FISH)
    return big + -(-small // 10) * 10


def _drawn_options(state: TiuUHandState, tile: Tile) -> tuple[Tile, ...]:
    """[TU-6] [TU-7] the distinct things a drawn tile can take: matching single lake
    tiles, and the pile of its own kind (it is the fourth copy)."""
    targets = {t for t in state.lake if matches(tile, t)}
    if tile in state.piles:
        targets.add(tile)
    return tuple(sorted(targets))


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
        lake = tuple(sorted(order[: STACK * LAKE_STACKS]))
        hands = tuple(
            tuple(sorted(order[top - size * (s + 1) : top - size * s])) for s in range(players)
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
        state = TiuUHandState(
            hands=tuple(laid_hands),
            woodpile=woodpile,
            lake=lake,
            piles=(),
            catches=tuple(catches),
            to_act=leader,
            leader=leader,
        )
        return state, tuple(events)

    # ---- play --------------------------------------------------------------------

    def stock(self, state: TiuUHandState) -> int:
        return len(state.woodpile)

    def all_tiles(self, state: TiuUHandState) -> tuple[Tile, ...]:
        drawn = (state.drawn,) if state.drawn is not None else ()
        return (
            held_tiles(state)
            + state.lake
            + tuple(t for t in state.piles for _ in range(3))
            + tuple(t for caught in state.catches for t in caught)
            + state.woodpile
            + drawn
        )

    def can_pile(self, state: TiuUHandState, tile: Tile) -> bool:
        """[TU-7] ``tile`` (held by the seat to act) may pile with two identical lake tiles:
        exactly two lie in the lake and no catch holds a copy, so the fourth is unseen."""
        return (
            tile in state.hands[state.to_act]
            and state.lake.count(tile) == 2
            and not any(tile in caught for caught in state.catches)
        )

    def hand_legal_moves(self, state: TiuUHandState, options: TiuUOptions) -> tuple[Move, ...]:
        seat = state.to_act
        if state.drawn is not None:
            # [TU-6] the drawn tile must capture; the player chooses what
            return tuple(
                Move(seat, MoveKind.CAPTURE_DRAWN, state.drawn, target)
                for target in _drawn_options(state, state.drawn)
            )
        own = sorted(set(state.hands[seat]))
        moves: list[Move] = []
        for tile in own:
            # [TU-5] [TU-3] capture a matching single lake tile
            targets = {t for t in state.lake if matches(tile, t)}
            # [TU-7] a pile is taken only by its fourth, identical tile
            if tile in state.piles:
                targets.add(tile)
            moves.extend(Move(seat, MoveKind.CAPTURE, tile, target) for target in sorted(targets))
        moves.extend(Move(seat, MoveKind.PILE, tile) for tile in own if self.can_pile(state, tile))
        # [TU-5] a player who can mate must; may_decline makes passing always legal
        if not moves or options.may_decline:
            moves.append(Move(seat, MoveKind.PASS))
        return tuple(moves)

    def hand_apply(
        self, match: Match[TiuUOptions, TiuUHandState], move: Move
    ) -> tuple[TiuUHandState, tuple[Event, ...]]:
        state, seat = match.hand_state, move.seat
        events: list[Event] = []
        if move.kind is MoveKind.CAPTURE_DRAWN:
            assert move.tile is not None and move.target is not None
            state = dataclasses.replace(state, drawn=None)
            state = self._capture(state, seat, move.tile, move.target, events, from_hand=False)
            return self._end_turn(state, seat, match.players), tuple(events)
        # the hand step
        if move.kind is MoveKind.CAPTURE:
            assert move.tile is not None and move.target is not None
            state = self._capture(state, seat, move.tile, move.target, events, from_hand=True)
        elif move.kind is MoveKind.PILE:
            assert move.tile is not None
            tile = move.tile
            # [TU-7] the hand tile and the two lake tiles become one pile
            lake = remove_tile(remove_tile(state.lake, tile), tile)
            state = dataclasses.replace(
                state,
                hands=replace_at(state.hands, seat, remove_tile(state.hands[seat], tile)),
                lake=lake,
                piles=tuple(sorted((*state.piles, tile))),
            )
            events.append(Event(EventKind.PILE, seat=seat, tile=tile, tiles=(tile, tile, tile)))
        else:  # PASS
            events.append(Event(EventKind.PASS, seat=seat))
        # the draw step, in the same turn
        if not state.woodpile:
            return self._end_turn(state, seat, match.players), tuple(events)
        drawn, woodpile = state.woodpile[0], state.woodpile[1:]
        state = dataclasses.replace(state, woodpile=woodpile)
        # [TU-6] the top woodpile tile is shown to all
        events.append(Event(EventKind.REVEAL, seat=seat, tile=drawn))
        options = _drawn_options(state, drawn)
        if not options:
            state = dataclasses.replace(state, lake=tuple(sorted((*state.lake, drawn))))
            events.append(Event(EventKind.TO_LAKE, seat=seat, tile=drawn))
        elif len(options) == 1:
            state = self._capture(state, seat, drawn, options[0], events, from_hand=False)
        else:
            # [TU-6] a choice of different tiles: the same seat chooses with CAPTURE_DRAWN
            events.append(Event(EventKind.CHOICE, seat=seat, tile=drawn, tiles=options))
            return dataclasses.replace(state, drawn=drawn), tuple(events)
        return self._end_turn(state, seat, match.players), tuple(events)

    def _capture(
        self,
        state: TiuUHandState,
        seat: int,
        tile: Tile,
        target: Tile,
        events: list[Event],
        *,
        from_hand: bool,
    ) -> TiuUHandState:
        hands = state.hands
        if from_hand:
            hands = replace_at(hands, seat, remove_tile(hands[seat], tile))
        if target in state.piles and tile == target:
            # [TU-7] the fourth tile takes all three
            piles = remove_tile(state.piles, target)
            lake = state.lake
            taken: tuple[Tile, ...] = (target, target, target)
        else:
            piles = state.piles
            lake = remove_tile(state.lake, target)
            taken = (target,)
        caught = (tile, *taken)
        events.append(Event(EventKind.CAPTURE, seat=seat, tile=tile, target=target, tiles=caught))
        return dataclasses.replace(
            state,
            hands=hands,
            lake=lake,
            piles=piles,
            catches=replace_at(state.catches, seat, state.catches[seat] + caught),
        )

    def _end_turn(self, state: TiuUHandState, seat: int, players: int) -> TiuUHandState:
        return dataclasses.replace(state, to_act=next_seat(seat, players))

    def hand_over(self, state: TiuUHandState) -> bool:
        # [TU-8] the woodpile is exhausted and the last draw resolved
        return not state.woodpile and state.drawn is None

    # ---- scoring -----------------------------------------------------------------

    def counts(self, state: TiuUHandState, options: TiuUOptions) -> tuple[int, ...]:
        """[TU-9] each seat's count; [TU-8] hands, lake and piles score for no one."""
        return tuple(catch_count(caught, options.red_sixes) for caught in state.catches)

    def score_hand(self, match: Match[TiuUOptions, TiuUHandState]) -> HandResult:
        counts = self.counts(match.hand_state, match.options)
        best = max(counts)
        winners = tuple(s for s, c in enumerate(counts) if c == best)
        # [TU-10] each highest count collects the difference from every lower player;
        # equal highest counts pay each other nothing
        settlement = [0] * match.players
        for seat, count in enumerate(counts):
            if seat in winners:
                settlement[seat] = sum(best - c for c in counts)
            else:
                settlement[seat] = -(best - count) * len(winners)
        # [TU-8] the hand ends when the woodpile is exhausted
        return HandResult(
            counts=counts,
            points=counts,
            winners=winners,
            end=HandEnd.WOODPILE_EXHAUSTED,
            settlement=tuple(settlement),
        )

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
            check_length(tiles, 0, size, f"seat {seat}'s hand")
            # [TU-4] a pair of [6-6] is laid out at the deal
            require(tiles.count(SIX_SIX) <= 1, f"seat {seat} holds a pair of [6-6]")
        dealt_woodpile = full - STACK * LAKE_STACKS - size * players
        check_length(state.woodpile, 0, dealt_woodpile, "the woodpile")
        check_length(state.lake, 0, full, "the lake")
        check_sorted(state.lake, "the lake")
        check_length(state.piles, 0, full // 3, "the piles")
        check_sorted(state.piles, "the piles")
        # [TU-7] a pile holds three of the four copies: one pile of a tile, none single
        require(len(set(state.piles)) == len(state.piles), "two piles of one tile")
        require(not set(state.piles) & set(state.lake), "a piled tile lies single in the lake")
        check_length(state.catches, players, players, "catches")
        for seat, caught in enumerate(state.catches):
            check_length(caught, 0, full, f"seat {seat}'s catch")
            # [TU-3] [TU-4] [TU-7] a catch is made of matching pairs
            require(
                len(caught) % 2 == 0
                and all(matches(a, b) for a, b in zip(caught[::2], caught[1::2], strict=True)),
                f"seat {seat}'s catch is not a sequence of matching pairs",
            )
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


register(TiuU())
