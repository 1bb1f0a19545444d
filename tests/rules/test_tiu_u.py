"""Tiu U: one scripted test per rule tag [TU-1]..[TU-10], then random full matches."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domino_rules.bots.playout import Step, play_out
from domino_rules.games.tiu_u.rules import (
    Catch,
    RedSixes,
    TiuU,
    TiuUHandState,
    TiuUOptions,
    TiuUTable,
)
from domino_rules.rules import registry, rng
from domino_rules.rules.errors import IllegalMoveError, PlayerCountError
from domino_rules.rules.events import Event, EventKind
from domino_rules.rules.match import HandEnd, HandResult, Match, Status
from domino_rules.rules.moves import Move, MoveKind
from domino_rules.rules.tiles import CIVIL, MILITARY, Tile, two_chinese_sets

from . import positions
from .positions import dealt, order_of, tiles
from .positions import tile as T

RULES = registry.get("tiu_u")
assert isinstance(RULES, TiuU)
TU = Match[TiuUOptions, TiuUHandState]

CAPTURE, CAPTURE_DRAWN, PILE, PASS = (
    MoveKind.CAPTURE,
    MoveKind.CAPTURE_DRAWN,
    MoveKind.PILE,
    MoveKind.PASS,
)


def mv(seat: int, kind: MoveKind, tile: str | None = None, target: str | None = None) -> Move:
    return Move(seat, kind, T(tile) if tile else None, T(target) if target else None)


def kinds(events: tuple[Event, ...]) -> list[EventKind]:
    return [e.kind for e in events]


def position(
    hands: list[str],
    lake: str,
    woodpile: str,
    *,
    catches: list[str] | None = None,
    piles: str = "",
    to_act: int = 0,
    drawn: str | None = None,
    leader: int = 0,
    options: TiuUOptions | None = None,
    hand_number: int = 1,
    history: tuple[HandResult, ...] = (),
    seed: str = positions.SEED,
) -> TU:
    """A Tiu U position: the woodpile in draw order, catches in the order taken."""
    state = TiuUHandState(
        hands=tuple(positions.hand(h) for h in hands),
        woodpile=positions.tiles(woodpile),
        lake=positions.hand(lake),
        piles=positions.hand(piles),
        catches=tuple(positions.tiles(c) for c in catches) if catches else ((),) * len(hands),
        to_act=to_act,
        leader=leader,
        drawn=positions.tile(drawn) if drawn else None,
    )
    return positions.match_of(
        RULES,
        state,
        options=options or TiuUOptions(),
        seed=seed,
        hand_number=hand_number,
        history=history,
    )


def assert_illegal(match: TU, move: Move) -> None:
    before = repr(match)
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, move)
    assert repr(match) == before


def order_with(placed: dict[int, Tile]) -> tuple[Tile, ...]:
    """A 64-tile order with ``placed`` tiles at given indices, the rest ascending."""
    return order_of(two_chinese_sets(), placed=placed)


def deal(order: tuple[Tile, ...], players: int) -> tuple[TiuUHandState, tuple[Event, ...]]:
    """Hand 1 dealt from the exact ``order`` (``deal_from``): its state and events."""
    match = dealt(RULES, players, order, options=TiuUOptions())
    return match.hand_state, match.last_events


# --------------------------------------------------------------------------- [TU-1]


def test_tu1_two_chinese_sets_of_64_tiles() -> None:
    """[TU-1] 64 tiles: each civil tile 4 times, each military tile twice."""
    full = RULES.full_set(TiuUOptions())
    counts = Counter(full)
    assert len(full) == 64
    assert all(counts[t] == 4 for t in CIVIL)
    assert all(counts[t] == 2 for t in MILITARY)
    assert RULES.player_range(TiuUOptions()) == (2, 4)
    with pytest.raises(PlayerCountError):
        RULES.new_match(TiuUOptions(), 5, "seed")
    for players in (2, 3, 4):
        match = RULES.new_match(TiuUOptions(), players, f"tu1-{players}")
        assert sorted(RULES.all_tiles(match.hand_state)) == sorted(full)


# --------------------------------------------------------------------------- [TU-2]


@pytest.mark.parametrize("players,size,stock", [(2, 12, 24), (3, 8, 24), (4, 4, 32)])
def test_tu2_deal_lake_hands_and_woodpile(players: int, size: int, stock: int) -> None:
    """[TU-2] lake = stacks 0..3; hands from the other end; the woodpile drawn from there."""
    seed = f"tu2-{players}"
    match = RULES.new_match(TiuUOptions(), players, seed)
    order = rng.shuffled(seed, "deal/1/0", two_chinese_sets())
    state = match.hand_state
    assert state.lake == tuple(sorted(order[:16]))
    for seat in range(players):
        stacks = order[64 - size * (seat + 1) : 64 - size * seat]
        assert sorted(state.hands[seat] + state.catches[seat]) == sorted(stacks)
    assert state.woodpile == tuple(reversed(order[16 : 64 - size * players]))
    assert RULES.stock(state) == stock
    assert match.last_events[0] == Event(EventKind.DEAL, count=size)
    assert match.last_events[-1] == Event(EventKind.LEADER, seat=0)
    # the first tile drawn is the one next to the hands' end: order[64 - size * players - 1]
    after, events = RULES.apply(match, RULES.legal_moves(match)[0])
    reveal = next(e for e in events if e.kind is EventKind.REVEAL)
    assert reveal.tile == order[64 - size * players - 1]
    assert RULES.stock(after.hand_state) == stock - 1
    # a seat sees its own hand only; the lake is public
    view = RULES.view(match, 1)
    assert view.hand == state.hands[1]
    assert view.hand_sizes == tuple(len(h) for h in state.hands)
    assert view.legal_moves == ()
    assert isinstance(view.table, TiuUTable)
    assert view.table.lake == state.lake
    assert RULES.view(match, None).hand == ()


def test_tu2_deal_from_an_exact_order() -> None:
    """[TU-2] deal_from with a known order: 3 players, 2 stacks each."""
    order = tuple(reversed(two_chinese_sets()))  # the [6-6] lie in the lake
    state, events = deal(order, 3)
    assert state.lake == tuple(sorted(order[:16]))
    assert state.hands == tuple(tuple(sorted(order[i : i + 8])) for i in (56, 48, 40))
    assert state.catches == ((), (), ())
    assert kinds(events) == [EventKind.DEAL, EventKind.LEADER]
    assert state.woodpile == tuple(reversed(order[16:40]))
    assert state.woodpile[0] == order[39]


# --------------------------------------------------------------------------- [TU-3]


def test_tu3_supreme_pair_matches_across_pip_totals() -> None:
    """[TU-3] [2-1] captures [4-2] but not [5-1]; [4-2] matches every 6-pip tile and [2-1]."""
    match = position(["2-1", "6-3"], "4-2 5-1", "6-6")
    assert RULES.legal_moves(match) == (mv(0, CAPTURE, "2-1", "4-2"),)
    assert_illegal(match, mv(0, CAPTURE, "2-1", "5-1"))
    after, events = RULES.apply(match, mv(0, CAPTURE, "2-1", "4-2"))
    assert events[0] == Event(
        EventKind.CAPTURE, seat=0, tile=T("2-1"), target=T("4-2"), tiles=tiles("2-1 4-2")
    )
    assert after.hand_state.catches[0] == tiles("2-1 4-2")
    assert after.hand_state.lake == tiles("5-1 6-6")
    assert after.hand_state.hands[0] == ()

    match = position(["4-2", "6-3"], "2-1 3-3 5-1 6-3 4-1", "1-1")
    targets = [m.target for m in RULES.legal_moves(match)]
    assert targets == list(tiles("2-1 3-3 5-1"))


def test_tu3_a_capture_of_tiles_that_do_not_match_is_illegal() -> None:
    """[TU-3] equal pips or the supreme pair, nothing else."""
    match = position(["6-4 5-1", "1-1"], "5-4 5-5 3-3", "1-1")
    assert_illegal(match, mv(0, CAPTURE, "6-4", "5-4"))
    assert_illegal(match, mv(0, CAPTURE, "5-1", "5-5"))
    assert_illegal(match, mv(0, CAPTURE, "6-5", "5-5"))  # not even in hand


# --------------------------------------------------------------------------- [TU-4]


def test_tu4_a_pair_of_double_sixes_is_laid_at_the_deal() -> None:
    """[TU-4] two [6-6] go to the catch at once; a third stays in hand."""
    six = T("6-6")
    # 2 players, 12 tiles each: seat 0 holds order[52:64], seat 1 order[40:52]
    order = order_with({52: six, 60: six, 63: six, 45: six})
    state, events = deal(order, 2)
    assert state.catches == ((six, six), ())
    assert state.hands[0].count(six) == 1 and len(state.hands[0]) == 10
    assert state.hands[1].count(six) == 1 and len(state.hands[1]) == 12
    assert kinds(events) == [EventKind.DEAL, EventKind.PAIR_LAID, EventKind.LEADER]
    assert events[1] == Event(EventKind.PAIR_LAID, seat=0, tiles=(six, six))
    assert sorted(RULES.all_tiles(state)) == sorted(two_chinese_sets())


def test_tu4_four_double_sixes_make_two_pairs() -> None:
    """[TU-4] four [6-6] in one hand: two pairs, laid out; the catch counts them."""
    six = T("6-6")
    # 4 players, 4 tiles each: seat 2 holds order[52:56]
    order = order_with({52: six, 53: six, 54: six, 55: six})
    state, events = deal(order, 4)
    assert state.catches[2] == (six,) * 4
    assert state.hands[2] == ()
    assert [e.seat for e in events if e.kind is EventKind.PAIR_LAID] == [2, 2]
    match = Match(4, TiuUOptions(), "scripted", 1, state)
    assert RULES.view(match, None).table.catch_counts == (0, 0, 96, 0)


# --------------------------------------------------------------------------- [TU-5]


def test_tu5_capture_is_compulsory_one_move_per_distinct_pair() -> None:
    """[TU-5] a player who can capture must; identical lake tiles are one target."""
    match = position(["5-1 5-1 6-4", "2-2"], "3-3 3-3 5-5 2-1", "1-1 2-2")
    assert RULES.legal_moves(match) == (
        mv(0, CAPTURE, "5-1", "3-3"),
        mv(0, CAPTURE, "6-4", "5-5"),
    )
    assert_illegal(match, mv(0, PASS))
    # one move is the whole turn: hand step, then the draw step
    after, events = RULES.apply(match, mv(0, CAPTURE, "6-4", "5-5"))
    assert kinds(events) == [EventKind.CAPTURE, EventKind.REVEAL, EventKind.TO_LAKE]
    assert after.hand_state.hands[0] == tiles("5-1 5-1")
    assert after.hand_state.woodpile == tiles("2-2")
    assert RULES.to_act(after) == 1


def test_tu5_may_decline_makes_pass_always_legal() -> None:
    """[TU-5] option may_decline: PASS is legal beside the captures."""
    match = position(["5-1", "2-2"], "3-3", "1-1 2-2", options=TiuUOptions(may_decline=True))
    assert RULES.legal_moves(match) == (mv(0, CAPTURE, "5-1", "3-3"), mv(0, PASS))
    after, events = RULES.apply(match, mv(0, PASS))
    assert kinds(events) == [EventKind.PASS, EventKind.REVEAL, EventKind.TO_LAKE]
    assert after.hand_state.hands[0] == tiles("5-1")
    assert after.hand_state.lake == tiles("1-1 3-3")


def test_tu5_pass_only_when_nothing_matches_and_unmatched_tiles_stay() -> None:
    """[TU-5] no capture and no pile: PASS is the only move; the hand keeps its tiles."""
    match = position(["6-5 2-1", "2-2"], "5-5 5-1", "4-3 2-2")
    assert RULES.legal_moves(match) == (mv(0, PASS),)
    after, _ = RULES.apply(match, mv(0, PASS))
    assert after.hand_state.hands[0] == tiles("2-1 6-5")
    # an empty hand: PASS is the hand step, and the player still draws
    match = position(["", "2-2"], "5-5 5-1", "3-3 2-2")
    assert RULES.legal_moves(match) == (mv(0, PASS),)
    after, _events = RULES.apply(match, mv(0, PASS))
    assert after.hand_state.catches[0] == tiles("3-3 5-1")


def test_tu5_seat_zero_leads_then_each_hand_one_seat_on() -> None:
    """[TU-5] hand 1 led by seat 0, hand 2 by seat 1 (after NEXT_HAND), hand 4 of 3 by 0."""
    options = TiuUOptions(hands=3)
    match = position(["6-5", "6-5", "6-5"], "5-5", "1-1", options=options)
    over, _ = RULES.apply(match, mv(0, PASS))
    assert over.status is Status.HAND_OVER
    assert RULES.legal_moves(over) == (Move(0, MoveKind.NEXT_HAND),)
    second, events = RULES.apply(over, Move(0, MoveKind.NEXT_HAND))
    assert second.hand_number == 2
    assert RULES.to_act(second) == 1
    assert Event(EventKind.LEADER, seat=1) in events
    state, _ = RULES.deal(second, 4)
    assert state.to_act == state.leader == 0


# --------------------------------------------------------------------------- [TU-6]


def test_tu6_drawn_tile_with_one_option_captures_at_once() -> None:
    """[TU-6] the drawn tile is revealed and takes its only match; copies are one option."""
    match = position(["6-5", "2-2"], "5-1 5-1 6-4", "4-2 2-2")
    after, events = RULES.apply(match, mv(0, PASS))
    assert events[1:] == (
        Event(EventKind.REVEAL, seat=0, tile=T("4-2")),
        Event(EventKind.CAPTURE, seat=0, tile=T("4-2"), target=T("5-1"), tiles=tiles("4-2 5-1")),
    )
    assert after.hand_state.catches[0] == tiles("4-2 5-1")
    assert after.hand_state.lake == tiles("5-1 6-4")
    assert after.hand_state.drawn is None
    assert RULES.to_act(after) == 1


def test_tu6_drawn_tile_with_no_match_joins_the_lake() -> None:
    """[TU-6] otherwise the drawn tile joins the lake and the turn passes."""
    match = position(["6-5", "2-2"], "5-1 6-4", "4-3 2-2")
    after, events = RULES.apply(match, mv(0, PASS))
    assert events[-1] == Event(EventKind.TO_LAKE, seat=0, tile=T("4-3"))
    assert after.hand_state.lake == tiles("4-3 5-1 6-4")
    assert after.hand_state.catches[0] == ()
    assert RULES.to_act(after) == 1


def test_tu6_drawn_tile_with_a_choice_of_two_lake_tiles() -> None:
    """[TU-6] a choice of different tiles: the same seat chooses with CAPTURE_DRAWN."""
    match = position(["6-5", "2-2"], "5-1 3-3 6-4", "4-2 1-1")
    choosing, events = RULES.apply(match, mv(0, PASS))
    assert events[-1] == Event(EventKind.CHOICE, seat=0, tile=T("4-2"), tiles=tiles("3-3 5-1"))
    assert choosing.hand_state.drawn == T("4-2")
    assert choosing.status is Status.IN_PROGRESS
    assert RULES.to_act(choosing) == 0
    assert RULES.legal_moves(choosing) == (
        mv(0, CAPTURE_DRAWN, "4-2", "3-3"),
        mv(0, CAPTURE_DRAWN, "4-2", "5-1"),
    )
    view = RULES.view(choosing, None)
    assert view.table.drawn == T("4-2")
    assert Event(EventKind.REVEAL, seat=0, tile=T("4-2")) in view.events
    assert sorted(RULES.all_tiles(choosing.hand_state)) == sorted(RULES.all_tiles(match.hand_state))
    # a CAPTURE_DRAWN naming a tile the drawn tile cannot take, or a hand step
    assert_illegal(choosing, mv(0, CAPTURE_DRAWN, "4-2", "6-4"))
    assert_illegal(choosing, mv(0, CAPTURE_DRAWN, "5-1", "5-1"))
    assert_illegal(choosing, mv(0, PASS))
    after, events = RULES.apply(choosing, mv(0, CAPTURE_DRAWN, "4-2", "5-1"))
    assert events == (
        Event(EventKind.CAPTURE, seat=0, tile=T("4-2"), target=T("5-1"), tiles=tiles("4-2 5-1")),
    )
    assert after.hand_state.drawn is None
    assert after.hand_state.lake == tiles("3-3 6-4")
    assert after.hand_state.catches[0] == tiles("4-2 5-1")
    assert RULES.to_act(after) == 1


# --------------------------------------------------------------------------- [TU-7]


def test_tu7_pile_then_taken_by_the_fourth_tile_from_hand() -> None:
    """[TU-7] pile three alike; only the identical fourth, from hand, takes all three."""
    match = position(["5-1 6-5", "5-1 3-3"], "5-1 5-1 6-4", "1-1 2-2 6-2")
    assert RULES.legal_moves(match) == (mv(0, CAPTURE, "5-1", "5-1"), mv(0, PILE, "5-1"))
    piled, events = RULES.apply(match, mv(0, PILE, "5-1"))
    assert events[0] == Event(EventKind.PILE, seat=0, tile=T("5-1"), tiles=tiles("5-1 5-1 5-1"))
    assert piled.hand_state.piles == tiles("5-1")
    assert piled.hand_state.lake == tiles("1-1 6-4")
    assert piled.hand_state.hands[0] == tiles("6-5")
    assert RULES.view(piled, None).table.piles == tiles("5-1")
    assert sorted(RULES.all_tiles(piled.hand_state)) == sorted(RULES.all_tiles(match.hand_state))
    # seat 1: [3-3] matches [5-1] by pips but cannot take a pile tile
    assert RULES.legal_moves(piled) == (mv(1, CAPTURE, "5-1", "5-1"),)
    assert_illegal(piled, mv(1, CAPTURE, "3-3", "5-1"))
    taken, events = RULES.apply(piled, mv(1, CAPTURE, "5-1", "5-1"))
    assert events[0] == Event(
        EventKind.CAPTURE, seat=1, tile=T("5-1"), target=T("5-1"), tiles=tiles("5-1 5-1 5-1 5-1")
    )
    assert taken.hand_state.catches[1] == tiles("5-1 5-1 5-1 5-1")
    assert taken.hand_state.piles == ()


def test_tu7_pile_taken_by_a_drawn_fourth_tile() -> None:
    """[TU-7] the fourth tile drawn takes the pile at once when it is its only option."""
    match = position(["6-5", "2-2"], "6-4", "5-1 2-2", piles="5-1")
    after, events = RULES.apply(match, mv(0, PASS))
    assert events[-1] == Event(
        EventKind.CAPTURE, seat=0, tile=T("5-1"), target=T("5-1"), tiles=tiles("5-1 5-1 5-1 5-1")
    )
    assert after.hand_state.piles == ()
    assert after.hand_state.catches[0] == tiles("5-1 5-1 5-1 5-1")
    # a merely matching drawn tile leaves the pile alone
    match = position(["6-5", "2-2"], "6-4", "3-3 2-2", piles="5-1")
    after, events = RULES.apply(match, mv(0, PASS))
    assert events[-1].kind is EventKind.TO_LAKE
    assert after.hand_state.piles == tiles("5-1")


def test_tu7_drawn_fourth_tile_may_choose_the_pile_or_a_lake_tile() -> None:
    """[TU-7] a drawn fourth that could also take a different lake tile: a choice."""
    match = position(["6-5", "2-2"], "3-3 6-4", "5-1 2-2", piles="5-1")
    choosing, events = RULES.apply(match, mv(0, PASS))
    assert events[-1] == Event(EventKind.CHOICE, seat=0, tile=T("5-1"), tiles=tiles("3-3 5-1"))
    after, _ = RULES.apply(choosing, mv(0, CAPTURE_DRAWN, "5-1", "5-1"))
    assert after.hand_state.catches[0] == tiles("5-1 5-1 5-1 5-1")
    assert after.hand_state.lake == tiles("3-3 6-4")


def test_tu7_pile_needs_two_identical_lake_tiles_and_an_unseen_fourth() -> None:
    """[TU-7] no PILE without two identical lake tiles, or with the fourth copy seen."""
    # one identical lake tile only
    assert_illegal(position(["5-1", "2-2"], "5-1 4-2", "1-1"), mv(0, PILE, "5-1"))
    # the fourth copy is already in a catch
    match = position(["5-1", "2-2"], "5-1 5-1", "1-1", catches=["", "5-1 3-3"])
    assert RULES.legal_moves(match) == (mv(0, CAPTURE, "5-1", "5-1"),)
    assert_illegal(match, mv(0, PILE, "5-1"))
    # the fourth copy lies in the lake
    assert_illegal(position(["5-1", "2-2"], "5-1 5-1 5-1", "1-1"), mv(0, PILE, "5-1"))
    # the fourth copy in the piler's own hand is unseen
    match = position(["5-1 5-1", "2-2"], "5-1 5-1", "1-1")
    assert mv(0, PILE, "5-1") in RULES.legal_moves(match)
    # the fourth copy still in the woodpile is unseen too
    match = position(["5-1", "2-2"], "5-1 5-1", "1-1 5-1")
    assert mv(0, PILE, "5-1") in RULES.legal_moves(match)


# --------------------------------------------------------------------------- [TU-8]


def test_tu8_hand_ends_when_the_last_draw_is_resolved() -> None:
    """[TU-8] the last draw, even one with a choice, ends the hand; leftovers score nil."""
    match = position(["6-6 6-5", "5-5"], "5-1 3-3 4-4", "4-2", piles="1-1", catches=["6-4 5-5", ""])
    choosing, events = RULES.apply(match, mv(0, PASS))
    assert choosing.status is Status.IN_PROGRESS
    assert RULES.stock(choosing.hand_state) == 0
    assert EventKind.HAND_OVER not in kinds(events)
    over, events = RULES.apply(choosing, mv(0, CAPTURE_DRAWN, "4-2", "3-3"))
    assert over.status is Status.MATCH_OVER
    assert kinds(events)[-2:] == [EventKind.HAND_OVER, EventKind.MATCH_OVER]
    assert over.history[-1].end is HandEnd.WOODPILE_EXHAUSTED  # [TU-8] how the hand ended
    # hands (even [6-6]), lake and pile tiles score for no one
    score = RULES.score(over)
    # [6-4] and [5-5] are big fish, 2 x 10 each; [4-2] [3-3] have 4 red pips -> 10
    assert score.hand_points == (20 + 20 + 10, 0)
    assert RULES.legal_moves(over) == ()


# --------------------------------------------------------------------------- [TU-9]


def _scored(catches: list[str], red_sixes: RedSixes = RedSixes.DOUBLE_SIX_ONLY) -> tuple[int, ...]:
    players = len(catches)
    match = position(
        [""] * players, "5-5", "1-1", catches=catches, options=TiuUOptions(red_sixes=red_sixes)
    )
    over, _ = RULES.apply(match, mv(0, PASS))
    assert over.status is Status.MATCH_OVER
    assert RULES.view(over, None).table.catch_counts == over.history[-1].counts
    return RULES.score(over).hand_points


def test_tu9_small_fish_round_up_to_tens() -> None:
    """[TU-9] 13 red pips of small fish score 20; big fish 2 per pip; 0 stays 0."""
    # [4-1] 5 red, [4-3] 4 red, [4-2] 4 red: 13 -> 20
    assert _scored(["4-1 4-3 4-2", "6-6 6-5", "3-2 5-2"]) == (20, 24 + 22, 0)
    # exactly 10 stays 10; 11 goes to 20; big fish [5-3] counts 16 whatever its colour
    assert _scored(["4-1 4-1", "1-1 4-3 4-2 3-1 5-3"]) == (10, 20 + 16)


def test_tu9_red_sixes_option() -> None:
    """[TU-9] red pips: [6-1] has 1 red pip, or 4 under ALL_SIXES; [6-6] is a big fish."""
    catch = "6-1 6-1 4-3 4-3"  # 1+1+4+4 = 10, or 4+4+4+4 = 16
    assert _scored([catch, "6-6"]) == (10, 24)
    assert _scored([catch, "6-6"], RedSixes.ALL_SIXES) == (20, 24)


# --------------------------------------------------------------------------- [TU-10]


def test_tu10_tie_for_highest_count_collects_from_lower() -> None:
    """[TU-10] equal highest counts each collect the difference; they pay each other nil."""
    match = position([""] * 3, "5-5", "1-1", catches=["6-5 6-5", "6-5 6-5", "5-5 4-1"])
    assert RULES.score(match).settlement == (0, 0, 0)
    over, _ = RULES.apply(match, mv(0, PASS))
    result = over.history[-1]
    assert result.counts == result.points == (44, 44, 30)
    assert result.winners == (0, 1)
    assert result.settlement == (14, 14, -28)
    score = RULES.score(over)
    assert score.settlement == (14, 14, -28)
    assert score.winners == (0, 1)


def test_tu10_single_winner_and_a_match_of_two_hands() -> None:
    """[TU-10] the highest is paid the difference by each; hands add counts and settlements."""
    first = HandResult(
        counts=(0, 30, 10),
        points=(0, 30, 10),
        winners=(1,),
        end=HandEnd.WOODPILE_EXHAUSTED,
        settlement=(-30, 50, -20),
    )
    match = position(
        [""] * 3,
        "5-5",
        "1-1",
        catches=["6-5 6-5", "5-5 4-1", ""],
        options=TiuUOptions(hands=2),
        hand_number=2,
        history=(first,),
    )
    over, _ = RULES.apply(match, mv(0, PASS))
    assert over.status is Status.MATCH_OVER
    result = over.history[-1]
    assert result.counts == (44, 30, 0)
    assert result.settlement == (14 + 44, -14, -44)
    score = RULES.score(over)
    assert score.match_points == (44, 60, 10)
    assert score.settlement == (-30 + 58, 50 - 14, -20 - 44)
    assert score.winners == (1,)


# --------------------------------------------------------------------------- random matches


def _public(state: TiuUHandState) -> set[Tile]:
    tiles_up = set(state.lake) | set(state.piles) | {t for c in state.catches for t in c}
    if state.drawn is not None:
        tiles_up.add(state.drawn)
    return tiles_up


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("may_decline", [False, True])
@pytest.mark.parametrize("red_sixes", list(RedSixes))
def test_random_matches_conserve_tiles_and_finish(
    players: int, may_decline: bool, red_sixes: RedSixes
) -> None:
    """[TU-1]..[TU-10] random legal moves: 64 tiles always, secrets kept, the match ends."""
    full = sorted(two_chinese_sets())
    options = RULES.make_options(
        {"may_decline": may_decline, "red_sixes": red_sixes.value, "hands": 2}
    )
    for game in range(2):
        seed = f"random-{players}-{may_decline}-{red_sixes.value}-{game}"
        pick = random.Random(seed)
        match = RULES.new_match(options, players, seed)

        def check(step: Step) -> None:
            before, legal = step.before, step.legal
            assert sorted(RULES.all_tiles(before.hand_state)) == full
            assert legal and len(set(legal)) == len(legal)
            if before.status is Status.IN_PROGRESS:
                seat = RULES.to_act(before)
                assert seat is not None
                view = RULES.view(before, seat)
                assert view.legal_moves == legal
                assert view.hand == before.hand_state.hands[seat]
                assert isinstance(view.table, TiuUTable)
                assert all(isinstance(c, Catch) for c in view.table.catches)
                for move in legal:
                    if move.kind is CAPTURE or move.kind is PILE:
                        assert move.tile in before.hand_state.hands[seat]
            public = _public(step.after.hand_state)
            for event in (e.for_seat(None) for e in step.events):
                shown = [t for t in (event.tile, event.target, *event.tiles) if t is not None]
                assert all(t in public for t in shown), event

        # apply never changes the state passed in: the repr before and after the playout
        before = repr(match)
        start = match
        match = play_out(RULES, match, pick, observe=check, max_moves=500)
        assert repr(start) == before
        assert len(match.history) == 2
        score = RULES.score(match)
        assert score.settlement is not None and sum(score.settlement) == 0
        assert score.match_points == tuple(
            sum(r.counts[s] for r in match.history) for s in range(players)
        )
        assert score.winners
        assert all(sum(r.settlement) == 0 for r in match.history)


# ---------------------------------------------------------------- [TU-10] a hand's reason


def test_tu10_reason_equal_highest_counts_collect_and_pay_each_other_nothing() -> None:
    """[TU-10] equal highest counts each collect the difference from every lower seat and
    pay each other nothing: the reason says so, with the tag."""
    match = position([""] * 3, "5-5", "1-1", catches=["6-5 6-5", "6-5 6-5", "5-5 4-1"])
    after, _ = RULES.apply(match, Move(0, MoveKind.PASS))
    result = after.history[-1]
    assert result.counts == (44, 44, 30) and result.winners == (0, 1)  # the tie happened
    assert RULES.score(after).reasons == (
        "The woodpile is exhausted [TU-8]: seats 0 and 1 tie for the highest count, 44 each: "
        "each collects the difference from every lower seat, 14 in all, and they pay each "
        "other nothing [TU-10]. Catch counts [TU-9]: seat 0 44, seat 1 44 and seat 2 30.",
    )
