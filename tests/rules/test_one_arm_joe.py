"""One Arm Joe, rule by rule ([OAJ-1]..[OAJ-10]), on scripted deals."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from domino_rules import rules
from domino_rules.bots.playout import play_out
from domino_rules.games.one_arm_joe.rules import OneArmJoeHandState, OneArmJoeOptions
from domino_rules.rules import (
    Event,
    EventKind,
    GameOverError,
    HandEnd,
    HandResult,
    IllegalMoveError,
    Match,
    Move,
    MoveKind,
    NotYourTurnError,
    OptionsError,
    PlayerCountError,
    Status,
    Tile,
    rng,
)
from domino_rules.rules.tiles import double_n

from .positions import SEED, dealt, hand, match_of, order_of, tiles

R = rules.get("one_arm_joe")
PLAY, DRAW, PASS = MoveKind.PLAY, MoveKind.DRAW, MoveKind.PASS
OAJ = Match[OneArmJoeOptions, OneArmJoeHandState]


def play(seat: int, tile: str) -> Move:
    return Move(seat, PLAY, Tile.parse(tile))


def kinds(events: tuple[Event, ...]) -> list[EventKind]:
    return [e.kind for e in events]


def position(
    hands: list[str],
    *,
    boneyard: str = "",
    line: str = "",
    open_end: int | None = None,
    to_act: int = 0,
    bonus: bool = False,
    leader: int = 0,
    dominoed: int | None = None,
    seed: str = SEED,
    **option_values: Any,
) -> OAJ:
    """A One Arm Joe position; keyword arguments past the state's fields are options."""
    state = OneArmJoeHandState(
        hands=tuple(hand(h) for h in hands),
        boneyard=tiles(boneyard),
        line=tiles(line),
        open_end=open_end,
        to_act=to_act,
        bonus=bonus,
        leader=leader,
        dominoed=dominoed,
    )
    return match_of(R, state, options=option_values, seed=seed)


# ---------------------------------------------------------------- [OAJ-1] [OAJ-2]


@pytest.mark.parametrize("n", [6, 9, 12, 15, 18])
def test_oaj1_set_is_western_double_n(n: int) -> None:
    """[OAJ-1] option set_max_pip picks double-N: (N+1)(N+2)/2 tiles, dealt or in the boneyard."""
    match = R.new_match(R.make_options({"set_max_pip": n}), 2, "s")
    assert sorted(R.all_tiles(match.hand_state)) == sorted(double_n(n))
    assert len(R.all_tiles(match.hand_state)) == (n + 1) * (n + 2) // 2


def test_oaj1_default_set_is_double_six_and_range_is_checked() -> None:
    """[OAJ-1] default 6; 5 and 19 are refused."""
    assert R.make_options({}).set_max_pip == 6
    for bad in (5, 19, "9", True):
        with pytest.raises(OptionsError):
            R.make_options({"set_max_pip": bad})


def test_oaj2_three_tiles_each_rest_is_boneyard() -> None:
    """[OAJ-2] each player gets 3 tiles; the rest, shuffled, is the boneyard."""
    match = R.new_match(R.make_options({}), 5, "deal")
    assert [len(h) for h in match.hand_state.hands] == [3] * 5
    assert len(match.hand_state.boneyard) == 28 - 15
    other = R.new_match(R.make_options({}), 5, "deal-2")
    assert match.hand_state.boneyard != other.hand_state.boneyard


@pytest.mark.parametrize(("n", "most"), [(6, 9), (9, 18), (18, 63)])
def test_oaj2_player_range_is_two_to_a_third_of_the_hand(n: int, most: int) -> None:
    """[OAJ-2] 2 up to floor(tiles / 3) players."""
    options = R.make_options({"set_max_pip": n})
    assert R.player_range(options) == (2, most)
    R.new_match(options, most, "full table")
    for bad in (1, most + 1):
        with pytest.raises(PlayerCountError):
            R.new_match(options, bad, "x")


# ---------------------------------------------------------------- [OAJ-3]


def test_oaj3_highest_double_leads_and_is_the_only_move() -> None:
    """[OAJ-3] the holder of the highest double leads it: their only legal move."""
    match = position(["1-1 6-5 2-0", "4-4 3-3 6-0", "5-2 4-1 3-0"], to_act=1, leader=1)
    assert R.legal_moves(match) == (play(1, "4-4"),)
    with pytest.raises(IllegalMoveError):
        R.apply(match, play(1, "3-3"))


