"""Block, Draw and partnership dominoes: scripted tests per rule tag [BLK-1]..[BLK-16],
the decisions of the module docstring, and bad input."""

from __future__ import annotations

from typing import Any

import pytest

from domino_rules.games.block.rules import (
    BlockHandState,
    BlockOptions,
    BlockTable,
    hand_size,
    rank,
)
from domino_rules.rules import rng
from domino_rules.rules.errors import (
    IllegalMoveError,
    InvalidStateError,
    OptionsError,
    PlayerCountError,
)
from domino_rules.rules.events import EventKind
from domino_rules.rules.match import HandEnd, HandResult, Match, Status
from domino_rules.rules.moves import End, Move, MoveKind
from domino_rules.rules.registry import get
from domino_rules.rules.tiles import Tile, double_n

from . import positions
from .positions import hand as tiles
from .positions import laid

RULES = get("block")
BLK = Match[BlockOptions, BlockHandState]


def options(**values: Any) -> BlockOptions:
    made: BlockOptions = RULES.make_options(values)
    return made


def position(
    hands: list[str],
    *,
    line: str = "",
    boneyard: str | None = None,
    to_act: int = 0,
    leader: int = 0,
    any_lead: bool = True,
    last_layer: int | None = None,
    history: tuple[HandResult, ...] = (),
    **values: Any,
) -> BLK:
    """An exact position: ``hands`` and the ``line`` as written, the boneyard every other
    tile of the set (ascending) unless given."""
    opts = options(**values)
    held = [tile for text in hands for tile in tiles(text)]
    on_line = laid(line)
    if boneyard is None:
        rest = [t for t in double_n(opts.set_max_pip) if t not in held]
        rest = [t for t in rest if t not in [lt.tile for lt in on_line]]
        pile = tuple(rest)
    else:
        pile = tuple(tiles(boneyard))
    draws = max(0, len(pile) - opts.boneyard_keep) if opts.draw else 0
    if on_line and last_layer is None:
        last_layer = (to_act - 1) % len(hands)
    state = BlockHandState(
        tuple(tiles(text) for text in hands),
        pile,
        on_line,
        to_act,
        leader,
        any_lead,
        draws,
        last_layer,
    )
    return Match(len(hands), opts, "blk", len(history) + 1, state, history)


def moves(match: BLK) -> list[str]:
    return [str(move) for move in RULES.legal_moves(match)]


def play(seat: int, tile: str, end: End | None = None) -> Move:
    return Move(seat, MoveKind.PLAY, Tile.parse(tile), end=end)


# --------------------------------------------------------------------------- rules


@pytest.mark.parametrize("pips", [6, 9, 18])
def test_the_set_is_double_n(pips: int) -> None:
    """[BLK-1] Western double-N, N from 6 to 18."""
    match = RULES.new_match(options(set_max_pip=pips), 2, "set")
    assert sorted(RULES.all_tiles(match.hand_state)) == sorted(double_n(pips))
    with pytest.raises(OptionsError):
        options(set_max_pip=19)


def test_hand_sizes_and_player_counts() -> None:
    """[BLK-2] 7 each to two players and in a partnership Block game, 5 otherwise; as
    many players as the set deals; exactly 4 in a partnership."""
    assert hand_size(options(), 2) == 7
    assert hand_size(options(), 3) == hand_size(options(), 4) == 5
    assert hand_size(options(partnership=True), 4) == 7
    assert hand_size(options(partnership=True, draw=True), 4) == 5
    assert hand_size(options(hand_size=3), 2) == 3
    assert RULES.player_range(options()) == (2, 5)  # 5 x 5 of 28 tiles
    assert RULES.player_range(options(partnership=True)) == (4, 4)
    assert RULES.player_range(options(hand_size=6)) == (2, 4)
    with pytest.raises(PlayerCountError):
        RULES.new_match(options(partnership=True), 3, "p")
    with pytest.raises(PlayerCountError):
        RULES.new_match(options(hand_size=6), 5, "p")
    match = RULES.new_match(options(draw=True), 4, "five")
    assert [len(h) for h in match.hand_state.hands] == [5] * 4
    assert len(match.hand_state.boneyard) == 8


