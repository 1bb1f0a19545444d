"""Throw-up Dominoes: one scripted test per rule tag [THR-1]..[THR-11], the worked
examples of seed 003, bad input, and random full matches."""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest

from domino_rules.games.throw_up.rules import (
    LaidTile,
    ThrowUp,
    ThrowUpHandState,
    ThrowUpOptions,
    ThrowUpTable,
    qualifying_totals,
)
from domino_rules.rules import rng
from domino_rules.rules.errors import IllegalMoveError, OptionsError, PlayerCountError
from domino_rules.rules.events import Event, EventKind
from domino_rules.rules.match import HandEnd, HandResult, Match, Status
from domino_rules.rules.moves import End, Move, MoveKind
from domino_rules.rules.registry import get
from domino_rules.rules.tiles import Tile, double_six_without_blank

from . import positions
from .positions import hand as tiles
from .positions import laid

RULES = get("throw_up")
SEED = "thr"
FULL_SET = tuple(sorted(double_six_without_blank()))
THR = Match[ThrowUpOptions, ThrowUpHandState]


def play(seat: int, tile: str, end: End | None = None) -> Move:
    return Move(seat, MoveKind.PLAY, Tile.parse(tile), end=end)


def position(
    hands: list[str],
    *,
    line: str = "",
    dice: tuple[int, ...] = (1, 5, 3),
    leader: int = 0,
    to_act: int | None = None,
    boneyard: str | None = None,
    front: str = "",
    pegs: tuple[int, ...] | None = None,
    round: int = 1,
    idle_rounds: int = 0,
    laid_this_round: bool = False,
    options: ThrowUpOptions | None = None,
    hand_number: int = 1,
    history: tuple[HandResult, ...] = (),
    seed: str = positions.SEED,
) -> THR:
    """A Throw-up position; by default the boneyard is every other tile of the set,
    ascending, after the tiles ``front`` names."""
    options = options or ThrowUpOptions()
    held = tuple(positions.hand(h) for h in hands)
    on_line = laid(line)
    if boneyard is None:
        full = RULES.full_set(options)
        first = positions.tiles(front)
        on_line_tiles = tuple(t.tile for t in on_line)
        yard = first + positions.rest_of(full, *held, on_line_tiles, first)
    else:
        yard = positions.tiles(boneyard)
    state = ThrowUpHandState(
        hands=held,
        boneyard=yard,
        line=on_line,
        dice=dice,
        round=round,
        leader=leader,
        to_act=leader if to_act is None else to_act,
        pegs=pegs if pegs is not None else (0,) * len(hands),
        idle_rounds=idle_rounds,
        laid_this_round=laid_this_round,
    )
    return positions.match_of(
        RULES, state, options=options, seed=seed, hand_number=hand_number, history=history
    )


def make_match(hands: list[str], **fields: Any) -> THR:
    """An exact position (:func:`position`, seeded with ``SEED``); by default the
    boneyard is every other tile, ascending, after the tiles ``front`` names."""
    return position(hands, seed=SEED, **fields)


def kinds(events: tuple[Event, ...]) -> list[EventKind]:
    return [e.kind for e in events]


def table(match: THR) -> ThrowUpTable:
    seen = RULES.view(match, None).table
    assert isinstance(seen, ThrowUpTable)
    return seen


# --------------------------------------------------------------------------- rules


def test_thr1_set_and_player_count() -> None:
    """[THR-1] double-six without [0-0], 27 tiles; 2 or 3 players."""
    assert isinstance(RULES, ThrowUp)
    assert RULES.id == "throw_up" and RULES.name == "Throw-up Dominoes"
    full = RULES.full_set(ThrowUpOptions())
    assert len(full) == len(set(full)) == 27
    assert Tile(0, 0) not in full and Tile(6, 6) in full and Tile(1, 0) in full
    assert RULES.player_range(ThrowUpOptions()) == (2, 3)
    for players in (1, 4):
        with pytest.raises(PlayerCountError):
            RULES.new_match(ThrowUpOptions(), players, SEED)
    for players in (2, 3):
        match = RULES.new_match(ThrowUpOptions(), players, SEED)
        assert sorted(RULES.all_tiles(match.hand_state)) == list(FULL_SET)
        assert len(match.hand_state.dice) == 3 and all(1 <= d <= 6 for d in match.hand_state.dice)