@pytest.mark.parametrize("holder", [0, 1, 2])
def test_oaj3_the_deal_gives_the_lead_to_the_holder_of_the_highest_double(holder: int) -> None:
    """[OAJ-3] an exact deal: the seat dealt the highest double ([5-5], with [6-6] in the
    boneyard and [3-3] elsewhere) leads it, and it is the only legal move."""
    dealt_hands = ["6-5 4-1 2-0", "6-4 5-2 3-1", "6-3 4-0 2-1"]
    dealt_hands[holder] = "5-5 4-2 1-0"
    dealt_hands[(holder + 1) % 3] = "3-3 6-2 5-0"
    full = double_n(6)
    match = dealt(R, 3, order_of(full, " ".join(dealt_hands)))
    state = match.hand_state
    assert state.hands[holder] == hand("5-5 4-2 1-0")
    assert Tile(6, 6) in state.boneyard  # the highest double of the set was not dealt
    assert state.leader == state.to_act == R.to_act(match) == holder
    assert R.legal_moves(match) == (play(holder, "5-5"),)
    assert kinds(match.last_events) == [EventKind.DEAL, EventKind.LEADER]
    assert match.last_events[-1].seat == holder
    for other in (play(holder, "4-2"), play(holder, "3-3"), Move(holder, DRAW)):
        with pytest.raises(IllegalMoveError):
            R.apply(match, other)
    with pytest.raises(ValueError, match="void"):  # [OAJ-3] nobody holds a double
        dealt(R, 2, order_of(full, "6-5 4-1 2-0 6-4 5-2 3-1"))


def test_oaj3_deal_leader_holds_the_highest_double() -> None:
    """[OAJ-3] in real deals, the leader holds the highest double dealt."""
    for seed in range(30):
        match = R.new_match(R.make_options({}), 4, f"lead-{seed}")
        dealt = [(t, s) for s, h in enumerate(match.hand_state.hands) for t in h if t.is_double]
        assert max(dealt)[1] == match.hand_state.to_act == R.to_act(match)
        assert R.legal_moves(match) == (Move(match.hand_state.to_act, PLAY, max(dealt)[0]),)


def test_oaj3_deal_without_a_double_is_redealt() -> None:
    """[OAJ-3] Decision: a deal where nobody holds a double is void and redealt (REDEAL)."""
    tiles6 = double_n(6)
    for i in range(500):
        seed = f"redeal-{i}"
        first = rng.shuffled(seed, "deal/1/0", tiles6)
        if not any(t.is_double for t in first[:6]):
            break
    else:
        pytest.fail("no seed with a void first deal")
    match = R.new_match(R.make_options({}), 2, seed)
    assert EventKind.REDEAL in kinds(match.last_events)
    redeals = sum(1 for e in match.last_events if e.kind is EventKind.REDEAL)
    order = rng.shuffled(seed, f"deal/1/{redeals}", tiles6)
    assert match.hand_state.hands == (tuple(sorted(order[:3])), tuple(sorted(order[3:6])))
    assert any(t.is_double for h in match.hand_state.hands for t in h)


# ---------------------------------------------------------------- [OAJ-4] [OAJ-5]


def test_oaj4_single_arm_other_end_becomes_open() -> None:
    """[OAJ-4] every tile goes on the one open end; its other end becomes the open end."""
    match = position(["6-3 1-0", "3-2 6-1 5-5"], line="6-6", open_end=6, to_act=0)
    match, _events = R.apply(match, play(0, "6-3"))
    assert match.hand_state.open_end == 3 and match.hand_state.line == (*hand("6-6"), Tile(6, 3))
    # seat 1 holds [6-1], which matched the lead double's other side: only one arm
    assert R.legal_moves(match) == (play(1, "3-2"),)


def test_oaj4_doubles_inline_keep_the_open_end() -> None:
    """[OAJ-4] a double is played inline and leaves the open end unchanged."""
    match = position(["3-3 1-0", "3-2 5-5"], line="6-6 6-3", open_end=3, to_act=0)
    match, _ = R.apply(match, play(0, "3-3"))
    assert match.hand_state.open_end == 3
    assert R.view(match, None).table.line[-1] == Tile(3, 3)