def test_the_deal_cuts_the_shuffled_set() -> None:
    """[BLK-2] seat 0 takes the first k tiles of ``deal/<hand>/0``, and so on; the rest,
    in that order, is the boneyard."""
    match = RULES.new_match(options(draw=True), 3, "cut")
    order = rng.shuffled("cut", "deal/1/0", double_n(6))
    assert [list(h) for h in match.hand_state.hands] == [
        sorted(order[5 * s : 5 * s + 5]) for s in range(3)
    ]
    assert match.hand_state.boneyard == tuple(order[15:])
    assert [e.kind for e in match.last_events] == [EventKind.DEAL, EventKind.LEADER]
    assert match.last_events[0].count == 5


def test_the_block_game_never_draws() -> None:
    """[BLK-3] without ``draw`` the boneyard is never used; with ``draw``, ``boneyard_keep``
    tiles never leave it."""
    stuck = position(["6-6 0-0", "1-0"], line="5-5", to_act=0)
    assert moves(stuck) == ["0 PASS"]
    drawing = position(["6-6", "1-0"], line="5-5", draw=True, boneyard="2-1 3-1 5-4")
    assert moves(drawing) == ["0 DRAW"]
    kept = position(["6-6", "1-0"], line="5-5", draw=True, boneyard="2-1 3-1", boneyard_keep=2)
    assert moves(kept) == ["0 PASS"]


def test_the_highest_ranked_tile_leads() -> None:
    """[BLK-4] doubles first, highest first, then by total and the higher high half; the
    holder leads it and has no other move. No redeal without a double."""
    ranked = sorted(tiles("4-2 5-1 6-0 6-5 0-0 1-1"), key=rank, reverse=True)
    assert ranked == [Tile.parse(t) for t in ("1-1", "0-0", "6-5", "6-0", "5-1", "4-2")]
    for seed in ("lead-0", "lead-1", "lead-2"):
        match = RULES.new_match(options(), 2, seed)
        state = match.hand_state
        top = max((t for h in state.hands for t in h), key=rank)
        assert top in state.hands[state.to_act]
        assert RULES.legal_moves(match) == (Move(state.to_act, MoveKind.PLAY, top),)
    no_double = position(["6-5 4-3", "6-4 2-1"], any_lead=False, to_act=0)
    assert moves(no_double) == ["0 PLAY [6-5]"]


def test_any_tile_lets_seat_zero_lead_any_tile() -> None:
    """[BLK-4] ``ANY_TILE``: seat 0 leads, with any tile of its hand."""
    match = RULES.new_match(options(first_lead="ANY_TILE"), 2, "any")
    assert RULES.to_act(match) == 0
    assert len(RULES.legal_moves(match)) == 7


def test_the_line_has_two_ends_and_doubles_lie_in_line() -> None:
    """[BLK-5] the lead has no end and lies high half left; later tiles name the end; a
    double keeps the end's number; equal ends give two moves."""
    match = position(["5-3 3-1 2-2", "6-5 6-6 4-4"], any_lead=True)
    match, events = RULES.apply(match, play(0, "5-3"))
    assert RULES.view(match, None).table == BlockTable(laid("5-3"), 5, 3, 0)
    assert events[0].end is None
    match, _ = RULES.apply(match, play(1, "6-5", End.LEFT))
    match, _ = RULES.apply(match, play(0, "3-1", End.RIGHT))
    match, _ = RULES.apply(match, play(1, "6-6", End.LEFT))
    table = RULES.view(match, 0).table
    assert [(t.left, t.right) for t in table.line] == [(6, 6), (6, 5), (5, 3), (3, 1)]
    assert (table.left_end, table.right_end) == (6, 1)
    equal = position(["4-2 2-0", "1-1"], line="2-4 4-2", to_act=0)
    assert moves(equal) == [
        "0 PLAY [2-0] LEFT",
        "0 PLAY [2-0] RIGHT",
        "0 PLAY [4-2] LEFT",
        "0 PLAY [4-2] RIGHT",
    ]