def test_thr2_throw_off_tie_is_thrown_again() -> None:
    """[THR-2] everyone throws; the seats tied for highest throw again."""
    seed = "tie-8"  # both seats throw 11, then 8 against 15
    match = RULES.new_match(ThrowUpOptions(), 2, seed)
    dice_events = [e for e in match.last_events if e.kind is EventKind.DICE]
    expected = [(0, "lead/0/0"), (1, "lead/0/1"), (0, "lead/1/0"), (1, "lead/1/1")]
    assert [(e.seat, e.dice) for e in dice_events[:4]] == [
        (s, rng.throw(seed, label)) for s, label in expected
    ]
    assert sum(dice_events[0].dice) == sum(dice_events[1].dice) == 11
    assert (sum(dice_events[2].dice), sum(dice_events[3].dice)) == (8, 15)
    assert match.hand_state.leader == 1 and match.hand_state.to_act == 1
    assert Event(EventKind.LEADER, seat=1) in match.last_events
    # the round-1 throw comes after the leader is known, thrown by the leader
    assert dice_events[4] == Event(EventKind.DICE, seat=1, dice=rng.throw(seed, "dice/1/1/0"))
    assert len(dice_events) == 5


def test_thr2_only_the_tied_seats_throw_again() -> None:
    """[THR-2] three players: seats 0 and 2 tie on 10, seat 1 (9) is out of it."""
    seed = "three-32"
    match = RULES.new_match(ThrowUpOptions(), 3, seed)
    throw_off = [(e.seat, sum(e.dice)) for e in match.last_events if e.kind is EventKind.DICE][:-1]
    assert throw_off == [(0, 10), (1, 9), (2, 10), (0, 14), (2, 8)]
    assert match.hand_state.leader == 0


def test_thr2_the_lead_passes_to_the_next_seat() -> None:
    """[THR-2] later hands: no throw-off, the lead passes on, wrapping around."""
    finished = make_match(["", "5-5", "6-6"], leader=2, to_act=2)
    result = HandResult(counts=(0, 1, 1), points=(2, 0, 0), winners=(0,), end=HandEnd.DOMINOED)
    finished = dataclasses.replace(finished, status=Status.HAND_OVER, history=(result,))
    match, events = RULES.apply(finished, Move(0, MoveKind.NEXT_HAND))
    assert match.hand_number == 2 and match.hand_state.leader == 0 and match.hand_state.to_act == 0
    assert [(e.seat, e.dice) for e in events if e.kind is EventKind.DICE] == [
        (0, rng.throw(SEED, "dice/2/1/0"))
    ]
    assert Event(EventKind.LEADER, seat=0) in events
    match, _ = RULES.apply(
        dataclasses.replace(match, status=Status.HAND_OVER, history=(result, result)),
        Move(0, MoveKind.NEXT_HAND),
    )
    assert match.hand_state.leader == 1


def test_thr3_deal_seven_each_rest_is_the_boneyard() -> None:
    """[THR-3] 7 tiles each from the documented shuffle; the rest is the boneyard."""
    for players, stock in ((2, 13), (3, 6)):
        match = RULES.new_match(ThrowUpOptions(), players, SEED)
        order = rng.shuffled(SEED, "deal/1/0", double_six_without_blank())
        for seat in range(players):
            assert match.hand_state.hands[seat] == tuple(sorted(order[7 * seat : 7 * seat + 7]))
        assert match.hand_state.boneyard == order[7 * players :]
        view = RULES.view(match, 0)
        assert view.hand_sizes == (7,) * players and view.stock == stock
        assert view.hand == match.hand_state.hands[0]
        assert match.last_events[0] == Event(EventKind.DEAL, count=7)