def test_oaj5_after_the_lead_play_passes_to_the_next_seat() -> None:
    """[OAJ-5] default: the lead double earns no bonus turn."""
    match = position(["6-6 1-0 6-2", "3-2 5-5 6-1", "0-0 2-1 4-4"], to_act=0)
    match, events = R.apply(match, play(0, "6-6"))
    assert R.to_act(match) == 1 and EventKind.BONUS_TURN not in kinds(events)


def test_oaj5_lead_double_bonus_option() -> None:
    """[OAJ-5] lead_double_bonus: the leader plays again at once."""
    match = position(["6-6 1-0 6-2", "3-2 5-5 6-1"], to_act=0, lead_double_bonus=True)
    match, events = R.apply(match, play(0, "6-6"))
    assert R.to_act(match) == 0 and EventKind.BONUS_TURN in kinds(events)
    assert R.legal_moves(match) == (play(0, "6-2"),)


# ---------------------------------------------------------------- [OAJ-6]


def test_oaj6_double_earns_a_bonus_turn() -> None:
    """[OAJ-6] a player who plays a double takes a bonus turn at once and must match."""
    match = position(["5-5 5-2 5-1 0-0", "3-2 4-4"], line="6-6 6-5", open_end=5, boneyard="1-1")
    match, events = R.apply(match, play(0, "5-5"))
    assert R.to_act(match) == 0 and EventKind.BONUS_TURN in kinds(events)
    assert set(R.legal_moves(match)) == {play(0, "5-2"), play(0, "5-1")}


def test_oaj6_after_the_bonus_play_the_next_seat_has_a_normal_turn() -> None:
    """[OAJ-6] the bonus turn is one turn: the next seat draws as usual when it cannot match."""
    match = position(["5-5 5-2 5-1 0-0", "3-1 4-4"], line="6-6 6-5", open_end=5, boneyard="1-1")
    match, _ = R.apply(match, play(0, "5-5"))
    match, events = R.apply(match, play(0, "5-2"))
    assert EventKind.BONUS_TURN not in kinds(events)
    assert R.to_act(match) == 1 and not match.hand_state.bonus
    assert R.legal_moves(match) == (Move(1, DRAW),)


def test_oaj6_bonus_turn_without_a_match_passes_without_drawing() -> None:
    """[OAJ-6] no matching tile on a bonus turn: PASS (no drawing), play moves on."""
    match = position(["5-5 0-0 2-1", "3-2 4-4"], line="6-6 6-5", open_end=5, boneyard="5-3 1-1")
    match, _ = R.apply(match, play(0, "5-5"))
    assert R.legal_moves(match) == (Move(0, PASS),)
    with pytest.raises(IllegalMoveError):
        R.apply(match, Move(0, DRAW))
    match, events = R.apply(match, Move(0, PASS))
    assert R.to_act(match) == 1 and len(match.hand_state.boneyard) == 2
    assert kinds(events) == [EventKind.PASS]


# ---------------------------------------------------------------- [OAJ-7]


def test_oaj7_must_play_a_matching_tile_any_of_them() -> None:
    """[OAJ-7] with matching tiles the player must play one (any): DRAW is not legal."""
    match = position(["4-3 4-1 2-2", "3-2 1-1"], line="6-6 6-4", open_end=4, boneyard="5-5")
    assert set(R.legal_moves(match)) == {play(0, "4-3"), play(0, "4-1")}
    with pytest.raises(IllegalMoveError):
        R.apply(match, Move(0, DRAW))
    with pytest.raises(IllegalMoveError):
        R.apply(match, play(0, "2-2"))