def test_a_player_who_can_play_must() -> None:
    """[BLK-6] no pass and no draw while a tile fits; turns pass in seat order."""
    match = position(["5-1 6-6", "3-0", "2-2"], line="5-3", draw=True, to_act=0)
    assert moves(match) == ["0 PLAY [5-1] LEFT"]
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, Move(0, MoveKind.DRAW))
    after, _ = RULES.apply(match, play(0, "5-1", End.LEFT))
    assert RULES.to_act(after) == 1


def test_the_block_game_passes() -> None:
    """[BLK-7] no tile that fits: the one move is PASS, and the turn moves on."""
    match = position(["6-6 0-0", "3-1 2-1", "4-4"], line="5-3", to_act=0)
    assert moves(match) == ["0 PASS"]
    after, events = RULES.apply(match, Move(0, MoveKind.PASS))
    assert [e.kind for e in events] == [EventKind.PASS] and RULES.to_act(after) == 1


def test_the_draw_game_draws_until_a_tile_fits() -> None:
    """[BLK-8] one DRAW draws one tile at a time, each shown only to the drawer, until
    one fits; the drawer then acts again and must play it."""
    match = position(
        ["6-6 0-0", "3-1 2-1"], line="5-3", draw=True, boneyard="2-0 4-1 5-2 6-1", to_act=0
    )
    after, events = RULES.apply(match, Move(0, MoveKind.DRAW))
    assert [e.kind for e in events] == [EventKind.DRAW] * 3
    assert all(e.private_to == 0 for e in events)
    assert [str(e.for_seat(1).tile) for e in events] == ["None"] * 3
    assert RULES.to_act(after) == 0
    assert moves(after) == ["0 PLAY [5-2] LEFT"]
    assert after.hand_state.boneyard == tiles("6-1")


def test_a_draw_that_finds_nothing_passes_the_turn_or_ends_the_hand() -> None:
    """[BLK-8] no tile fits after drawing down to ``boneyard_keep``: the turn passes, or
    the hand ends inside the DRAW when it is now blocked."""
    passes = position(
        ["6-6 0-0", "5-1 2-1"], line="5-3", draw=True, boneyard="2-0 4-1 6-1", boneyard_keep=1
    )
    after, events = RULES.apply(passes, Move(0, MoveKind.DRAW))
    assert [e.kind for e in events] == [EventKind.DRAW] * 2
    assert RULES.to_act(after) == 1 and len(after.hand_state.boneyard) == 1
    blocked = position(["6-6 0-0", "2-2"], line="5-3", draw=True, boneyard="2-0 4-1")
    after, events = RULES.apply(blocked, Move(0, MoveKind.DRAW))
    kinds = [e.kind for e in events]
    assert kinds[:2] == [EventKind.DRAW] * 2 and EventKind.HAND_OVER in kinds
    assert after.history[-1].end is HandEnd.BLOCKED


def test_the_hand_ends_when_a_player_goes_out_or_the_line_is_blocked() -> None:
    """[BLK-9] the last tile laid ends the hand (DOMINOED); so does a line no hand can
    play on with nothing left to draw (BLOCKED)."""
    out = position(["5-1", "6-6 2-2"], line="5-3", to_act=0, target_score=0)
    after, _ = RULES.apply(out, play(0, "5-1", End.LEFT))
    assert after.status is Status.MATCH_OVER and after.history[-1].end is HandEnd.DOMINOED
    block = position(["3-2 6-6", "4-4 0-0"], line="5-3", to_act=0, target_score=0)
    after, _ = RULES.apply(block, play(0, "3-2", End.RIGHT))
    assert after.history[-1].end is HandEnd.BLOCKED


