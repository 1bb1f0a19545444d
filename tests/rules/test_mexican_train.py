"""Mexican Train: scripted tests per rule tag [MT-1]..[MT-16], the worked examples of
RULES.md's trains section (1 to 6 and 8), the decisions of the module docstring, and bad
input."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from domino_rules.games.mexican_train.rules import (
    HAND_SIZES,
    MexicanTrainHandState,
    MexicanTrainOptions,
    MexicanTrainTable,
    PendingDouble,
)
from domino_rules.rules import trains
from domino_rules.rules.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
    NotYourTurnError,
    OptionsError,
    PlayerCountError,
)
from domino_rules.rules.events import Event, EventKind
from domino_rules.rules.match import HandEnd, Match, Status
from domino_rules.rules.moves import End, Move, MoveKind
from domino_rules.rules.registry import get
from domino_rules.rules.tiles import Tile, double_n

from .positions import SEED, dealt, hand, match_of, tiles

RULES = get("mexican_train")
MT = Match[MexicanTrainOptions, MexicanTrainHandState]
#: The worked examples' options: double-9, four tiles each, one hand.
EXAMPLE = {"set_max_pip": 9, "hand_size": 4, "hands": 1}


def options(**values: Any) -> MexicanTrainOptions:
    made: MexicanTrainOptions = RULES.make_options(values)
    return made


def deal(hands: list[str], drawn: str = "", **values: Any) -> MT:
    """The example's deal: ``hands`` dealt to seats 0, 1, ... in order, then the tiles
    ``drawn`` at the front of the boneyard, the rest of the set after them (ascending);
    the engine set aside unless ``engine`` says ``FROM_HAND``."""
    opts = options(**{**EXAMPLE, **values})
    engine = trains.engine_of(opts.set_max_pip, 1)
    front = [tile for text in hands for tile in tiles(text)] + list(tiles(drawn))
    rest = [
        t
        for t in double_n(opts.set_max_pip)
        if t not in front and (opts.engine is trains.Engine.FROM_HAND or t != engine)
    ]
    return dealt(RULES, len(hands), (*front, *rest), options=opts)


def position(
    hands: list[str],
    trains_: list[str],
    *,
    boneyard: str = "",
    to_act: int = 0,
    public: int = 0,
    pending: tuple[int, ...] = (),
    binding: int = 0,
    opening: tuple[int, ...] = (),
    engine: str = "12-12",
    opening_kind: str = "SINGLE",
    **values: Any,
) -> MT:
    """An exact position: ``trains_`` as tiles from the hub outwards (the seats' trains,
    then the Mexican train), only the tiles that matter (the others are taken to be on the
    table)."""
    opts = options(**{"hands": 1, "opening": opening_kind, **values})
    lines = tuple(tiles(text) for text in trains_)
    hub = Tile.parse(engine)
    state = MexicanTrainHandState(
        tuple(hand(text) for text in hands),
        tiles(boneyard),
        hub,
        lines,
        tuple(trains.open_end(hub.high, line) for line in lines),
        public,
        pending,
        binding,
        opening,
        to_act,
        0,
        0,
    )
    return match_of(RULES, state, options=opts)


def moves(match: MT) -> list[str]:
    return [str(move) for move in RULES.legal_moves(match)]


def play(seat: int, tile: str, train: int) -> Move:
    return Move(seat, MoveKind.PLAY, Tile.parse(tile), train=train)


def draw(seat: int) -> Move:
    return Move(seat, MoveKind.DRAW)


def pass_(seat: int) -> Move:
    return Move(seat, MoveKind.PASS)


def kinds(events: tuple[Event, ...]) -> list[str]:
    return [f"{e.kind.value} {e.seat}" for e in events]


def train_text(match: MT, train: int) -> str:
    """A train as RULES.md writes it, hub first: ``9|4 4|4 4|3``."""
    table = RULES.table(match, None)
    return " ".join(f"{t.left}|{t.right}" for t in table.trains[train].tiles)


def run(match: MT, *steps: Move) -> tuple[MT, tuple[Event, ...]]:
    events: tuple[Event, ...] = ()
    for step in steps:
        match, events = RULES.apply(match, step)
    return match, events


# --------------------------------------------------------------------------- the set and the deal


@pytest.mark.parametrize("pips", [9, 12, 15])
def test_the_set_is_double_9_12_or_15(pips: int) -> None:
    """[MT-1] a Western double-N set, N 9, 12 (the default) or 15."""
    match = RULES.new_match(options(set_max_pip=pips), 2, "set")
    assert sorted(RULES.all_tiles(match.hand_state)) == sorted(double_n(pips))
    assert options().set_max_pip == 12
    for wrong in (6, 10, 18):
        with pytest.raises(OptionsError):
            options(set_max_pip=wrong)


def test_hand_sizes_by_the_table_and_the_player_counts() -> None:
    """[MT-2] 15/12/10 on double-12 and double-15, 12/11/10 on double-9 for 2-4 players;
    a count the table has no entry for needs hand_size; players x size within the tiles
    dealt from."""
    sizes = [trains.hand_size(HAND_SIZES, 12, p, 0) for p in range(2, 9)]
    assert sizes == [15, 15, 15, 12, 12, 10, 10]
    assert [trains.hand_size(HAND_SIZES, 15, p, 0) for p in range(2, 9)] == sizes
    assert [trains.hand_size(HAND_SIZES, 9, p, 0) for p in range(2, 5)] == [12, 11, 10]
    assert RULES.player_range(options()) == (2, 8)
    assert RULES.player_range(options(set_max_pip=9)) == (2, 4)
    assert RULES.player_range(options(set_max_pip=9, hand_size=6)) == (2, 8)
    # 45 each leaves the 91 tiles of double-12 less the engine exactly enough for two
    assert RULES.player_range(options(hand_size=45)) == (2, 2)
    assert RULES.player_range(options(hand_size=30)) == (2, 3)
    with pytest.raises(PlayerCountError):
        RULES.new_match(options(set_max_pip=9), 5, "p")
    with pytest.raises(PlayerCountError):
        RULES.new_match(options(), 9, "p")
    with pytest.raises(PlayerCountError):
        RULES.new_match(options(), 1, "p")
    match = RULES.new_match(options(), 8, "eight")
    assert [len(h) for h in match.hand_state.hands] == [10] * 8
    assert len(match.hand_state.boneyard) == 90 - 80


def test_the_deal_shuffles_the_set_less_the_engine() -> None:
    """[MT-2] the tiles dealt are the set less the engine, shuffled with deal/<hand>/0:
    seat 0 the first k, seat 1 the next k, the rest the boneyard in that order."""
    from domino_rules.rules import rng

    match = RULES.new_match(options(), 3, "the deal")
    state = match.hand_state
    tiles_ = tuple(t for t in double_n(12) if t != Tile(12, 12))
    order = rng.shuffled("the deal", "deal/1/0", tiles_)
    assert state.hands == tuple(tuple(sorted(order[15 * s : 15 * s + 15])) for s in range(3))
    assert state.boneyard == order[45:]
    assert state.engine == Tile(12, 12)


def test_one_hand_per_double_from_the_top_down() -> None:
    """[MT-3] hand h is played with [N-h, N-h]; option hands shortens the match."""
    assert [trains.engine_of(12, h).high for h in range(1, 14)] == list(range(12, -1, -1))
    assert RULES.max_hands(options(), 4) == 13
    assert RULES.max_hands(options(set_max_pip=9), 4) == 10
    assert RULES.max_hands(options(hands=3), 4) == 3
    match = RULES.new_match(options(hands=2), 2, "hands")
    for hand_number, engine in ((1, Tile(12, 12)), (2, Tile(11, 11))):
        assert match.hand_state.engine == engine
        assert match.last_events[-2] == Event(EventKind.ENGINE, tile=engine)
        match = _finish_hand(match)
        if hand_number == 1:
            assert match.status is Status.HAND_OVER
            match, _ = RULES.apply(match, Move(0, MoveKind.NEXT_HAND))
    assert match.status is Status.MATCH_OVER
    with pytest.raises(OptionsError):
        options(hands=14)
    assert options(set_max_pip=15, hands=16).hands == 16


def test_example_4_hunting_for_the_engine() -> None:
    """[MT-3] worked example 4: nobody holds [9-9]; the seats draw in rounds from seat
    h mod P, each round finished, and the holder places it and plays first [MT-4]."""
    match = deal(
        ["8-1 7-2 6-3", "8-8 5-4 2-0", "7-0 6-6 3-1"],
        "4-1 3-0 5-5 9-9 1-1 2-2",
        hand_size=3,
        engine="FROM_HAND",
    )
    state = match.hand_state
    assert [len(h) for h in state.hands] == [4, 5, 5]
    assert Tile(9, 9) not in state.hands[0] and state.engine == Tile(9, 9)
    assert state.to_act == state.leader == 0 and state.hunt == 6
    assert kinds(match.last_events) == [
        "DEAL None",
        *(f"DRAW {s}" for s in (0, 1, 2, 0, 1, 2)),
        "ENGINE 0",
        "LEADER 0",
    ]
    drawn = [e.tile for e in match.last_events if e.kind is EventKind.DRAW]
    assert drawn == list(tiles("4-1 3-0 5-5 9-9 1-1 2-2"))
    assert all(e.private_to == e.seat for e in match.last_events if e.kind is EventKind.DRAW)
    assert match.last_events[0].count == 3
    assert match.last_events[-2].tile == Tile(9, 9)
    # seat 1 sees its own draws only
    seen = [e.for_seat(1) for e in match.last_events if e.kind is EventKind.DRAW]
    assert [e.tile for e in seen] == [None, Tile(3, 0), None, None, Tile(1, 1), None]
    assert [e.hidden for e in seen] == [True, False, True, True, False, True]


def test_the_holder_of_the_engine_places_it_without_a_hunt() -> None:
    """[MT-3] [MT-4] with FROM_HAND, the seat dealt the engine places it (not its turn)
    and plays first."""
    match = deal(["8-1 7-2 6-3", "8-8 9-9 2-0", "7-0 6-6 3-1"], hand_size=3, engine="FROM_HAND")
    assert match.hand_state.leader == match.hand_state.to_act == 1
    assert match.hand_state.hands[1] == hand("8-8 2-0")
    assert kinds(match.last_events) == ["DEAL None", "ENGINE 1", "LEADER 1"]


def test_the_first_player_moves_on_each_hand() -> None:
    """[MT-4] with the engine set aside, seat h mod P plays first in hand h."""
    match = RULES.new_match(options(hands=4), 3, "first")
    leaders = []
    for _ in range(4):
        leaders.append(match.hand_state.leader)
        assert match.hand_state.to_act == match.hand_state.leader
        match = _finish_hand(match)
        if match.status is Status.HAND_OVER:
            match, _ = RULES.apply(match, Move(0, MoveKind.NEXT_HAND))
    assert leaders == [0, 1, 2, 0]


def _finish_hand(match: MT) -> MT:
    while match.status is Status.IN_PROGRESS:
        match, _ = RULES.apply(match, RULES.legal_moves(match)[0])
    return match


# --------------------------------------------------------------------------- trains and markers


def test_a_play_names_a_train_and_the_mexican_train_is_p() -> None:
    """[MT-5] a seat's train is its number, the Mexican train P; a tile that fits several
    trains gives one move per train; the first tile shows the engine's number."""
    match = deal(["9-4 4-4 6-1 2-0", "4-3 8-8 7-5 5-0", "9-7 3-3 1-0 6-6"])
    assert moves(match) == ["0 PLAY [9-4] train=0", "0 PLAY [9-4] train=3"]
    assert str(play(0, "9-4", 3)) == "0 PLAY [9-4] train=3"
    assert Move.parse("0 PLAY [9-4] train=3") == play(0, "9-4", 3)
    match, events = RULES.apply(match, play(0, "9-4", 3))
    assert events[0] == Event(EventKind.PLAY, seat=0, tile=Tile(9, 4), train=3)
    assert train_text(match, 3) == "9|4"
    table = RULES.table(match, 0)
    assert [t.train for t in table.trains] == [0, 1, 2, 3]
    assert [t.open_end for t in table.trains] == [9, 9, 9, 4]