def test_oaj7_draw_until_a_match_which_is_played_at_once() -> None:
    """[OAJ-7] DRAW takes tiles until one matches and plays it at once; the others stay."""
    match = position(["2-2 1-0", "3-3 2-1"], line="6-6 6-4", open_end=4, boneyard="5-5 3-1 4-0 6-2")
    assert R.legal_moves(match) == (Move(0, DRAW),)
    after, events = R.apply(match, Move(0, DRAW))
    assert kinds(events) == [EventKind.DRAW, EventKind.DRAW, EventKind.AUTO_PLAY]
    assert after.hand_state.hands[0] == hand("2-2 1-0 5-5 3-1")
    assert after.hand_state.open_end == 0 and after.hand_state.line[-1] == Tile(4, 0)
    assert after.hand_state.boneyard == (Tile(6, 2),)
    assert R.to_act(after) == 1
    # the drawn tiles are private to the drawer; the played one is public
    seen_by_1 = R.view(after, 1).events
    assert [e.tile for e in seen_by_1] == [None, None, Tile(4, 0)]
    assert [e.tile for e in R.view(after, 0).events] == [Tile(5, 5), Tile(3, 1), Tile(4, 0)]


def test_oaj7_drawn_double_earns_a_bonus_turn() -> None:
    """[OAJ-7] a drawn matching double is played at once and the bonus turn follows."""
    match = position(["2-2 1-0", "3-3 2-1"], line="6-6 6-4", open_end=4, boneyard="4-4 4-2")
    after, events = R.apply(match, Move(0, DRAW))
    assert kinds(events) == [EventKind.AUTO_PLAY, EventKind.BONUS_TURN]
    assert R.to_act(after) == 0 and after.hand_state.bonus


def test_oaj7_boneyard_runs_out_the_turn_passes() -> None:
    """[OAJ-7] if the boneyard runs out before a match, the turn passes."""
    match = position(["2-2 1-0", "3-4 2-1"], line="6-6 6-4", open_end=4, boneyard="5-5 1-1")
    after, events = R.apply(match, Move(0, DRAW))
    assert kinds(events) == [EventKind.DRAW, EventKind.DRAW, EventKind.TURN_PASSED]
    assert after.hand_state.boneyard == () and R.to_act(after) == 1
    assert after.status is Status.IN_PROGRESS  # seat 1 holds [4-3]: not blocked


def test_oaj7_empty_boneyard_no_match_passes() -> None:
    """[OAJ-7] no matching tile and an empty boneyard: PASS is the one legal move."""
    match = position(["2-2 1-0", "4-3 2-1"], line="6-6 6-4", open_end=4)
    assert R.legal_moves(match) == (Move(0, PASS),)
    after, _ = R.apply(match, Move(0, PASS))
    assert R.to_act(after) == 1


# ---------------------------------------------------------------- [OAJ-8]


def test_oaj8_playing_the_last_tile_ends_the_hand() -> None:
    """[OAJ-8] a player who plays their last tile dominoes: the hand ends at once."""
    match = position(["4-1", "3-3 2-1", "6-0"], line="6-6 6-4", open_end=4, boneyard="5-5")
    after, events = R.apply(match, play(0, "4-1"))
    assert after.status is not Status.IN_PROGRESS
    assert EventKind.HAND_OVER in kinds(events)
    assert after.history[-1].winners == (0,)
    assert after.history[-1].end is HandEnd.DOMINOED  # [OAJ-8] how the hand ended


def test_oaj8_double_as_last_tile_ends_the_hand_without_bonus() -> None:
    """[OAJ-8] dominoing with a double ends the hand; there is no bonus turn to take."""
    match = position(["4-4", "3-3 2-1"], line="6-6 6-4", open_end=4, boneyard="5-5")
    after, events = R.apply(match, play(0, "4-4"))
    assert after.status is not Status.IN_PROGRESS and EventKind.BONUS_TURN not in kinds(events)


def test_oaj8_blocked_hand_ends() -> None:
    """[OAJ-8] the boneyard is empty and nobody holds a matching tile: blocked, hand over."""
    match = position(["4-2 1-0", "3-3 2-1"], line="6-6 6-4", open_end=4)
    after, events = R.apply(match, play(0, "4-2"))  # open end 2: seat 1 holds [2-1]
    assert after.status is Status.IN_PROGRESS
    after, events = R.apply(after, play(1, "2-1"))  # open end 1: [1-0] still matches
    assert after.status is Status.IN_PROGRESS
    after, events = R.apply(after, play(0, "1-0"))  # seat 0 dominoes
    assert after.history[-1].winners == (0,)
    blocked = position(["5-2 1-0", "3-3 2-1"], line="6-6 6-4", open_end=4)
    blocked = dataclasses.replace(
        blocked,
        hand_state=dataclasses.replace(
            blocked.hand_state, hands=(hand("4-5 1-0"), hand("3-3 2-1"))
        ),
    )
    after, events = R.apply(blocked, play(0, "5-4"))  # open end 5: nobody holds a 5
    assert after.status is not Status.IN_PROGRESS and EventKind.HAND_OVER in kinds(events)
    assert after.history[-1].counts == (1, 9)
    assert after.history[-1].end is HandEnd.BLOCKED  # [OAJ-8] how the hand ended