def test_thr4_the_throw_stands_for_a_round_of_turns() -> None:
    """[THR-4] from the leader on, each player takes one turn on the same throw."""
    match = make_match(["2-1 5-2", "6-3 5-5", "6-4 5-4"], line="6-6", leader=1)
    assert RULES.to_act(match) == 1
    match, events = RULES.apply(match, play(1, "6-3", End.LEFT))
    assert kinds(events) == [EventKind.PLAY, EventKind.PEG, EventKind.TURN_PASSED]
    assert RULES.to_act(match) == 2 and table(match).dice == (1, 5, 3)
    match, events = RULES.apply(match, Move(2, MoveKind.DRAW))
    assert EventKind.DICE not in kinds(events)
    assert RULES.to_act(match) == 0 and table(match).dice == (1, 5, 3)
    match, events = RULES.apply(match, Move(0, MoveKind.DRAW))
    # seat 0 was the round's last: the leader throws for round 2
    assert events[-1] == Event(EventKind.DICE, seat=1, dice=rng.throw(SEED, "dice/1/2/0"))
    assert RULES.to_act(match) == 1
    assert (table(match).round, table(match).dice) == (2, rng.throw(SEED, "dice/1/2/0"))


def test_thr4_rethrow_repeats() -> None:
    """[THR-4] rethrow_repeats: a throw equal to the last round's as a multiset is thrown
    again, every throw its own event; without the option the repeat stands."""
    seed = "repeat-3"
    first, second, third = (rng.throw(seed, f"dice/1/{r}/{t}") for r, t in ((1, 0), (2, 0), (2, 1)))
    assert first != second and sorted(first) == sorted(second) and sorted(third) != sorted(first)
    for rethrow, thrown in ((True, [second, third]), (False, [second])):
        start = dataclasses.replace(
            make_match(["6-6", "5-5"], line="6-1", dice=first, options=ThrowUpOptions(rethrow)),
            seed=seed,
        )
        match, _ = RULES.apply(start, Move(0, MoveKind.DRAW))
        match, events = RULES.apply(match, Move(1, MoveKind.DRAW))
        assert [(e.seat, e.dice) for e in events if e.kind is EventKind.DICE] == [
            (0, d) for d in thrown
        ]
        assert match.hand_state.dice == thrown[-1]
    # the first round of a hand has no previous round to repeat
    match = RULES.new_match(ThrowUpOptions(rethrow_repeats=True), 2, seed)
    assert match.hand_state.dice == first


def test_thr5_seed_003_worked_example() -> None:
    """[THR-5] seed 003: dice 1, 5, 3; the leader lays all but [5-1] and [6-1] for 6 points,
    the next player only [6-2] for 1."""
    assert qualifying_totals((1, 5, 3)) == (1, 3, 4, 5, 6, 8, 9)
    leader_hand = "6-1 6-3 4-2 2-2 4-1 3-1 5-1"
    match = make_match([leader_hand, "2-0 6-4 4-3 5-2 6-2 5-3 5-4"])
    assert table(match).qualifying == (1, 3, 4, 5, 6, 8, 9)
    # every tile but [6-1] (7) qualifies; the first tile names no end
    assert set(RULES.legal_moves(match)) == {
        play(0, t) for t in ["6-3", "4-2", "2-2", "4-1", "3-1", "5-1"]
    }
    script = [
        play(0, "4-1"),
        play(0, "3-1", End.RIGHT),
        play(0, "6-3", End.RIGHT),
        play(0, "4-2", End.LEFT),
        play(0, "2-2", End.LEFT),
    ]
    for move in script[:-1]:
        match, events = RULES.apply(match, move)
        # while a tile can be laid the player goes on laying: no draw, no pass
        assert RULES.to_act(match) == 0 and EventKind.TURN_PASSED not in kinds(events)
        assert all(m.kind is MoveKind.PLAY for m in RULES.legal_moves(match))
    match, events = RULES.apply(match, script[-1])
    assert events[-1] == Event(EventKind.TURN_PASSED, seat=0)
    t = table(match)
    assert t.line == laid("2-2 2-4 4-1 1-3 3-6")
    assert (t.left_end, t.right_end) == (2, 6)
    assert t.pegs == (6, 0) and match.hand_state.hands[0] == tiles("6-1 5-1")
    # the next player: [6-2] [5-3] [5-4] qualify, only [6-2] matches an end (either one)
    assert RULES.to_act(match) == 1
    assert RULES.legal_moves(match) == (play(1, "6-2", End.LEFT), play(1, "6-2", End.RIGHT))
    match, events = RULES.apply(match, play(1, "6-2", End.LEFT))
    assert (table(match).left_end, table(match).right_end) == (6, 6)
    assert table(match).pegs == (6, 1)
    assert EventKind.TURN_PASSED in kinds(events)