def test_a_double_lies_crosswise_and_keeps_the_open_end() -> None:
    """[MT-5] a double leaves the open end as it was; nothing branches."""
    match = position(["4-4 4-1", "8-0"], ["12-4", "", ""], boneyard="7-0")
    match, _ = RULES.apply(match, play(0, "4-4", 0))
    assert train_text(match, 0) == "12|4 4|4"
    assert RULES.table(match, 0).trains[0].open_end == 4


def test_private_trains_have_no_mexican_train() -> None:
    """[MT-5] option mexican_train false: only the seats' trains; train P is refused."""
    match = deal(["9-4 4-4 6-1 2-0", "4-3 8-8 7-5 5-0"], mexican_train=False)
    assert moves(match) == ["0 PLAY [9-4] train=0"]
    assert len(RULES.table(match, None).trains) == 2
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, play(0, "9-4", 2))


def test_any_seat_may_start_the_mexican_train_on_its_first_turn() -> None:
    """[MT-5] the Mexican train may be started any time, the seat's own train empty or
    not."""
    match = deal(["9-4 4-4 6-1 2-0", "9-3 8-8 7-5 5-0"])
    match, _ = RULES.apply(match, play(0, "9-4", 0))
    assert "1 PLAY [9-3] train=2" in moves(match)