def test_oaj8_blocked_means_no_player_at_all_can_match() -> None:
    """[OAJ-8] the seat to act cannot match, but a later seat can: not blocked, it passes."""
    match = position(["5-4 1-0", "3-3 2-1", "5-2 6-0"], line="6-6 6-4", open_end=4)
    after, _ = R.apply(match, play(0, "5-4"))
    assert after.status is Status.IN_PROGRESS
    assert R.legal_moves(after) == (Move(1, PASS),)
    after, _ = R.apply(after, Move(1, PASS))
    assert R.legal_moves(after) == (play(2, "5-2"),)


def test_oaj8_not_blocked_while_the_boneyard_has_hand() -> None:
    """[OAJ-8] with tiles in the boneyard the hand goes on even if no hand matches."""
    match = position(["5-4 1-0", "3-3 2-1"], line="6-6 6-4", open_end=4, boneyard="2-2")
    after, _ = R.apply(match, play(0, "5-4"))
    assert after.status is Status.IN_PROGRESS and R.legal_moves(after) == (Move(1, DRAW),)


# ---------------------------------------------------------------- [OAJ-9]


def _end_blocked(hands: list[str], **options: Any) -> OAJ:
    """Seat 0 plays [5-4] on 4 and blocks (nobody holds a 5, the boneyard is empty)."""
    match = position(
        ["5-4 " + hands[0], *hands[1:]], line="6-6 6-4", open_end=4, target_score=0, **options
    )
    after, _ = R.apply(match, play(0, "5-4"))
    assert after.status is Status.MATCH_OVER
    return after


def test_oaj9_lowest_count_scores_the_others_pips() -> None:
    """[OAJ-9] OTHERS_TOTAL (default): the lowest count scores all other players' pips."""
    after = _end_blocked(["1-0", "3-3 2-1", "6-6 6-2"])
    assert after.history[-1].counts == (1, 9, 20)
    assert after.history[-1].points == (29, 0, 0)
    assert R.score(after).winners == (0,)


def test_oaj9_others_minus_own() -> None:
    """[OAJ-9] OTHERS_MINUS_OWN: the others' pips less the winner's own."""
    after = _end_blocked(["1-0", "3-3 2-1", "6-6 6-2"], scoring="OTHERS_MINUS_OWN")
    assert after.history[-1].points == (28, 0, 0)


def test_oaj9_domino_beats_a_hand_of_double_blank() -> None:
    """[OAJ-9] a player who dominoed wins outright, even against a hand of only [0-0]."""
    match = position(["4-1", "0-0", "6-3"], line="6-6 6-4", open_end=4, target_score=0)
    after, _ = R.apply(match, play(0, "4-1"))
    assert after.history[-1].counts == (0, 0, 9)
    assert after.history[-1].winners == (0,)
    assert after.history[-1].points == (9, 0, 0)


def test_oaj9_tie_for_lowest_scores_nothing_by_default() -> None:
    """[OAJ-9] Decision: a tie for lowest count scores nothing (tie = NO_SCORE)."""
    after = _end_blocked(["2-0", "1-1", "6-6"])
    assert after.history[-1].counts == (2, 2, 12)
    assert after.history[-1].points == (0, 0, 0)
    assert after.history[-1].winners == (0, 1)


def test_oaj9_tie_shared() -> None:
    """[OAJ-9] tie = SHARED: each tied player scores the untied players' pips (less own)."""
    after = _end_blocked(["2-0", "1-1", "6-6"], tie="SHARED")
    assert after.history[-1].points == (12, 12, 0)
    after = _end_blocked(["2-0", "1-1", "6-6"], tie="SHARED", scoring="OTHERS_MINUS_OWN")
    assert after.history[-1].points == (10, 10, 0)