def test_thr5_first_tile_high_left_and_two_moves_on_equal_ends() -> None:
    """[THR-5] the first tile lies high half LEFT; equal ends make LEFT and RIGHT distinct."""
    match = make_match(["5-4 4-0 6-4", "6-6"], dice=(5, 4, 1))
    match, events = RULES.apply(match, play(0, "5-4"))
    assert table(match).line == (LaidTile(Tile(5, 4), 5, 4),)
    assert events[0] == Event(EventKind.PLAY, seat=0, tile=Tile(5, 4), end=None)
    assert table(match).line == laid("5-4") and RULES.to_act(match) == 0
    assert RULES.legal_moves(match) == (play(0, "4-0", End.RIGHT), play(0, "6-4", End.RIGHT))
    # ends 4 and 4: [4-1] may go on either
    both = make_match(["4-1 6-6", "6-5"], line="4-4", dice=(5, 2, 2))
    assert RULES.legal_moves(both) == (play(0, "4-1", End.LEFT), play(0, "4-1", End.RIGHT))
    left, _ = RULES.apply(both, play(0, "4-1", End.LEFT))
    right, _ = RULES.apply(both, play(0, "4-1", End.RIGHT))
    assert table(left).line == laid("1-4 4-4") and table(right).line == laid("4-4 4-1")


def test_thr6_each_tile_pegs_at_once_a_double_two() -> None:
    """[THR-6] 1 point a tile, 2 a double, pegged at once and shown in the running score."""
    match = make_match(["3-3 6-3 5-5", "6-6 1-0"], line="3-1", dice=(6, 3, 2), pegs=(1, 4))
    match, events = RULES.apply(match, play(0, "3-3", End.LEFT))
    assert events[1] == Event(EventKind.PEG, seat=0, points=2)
    assert RULES.score(match).hand_points == (3, 4)
    match, events = RULES.apply(match, play(0, "6-3", End.LEFT))
    assert events[1] == Event(EventKind.PEG, seat=0, points=1)
    assert RULES.score(match).hand_points == (4, 4)
    assert RULES.view(match, 1).match_points == (4, 4)
    assert table(match).pegs == (4, 4)


def test_thr7_draw_one_tile_or_pass() -> None:
    """[THR-7] nothing to lay: DRAW one tile (private, not playable this turn); the turn ends.
    With an empty boneyard, PASS."""
    # [6-1] matches the 6 end but 7 is not made by 1, 5, 3; the boneyard's [6-3] would fit
    match = make_match(["6-1 5-5", "6-5 4-4"], line="6-2", front="6-3")
    assert RULES.legal_moves(match) == (Move(0, MoveKind.DRAW),)
    stock = RULES.stock(match.hand_state)
    match, events = RULES.apply(match, Move(0, MoveKind.DRAW))
    assert events[0] == Event(EventKind.DRAW, seat=0, tile=Tile(6, 3), private_to=0)
    assert (
        match.hand_state.hands[0] == tiles("6-1 6-3 5-5")
        and RULES.stock(match.hand_state) == stock - 1
    )
    assert RULES.to_act(match) == 1  # [6-3] would fit, but the turn is over
    assert RULES.view(match, 1).events[0].tile is None and RULES.view(match, 1).events[0].hidden
    assert RULES.view(match, 0).events[0].tile == Tile(6, 3)
    empty = make_match(["6-1 5-5", "6-5 4-4"], line="6-2", boneyard="")
    assert RULES.legal_moves(empty) == (Move(0, MoveKind.PASS),)
    after, events = RULES.apply(empty, Move(0, MoveKind.PASS))
    assert events[0] == Event(EventKind.PASS, seat=0) and RULES.to_act(after) == 1