def test_markers_go_up_without_a_tile_and_down_on_ones_own_train() -> None:
    """[MT-6] a DRAW that cannot be laid puts the marker up (MARKER_UP only when it
    changes); another seat may then lay there; a tile the owner lays elsewhere leaves it
    up; a tile on its own train takes it down."""
    match = position(["8-1 3-1", "5-5 9-4"], ["12-9", "12-5", "12-6"], boneyard="10-0 2-2")
    match, events = RULES.apply(match, draw(0))
    assert kinds(events) == ["DRAW 0", "MARKER_UP 0"]
    assert RULES.table(match, None).trains[0].public
    assert "1 PLAY [9-4] train=0" in moves(match)
    match, events = RULES.apply(match, play(1, "9-4", 0))
    assert kinds(events) == ["PLAY 1"] and match.hand_state.public == 0b01
    match, events = RULES.apply(match, draw(0))  # [2-2] fits nothing: the marker was up
    assert kinds(events) == ["DRAW 0"]
    state = dataclasses.replace(match.hand_state, hands=(hand("8-1 6-0 4-3"), hand("5-5")))
    match = dataclasses.replace(match, hand_state=dataclasses.replace(state, to_act=0))
    match, events = RULES.apply(match, play(0, "6-0", 2))  # the Mexican train
    assert kinds(events) == ["PLAY 0"] and match.hand_state.public & 1
    match = dataclasses.replace(match, hand_state=dataclasses.replace(match.hand_state, to_act=0))
    match, events = RULES.apply(match, play(0, "4-3", 0))
    assert kinds(events) == ["PLAY 0", "MARKER_DOWN 0"]
    assert not RULES.table(match, None).trains[0].public
    assert RULES.table(match, None).trains[2].public  # the Mexican train: always public


def test_where_a_seat_may_lay() -> None:
    """[MT-7] its own train, the Mexican train and public trains; not another seat's
    private train; a seat that can lay must."""
    match = position(["9-5 6-6", "5-0", "8-0"], ["12-9", "12-5", "12-6", "12-4"], public=0b010)
    assert moves(match) == [
        "0 PLAY [9-5] train=0",
        "0 PLAY [9-5] train=1",
    ]
    for wrong in (play(0, "6-6", 2), draw(0), pass_(0)):
        with pytest.raises(IllegalMoveError):
            RULES.apply(match, wrong)