def test_oaj9_everyone_tied_nobody_scores() -> None:
    """[OAJ-9] if every player is tied, nobody scores, even under SHARED."""
    after = _end_blocked(["2-0", "1-1"], tie="SHARED")
    assert after.history[-1].points == (0, 0)
    after = _end_blocked(["2-0", "1-1"], tie="SHARED", scoring="OTHERS_MINUS_OWN")
    assert after.history[-1].points == (0, 0)  # not "minus their own"


# ---------------------------------------------------------------- [OAJ-10]


def test_oaj10_hand_over_then_next_hand_by_seat_zero() -> None:
    """[OAJ-10] below the target the match goes on: NEXT_HAND, applied by seat 0, deals again."""
    match = position(["4-1", "3-3 2-1"], line="6-6 6-4", open_end=4, to_act=0, target_score=100)
    after, events = R.apply(match, play(0, "4-1"))
    assert after.status is Status.HAND_OVER
    assert R.to_act(after) == 0 and R.legal_moves(after) == (Move(0, MoveKind.NEXT_HAND),)
    with pytest.raises(NotYourTurnError):
        R.apply(after, Move(1, MoveKind.NEXT_HAND))
    nxt, events = R.apply(after, Move(0, MoveKind.NEXT_HAND))
    assert nxt.status is Status.IN_PROGRESS and nxt.hand_number == 2
    assert kinds(events)[:2] == [EventKind.NEXT_HAND, EventKind.DEAL]
    # [OAJ-10] every hand is led per [OAJ-3]
    dealt = [(t, s) for s, h in enumerate(nxt.hand_state.hands) for t in h if t.is_double]
    assert R.to_act(nxt) == max(dealt)[1]
    assert R.score(nxt).match_points == (9, 0)


def test_oaj10_match_ends_when_a_total_reaches_the_target() -> None:
    """[OAJ-10] the match ends once a total reaches target_score; highest total wins."""
    match = position(["4-1", "6-6 6-5 2-1"], line="6-6 6-4", open_end=4, target_score=20)
    match = dataclasses.replace(
        match, history=(HandResult((0, 3), (0, 8), (1,), HandEnd.BLOCKED),), hand_number=2
    )
    after, events = R.apply(match, play(0, "4-1"))
    assert after.status is Status.MATCH_OVER
    assert R.score(after).match_points == (26, 8)
    assert R.score(after).winners == (0,)
    assert kinds(events)[-2:] == [EventKind.HAND_OVER, EventKind.MATCH_OVER]
    with pytest.raises(GameOverError):
        R.apply(after, Move(0, MoveKind.NEXT_HAND))
    assert R.legal_moves(after) == () and R.to_act(after) is None


def test_oaj10_equal_highest_totals_share_the_win() -> None:
    """[OAJ-10] equal highest totals share the win."""
    match = position(["4-1", "3-3 2-1"], line="6-6 6-4", open_end=4, target_score=20)
    match = dataclasses.replace(
        match, history=(HandResult((9, 0), (0, 20), (1,), HandEnd.DOMINOED),), hand_number=2
    )
    after, _ = R.apply(match, play(0, "4-1"))
    assert R.score(after).match_points == (9, 20)
    match = dataclasses.replace(
        match, history=(HandResult((9, 0), (0, 9), (1,), HandEnd.DOMINOED),), hand_number=2
    )
    after, _ = R.apply(match, play(0, "4-1"))  # 9 each, target 20 not reached: goes on
    assert after.status is Status.HAND_OVER
    match = dataclasses.replace(match, options=R.make_options({"target_score": 9}))
    after, _ = R.apply(match, play(0, "4-1"))
    assert after.status is Status.MATCH_OVER and R.score(after).winners == (0, 1)


def test_oaj10_target_zero_is_a_single_hand() -> None:
    """[OAJ-10] target_score 0 means a single hand."""
    match = position(["4-1", "3-3 2-1"], line="6-6 6-4", open_end=4, target_score=0)
    after, _ = R.apply(match, play(0, "4-1"))
    assert after.status is Status.MATCH_OVER


# ---------------------------------------------------------------- framework checks