def test_counts_sides_and_ties() -> None:
    """[BLK-10] the side that dominoes wins outright under ``domino_wins``, else the lowest
    side count; equal lowest counts are a tie that nobody wins."""
    out = position(
        ["5-1", "6-6", "0-0", "1-0"], line="5-3", to_act=0, partnership=True, target_score=0
    )
    after, _ = RULES.apply(out, play(0, "5-1", End.LEFT))
    assert after.history[-1].winners == (0, 2)
    lowest = position(
        ["5-1", "6-5", "6-6", "0-0"],
        line="5-3",
        to_act=0,
        partnership=True,
        target_score=0,
        domino_wins=False,
    )
    after, _ = RULES.apply(lowest, play(0, "5-1", End.LEFT))
    assert after.history[-1].winners == (1, 3)  # 11 against 12, though seat 0 went out
    tie = position(["6-5 3-3", "4-2"], line="5-5", to_act=0, target_score=0)
    after, _ = RULES.apply(tie, play(0, "6-5", End.LEFT))  # blocked: 6 pips against 6
    assert after.history[-1].end is HandEnd.BLOCKED
    assert after.history[-1].winners == () and after.history[-1].points == (0, 0)


@pytest.mark.parametrize(
    ("scoring", "points"), [("OTHERS_TOTAL", 12), ("OTHERS_MINUS_OWN", 10), ("ALL_PIPS", 14)]
)
def test_what_the_winning_side_scores(scoring: str, points: int) -> None:
    """[BLK-11] the other sides' counts; less the winner's (never below 0); every count.
    Both partners carry their side's score."""
    match = position(
        ["5-1", "2-2", "2-0", "4-4"],
        line="5-3",
        to_act=0,
        partnership=True,
        scoring=scoring,
        target_score=0,
        domino_wins=True,
    )
    # after 5-1: seat 0 out; side 0+2 holds 2, side 1+3 holds 4 + 8 = 12
    after, _ = RULES.apply(match, play(0, "5-1", End.LEFT))
    assert after.history[-1].points == (points, 0, points, 0)


def test_the_match_runs_to_the_target() -> None:
    """[BLK-12] hands until a side's total reaches ``target_score``; 0 is a single hand."""
    match = position(["5-1", "6-6 5-5"], line="5-3", to_act=0, target_score=20)
    after, _ = RULES.apply(match, play(0, "5-1", End.LEFT))
    assert after.status is Status.MATCH_OVER and RULES.totals(after) == (22, 0)
    single = RULES.new_match(options(target_score=0), 2, "one")
    assert RULES.max_hands(single.options, 2) == 1


@pytest.mark.parametrize(
    ("next_lead", "leader", "any_lead"),
    [("AS_FIRST", None, False), ("WINNER", 2, True), ("NEXT_SEAT", 1, True)],
)
def test_the_next_hands_lead(next_lead: str, leader: int | None, any_lead: bool) -> None:
    """[BLK-13] AS_FIRST as the first hand; WINNER the winning side's first seat from the
    last layer on; NEXT_SEAT the seat after the last leader."""
    match = position(
        ["3-2 1-0", "6-6", "0-0", "4-4"],
        line="5-5",
        to_act=1,
        leader=0,
        last_layer=1,
        partnership=True,
        next_lead=next_lead,
    )
    # seat 1 laid the last tile; nobody can play: blocked, side 0+2 has 6 pips to 20
    blocked, _ = RULES.apply(match, Move(1, MoveKind.PASS))
    assert blocked.status is Status.HAND_OVER
    assert blocked.history[-1].winners == (0, 2)
    nxt, _ = RULES.apply(blocked, Move(0, MoveKind.NEXT_HAND))
    state = nxt.hand_state
    assert state.any_lead is any_lead
    if leader is None:
        top = max((t for h in state.hands for t in h), key=rank)
        assert top in state.hands[state.leader]
    else:
        assert state.leader == leader


def test_a_seat_sees_its_hand_and_the_line_never_a_partners_tiles() -> None:
    """[BLK-14] own hand, every seat's count of tiles, the boneyard's size, the line and
    its ends, the leader; a partner's tiles stay hidden."""
    match = RULES.new_match(options(partnership=True, draw=True), 4, "view")
    view = RULES.view(match, 0)
    assert view.hand == match.hand_state.hands[0]
    assert view.hand_sizes == (5, 5, 5, 5) and view.stock == 8
    assert view.table == BlockTable((), None, None, match.hand_state.leader)
    spectator = RULES.view(match, None)
    assert spectator.hand == () and spectator.stock == 8