def test_drawing_one_tile_and_laying_it() -> None:
    """[MT-8] DRAW takes one tile; a drawn tile that fits is the seat's only move, on
    any train it fits; one that does not ends the turn inside the DRAW (no TURN_PASSED)."""
    match = deal(["9-4 4-4 6-1 2-0", "4-3 8-8 7-5 5-0", "9-7 3-3 1-0 6-6"], "9-2")
    match, _ = RULES.apply(match, play(0, "9-4", 0))
    assert moves(match) == ["1 DRAW"]
    match, events = RULES.apply(match, draw(1))
    assert kinds(events) == ["DRAW 1"] and events[0].tile == Tile(9, 2)
    assert moves(match) == ["1 PLAY [9-2] train=1", "1 PLAY [9-2] train=3"]


def test_a_pass_with_nothing_to_draw_puts_the_marker_up_and_never_ends_the_hand() -> None:
    """[MT-8] with the boneyard empty the move is PASS: the marker goes up, the next seat
    acts, and the hand goes on."""
    match = position(["8-1 3-1", "9-0 2-2"], ["12-9", "12-6", "12-5"])
    assert moves(match) == ["0 PASS"]
    match, events = RULES.apply(match, pass_(0))
    assert kinds(events) == ["PASS 0", "MARKER_UP 0"]
    assert match.status is Status.IN_PROGRESS and match.hand_state.to_act == 1
    assert "1 PLAY [9-0] train=0" in moves(match)


def test_a_drawn_double_earns_a_follow_up_and_another_draw() -> None:
    """[MT-8] [MT-9] a seat draws once per tile it owes: a drawn double laid earns a
    follow-up, for which it may draw again."""
    match = position(["8-1", "9-0 3-0"], ["12-9", "12-6", "12-5"], boneyard="9-9 5-3")
    match, _ = RULES.apply(match, draw(0))
    assert moves(match) == ["0 PLAY [9-9] train=0"]
    match, events = RULES.apply(match, play(0, "9-9", 0))
    assert kinds(events) == ["PLAY 0", "BONUS_TURN 0"]
    assert moves(match) == ["0 DRAW"]
    match, events = RULES.apply(match, draw(0))
    assert kinds(events) == ["DRAW 0"]
    assert moves(match) == ["0 PLAY [5-3] train=2"]


# --------------------------------------------------------------------------- doubles


def test_example_1_a_follow_up_elsewhere_then_satisfied_on_a_private_train() -> None:
    """[MT-9] worked example 1 (ANY_TRAIN): the follow-up goes anywhere, then the double
    binds every seat, on a private train too."""
    match = deal(["9-4 4-4 6-1 2-0", "4-3 8-8 7-5 5-0", "9-7 3-3 1-0 6-6"], "9-2 7-1")
    match, _ = RULES.apply(match, play(0, "9-4", 0))
    assert moves(match) == ["1 DRAW"]
    match, _ = RULES.apply(match, draw(1))
    assert moves(match) == ["1 PLAY [9-2] train=1", "1 PLAY [9-2] train=3"]
    match, _ = RULES.apply(match, play(1, "9-2", 1))
    match, _ = RULES.apply(match, play(2, "9-7", 3))
    match, events = RULES.apply(match, play(0, "4-4", 0))
    assert kinds(events) == ["PLAY 0", "BONUS_TURN 0"]
    assert RULES.table(match, None).pending == (PendingDouble(0, False),)
    assert moves(match) == ["0 DRAW"]
    match, events = RULES.apply(match, draw(0))
    assert events[0].tile == Tile(7, 1)
    assert moves(match) == ["0 PLAY [7-1] train=3"]
    match, _ = RULES.apply(match, play(0, "7-1", 3))
    assert RULES.table(match, None).pending == (PendingDouble(0, True),)
    assert moves(match) == ["1 PLAY [4-3] train=0"]
    match, _ = RULES.apply(match, play(1, "4-3", 0))
    assert train_text(match, 0) == "9|4 4|4 4|3"
    assert train_text(match, 3) == "9|7 7|1"
    assert match.hand_state.public == 0 and match.hand_state.to_act == 2
    assert RULES.table(match, None).pending == ()


def test_example_2_on_double_the_follow_up_must_satisfy() -> None:
    """[MT-9] worked example 2 (follow_up ON_DOUBLE): the double binds at once; the
    follow-up draw that cannot satisfy it puts the marker up [MT-6]."""
    match = deal(
        ["9-4 4-4 6-1 2-0", "4-3 8-8 7-5 5-0", "9-7 3-3 1-0 6-6"], "9-2 7-1", follow_up="ON_DOUBLE"
    )
    match, _ = run(match, play(0, "9-4", 0), draw(1), play(1, "9-2", 1), play(2, "9-7", 3))
    match, events = RULES.apply(match, play(0, "4-4", 0))
    assert kinds(events) == ["PLAY 0", "BONUS_TURN 0"]
    assert RULES.table(match, None).pending == (PendingDouble(0, True),)
    match, events = RULES.apply(match, draw(0))
    assert kinds(events) == ["DRAW 0", "MARKER_UP 0"]
    assert moves(match) == ["1 PLAY [4-3] train=0"]
    match, events = RULES.apply(match, play(1, "4-3", 0))
    assert kinds(events) == ["PLAY 1"]
    assert match.hand_state.public == 1
    assert match.hand_state.hands[0] == hand("6-1 2-0 7-1")