def test_thr8_the_leader_throws_after_the_last_player() -> None:
    """[THR-8] the move ending the round's last turn holds the leader's next throw."""
    match = make_match(["6-1 5-5", "6-3 4-4"], line="6-2", leader=1, to_act=0)
    match, events = RULES.apply(match, Move(0, MoveKind.DRAW))
    assert kinds(events) == [EventKind.DRAW, EventKind.DICE]
    assert events[1] == Event(EventKind.DICE, seat=1, dice=rng.throw(SEED, "dice/1/2/0"))
    assert (match.hand_state.round, match.hand_state.to_act) == (2, 1)
    # the leader's turn in round 2 uses the new throw
    assert table(match).qualifying == qualifying_totals(rng.throw(SEED, "dice/1/2/0"))


def test_thr9_two_idle_rounds_end_the_hand() -> None:
    """[THR-9] a second round in a row with no tile laid ends the hand, with no new throw."""
    # dice 1, 1, 1 make 1, 2, 3: nobody can lay, though [5-1] and [5-2] match the line
    idle = make_match(["5-1 6-6", "5-2 4-4"], line="5-5", dice=(1, 1, 1), boneyard="")
    once, _ = RULES.apply(idle, Move(0, MoveKind.PASS))
    once, events = RULES.apply(once, Move(1, MoveKind.PASS))
    assert once.status is Status.IN_PROGRESS and once.hand_state.idle_rounds == 1
    assert EventKind.DICE in kinds(events)
    # the same round after an idle one: the hand ends as the round does
    second = dataclasses.replace(
        idle, hand_state=dataclasses.replace(idle.hand_state, idle_rounds=1)
    )
    second, _ = RULES.apply(second, Move(0, MoveKind.PASS))
    assert second.status is Status.IN_PROGRESS
    second, events = RULES.apply(second, Move(1, MoveKind.PASS))
    assert second.status is Status.HAND_OVER and EventKind.DICE not in kinds(events)
    assert second.history[-1].end is HandEnd.IDLE_ROUNDS  # [THR-9] how the hand ended
    # a tile laid in the round breaks the run
    laid_round = dataclasses.replace(
        idle, hand_state=dataclasses.replace(idle.hand_state, idle_rounds=1, laid_this_round=True)
    )
    laid_round, _ = RULES.apply(laid_round, Move(0, MoveKind.PASS))
    laid_round, _ = RULES.apply(laid_round, Move(1, MoveKind.PASS))
    assert laid_round.status is Status.IN_PROGRESS and laid_round.hand_state.idle_rounds == 0


def test_thr9_a_blocked_line_ends_the_hand_at_once() -> None:
    """[THR-9] no tile in any hand matches an open end: over at once, boneyard or not."""
    match = make_match(["6-1 3-2", "5-4 4-3"], line="6-6", dice=(3, 4, 2))
    assert RULES.stock(match.hand_state) > 0
    match, events = RULES.apply(match, play(0, "6-1", End.LEFT))
    assert match.status is Status.HAND_OVER
    assert EventKind.TURN_PASSED not in kinds(events)
    assert match.history[-1].counts == (1, 2)
    assert match.history[-1].end is HandEnd.BLOCKED  # [THR-9] how the hand ended
    # whatever the dice: tiles matching an end keep the hand going though none qualifies
    open_line = make_match(["6-1 3-2", "5-4 1-0"], line="6-6", dice=(3, 4, 2))
    open_line, _ = RULES.apply(open_line, play(0, "6-1", End.LEFT))
    assert open_line.status is Status.IN_PROGRESS


def test_thr9_laying_the_last_tile_ends_the_hand_at_once() -> None:
    """[THR-9] a player out of tiles ends the hand in mid-round."""
    match = make_match(["4-1", "6-5 6-6", "4-4 5-0"], line="1-1", dice=(1, 2, 2))
    match, events = RULES.apply(match, play(0, "4-1", End.RIGHT))
    assert match.status is Status.HAND_OVER
    assert kinds(events) == [EventKind.PLAY, EventKind.PEG, EventKind.HAND_OVER]
    assert match.history[-1].counts == (0, 2, 2)
    assert match.history[-1].end is HandEnd.DOMINOED  # [THR-9] how the hand ended