def test_wrong_seat_and_illegal_moves_leave_the_state_unchanged() -> None:
    match = position(["4-3 4-1", "3-2 1-1"], line="6-6 6-4", open_end=4, boneyard="5-5")
    before = dataclasses.replace(match)
    with pytest.raises(NotYourTurnError):
        R.apply(match, play(1, "3-2"))
    with pytest.raises(IllegalMoveError):
        R.apply(match, play(0, "3-2"))  # not in hand
    with pytest.raises(IllegalMoveError):
        R.apply(match, Move(0, PLAY, Tile(4, 3), end=rules.End.LEFT))  # a field PLAY has not
    assert match == before


def test_same_seed_same_game() -> None:
    """Determinism: same seed, options and moves give the same game."""

    def run(seed: str) -> list[OAJ]:
        match: OAJ = R.new_match(R.make_options({}), 4, seed)
        seen: list[OAJ] = []
        play_out(R, match, random.Random(7), observe=lambda step: seen.append(step.after))
        return seen

    assert run("same") == run("same")
    assert run("same") != run("other")


# ---------------------------------------------------------------- [OAJ-9] a hand's reason


def oaj_blocked(hands: list[str], **values: Any) -> OAJ:
    """Seat 0 plays [5-4] on the open 4 and blocks the hand: nobody holds a 5 and the
    boneyard is empty."""
    match = position(
        ["5-4 " + hands[0], *hands[1:]], line="6-6 6-4", open_end=4, target_score=0, **values
    )
    after, _ = R.apply(match, Move(0, MoveKind.PLAY, Tile(5, 4)))
    assert after.status is Status.MATCH_OVER and after.history[-1].end is HandEnd.BLOCKED
    return after


def test_oaj9_reason_a_tie_for_the_lowest_count_scores_nothing() -> None:
    """[OAJ-9] a tie for the lowest count: the reason names the tied seats, their count,
    and that the tie scores nothing (tie NO_SCORE)."""
    after = oaj_blocked(["2-0", "1-1", "6-2"])
    result = after.history[-1]
    assert result.counts == (2, 2, 8) and result.winners == (0, 1)  # the tie happened
    assert result.points == (0, 0, 0)
    assert R.score(after).reasons == (
        "Blocked: seats 0 and 1 tie for the fewest pips, 2 each; under tie NO_SCORE a tie "
        "scores nothing for anyone [OAJ-9].",
    )


def test_oaj9_reason_a_shared_tie_and_everyone_tied() -> None:
    """[OAJ-9] tie SHARED: each tied seat scores the pips of the seats not tied (less its
    own under OTHERS_MINUS_OWN); with every seat tied nobody scores."""
    after = oaj_blocked(["2-0", "1-1", "6-2"], tie="SHARED", scoring="OTHERS_MINUS_OWN")
    assert after.history[-1].points == (6, 6, 0)
    (reason,) = R.score(after).reasons
    assert reason == (
        "Blocked: seats 0 and 1 tie for the fewest pips, 2 each, and share the hand under "
        "tie SHARED [OAJ-9]: each scores the 8 pips of the seats not tied less their own 2, 6."
    )
    everyone = oaj_blocked(["2-0", "1-1"], tie="SHARED")
    assert everyone.history[-1].winners == (0, 1) and everyone.history[-1].points == (0, 0)
    assert R.score(everyone).reasons == (
        "Blocked: seats 0 and 1 both hold 2 pips; with every seat tied nobody scores [OAJ-9].",
    )


def test_oaj9_reason_a_domino_wins_outright_even_against_a_count_of_0() -> None:
    """[OAJ-9] the seat that dominoed wins outright, even against a seat left with 0 pips
    (a hand of [0-0]): the reason says so."""
    match = position(["4-1", "0-0", "6-3"], line="6-6 6-4", open_end=4, target_score=0)
    after, _ = R.apply(match, Move(0, MoveKind.PLAY, Tile(4, 1)))
    result = after.history[-1]
    assert result.end is HandEnd.DOMINOED and result.counts == (0, 0, 9)
    assert R.score(after).reasons == (
        "Dominoed: seat 0 laid their last tile and wins the hand outright, even against "
        "seat 1 left with 0 pips [OAJ-9]. Seat 0 scores 9, the pips left in the other hands.",
    )