def test_example_8_a_dead_double() -> None:
    """[MT-9] worked example 8: every other 3 is on the table, so [3-3] can never be
    satisfied: nothing pending, no BONUS_TURN, the next seat acts."""
    match = position(["3-3 5-4", "6-1"], ["12-3", "12-6", "12-5"], boneyard="8-0")
    match, events = RULES.apply(match, play(0, "3-3", 0))
    assert kinds(events) == ["PLAY 0"]
    assert match.hand_state.pending == () and match.hand_state.to_act == 1


def test_a_pending_double_whose_number_dies_is_dropped() -> None:
    """[MT-9] an unsatisfied double whose last other tile of its number is laid
    elsewhere is dropped at once."""
    match = position(
        ["5-1 0-0", "8-8 6-5"],
        ["12-5 5-5", "12-6", "12-8"],
        boneyard="9-0",
        to_act=1,
        pending=(0,),
        binding=0,
        public=0b01,
    )
    # seat 1 laid [5-5] on seat 0's public train and owes its follow-up (ANY_TRAIN)
    match, _ = RULES.apply(match, play(1, "6-5", 1))
    # [5-1] is still in seat 0's hand: 5 is alive, the double binds now
    assert match.hand_state.pending == (0,) and match.hand_state.binding == 1
    match, _ = RULES.apply(match, play(0, "5-1", 0))
    assert match.hand_state.pending == ()
    match2 = position(
        ["5-1 0-0", "8-8 6-0"],
        ["12-5 5-5", "12-6", "12-1"],
        boneyard="9-0",
        pending=(0,),
        binding=1,
    )
    # the Mexican train ends in 1; laying [5-1] there is not allowed while [5-5] binds
    assert moves(match2) == ["0 PLAY [5-1] train=0"]
    match3 = position(
        ["8-8 0-0", "5-1 9-9"],
        ["12-5 5-5", "12-6", "12-1"],
        boneyard="9-0",
        to_act=1,
        pending=(0,),
        binding=0,
    )
    # seat 1 (in its follow-up) lays the last 5 elsewhere: the double is dropped
    match3, _ = RULES.apply(match3, play(1, "5-1", 2))
    assert match3.hand_state.pending == () and match3.hand_state.to_act == 0


def test_several_doubles_are_satisfied_oldest_first() -> None:
    """[MT-9] two doubles laid in one turn (ANY_TRAIN) bind in the order laid."""
    match = position(
        ["4-4 6-6 2-1", "6-2 4-3 7-0", "8-0"],
        ["12-4", "12-6", "12-7", "12-8"],
        boneyard="11-0 10-0",
        public=0b010,
    )
    match, events = RULES.apply(match, play(0, "4-4", 0))
    assert kinds(events) == ["PLAY 0", "BONUS_TURN 0"]
    match, events = RULES.apply(match, play(0, "6-6", 1))
    assert kinds(events) == ["PLAY 0", "BONUS_TURN 0"]
    match, _ = RULES.apply(match, draw(0))  # [11-0] fits nothing
    assert RULES.table(match, None).pending == (PendingDouble(0, True), PendingDouble(1, True))
    assert moves(match) == ["1 PLAY [4-3] train=0"]
    match, _ = RULES.apply(match, play(1, "4-3", 0))
    assert moves(match) == ["2 DRAW"]
    match, _ = RULES.apply(match, draw(2))
    assert RULES.table(match, None).pending == (PendingDouble(1, True),)
    assert moves(match) == ["0 PASS"]  # [6-6] binds seat 0 too; nothing left to draw


def test_example_3_a_chain_opening_and_two_doubles_in_order() -> None:
    """[MT-10] worked example 3 (opening CHAIN): each seat's first turn is a chain on its
    own train, with no follow-ups; when the round is over the doubles bind, oldest first
    [MT-9]."""
    match = deal(["9-5 5-5 5-3 8-2", "9-6 6-6 5-2 4-0", "9-3 6-1 5-4 7-7"], "8-1", opening="CHAIN")
    assert RULES.table(match, None).opening == (0, 1, 2)
    assert moves(match) == ["0 PLAY [9-5] train=0"]
    match, events = RULES.apply(match, play(0, "9-5", 0))
    assert kinds(events) == ["PLAY 0"]
    assert set(moves(match)) == {"0 PLAY [5-5] train=0", "0 PLAY [5-3] train=0", "0 PASS"}
    match, events = RULES.apply(match, play(0, "5-5", 0))
    assert kinds(events) == ["PLAY 0"]  # no BONUS_TURN in a chain
    match, events = RULES.apply(match, pass_(0))
    assert kinds(events) == ["PASS 0"]  # no marker
    assert match.hand_state.public == 0 and match.hand_state.to_act == 1
    match, _ = RULES.apply(match, play(1, "9-6", 1))
    match, events = RULES.apply(match, play(1, "6-6", 1))
    assert kinds(events) == ["PLAY 1", "TURN_PASSED 1"]
    table = RULES.table(match, None)
    assert table.pending == (PendingDouble(0, False), PendingDouble(1, False))
    assert table.opening == (2,)
    match, events = RULES.apply(match, play(2, "9-3", 2))
    assert kinds(events) == ["PLAY 2", "TURN_PASSED 2"]
    table = RULES.table(match, None)
    assert table.opening == ()
    assert table.pending == (PendingDouble(0, True), PendingDouble(1, True))
    assert moves(match) == ["0 PLAY [5-3] train=0"]
    match, _ = RULES.apply(match, play(0, "5-3", 0))
    assert moves(match) == ["1 DRAW"]
    match, events = RULES.apply(match, draw(1))
    assert kinds(events) == ["DRAW 1", "MARKER_UP 1"] and events[0].tile == Tile(8, 1)
    assert moves(match) == ["2 PLAY [6-1] train=1"]
    match, _ = RULES.apply(match, play(2, "6-1", 1))
    assert RULES.table(match, None).pending == ()


