"""Dancing Dragons: scripted tests per rule tag [DD-1]..[DD-11] and bad input."""

from __future__ import annotations

from typing import Any

import pytest

from domino_rules.games.dancing_dragons.rules import (
    DancingDragonsHandState,
    DancingDragonsOptions,
    DancingDragonsTable,
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
from domino_rules.rules.tiles import Tile, chinese_set

from . import positions
from .positions import hand as tiles
from .positions import laid

RULES = get("dancing_dragons")
DD = Match[DancingDragonsOptions, DancingDragonsHandState]


def position(
    held: list[str],
    *,
    line: str = "",
    discards: list[str] | None = None,
    to_act: int = 0,
    leader: int = 0,
    history: tuple[HandResult, ...] = (),
    **values: Any,
) -> DD:
    """An exact position (not checked: a test builds what it needs)."""
    opts = RULES.make_options(values)
    players = len(held)
    state = DancingDragonsHandState(
        tuple(tiles(text) for text in held),
        tuple(tuple(tiles(t)) for t in (discards or [""] * players)),
        laid(line),
        to_act,
        leader,
    )
    return Match(players, opts, "dd", len(history) + 1, state, history)


def moves(match: DD) -> list[str]:
    return [str(move) for move in RULES.legal_moves(match)]


def play(seat: int, tile: str, end: End | None = None) -> Move:
    return Move(seat, MoveKind.PLAY, Tile.parse(tile), end=end)


def test_the_chinese_set_and_the_hand_sizes() -> None:
    """[DD-1] the Chinese set; 16, 10 or 8 tiles; with 3 players 2 tiles are not used."""
    assert RULES.player_range(RULES.make_options({})) == (2, 4)
    for players, size in ((2, 16), (3, 10), (4, 8)):
        match = RULES.new_match(RULES.make_options({}), players, "sizes")
        assert [len(h) for h in match.hand_state.hands] == [size] * players
        assert sorted(RULES.all_tiles(match.hand_state)) == sorted(chinese_set())
    assert len(RULES.new_match(RULES.make_options({}), 3, "x").hand_state.unused) == 2
    with pytest.raises(PlayerCountError):
        RULES.new_match(RULES.make_options({}), 5, "five")


def test_the_deal_and_the_first_leader() -> None:
    """[DD-2] the shuffled set cut seat by seat, the last two aside; the first leader
    drawn with ``lead/1``; later hands led by the last hand's winner."""
    match = RULES.new_match(RULES.make_options({"hands": 2}), 3, "deal")
    order = rng.shuffled("deal", "deal/1/0", chinese_set())
    assert [list(h) for h in match.hand_state.hands] == [
        sorted(order[10 * s : 10 * s + 10]) for s in range(3)
    ]
    assert list(match.hand_state.unused) == sorted(order[30:])
    assert match.hand_state.leader == rng.Stream("deal", "lead/1").below(3)
    won = position(
        ["2-1", "", ""], line="4-1", discards=["", "6-6", "5-5"], to_act=0, leader=1, hands=2
    )
    over, _ = RULES.apply(won, play(0, "2-1", End.RIGHT))
    assert over.status is Status.HAND_OVER and over.history[-1].winners == (0,)
    nxt, _ = RULES.apply(over, Move(0, MoveKind.NEXT_HAND))
    assert nxt.hand_state.leader == 0 == RULES.to_act(nxt)


def test_the_leader_plays_any_tile_with_both_halves_open() -> None:
    """[DD-3] any tile, no end and no open half; it lies high half left."""
    match = position(["6-6 4-2 4-2", "1-1"], leader=0)
    assert moves(match) == ["0 PLAY [4-2]", "0 PLAY [6-6]"]
    after, events = RULES.apply(match, play(0, "4-2"))
    table = RULES.view(after, 1).table
    assert isinstance(table, DancingDragonsTable)
    assert (table.left_end, table.right_end) == (4, 2) and events[0].end is None


def test_later_tiles_name_their_end_and_doubles_lie_inline() -> None:
    """[DD-4] a move per end a tile fits, two when the ends are equal; a double keeps the
    end's number."""
    match = position(["4-2 6-4 2-2", "1-1"], line="4-2", to_act=0)
    assert moves(match)[:4] == [
        "0 PLAY [2-2] RIGHT",
        "0 PLAY [4-2] LEFT",
        "0 PLAY [4-2] RIGHT",
        "0 PLAY [6-4] LEFT",
    ]
    after, _ = RULES.apply(match, play(0, "2-2", End.RIGHT))
    assert RULES.view(after, 0).table.right_end == 2


def test_discard_only_when_nothing_fits_unless_the_option_is_off() -> None:
    """[DD-5] under must_play_if_able a player who can play must; otherwise any tile may
    be discarded; there is never a PASS."""
    can = position(["6-4 1-1", "3-3"], line="4-2", to_act=0)
    assert moves(can) == ["0 PLAY [6-4] LEFT"]
    cannot = position(["6-6 1-1", "3-3"], line="4-2", to_act=0)
    assert moves(cannot) == ["0 DISCARD [1-1]", "0 DISCARD [6-6]"]
    free = position(["6-4 1-1", "3-3"], line="4-2", to_act=0, must_play_if_able=False)
    assert moves(free) == ["0 PLAY [6-4] LEFT", "0 DISCARD [1-1]", "0 DISCARD [6-4]"]
    with pytest.raises(IllegalMoveError):
        RULES.apply(can, Move(0, MoveKind.PASS))


def test_a_blocked_line_does_not_end_the_hand() -> None:
    """[DD-6] the hand ends when every tile is played or discarded, not when blocked."""
    match = position(["6-6 5-5", "3-3"], line="4-2", to_act=0)
    after, _ = RULES.apply(match, Move(0, MoveKind.DISCARD, Tile(5, 5)))
    assert after.status is Status.IN_PROGRESS and moves(after) == ["1 DISCARD [3-3]"]


def test_discards_score_doubled_when_someone_discarded_nothing() -> None:
    """[DD-7] the pips discarded, doubled when another player has no discards."""
    match = position(["2-1", ""], line="4-1", discards=["", "6-5"], to_act=0, hands=1)
    after, _ = RULES.apply(match, play(0, "2-1", End.RIGHT))
    assert after.history[-1].counts == (0, 11) and after.history[-1].points == (0, 22)


def test_the_winner_has_the_fewest_points_then_fewer_discards() -> None:
    """[DD-8] fewest points; equal points: fewer discarded tiles."""
    match = position(
        ["2-1", ""], line="4-1", discards=["3-3", "5-1"], to_act=0, hands=1
    )  # 6 pips in one tile against 6 in one: then the turn from the leader
    after, _ = RULES.apply(match, play(0, "2-1", End.RIGHT))
    assert after.history[-1].points == (6, 6) and after.history[-1].winners == (0,)
    fewer = position(["2-1", ""], line="4-1", discards=["2-2 1-1", "5-1"], to_act=0, hands=1)
    after, _ = RULES.apply(fewer, play(0, "2-1", End.RIGHT))
    assert after.history[-1].points == (6, 6)
    assert after.history[-1].winners == (1,)  # 6 pips in one tile against two


def test_the_match_and_its_settlement() -> None:
    """[DD-9] ``hands`` hands or to a target; fewest totals win; pairs settle."""
    match = position(["2-1", ""], line="4-1", discards=["", "6-5"], to_act=0, hands=1)
    after, _ = RULES.apply(match, play(0, "2-1", End.RIGHT))
    assert after.status is Status.MATCH_OVER and RULES.winners(after) == (0,)
    assert RULES.settlement(after) == (22, -22)
    with pytest.raises(OptionsError):
        RULES.make_options({"hands": 0})
    with pytest.raises(OptionsError):
        RULES.make_options({"target_score": 100_001})


def test_a_seat_sees_the_line_and_its_own_discards_only() -> None:
    """[DD-10] own hand and discards; every seat's counts; the line face up; stock 0."""
    match = position(["6-6", "3-3"], line="4-2", discards=["1-1", "5-5"], to_act=0)
    view = RULES.view(match, 0)
    assert view.table == DancingDragonsTable(laid("4-2"), 4, 2, 0, tiles("1-1"), (1, 1))
    assert view.stock == 0
    assert RULES.view(match, None).table.discards == ()


def test_events_and_the_score() -> None:
    """[DD-11] DEAL and LEADER; PLAY with its end; DISCARD shown only to its seat;
    HAND_OVER naming the one winner; every hand ends ALL_TILES_PLACED."""
    match = RULES.new_match(RULES.make_options({"hands": 1}), 2, "events")
    assert [e.kind for e in match.last_events] == [EventKind.DEAL, EventKind.LEADER]
    cannot = position(["6-6 1-1", "3-3 2-2"], line="4-2", to_act=0)
    _, events = RULES.apply(cannot, Move(0, MoveKind.DISCARD, Tile(1, 1)))
    assert events[0].private_to == 0 and events[0].for_seat(1).tile is None
    done = position(["2-1", ""], line="4-1", discards=["", "6-5"], to_act=0, hands=1)
    after, events = RULES.apply(done, play(0, "2-1", End.RIGHT))
    over = next(e for e in events if e.kind is EventKind.HAND_OVER)
    assert over.seats == (0,) and after.history[-1].end is HandEnd.ALL_TILES_PLACED


def test_a_forged_state_is_refused() -> None:
    """[DD-3] [DD-4] a discard before the lead; a line whose ends do not touch."""
    full = RULES.new_match(RULES.make_options({}), 2, "forge")
    state = full.hand_state
    hands = list(state.hands)
    tile = hands[0][0]
    hands[0] = hands[0][1:]
    forged = DancingDragonsHandState(tuple(hands), ((tile,), ()), (), 1, 0)
    with pytest.raises(InvalidStateError, match="discard before the lead"):
        RULES.check_match(Match(2, full.options, "forge", 1, forged))


# ---------------------------------------------------------------- [DD-7] [DD-8] a hand's reason


def dd_finish(discards: list[str]) -> DD:
    """Seat 0 lays its last tile, [2-1], on the right end (1): the hand is over."""
    state = DancingDragonsHandState(
        (positions.tiles("2-1"), ()),
        tuple(positions.tiles(text) for text in discards),
        laid("4-1"),
        0,
        0,
    )
    match = Match(2, RULES.make_options({"hands": 1}), "dd", 1, state)
    after, _ = RULES.apply(match, Move(0, MoveKind.PLAY, Tile(2, 1), end=End.RIGHT))
    assert after.status is Status.MATCH_OVER
    return after


def test_dd8_reason_names_the_tie_break() -> None:
    """[DD-8] equal fewest points: fewer discarded tiles, else the turn order from the
    leader; the reason names the step and the tag."""
    fewer = dd_finish(["2-2 1-1", "5-1"])
    assert fewer.history[-1].points == (6, 6) and fewer.history[-1].winners == (1,)
    assert RULES.score(fewer).reasons == (
        "Every tile played or discarded [DD-6]: seats 0 and 1 tie for the fewest points, "
        "6 each; seat 1 wins the tie on fewer discarded tiles (1, against 2 for seat 0) "
        "[DD-8]. Each seat scores its discarded pips [DD-7]: seat 0 6 and seat 1 6.",
    )
    turn = dd_finish(["3-3", "5-1"])
    assert turn.history[-1].points == (6, 6) and turn.history[-1].winners == (0,)
    assert (
        "seat 0 wins the tie on the first in turn order from this hand's leader, seat 0 [DD-8]"
    ) in RULES.score(turn).reasons[0]


def test_dd7_reason_names_the_doubling() -> None:
    """[DD-7] a seat that discarded nothing doubles the others' scores: the reason says
    which seat and why."""
    after = dd_finish(["", "6-5"])
    assert after.history[-1].points == (0, 22)
    assert RULES.score(after).reasons == (
        "Every tile played or discarded [DD-6]: seat 0 has the fewest points, 0, and wins "
        "the hand [DD-8]. Each seat scores its discarded pips, doubled because seat 0 "
        "discarded nothing [DD-7]: seat 0 0 and seat 1 22.",
    )