def test_thr9_going_out_on_a_blocked_line_is_dominoed() -> None:
    """[THR-9] laying the last tile ends the hand as DOMINOED, even when it also blocks."""
    match = make_match(["4-1", "6-5 6-6", "5-0 3-3"], line="1-1", dice=(1, 2, 2))
    match, _ = RULES.apply(match, play(0, "4-1", End.RIGHT))  # ends 1 and 4: nobody matches
    assert match.status is Status.HAND_OVER
    assert match.history[-1].end is HandEnd.DOMINOED


def test_thr10_fewest_tiles_scores_the_others_tiles() -> None:
    """[THR-10] fewest tiles scores 1 a tile in the other hands, on top of the pegs."""
    match = make_match(
        ["4-1", "6-5 6-6", "4-4 5-0 3-0"], line="1-1", dice=(1, 2, 2), pegs=(3, 2, 1)
    )
    match, events = RULES.apply(match, play(0, "4-1", End.RIGHT))
    result = match.history[-1]
    assert result == HandResult(
        counts=(0, 2, 3), points=(3 + 1 + 5, 2, 1), winners=(0,), end=HandEnd.DOMINOED
    )
    assert events[-1] == Event(EventKind.HAND_OVER, seats=(0,), scores=(9, 2, 1))
    assert RULES.score(match).hand_points == (9, 2, 1)


def test_thr10_a_tie_for_fewest_scores_no_one() -> None:
    """[THR-10] Decision: a tie for fewest tiles scores no bonus; the pegs stand."""
    match = make_match(
        ["6-1 5-2", "5-4 4-3", "3-2 5-0 4-0"], line="6-6", dice=(3, 4, 2), pegs=(0, 2, 1)
    )
    match, _ = RULES.apply(match, play(0, "6-1", End.LEFT))
    assert match.status is Status.HAND_OVER  # blocked: nothing shows 1 or 6
    assert match.history[-1] == HandResult(
        counts=(1, 2, 3), points=(1 + 3 + 2, 2, 1), winners=(0,), end=HandEnd.BLOCKED
    )
    tie = make_match(
        ["6-1 5-2 3-2", "5-4 4-3", "2-0 5-0 4-0"], line="6-6", dice=(3, 4, 2), pegs=(0, 2, 1)
    )
    tie, _ = RULES.apply(tie, play(0, "6-1", End.LEFT))
    assert tie.status is Status.HAND_OVER
    assert tie.history[-1] == HandResult(
        counts=(2, 2, 3), points=(1, 2, 1), winners=(0, 1), end=HandEnd.BLOCKED
    )


def test_thr11_match_is_hands_per_player_times_players() -> None:
    """[THR-11] hands_per_player x players hands; the highest total wins, ties share."""
    assert ThrowUpOptions() == ThrowUpOptions(rethrow_repeats=False, hands_per_player=2)
    assert RULES.make_options({"hands_per_player": 3}).hands_per_player == 3
    for bad in (0, 21, True):
        with pytest.raises(OptionsError):
            RULES.make_options({"hands_per_player": bad})
    past = HandResult(counts=(1, 2, 3), points=(4, 0, 4), winners=(0,), end=HandEnd.BLOCKED)

    def finish(history: tuple[HandResult, ...]) -> THR:
        match = make_match(
            ["4-1", "6-5 6-6", "4-4 5-0"],
            line="1-1",
            dice=(1, 2, 2),
            history=history,
            hand_number=len(history) + 1,
        )
        return RULES.apply(match, play(0, "4-1", End.RIGHT))[0]

    assert finish((past,) * 4).status is Status.HAND_OVER
    over = finish((past,) * 5)
    assert over.status is Status.MATCH_OVER and RULES.legal_moves(over) == ()
    # 5 x 4 + (1 + 4) against 0 and 5 x 4: seat 0 alone
    assert RULES.score(over).match_points == (25, 0, 20) and RULES.score(over).winners == (0,)
    one = make_match(
        ["4-1", "6-5 6-6"],
        line="1-1",
        dice=(1, 2, 2),
        options=ThrowUpOptions(hands_per_player=1),
        history=(HandResult((0, 1), (0, 3), (0,), HandEnd.IDLE_ROUNDS),),
        hand_number=2,
    )
    one, events = RULES.apply(one, play(0, "4-1", End.RIGHT))
    assert one.status is Status.MATCH_OVER
    assert events[-1] == Event(EventKind.MATCH_OVER, seats=(0, 1), scores=(3, 3))


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "move",
    [
        play(0, "6-1"),  # [THR-5] 7: the dice 1, 5, 3 cannot make it
        play(0, "6-1", End.LEFT),  # nor on an end
        play(0, "5-1", End.LEFT),  # 6 qualifies, but matches neither 2 nor 6
        play(0, "6-3"),  # the line has started: the end is missing
        play(0, "6-3", End.LEFT),  # the wrong end: the left shows 2
        play(0, "4-4", End.RIGHT),  # not in the hand
        Move(0, MoveKind.DRAW),  # [THR-7] a tile can be laid
        Move(0, MoveKind.PASS),
    ],
)
def test_thr5_illegal_moves_leave_the_state_unchanged(move: Move) -> None:
    """[THR-5] [THR-7] bad input raises IllegalMoveError and changes nothing."""
    match = make_match(["6-1 6-3 5-1", "5-4 4-3"], line="2-2 2-6")
    before = copy.deepcopy(match)
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, move)
    assert match == before