def test_a_chain_seat_that_cannot_start_draws_and_may_go_on() -> None:
    """[MT-10] a seat with no tile to start draws; a drawn tile that fits starts the
    chain, which may go on; the Mexican train is not open in an opening turn."""
    match = deal(["5-4 8-8 7-7 1-0", "9-6 6-3 2-2 3-0"], "9-5", opening="CHAIN")
    assert moves(match) == ["0 DRAW"]
    match, _ = RULES.apply(match, draw(0))
    assert moves(match) == ["0 PLAY [9-5] train=0"]
    match, _ = RULES.apply(match, play(0, "9-5", 0))
    assert moves(match) == ["0 PLAY [5-4] train=0", "0 PASS"]
    match, _ = RULES.apply(match, pass_(0))
    assert moves(match) == ["1 PLAY [9-6] train=1"]  # not on the Mexican train


def test_a_chain_seat_that_cannot_start_at_all_puts_its_marker_up() -> None:
    """[MT-10] a seat that draws and still cannot start ends its opening turn with its
    marker up [MT-6]."""
    match = deal(["5-4 8-8 7-7 1-0", "9-6 6-3 2-2 3-0"], "8-5", opening="CHAIN")
    match, events = RULES.apply(match, draw(0))
    assert kinds(events) == ["DRAW 0", "MARKER_UP 0"]
    assert match.hand_state.opening == (1,) and match.hand_state.to_act == 1


# --------------------------------------------------------------------------- the end


def test_example_5_a_hand_blocked_by_a_draw() -> None:
    """[MT-11] worked example 5: the last tile drawn fits nothing and no hand shows an open
    end: BLOCKED inside the DRAW; points [30, 23] [MT-12]."""
    match = position(["7-0 2-1", "8-8 4-3"], ["12-9", "12-6", "12-5"], boneyard="10-10")
    match, events = RULES.apply(match, draw(0))
    assert kinds(events) == ["DRAW 0", "MARKER_UP 0", "HAND_OVER None", "MATCH_OVER None"]
    assert events[2].scores == (30, 23) and events[2].seats == (1,)
    assert match.history[-1].end is HandEnd.BLOCKED


def test_example_6_a_hand_blocked_by_a_play() -> None:
    """[MT-11] worked example 6: after [9-7] the open ends are 7, 6 and 5 and no hand shows
    one: BLOCKED inside the PLAY; points [4, 18], seat 0 wins [MT-12]."""
    match = position(["9-7 3-1", "8-2 4-4"], ["12-9", "12-6", "12-5"])
    assert moves(match) == ["0 PLAY [9-7] train=0"]
    match, events = RULES.apply(match, play(0, "9-7", 0))
    assert kinds(events) == ["PLAY 0", "HAND_OVER None", "MATCH_OVER None"]
    result = match.history[-1]
    assert result.points == (4, 18) and result.winners == (0,)
    assert result.end is HandEnd.BLOCKED


def test_going_out_on_a_double_ends_the_hand_at_once() -> None:
    """[MT-11] a seat that lays its last tile dominoes, even on a double left unsatisfied
    (and without a BONUS_TURN)."""
    match = position(["9-9", "9-1 2-0"], ["12-9", "12-6", "12-5"], boneyard="3-0")
    match, events = RULES.apply(match, play(0, "9-9", 0))
    assert kinds(events) == ["PLAY 0", "HAND_OVER None", "MATCH_OVER None"]
    assert match.history[-1].end is HandEnd.DOMINOED
    assert match.history[-1].points == (0, 12)


def test_going_out_in_the_chain_opening_round_ends_the_hand() -> None:
    """[MT-11] a seat that goes out in a CHAIN opening turn ends the hand at once."""
    match = deal(["9-5 5-5 5-3 3-2", "9-6 6-6 5-2 4-0"], opening="CHAIN")
    match, events = run(
        match, play(0, "9-5", 0), play(0, "5-5", 0), play(0, "5-3", 0), play(0, "3-2", 0)
    )
    assert events[-2].kind is EventKind.HAND_OVER
    assert match.history[-1].end is HandEnd.DOMINOED and match.history[-1].winners == (0,)


def test_counts_and_the_double_blank() -> None:
    """[MT-12] a seat's count is its pips, a [0-0] counting double_blank_points; the seat
    that dominoed wins alone even when another count is 0; after a block every lowest
    count wins."""
    assert trains.count(hand("0-0 6-4"), 0) == 10
    assert trains.count(hand("0-0 6-4"), 50) == 60
    result = trains.score_hand((hand(""), hand("0-0"), hand("3-1")), 0)
    assert result.winners == (0,) and result.points == (0, 0, 4)
    assert result.end is HandEnd.DOMINOED
    result = trains.score_hand((hand("2-1"), hand("3-0"), hand("5-5")), 0)
    assert result.winners == (0, 1) and result.end is HandEnd.BLOCKED
    match = position(["0-0 1-1", "6-1"], ["12-9", "12-6", "12-5"], double_blank_points=50)
    match, _ = RULES.apply(match, pass_(0))
    match, _ = RULES.apply(match, play(1, "6-1", 1))
    assert match.history[-1].points == (52, 0)