@pytest.mark.parametrize(
    "values",
    [
        {"set_max_pip": 5},
        {"hand_size": 15},
        {"boneyard_keep": 29},
        {"target_score": 100_001},
        {"hand_size": -1},
    ],
)
def test_options_out_of_range_are_refused(values: dict[str, Any]) -> None:
    """[BLK-15] ranges, some bound by the set."""
    with pytest.raises(OptionsError):
        options(**values)
    assert options(set_max_pip=9, hand_size=27).hand_size == 27


def test_moves_and_events() -> None:
    """[BLK-16] PLAY with a tile and an end, DRAW, PASS, NEXT_HAND; DEAL and LEADER at
    each deal, HAND_OVER naming the winning side."""
    match = RULES.new_match(options(target_score=0), 2, "events")
    assert [e.kind for e in match.last_events] == [EventKind.DEAL, EventKind.LEADER]
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, Move(match.hand_state.to_act, MoveKind.PASS))


def test_a_forged_state_is_refused() -> None:
    """[BLK-3] [BLK-5] a drawn tile in the Block game, or a line whose ends do not touch."""
    drawn = position(["6-6 0-0", "1-0"], line="5-5", boneyard="2-1")
    with pytest.raises(InvalidStateError, match="drawn in the Block game"):
        RULES.check_match(drawn)
    seven = ["6-6 0-0 1-0 2-0 3-0 4-0 5-0", "6-0 1-1 2-1 3-1 4-1 5-1 6-1"]
    broken = position(seven, line="5-3 4-2", boneyard="")
    with pytest.raises(InvalidStateError, match="touching ends"):
        RULES.check_match(broken)


# ---------------------------------------------------------------- [BLK-10] [BLK-11] a hand's reason


def blk_finish(hands: list[str], line: str, move: Move, **values: Any) -> BLK:
    """A Block game position (the boneyard every tile not held or laid) and its last move."""
    options = RULES.make_options({"target_score": 0, **values})
    held = [positions.tiles(text) for text in hands]
    on_line = laid(line)
    used = {tile for hand in held for tile in hand} | {lt.tile for lt in on_line}
    boneyard = tuple(tile for tile in double_n(options.set_max_pip) if tile not in used)
    last = (move.seat - 1) % len(hands)
    state = BlockHandState(tuple(held), boneyard, on_line, move.seat, 0, True, 0, last)
    after, _ = RULES.apply(Match(len(hands), options, "blk", 1, state), move)
    assert after.status is Status.MATCH_OVER
    return after


def test_blk10_reason_equal_lowest_counts_are_a_tie_nobody_wins() -> None:
    """[BLK-10] equal lowest counts in a blocked hand: no side wins, nobody scores."""
    after = blk_finish(["6-5 3-3", "4-2"], "5-5", Move(0, MoveKind.PLAY, Tile(6, 5), end=End.LEFT))
    result = after.history[-1]
    assert result.end is HandEnd.BLOCKED and result.counts == (6, 6) and result.winners == ()
    assert RULES.score(after).reasons == (
        "Blocked: seats 0 and 1 tie for the lowest count, 6 each: no side wins and nobody "
        "scores [BLK-10].",
    )


def test_blk10_blk11_reason_a_side_that_went_out_and_lost() -> None:
    """[BLK-10] [BLK-11] domino_wins false: seat 0 goes out, yet the other side's count is
    lower; the reason says both, and what the winning side scores."""
    after = blk_finish(
        ["5-1", "6-5", "6-6", "0-0"],
        "5-3",
        Move(0, MoveKind.PLAY, Tile(5, 1), end=End.LEFT),
        partnership=True,
        domino_wins=False,
    )
    result = after.history[-1]
    assert result.end is HandEnd.DOMINOED and result.winners == (1, 3)
    assert RULES.score(after).reasons == (
        "Dominoed: seat 0 laid their last tile; under domino_wins false the lowest count "
        "wins [BLK-10]: the side of seats 1 and 3 has the lowest count, 11, and wins the "
        "hand [BLK-10]. Seats 1 and 3 each score 12: the 12 pips left in the other side's "
        "hands [BLK-11].",
    )