def test_thr5_first_tile_with_an_end_is_illegal() -> None:
    """[THR-5] the first tile starts the line: its move names no end."""
    match = make_match(["6-3 5-1", "5-4 4-3"])
    before = copy.deepcopy(match)
    for end in End:
        with pytest.raises(IllegalMoveError):
            RULES.apply(match, play(0, "6-3", end))
    assert match == before


# --------------------------------------------------------------------------- random matches


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("rethrow", [False, True])
def test_thr1_thr11_random_matches(players: int, rethrow: bool) -> None:
    """[THR-1] the 27 tiles are conserved; [THR-11] every match reaches MATCH_OVER."""
    options = ThrowUpOptions(rethrow_repeats=rethrow, hands_per_player=2)
    for game in range(3):
        chooser = random.Random(f"{players}/{rethrow}/{game}")
        match = RULES.new_match(options, players, f"random-{players}-{rethrow}-{game}")
        for _ in range(2000):
            assert sorted(RULES.all_tiles(match.hand_state)) == list(FULL_SET)
            if match.status is Status.MATCH_OVER:
                break
            moves = RULES.legal_moves(match)
            assert moves and all(m.seat == RULES.to_act(match) for m in moves)
            before = match
            match, events = RULES.apply(match, chooser.choice(moves))
            if match.status is Status.IN_PROGRESS and match.hand_number == before.hand_number:
                assert sum(match.hand_state.pegs) >= sum(before.hand_state.pegs)
                rounds = match.hand_state.round - before.hand_state.round
                dice_events = [e for e in events if e.kind is EventKind.DICE]
                assert (rounds == 0) == (not dice_events)
                if rethrow and rounds:
                    assert sorted(match.hand_state.dice) != sorted(before.hand_state.dice)
        assert match.status is Status.MATCH_OVER
        assert len(match.history) == 2 * players
        for result in match.history:
            fewest = min(result.counts)
            assert result.winners == tuple(s for s, c in enumerate(result.counts) if c == fewest)


# ---------------------------------------------------------------- [THR-10] a hand's reason


def test_thr10_reason_a_tie_for_the_fewest_tiles_scores_no_one() -> None:
    """[THR-10] a tie for the fewest tiles in hand scores no bonus; the pegs stand
    ([THR-6]); the reason names the tie, the tag and the hand points."""
    match = position(
        ["6-1 5-2 3-2", "5-4 4-3", "2-0 5-0 4-0"], line="6-6", dice=(3, 4, 2), pegs=(0, 2, 1)
    )
    after, _ = RULES.apply(match, Move(0, MoveKind.PLAY, Tile(6, 1), end=End.LEFT))
    result = after.history[-1]
    assert result.counts == (2, 2, 3) and result.winners == (0, 1)  # the tie happened
    assert RULES.score(after).reasons == (
        "Blocked: no tile in any hand matches either end [THR-9]; seats 0 and 1 tie for the "
        "fewest tiles in hand, 2 each, and a tie scores no one [THR-10]. Hand points, with "
        "those pegged for tiles laid [THR-6]: seat 0 1, seat 1 2 and seat 2 1.",
    )