def test_the_match_is_the_hands_and_the_lowest_total_wins() -> None:
    """[MT-13] NEXT_HAND deals the next engine; totals add up; the lowest total wins,
    equal lowest totals share."""
    ruleset = RULES
    match = ruleset.new_match(options(set_max_pip=9, hands=2), 2, "match")
    match = _finish_hand(match)
    assert match.status is Status.HAND_OVER
    assert ruleset.legal_moves(match) == (Move(0, MoveKind.NEXT_HAND),)
    first = match.history[-1].points
    match, events = ruleset.apply(match, Move(0, MoveKind.NEXT_HAND))
    assert events[0] == Event(EventKind.NEXT_HAND, count=2)
    assert match.hand_state.engine == Tile(8, 8) and match.hand_state.leader == 1
    match = _finish_hand(match)
    assert match.status is Status.MATCH_OVER
    totals = tuple(a + b for a, b in zip(first, match.history[-1].points, strict=True))
    assert ruleset.totals(match) == totals
    low = min(totals)
    assert ruleset.winners(match) == tuple(s for s, t in enumerate(totals) if t == low)
    assert ruleset.low_wins


def test_a_seats_view() -> None:
    """[MT-14] the table: engine, leader, trains with their tiles (left towards the hub),
    open ends and markers, the Mexican train always public, pending doubles with binding,
    the opening round; the stock without the engine."""
    match = position(
        ["5-1", "8-0"],
        ["12-5 5-5", "", "12-7"],
        boneyard="9-0 3-3",
        public=0b10,
        pending=(0,),
        binding=1,
    )
    view = RULES.view(match, 0)
    table = view.table
    assert isinstance(table, MexicanTrainTable)
    assert table.engine == Tile(12, 12) and table.leader == 0
    assert [(t.train, t.open_end, t.public) for t in table.trains] == [
        (0, 5, False),
        (1, 12, True),
        (2, 7, True),
    ]
    first = table.trains[0].tiles
    assert [(t.tile, t.left, t.right) for t in first] == [
        (Tile(12, 5), 12, 5),
        (Tile(5, 5), 5, 5),
    ]
    assert table.pending == (PendingDouble(0, True),) and table.opening == ()
    assert view.stock == 2 and view.hand == hand("5-1") and view.hand_sizes == (1, 1)
    spectator = RULES.view(match, None)
    assert spectator.hand == () and spectator.table == table


def test_refusals() -> None:
    """[MT-15] options out of range are BAD_OPTIONS; a move that is not a legal move field
    for field is ILLEGAL_MOVE; a refused move changes nothing."""
    for bad in (
        {"set_max_pip": 11},
        {"hand_size": 46},
        {"set_max_pip": 9, "hand_size": 28},
        {"hands": 14},
        {"double_blank_points": 101},
        {"engine": "SOMEWHERE"},
        {"opening": "DOUBLE"},
        {"follow_up": "NOWHERE"},
    ):
        with pytest.raises(OptionsError):
            RULES.make_options(bad)
    match = deal(["9-4 4-4 6-1 2-0", "4-3 8-8 7-5 5-0", "9-7 3-3 1-0 6-6"], "9-2")
    before = match
    for wrong in (
        Move(0, MoveKind.PLAY, Tile(9, 4)),  # no train
        play(0, "9-4", 4),  # no such train
        play(0, "9-4", 1),  # another seat's private train
        play(0, "6-1", 0),  # does not show the open end
        play(0, "9-2", 0),  # not in hand
        Move(0, MoveKind.PLAY, Tile(9, 4), end=End.LEFT, train=0),
        Move(0, MoveKind.PLAY, Tile(9, 4), open_pip=4, train=0),
        draw(0),
        pass_(0),
        Move(0, MoveKind.NEXT_HAND),
    ):
        with pytest.raises(IllegalMoveError):
            RULES.apply(match, wrong)
    with pytest.raises(InvalidMoveError):
        RULES.apply(match, Move(0, MoveKind.DRAW, train=1))
    with pytest.raises(InvalidMoveError):
        Move(0, MoveKind.PLAY, Tile(9, 4), train=-1).check()
    with pytest.raises(NotYourTurnError):
        RULES.apply(match, play(1, "4-3", 1))
    assert match == before


def test_a_state_from_outside_is_checked() -> None:
    """[MT-15] a forged state is refused: a train that does not chain, a pending train
    with no double, a binding count past the pending doubles."""
    match = RULES.new_match(options(set_max_pip=9, hands=1), 3, "forge")
    RULES.check_match(match)
    state = match.hand_state
    tile = state.hands[0][0]
    hands = (state.hands[0][1:], *state.hands[1:])
    for forged in (
        dataclasses.replace(state, trains=((tile,), (), (), ()), hands=hands),
        dataclasses.replace(state, pending=(1,)),
        dataclasses.replace(state, binding=1),
        dataclasses.replace(state, engine=Tile(8, 8)),
        dataclasses.replace(state, opening=(0,)),
        dataclasses.replace(state, trains=((), (), ())),
    ):
        if forged.trains[0] and forged.trains[0][0].has(9):
            continue
        with pytest.raises(InvalidStateError):
            RULES.check_match(dataclasses.replace(match, hand_state=forged))


