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
  before the first ends).
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from . import rng
from .base import (
    Event,
    EventKind,
    HandResult,
    Match,
    Move,
    MoveKind,
    Ruleset,
    next_seat,
    option,
    replace_at,
)
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


def _drawn_options(hand: TiuUHandState, tile: Tile) -> tuple[Tile, ...]:
    """[TU-6] [TU-7] the distinct things a drawn tile can take: matching single lake
    tiles, and the pile of its own kind (it is the fourth copy)."""
    targets = {t for t in hand.lake if matches(tile, t)}
    if tile in hand.piles:
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

    def full_set(self, options: TiuUOptions) -> tuple[Tile, ...]:
        return two_chinese_sets()  # [TU-1]

    def max_players(self, options: TiuUOptions) -> int:
        return max(STACKS_PER_PLAYER)

    # ---- the deal ----------------------------------------------------------------

    def deal(
        self, match: Match[TiuUOptions, Any], hand_number: int
    ) -> tuple[TiuUHandState, tuple[Event, ...]]:
        order = rng.shuffled(match.seed, f"deal/{hand_number}/0", two_chinese_sets())
        return self.deal_from(order, match.players, hand_number)

    def deal_from(
        self, order: tuple[Tile, ...], players: int, hand_number: int
    ) -> tuple[TiuUHandState, tuple[Event, ...]]:
        """Deal hand ``hand_number`` from the shuffled ``order`` (see the module docstring)."""
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
        hand = TiuUHandState(
            hands=tuple(laid_hands),
            woodpile=woodpile,
            lake=lake,
            piles=(),
            catches=tuple(catches),
            to_act=leader,
            leader=leader,
        )
        return hand, tuple(events)

    # ---- play --------------------------------------------------------------------

    def hand_to_act(self, hand: TiuUHandState) -> int:
        return hand.to_act

    def hand_tiles(self, hand: TiuUHandState, seat: int) -> tuple[Tile, ...]:
        return hand.hands[seat]

    def stock(self, hand: TiuUHandState) -> int:
        return len(hand.woodpile)

    def all_tiles(self, hand: TiuUHandState) -> tuple[Tile, ...]:
        drawn = (hand.drawn,) if hand.drawn is not None else ()
        return (
            sum(hand.hands, ())
            + hand.lake
            + tuple(t for t in hand.piles for _ in range(3))
            + sum(hand.catches, ())
            + hand.woodpile
            + drawn
        )

    def can_pile(self, hand: TiuUHandState, tile: Tile) -> bool:
        """[TU-7] ``tile`` (held by the seat to act) may pile with two identical lake tiles:
        exactly two lie in the lake and no catch holds a copy, so the fourth is unseen."""
        return (
            tile in hand.hands[hand.to_act]
            and hand.lake.count(tile) == 2
            and not any(tile in caught for caught in hand.catches)
        )

    def hand_legal_moves(self, hand: TiuUHandState, options: TiuUOptions) -> tuple[Move, ...]:
        seat = hand.to_act
        if hand.drawn is not None:
            # [TU-6] the drawn tile must capture; the player chooses what
            return tuple(
                Move(seat, MoveKind.CAPTURE_DRAWN, hand.drawn, target)
                for target in _drawn_options(hand, hand.drawn)
            )
        own = sorted(set(hand.hands[seat]))
        moves: list[Move] = []
        for tile in own:
            # [TU-5] [TU-3] capture a matching single lake tile
            targets = {t for t in hand.lake if matches(tile, t)}
            # [TU-7] a pile is taken only by its fourth, identical tile
            if tile in hand.piles:
                targets.add(tile)
            moves.extend(Move(seat, MoveKind.CAPTURE, tile, target) for target in sorted(targets))
        moves.extend(Move(seat, MoveKind.PILE, tile) for tile in own if self.can_pile(hand, tile))
        # [TU-5] a player who can mate must; may_decline makes passing always legal
        if not moves or options.may_decline:
            moves.append(Move(seat, MoveKind.PASS))
        return tuple(moves)

    def hand_apply(
        self, match: Match[TiuUOptions, TiuUHandState], move: Move
    ) -> tuple[TiuUHandState, tuple[Event, ...]]:
        hand, seat = match.hand_state, move.seat
        events: list[Event] = []
        if move.kind is MoveKind.CAPTURE_DRAWN:
            assert move.tile is not None and move.target is not None
            hand = dataclasses.replace(hand, drawn=None)
            hand = self._capture(hand, seat, move.tile, move.target, events, from_hand=False)
            return self._end_turn(hand, seat, match.players), tuple(events)
        # the hand step
        if move.kind is MoveKind.CAPTURE:
            assert move.tile is not None and move.target is not None
            hand = self._capture(hand, seat, move.tile, move.target, events, from_hand=True)
        elif move.kind is MoveKind.PILE:
            assert move.tile is not None
            tile = move.tile
            # [TU-7] the hand tile and the two lake tiles become one pile
            lake = remove_tile(remove_tile(hand.lake, tile), tile)
            hand = dataclasses.replace(
                hand,
                hands=replace_at(hand.hands, seat, remove_tile(hand.hands[seat], tile)),
                lake=lake,
                piles=tuple(sorted((*hand.piles, tile))),
            )
            events.append(Event(EventKind.PILE, seat=seat, tile=tile, tiles=(tile, tile, tile)))
        else:  # PASS
            events.append(Event(EventKind.PASS, seat=seat))
        # the draw step, in the same turn
        if not hand.woodpile:
            return self._end_turn(hand, seat, match.players), tuple(events)
        drawn, woodpile = hand.woodpile[0], hand.woodpile[1:]
        hand = dataclasses.replace(hand, woodpile=woodpile)
        # [TU-6] the top woodpile tile is shown to all
        events.append(Event(EventKind.REVEAL, seat=seat, tile=drawn))
        options = _drawn_options(hand, drawn)
        if not options:
            hand = dataclasses.replace(hand, lake=tuple(sorted((*hand.lake, drawn))))
            events.append(Event(EventKind.TO_LAKE, seat=seat, tile=drawn))
        elif len(options) == 1:
            hand = self._capture(hand, seat, drawn, options[0], events, from_hand=False)
        else:
            # [TU-6] a choice of different tiles: the same seat chooses with CAPTURE_DRAWN
            events.append(Event(EventKind.CHOICE, seat=seat, tile=drawn, tiles=options))
            return dataclasses.replace(hand, drawn=drawn), tuple(events)
        return self._end_turn(hand, seat, match.players), tuple(events)

    def _capture(
        self,
        hand: TiuUHandState,
        seat: int,
        tile: Tile,
        target: Tile,
        events: list[Event],
        *,
        from_hand: bool,
    ) -> TiuUHandState:
        hands = hand.hands
        if from_hand:
            hands = replace_at(hands, seat, remove_tile(hands[seat], tile))
        if target in hand.piles and tile == target:
            # [TU-7] the fourth tile takes all three
            piles = remove_tile(hand.piles, target)
            lake = hand.lake
            taken: tuple[Tile, ...] = (target, target, target)
        else:
            piles = hand.piles
            lake = remove_tile(hand.lake, target)
            taken = (target,)
        caught = (tile, *taken)
        events.append(Event(EventKind.CAPTURE, seat=seat, tile=tile, target=target, tiles=caught))
        return dataclasses.replace(
            hand,
            hands=hands,
            lake=lake,
            piles=piles,
            catches=replace_at(hand.catches, seat, hand.catches[seat] + caught),
        )

    def _end_turn(self, hand: TiuUHandState, seat: int, players: int) -> TiuUHandState:
        return dataclasses.replace(hand, to_act=next_seat(seat, players))

    def hand_over(self, hand: TiuUHandState) -> bool:
        # [TU-8] the woodpile is exhausted and the last draw resolved
        return not hand.woodpile and hand.drawn is None

    # ---- scoring -----------------------------------------------------------------

    def counts(self, hand: TiuUHandState, options: TiuUOptions) -> tuple[int, ...]:
        """[TU-9] each seat's count; [TU-8] hands, lake and piles score for no one."""
        return tuple(catch_count(caught, options.red_sixes) for caught in hand.catches)

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
        return HandResult(
            counts=counts, points=counts, winners=winners, settlement=tuple(settlement)
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
        hand = match.hand_state
        return TiuUTable(
            lake=hand.lake,
            piles=hand.piles,
            catches=tuple(Catch(caught) for caught in hand.catches),
            catch_counts=self.counts(hand, match.options),
            drawn=hand.drawn,
            leader=hand.leader,
        )


register(TiuU())