def test_moves_events_and_score() -> None:
    """[MT-16] the events of a deal, a play, a draw and a pass, in order; a DRAW shows its
    tile to the drawer only; GetScore's counts and points are the same, end DOMINOED or
    BLOCKED."""
    match = RULES.new_match(options(set_max_pip=9, hands=1), 2, "events")
    assert kinds(match.last_events) == ["DEAL None", "ENGINE None", "LEADER 0"]
    assert match.last_events[1].tile == Tile(9, 9)
    match = position(["8-1 3-1", "5-5 9-4"], ["12-9", "12-5", "12-6"], boneyard="10-0 2-2")
    match, events = RULES.apply(match, draw(0))
    assert [e.for_seat(1).hidden for e in events] == [True, False]
    assert events[0].for_seat(1).tile is None and events[0].for_seat(0).tile == Tile(10, 0)
    match = _finish_hand(match)
    score = RULES.score(match)
    assert score.hands[0].counts == score.hands[0].points
    assert score.hands[0].end in (HandEnd.DOMINOED, HandEnd.BLOCKED)


# --------------------------------------------------------------------------- decisions


def test_decision_the_chain_stops_only_after_a_tile() -> None:
    """Decision [MT-10]: the PASS that stops a chain is legal only once a tile is laid."""
    match = deal(["9-5 5-5 5-3 8-2", "9-6 6-6 5-2 4-0"], opening="CHAIN")
    assert "0 PASS" not in moves(match)


def test_decision_no_bonus_turn_for_the_last_tile() -> None:
    """Decision [MT-9]: a double that is a seat's last tile ends the hand, no BONUS_TURN."""
    match = position(["6-6"], ["12-6", "12-5", "12-4"], boneyard="6-0")
    match = dataclasses.replace(
        match, hand_state=dataclasses.replace(match.hand_state, hands=(hand("6-6"), hand("6-1")))
    )
    _, events = RULES.apply(match, play(0, "6-6", 0))
    assert EventKind.BONUS_TURN not in [e.kind for e in events]


def test_decision_the_draw_that_ends_a_follow_up_raises_the_marker() -> None:
    """Decision [MT-6] [MT-9]: a follow-up that ends with a DRAW that does not fit puts
    the marker up and the turn's doubles bind."""
    match = position(["6-6 1-0", "6-3"], ["12-6", "12-5", "12-4"], boneyard="9-0")
    match, _ = RULES.apply(match, play(0, "6-6", 0))
    match, events = RULES.apply(match, draw(0))
    assert kinds(events) == ["DRAW 0", "MARKER_UP 0"]
    assert RULES.table(match, None).pending == (PendingDouble(0, True),)
    assert moves(match) == ["1 PLAY [6-3] train=0"]


def test_decision_a_dead_double_in_a_chain_is_dropped() -> None:
    """Decision [MT-9] [MT-10]: a double laid in a CHAIN opening turn whose number is dead
    is never pending; the chain goes on from it."""
    match = position(
        ["12-3 3-3 2-1", "12-6"],
        ["", "", ""],
        boneyard="8-0",
        opening=(0, 1),
        opening_kind="CHAIN",
    )
    match, _ = RULES.apply(match, play(0, "12-3", 0))
    match, events = RULES.apply(match, play(0, "3-3", 0))
    assert kinds(events) == ["PLAY 0", "TURN_PASSED 0"]  # no 3 left: the chain ends
    assert match.hand_state.pending == ()


def test_decision_the_hand_in_words() -> None:
    """Decision [MT-11] [MT-12]: the explanation names the seat that went out, or the
    seats with the lowest count after a block."""
    match = position(["9-7 3-1", "8-2 4-4"], ["12-9", "12-6", "12-5"])
    match, _ = RULES.apply(match, play(0, "9-7", 0))
    reason = RULES.score(match).reasons[0]
    assert reason.startswith("Blocked:") and "seat 0 has the lowest count, 4" in reason
    match = position(["9-9", "9-1 2-0"], ["12-9", "12-6", "12-5"], boneyard="3-0")
    match, _ = RULES.apply(match, play(0, "9-9", 0))
    reason = RULES.score(match).reasons[0]
    assert reason.startswith("Dominoed: seat 0 laid their last tile")
    assert "seat 1 12" in reason


def test_decision_a_seat_dealt_only_the_engine_has_not_gone_out() -> None:
    """Decision [MT-3] [MT-11]: placing the engine is not laying a tile, so a seat dealt
    only the engine plays first with an empty hand and draws."""
    match = deal(["9-9", "8-1", "7-0"], hand_size=1, engine="FROM_HAND")
    RULES.check_match(match)
    assert match.status is Status.IN_PROGRESS and match.hand_state.hands[0] == ()
    assert not RULES.hand_over(match.hand_state)
    assert moves(match) == ["0 DRAW"]
    match, _ = RULES.apply(match, draw(0))
    assert match.status is Status.IN_PROGRESS and len(match.hand_state.hands[0]) == 1
    assert trains.gone_out(((), hand("1-0")), True)
    assert not trains.gone_out(((), hand("1-0")), False)


def test_the_same_seed_gives_the_same_match() -> None:
    """[MT-2] determinism: the same seed, options and moves give the same game."""
    one = RULES.new_match(options(engine="FROM_HAND"), 4, SEED)
    two = RULES.new_match(options(engine="FROM_HAND"), 4, SEED)
    assert one == two
