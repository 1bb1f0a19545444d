"""Chicken Foot: scripted tests per rule tag [CF-1]..[CF-11], RULES.md's Chicken Foot
worked example, the decisions of the module docstring, and bad input."""

from __future__ import annotations

from typing import Any

import pytest

from domino_rules.games.chicken_foot.rules import (
    ChickenFootHandState,
    ChickenFootOptions,
    ChickenFootTable,
)
from domino_rules.rules import rng
from domino_rules.rules.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
    OptionsError,
    PlayerCountError,
)
from domino_rules.rules.events import Event, EventKind
from domino_rules.rules.match import HandEnd, HandResult, Match, Status
from domino_rules.rules.moves import Move, MoveKind
from domino_rules.rules.registry import get
from domino_rules.rules.tiles import Tile, double_n
from domino_rules.rules.trains import Engine

from . import positions
from .positions import hand as tiles
from .positions import order_of
from .positions import tiles as in_order

RULES = get("chicken_foot")
CF = Match[ChickenFootOptions, ChickenFootHandState]


def options(**values: Any) -> ChickenFootOptions:
    made: ChickenFootOptions = RULES.make_options(values)
    return made


def dealt(players: int, first: str, **values: Any) -> CF:
    """The hand dealt from an order of the whole set that starts with ``first``."""
    opts = options(**values)
    return positions.dealt(RULES, players, order_of(dealt_from(opts), first), options=opts)


def dealt_from(opts: ChickenFootOptions) -> tuple[Tile, ...]:
    """[MT-2] the tiles a deal is made from: the set, less the centre double set aside."""
    full = double_n(opts.set_max_pip)
    if opts.engine is Engine.FROM_HAND:
        return full
    return tuple(t for t in full if t != Tile(opts.set_max_pip, opts.set_max_pip))


def position(
    held: list[str],
    arms: list[str],
    *,
    feet: tuple[int, ...] | None = None,
    boneyard: str | None = None,
    to_act: int = 0,
    leader: int = 0,
    hand_number: int = 1,
    history: tuple[HandResult, ...] = (),
    **values: Any,
) -> CF:
    """An exact position: the hands ``held`` and the ``arms`` as written (tiles from the foot
    outwards), the feet the centre's number and then each arm's closing double in arm
    order unless given, the boneyard every other tile of the set (ascending) unless
    given."""
    opts = options(**values)
    top = opts.set_max_pip - (hand_number - 1)
    engine = Tile(top, top)
    laid = tuple(in_order(text) for text in arms)
    if feet is None:
        feet = (top, *(arm[-1].high for arm in laid if arm and arm[-1].is_double))
    in_hands = [tile for text in held for tile in tiles(text)]
    if boneyard is None:
        used = {*in_hands, engine, *(tile for arm in laid for tile in arm)}
        pile = tuple(t for t in double_n(opts.set_max_pip) if t not in used)
    else:
        pile = in_order(boneyard)
    state = ChickenFootHandState(
        tuple(tiles(text) for text in held), pile, engine, laid, feet, to_act, leader, 0
    )
    return Match(len(held), opts, "cf", hand_number, state, history)


def tiles_of(items: tuple[Tile, ...]) -> tuple[Tile, ...]:
    return tuple(sorted(items))


def play(seat: int, tile: str, arm: int) -> Move:
    return Move(seat, MoveKind.PLAY, Tile.parse(tile), train=arm)


def moves(match: CF) -> list[str]:
    return sorted(str(move) for move in RULES.legal_moves(match))


def table(match: CF, seat: int | None = None) -> ChickenFootTable:
    made: ChickenFootTable = RULES.table(match, seat)
    return made


def kinds(events: tuple[Event, ...]) -> list[str]:
    return [event.kind.value for event in events]


def apply(match: CF, *steps: Move) -> CF:
    for move in steps:
        match, _ = RULES.apply(match, move)
    return match


# ----------------------------------------------------------------- RULES.md's worked example


def test_worked_example_7_the_centre_a_foot_its_toes() -> None:
    # [CF-3] [CF-4] [CF-5] [CF-6] double-6, two players, 5 tiles each, [6-6] set aside
    match = dealt(
        2,
        "6-5 6-3 5-5 2-1 1-0 6-4 6-2 5-4 5-0 3-3 5-1",
        set_max_pip=6,
        hand_size=5,
        hands=1,
    )
    assert match.hand_state.hands == (tiles("6-5 6-3 5-5 2-1 1-0"), tiles("6-4 6-2 5-4 5-0 3-3"))
    assert match.hand_state.boneyard[0] == Tile(5, 1)
    # 1. the centre's arms are laid in order
    assert moves(match) == ["0 PLAY [6-3] train=0", "0 PLAY [6-5] train=0"]
    match = apply(match, play(0, "6-5", 0), play(1, "6-4", 1))
    # before arm 3 is laid, seat 0 may not lay [5-5] on arm 0
    assert moves(match) == ["0 PLAY [6-3] train=2"]
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, play(0, "5-5", 0))
    match = apply(match, play(0, "6-3", 2), play(1, "6-2", 3))
    # 2. seat 0 lays [5-5] on arm 0: arm 0 is closed, foot 1 (of 5) grows arms 4, 5, 6
    match, events = RULES.apply(match, play(0, "5-5", 0))
    assert kinds(events) == ["PLAY"]
    assert events[0] == Event(EventKind.PLAY, seat=0, tile=Tile(5, 5), train=0)
    seen = table(match)
    assert seen.feet == (6, 5) and seen.pending_foot == 1
    assert [(arm.arm, arm.foot, arm.open_end) for arm in seen.arms[4:]] == [
        (4, 1, 5),
        (5, 1, 5),
        (6, 1, 5),
    ]
    assert seen.arms[0].open_end is None
    assert match.hand_state.to_act == 1
    # 3. seat 1 may lay only [5-4] or [5-0] on arm 4, not [3-3] on arm 2
    assert moves(match) == ["1 PLAY [5-0] train=4", "1 PLAY [5-4] train=4"]
    match = apply(match, play(1, "5-4", 4))
    # 4. seat 0 holds no 5: it draws [5-1] and lays it on arm 5
    assert moves(match) == ["0 DRAW"]
    match, events = RULES.apply(match, Move(0, MoveKind.DRAW))
    assert events == (Event(EventKind.DRAW, seat=0, tile=Tile(5, 1), private_to=0),)
    assert moves(match) == ["0 PLAY [5-1] train=5"]
    match = apply(match, play(0, "5-1", 5))
    # 5. seat 1 lays [5-0] on arm 6, and the foot is complete
    match = apply(match, play(1, "5-0", 6))
    assert table(match).pending_foot is None
    # 6. seat 0's moves
    assert moves(match) == [
        "0 PLAY [1-0] train=5",
        "0 PLAY [1-0] train=6",
        "0 PLAY [2-1] train=3",
        "0 PLAY [2-1] train=5",
    ]


# ----------------------------------------------------------------- [CF-1] set, players, deal


@pytest.mark.parametrize(("pips", "count"), [(6, 28), (9, 55), (12, 91)])
def test_the_set_is_double_6_9_or_12(pips: int, count: int) -> None:
    # [CF-1]
    assert len(RULES.full_set(options(set_max_pip=pips))) == count
    assert options().set_max_pip == 9


@pytest.mark.parametrize("pips", [5, 7, 8, 10, 11, 13, 15])
def test_other_sets_are_refused(pips: int) -> None:
    # [CF-1] [CF-11]
    with pytest.raises(OptionsError, match="set_max_pip"):
        options(set_max_pip=pips)


@pytest.mark.parametrize(
    ("pips", "sizes"),
    [
        (6, {2: 5, 3: 5, 4: 5, 5: 5}),
        (9, {2: 9, 3: 7, 4: 7, 5: 7, 6: 7, 7: 7, 8: 6}),
        (12, {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10}),
    ],
)
def test_the_hand_sizes_by_the_table(pips: int, sizes: dict[int, int]) -> None:
    # [CF-1] the table; double-12 as [MT-2]
    opts = options(set_max_pip=pips)
    assert RULES.player_range(opts) == (2, max(sizes))
    for players, size in sizes.items():
        match = RULES.new_match(opts, players, "sizes")
        assert [len(hand) for hand in match.hand_state.hands] == [size] * players
        assert match.last_events[0] == Event(EventKind.DEAL, count=size)
        assert RULES.stock(match.hand_state) == len(RULES.full_set(opts)) - 1 - size * players


def test_player_counts_without_an_entry_need_a_hand_size() -> None:
    # [CF-1] [MT-2] double-6 has no entry for 6 players: BAD_PLAYER_COUNT
    with pytest.raises(PlayerCountError):
        RULES.new_match(options(set_max_pip=6), 6, "six")
    with pytest.raises(PlayerCountError):
        RULES.new_match(options(), 9, "nine")
    with pytest.raises(PlayerCountError):
        RULES.new_match(options(), 1, "one")
    # an explicit hand_size deals that many, as far as the set goes
    match = RULES.new_match(options(set_max_pip=6, hand_size=4), 6, "six")
    assert [len(hand) for hand in match.hand_state.hands] == [4] * 6
    assert RULES.player_range(options(set_max_pip=6, hand_size=4)) == (2, 6)
    # 27 tiles are dealt from when the engine is set aside, 28 from the hands
    assert RULES.player_range(options(set_max_pip=6, hand_size=9)) == (2, 3)
    assert RULES.player_range(options(set_max_pip=6, hand_size=14)) == (2, 1)
    assert RULES.player_range(options(set_max_pip=6, hand_size=14, engine="FROM_HAND")) == (
        2,
        2,
    )


def test_the_deal_is_the_order_cut_seat_by_seat() -> None:
    # [CF-1] [MT-2] seat 0 the first k, seat 1 the next k; the rest is the boneyard
    opts = options(set_max_pip=6, hand_size=5)
    match = dealt(2, "6-0 5-0 4-0 3-0 2-0 1-0 1-1 2-1 3-1 4-1 5-5", set_max_pip=6, hand_size=5)
    state = match.hand_state
    assert state.hands == (tiles("6-0 5-0 4-0 3-0 2-0"), tiles("1-0 1-1 2-1 3-1 4-1"))
    assert state.boneyard[0] == Tile(5, 5) and len(state.boneyard) == 17
    assert state.engine == Tile(6, 6)
    # the shuffle, label deal/<hand>/0, is of the set less the centre double set aside
    match = RULES.new_match(opts, 2, "the deal")
    order = rng.shuffled("the deal", "deal/1/0", dealt_from(opts))
    assert match.hand_state.hands == (tiles_of(order[:5]), tiles_of(order[5:10]))
    assert match.hand_state.boneyard == order[10:]
    # with FROM_HAND the whole set is shuffled; the hunt's draws stay in the hands
    opts = options(set_max_pip=6, hand_size=5, engine="FROM_HAND")
    match = RULES.new_match(opts, 2, "the deal")
    order = rng.shuffled("the deal", "deal/1/0", double_n(6))
    assert sorted((*order[:10], *order[10 : 10 + match.hand_state.hunt])) == sorted(
        (*(t for hand in match.hand_state.hands for t in hand), Tile(6, 6))
    )


# ----------------------------------------------------------------- [CF-2] hands, engines


def test_one_hand_per_double_from_the_highest_down() -> None:
    # [CF-2] [CF-9] [MT-3]
    opts = options(set_max_pip=6)
    assert RULES.max_hands(opts, 2) == 7
    assert RULES.max_hands(options(set_max_pip=6, hands=2), 2) == 2
    match = RULES.new_match(opts, 3, "engines")
    engines, leaders = [], []
    while True:
        engines.append(match.hand_state.engine)
        leaders.append(match.hand_state.leader)
        assert (
            Event(EventKind.ENGINE, tile=match.hand_state.engine) in match.last_events
        )  # set aside: no seat placed it
        while match.status is Status.IN_PROGRESS:
            match = apply(match, RULES.legal_moves(match)[0])
        if match.status is Status.MATCH_OVER:
            break
        match = apply(match, Move(0, MoveKind.NEXT_HAND))
    assert engines == [Tile(n, n) for n in range(6, -1, -1)]
    # [MT-4] seat h mod P plays first
    assert leaders == [h % 3 for h in range(7)]


def test_hands_may_not_exceed_one_per_double() -> None:
    # [CF-2] [CF-11]
    with pytest.raises(OptionsError, match="hands"):
        options(set_max_pip=6, hands=8)
    assert options(set_max_pip=12, hands=13).hands == 13


def test_the_hunt_for_the_engine() -> None:
    # [CF-2] [MT-3] FROM_HAND: nobody holds [9-9]; rounds of draws from seat h mod P
    match = dealt(
        3,
        "8-1 7-2 6-3 8-8 5-4 2-0 7-0 6-6 3-1 4-1 3-0 5-5 9-9 1-1 2-2",
        engine="FROM_HAND",
        hand_size=3,
    )
    state = match.hand_state
    assert [len(hand) for hand in state.hands] == [4, 5, 5]
    assert state.hands[0] == tiles("8-1 7-2 6-3 4-1")
    assert state.leader == state.to_act == 0 and state.hunt == 6
    drawn = [(e.seat, str(e.tile), e.private_to) for e in match.last_events[1:7]]
    assert drawn == [
        (0, "[4-1]", 0),
        (1, "[3-0]", 1),
        (2, "[5-5]", 2),
        (0, "[9-9]", 0),
        (1, "[1-1]", 1),
        (2, "[2-2]", 2),
    ]
    assert kinds(match.last_events) == ["DEAL", *["DRAW"] * 6, "ENGINE", "LEADER"]
    assert match.last_events[-2:] == (
        Event(EventKind.ENGINE, seat=0, tile=Tile(9, 9)),
        Event(EventKind.LEADER, seat=0),
    )
    # each DRAW shows its tile only to its drawer
    assert match.last_events[1].for_seat(2).tile is None


def test_from_hand_the_holder_places_the_engine_and_plays_first() -> None:
    # [CF-2] [MT-4]
    match = dealt(3, "8-1 7-2 6-3 8-8 5-4 2-0 7-0 9-9 3-1", engine="FROM_HAND", hand_size=3)
    state = match.hand_state
    assert state.leader == state.to_act == 2
    assert state.hands[2] == tiles("7-0 3-1") and state.hunt == 0
    assert kinds(match.last_events) == ["DEAL", "ENGINE", "LEADER"]
    assert RULES.check_match(match) is None


def test_a_seat_dealt_only_the_centre_double_has_not_gone_out() -> None:
    # [CF-7] [CF-2] placing the centre double is not laying a tile: the placer draws
    match = dealt(3, "8-1 9-9 7-2", engine="FROM_HAND", hand_size=1)
    state = match.hand_state
    assert state.hands == ((Tile(8, 1),), (), (Tile(7, 2),)) and state.leader == 1
    assert match.status is Status.IN_PROGRESS and not RULES.hand_over(state)
    RULES.check_match(match)
    assert moves(match) == ["1 DRAW"]
    match = apply(match, Move(1, MoveKind.DRAW))
    assert match.status is Status.IN_PROGRESS


# ----------------------------------------------------------------- [CF-3] arms and moves


def test_a_play_names_the_tile_and_the_arm() -> None:
    # [CF-3] tiles run from the foot outwards, left towards the foot
    match = position(["9-4 4-2 1-1", "8-0 7-0"], ["9-4", "9-3", "9-2", "9-1"], to_act=0)
    match = apply(match, play(0, "4-2", 0))
    seen = table(match)
    assert [(t.left, t.right) for t in seen.arms[0].tiles] == [(9, 4), (4, 2)]
    assert seen.arms[0].open_end == 2 and seen.arms[0].foot == 0
    # every tile that fits gives one move per arm it fits; a PLAY must name its arm
    match = position(["3-2 1-1", "8-0 7-0"], ["9-3", "9-5 5-3", "9-2", "9-1"], to_act=0)
    assert moves(match) == [
        "0 PLAY [1-1] train=3",
        "0 PLAY [3-2] train=0",
        "0 PLAY [3-2] train=1",
        "0 PLAY [3-2] train=2",
    ]
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, Move(0, MoveKind.PLAY, Tile(3, 2)))


# ----------------------------------------------------------------- [CF-4] the centre


def test_the_centre_fills_first_lowest_arm_first() -> None:
    # [CF-4] every play goes on the centre's first empty arm, with the engine's number
    match = position(["9-5 5-4", "9-8 8-0"], ["", "", "", ""], to_act=0)
    assert moves(match) == ["0 PLAY [9-5] train=0"]
    assert table(match).pending_foot == 0
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, play(0, "9-5", 1))  # another empty arm of the centre
    match = apply(match, play(0, "9-5", 0))
    # [5-4] fits arm 0's 5, but the centre is not full
    assert moves(match) == ["1 PLAY [9-8] train=1"]


def test_six_centre_arms() -> None:
    # [CF-4] centre_toes 6
    match = RULES.new_match(options(centre_toes=6), 2, "six")
    seen = table(match)
    assert [arm.arm for arm in seen.arms] == [0, 1, 2, 3, 4, 5]
    assert all(arm.foot == 0 and arm.open_end == 9 and not arm.tiles for arm in seen.arms)
    for bad in (3, 5):
        with pytest.raises(OptionsError, match="centre_toes"):
            options(centre_toes=bad)
    # with six arms the first foot's toes are arms 6, 7 and 8
    match = position(
        ["5-5 2-0", "5-4 8-0"],
        ["9-5", "9-4", "9-3", "9-2", "9-1", "9-0"],
        centre_toes=6,
    )
    match = apply(match, play(0, "5-5", 0))
    assert [(arm.arm, arm.foot) for arm in table(match).arms[6:]] == [(6, 1), (7, 1), (8, 1)]
    assert moves(match) == ["1 PLAY [5-4] train=6"]


# ----------------------------------------------------------------- [CF-5] feet and toes


def test_a_double_grows_a_foot_and_the_turn_passes() -> None:
    # [CF-5] no BONUS_TURN; the next seats lay the toes, lowest first
    match = position(["4-4 7-0", "4-3 4-2 8-0", "4-1 6-0"], ["9-4", "9-3", "9-2", "9-1"], to_act=0)
    match, events = RULES.apply(match, play(0, "4-4", 0))
    assert kinds(events) == ["PLAY"]
    assert match.hand_state.to_act == 1
    assert moves(match) == ["1 PLAY [4-2] train=4", "1 PLAY [4-3] train=4"]
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, play(1, "4-3", 5))  # not the first empty toe
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, play(1, "4-3", 0))  # an arm that ends in a double
    match = apply(match, play(1, "4-3", 4))
    # seat 2 must lay on toe 5, though [6-0] would not fit anywhere anyway
    assert moves(match) == ["2 PLAY [4-1] train=5"]
    match = apply(match, play(2, "4-1", 5))
    assert moves(match) == ["0 DRAW"]  # nothing shows 4 in seat 0's hand: it draws


def test_a_dead_foot_needs_no_more_toes() -> None:
    # [CF-5] [MT-9] every 3 but [3-3] is on the table when [3-3] is laid (example 8)
    match = position(
        ["3-3 5-5", "2-1 4-4"],
        ["6-3", "6-4 4-3 3-2", "6-5 5-3 3-1", "6-0 3-0"],
        boneyard="",
        set_max_pip=6,
    )
    match, events = RULES.apply(match, play(0, "3-3", 0))
    assert kinds(events) == ["PLAY"]
    seen = table(match)
    # the toes are shown, empty; nothing is pending and seat 1 plays anywhere
    assert seen.feet == (6, 3) and seen.pending_foot is None
    assert [arm.open_end for arm in seen.arms[4:]] == [3, 3, 3]
    assert match.hand_state.to_act == 1
    assert moves(match) == ["1 PLAY [2-1] train=1", "1 PLAY [2-1] train=2"]


def test_a_foot_that_turns_dead_is_no_longer_pending() -> None:
    # [CF-5] the last tile showing the foot's number is laid on its first toe
    match = position(
        ["3-3 5-5", "3-2 4-4", "1-0 2-2"],
        ["6-3", "6-4 4-3", "6-5 5-3 3-1", "6-0 3-0"],
        boneyard="",
        set_max_pip=6,
    )
    match = apply(match, play(0, "3-3", 0))
    assert table(match).pending_foot == 1
    match = apply(match, play(1, "3-2", 4))
    seen = table(match)
    assert seen.pending_foot is None and seen.arms[5].open_end == 3
    assert moves(match) == ["2 PLAY [1-0] train=2", "2 PLAY [2-2] train=4"]


# ----------------------------------------------------------------- [CF-6] drawing and passing


def test_drawing_one_tile_and_passing() -> None:
    # [CF-6] [MT-8] one tile; laid by the drawer when it fits; the turn passes when not
    match = position(["8-0 7-0", "6-0 5-0"], ["9-4", "9-3", "9-2", "9-1"], boneyard="8-1 4-2")
    assert moves(match) == ["0 DRAW"]
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, Move(0, MoveKind.PASS))  # [CF-11] no PASS while a DRAW is possible
    match, events = RULES.apply(match, Move(0, MoveKind.DRAW))
    assert kinds(events) == ["DRAW"] and match.hand_state.to_act == 0
    assert moves(match) == ["0 PLAY [8-1] train=3"]
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, Move(0, MoveKind.DRAW))  # a tile that fits must be laid
    match = apply(match, play(0, "8-1", 3))
    match, events = RULES.apply(match, Move(1, MoveKind.DRAW))
    assert kinds(events) == ["DRAW"]  # [4-2] fits arm 0's 4
    assert match.hand_state.to_act == 1
    match = position(["8-0 7-0", "6-0 5-0"], ["9-4", "9-3", "9-2", "9-1"], boneyard="8-5 4-2")
    match, events = RULES.apply(match, Move(0, MoveKind.DRAW))
    assert kinds(events) == ["DRAW"]  # no TURN_PASSED: the draw ends the turn
    assert match.hand_state.to_act == 1
    # with the boneyard empty the move is PASS
    match = position(["8-0 7-0", "4-0 5-0"], ["9-4", "9-3", "9-2", "9-1"], boneyard="")
    assert moves(match) == ["0 PASS"]
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, Move(0, MoveKind.DRAW))
    match, events = RULES.apply(match, Move(0, MoveKind.PASS))
    assert events == (Event(EventKind.PASS, seat=0),) and match.status is Status.IN_PROGRESS
    assert moves(match) == ["1 PLAY [4-0] train=0"]


def test_a_drawn_double_is_laid_and_grows_a_foot() -> None:
    # [CF-5] [CF-6] the drawer lays it by a move; the turn then passes
    match = position(["8-0 7-0", "6-0 5-0"], ["9-4", "9-3", "9-2", "9-1"], boneyard="4-4 4-0")
    match = apply(match, Move(0, MoveKind.DRAW))
    assert moves(match) == ["0 PLAY [4-4] train=0"]
    match = apply(match, play(0, "4-4", 0))
    assert match.hand_state.to_act == 1 and table(match).pending_foot == 1


# ----------------------------------------------------------------- [CF-7] end of the hand


def test_dominoed_on_a_double() -> None:
    # [CF-7] the last tile ends the hand at once, a double included
    match = position(["4-4", "8-0 7-0"], ["9-4", "9-3", "9-2", "9-1"])
    match, events = RULES.apply(match, play(0, "4-4", 0))
    assert kinds(events) == ["PLAY", "HAND_OVER"]
    result = match.history[-1]
    assert result.end is HandEnd.DOMINOED and result.winners == (0,)
    assert result.points == (0, 15)


def test_blocked_inside_a_play() -> None:
    # [CF-7] nothing to draw and no hand shows an open end: the hand ends at once
    match = position(
        ["5-1 0-0", "6-0 5-0"], ["6-5", "6-4", "6-3", "6-2"], boneyard="", set_max_pip=6
    )
    assert moves(match) == ["0 PLAY [5-1] train=0"]
    match, events = RULES.apply(match, play(0, "5-1", 0))
    assert kinds(events)[:2] == ["PLAY", "HAND_OVER"]
    result = match.history[-1]
    # [CF-8] a [0-0] left in hand counts 50
    assert result.end is HandEnd.BLOCKED and result.counts == (50, 11)
    assert result.points == (50, 11) and result.winners == (1,)


def test_a_pass_never_ends_a_hand_and_a_pending_foot_never_blocks() -> None:
    # [CF-7] the test is exact: someone can still play
    match = position(
        ["5-5 8-0", "5-4 5-1 1-0"], ["9-5", "9-4", "9-3", "9-2"], boneyard="", to_act=0
    )
    match = apply(match, play(0, "5-5", 0))
    assert match.status is Status.IN_PROGRESS and table(match).pending_foot == 1
    match = apply(match, play(1, "5-4", 4))
    assert moves(match) == ["0 PASS"]
    match = apply(match, Move(0, MoveKind.PASS))
    assert match.status is Status.IN_PROGRESS
    assert moves(match) == ["1 PLAY [5-1] train=5"]


# ----------------------------------------------------------------- [CF-8] [CF-9] counts, match


def test_counts_and_double_blank_points() -> None:
    # [CF-8] [MT-12] the pips left; [0-0] counts double_blank_points (default 50)
    for points, expected in ((50, (50, 11)), (0, (0, 11)), (100, (100, 11))):
        match = position(
            ["5-1 0-0", "6-0 5-0"],
            ["6-5", "6-4", "6-3", "6-2"],
            boneyard="",
            set_max_pip=6,
            double_blank_points=points,
        )
        match = apply(match, play(0, "5-1", 0))
        assert match.history[-1].counts == expected
    with pytest.raises(OptionsError):
        options(double_blank_points=101)


def test_blocked_equal_lowest_counts_share_the_hand() -> None:
    # [CF-8] [MT-12] after a block every seat with the lowest count wins the hand
    match = position(
        ["5-1 6-0", "5-0 0-0"],
        ["6-5", "6-4", "6-3", "6-2"],
        boneyard="",
        set_max_pip=6,
        double_blank_points=1,
    )
    match = apply(match, play(0, "5-1", 0))
    result = match.history[-1]
    assert result.end is HandEnd.BLOCKED and result.counts == (6, 6)
    assert result.winners == (0, 1) and result.points == (6, 6)


def test_the_match_the_lowest_total_wins_and_ties_share() -> None:
    # [CF-9] [MT-13] totals add up; the lowest wins; equal lowest share the win
    history = (
        HandResult((10, 0, 4), (10, 0, 4), (1,), HandEnd.DOMINOED),
        HandResult((0, 14, 6), (0, 14, 6), (0,), HandEnd.DOMINOED),
    )
    match = position(
        ["4-4", "8-0 7-0", "6-0"],
        ["7-4", "7-3", "7-2", "7-1"],
        hand_number=3,
        history=history,
        hands=3,
    )
    match = apply(match, play(0, "4-4", 0))
    assert match.status is Status.MATCH_OVER
    assert RULES.totals(match) == (10, 29, 16)
    assert RULES.winners(match) == (0,)
    assert RULES.low_wins
    tied = (
        HandResult((10, 0, 4), (10, 0, 4), (1,), HandEnd.DOMINOED),
        HandResult((0, 25, 0), (0, 25, 0), (0,), HandEnd.DOMINOED),
    )
    match = position(
        ["4-4", "9-0 6-0", "5-1"],
        ["7-4", "7-3", "7-2", "7-1"],
        hand_number=3,
        history=tied,
        hands=3,
    )
    match = apply(match, play(0, "4-4", 0))
    assert RULES.totals(match) == (10, 40, 10)
    assert RULES.winners(match) == (0, 2)


def test_next_hand_after_each_hand_but_the_last() -> None:
    # [CF-9] [MT-13] NEXT_HAND by seat 0 deals the next engine
    match = position(["4-4", "8-0 7-0"], ["9-4", "9-3", "9-2", "9-1"], hands=2)
    match = apply(match, play(0, "4-4", 0))
    assert match.status is Status.HAND_OVER
    assert moves(match) == ["0 NEXT_HAND"]
    match, events = RULES.apply(match, Move(0, MoveKind.NEXT_HAND))
    assert events[0] == Event(EventKind.NEXT_HAND, count=2)
    assert match.hand_state.engine == Tile(8, 8) and match.hand_state.leader == 1


# ----------------------------------------------------------------- [CF-10] a seat's view


def test_a_seats_view() -> None:
    # [CF-10] the common fields and the table; spectators see the same table
    match = RULES.new_match(options(set_max_pip=6), 3, "view")
    view = RULES.view(match, 1)
    assert view.hand == match.hand_state.hands[1]
    assert view.hand_sizes == (5, 5, 5) and view.stock == 27 - 15
    seen = view.table
    assert isinstance(seen, ChickenFootTable)
    assert seen.engine == Tile(6, 6) and seen.leader == 0 and seen.feet == (6,)
    assert seen.pending_foot == 0
    assert [(arm.arm, arm.foot, arm.tiles, arm.open_end) for arm in seen.arms] == [
        (n, 0, (), 6) for n in range(4)
    ]
    spectator = RULES.view(match, None)
    assert spectator.hand == () and spectator.table == seen
    # hands stay hidden after the hand ends, except as the table turns them up to count
    assert RULES.view(match, 2).legal_moves == ()


def test_the_view_of_arms_and_feet() -> None:
    # [CF-10] arms in order, each with its foot, tiles, open end; feet; pending foot
    match = position(
        ["5-2 8-0", "7-0 8-1"],
        ["9-5 5-5", "9-4", "9-3", "9-2", "5-1", "", ""],
        to_act=0,
    )
    seen = table(match)
    assert seen.feet == (9, 5) and seen.pending_foot == 1
    assert [(a.arm, a.foot, a.open_end) for a in seen.arms] == [
        (0, 0, None),
        (1, 0, 4),
        (2, 0, 3),
        (3, 0, 2),
        (4, 1, 1),
        (5, 1, 5),
        (6, 1, 5),
    ]
    assert [(t.left, t.right) for t in seen.arms[0].tiles] == [(9, 5), (5, 5)]
    assert moves(match) == ["0 PLAY [5-2] train=5"]


# ----------------------------------------------------------------- [CF-11] ranges and refusals


@pytest.mark.parametrize(
    "values",
    [
        {"set_max_pip": 15},
        {"hand_size": 28},  # half of double-9 is 27
        {"hands": 11},
        {"double_blank_points": -1},
        {"centre_toes": 5},
        {"engine": "FIRST_DOUBLE"},
        {"opening": "CHAIN"},
    ],
)
def test_bad_options_are_refused(values: dict[str, Any]) -> None:
    # [CF-11] BAD_OPTIONS
    with pytest.raises(OptionsError):
        options(**values)


def test_illegal_moves_are_refused_and_change_nothing() -> None:
    # [CF-11] [MT-15] any move that is not, field for field, a legal move
    match = position(["4-4 4-2", "4-3 8-0"], ["9-4", "9-3", "9-2 2-2", "9-1", "", "", ""], to_act=0)
    assert table(match).pending_foot == 1
    before = match
    for move in (
        Move(0, MoveKind.PLAY, Tile(4, 2)),  # no arm
        play(0, "4-2", 99),  # an unknown arm
        play(0, "4-2", 2),  # an arm that ends in a double
        play(0, "4-2", 5),  # not the pending foot's first empty toe
        play(0, "4-2", 0),  # not the pending foot
        play(0, "4-3", 4),  # a tile not in hand
        play(0, "4-4", 4),  # a tile that does not show the arm's end
        Move(0, MoveKind.DRAW),  # a draw while a tile can be laid
        Move(0, MoveKind.PASS),
        Move(0, MoveKind.NEXT_HAND),  # in the middle of a hand
    ):
        with pytest.raises(IllegalMoveError):
            RULES.apply(match, move)
    assert match == before
    for malformed in (
        Move(0, MoveKind.DRAW, train=1),
        Move(0, MoveKind.PASS, train=0),
    ):
        with pytest.raises(InvalidMoveError):
            RULES.apply(match, malformed)


def test_moves_and_events() -> None:
    # [CF-11] [MT-16] PLAY (tile, train), DRAW, PASS, NEXT_HAND; no markers, no bonus turns
    kinds_seen: set[EventKind] = set()
    for seed in range(6):
        match = RULES.new_match(options(set_max_pip=6, hands=2), 3, f"events-{seed}")
        kinds_seen.update(e.kind for e in match.last_events)
        while match.status is not Status.MATCH_OVER:
            move = RULES.legal_moves(match)[-1]
            assert move.kind in {MoveKind.PLAY, MoveKind.DRAW, MoveKind.PASS, MoveKind.NEXT_HAND}
            match, events = RULES.apply(match, move)
            kinds_seen.update(e.kind for e in events)
            for event in events:
                if event.kind is EventKind.PLAY:
                    assert event.train == move.train and event.tile == move.tile
    assert not kinds_seen & {
        EventKind.MARKER_UP,
        EventKind.MARKER_DOWN,
        EventKind.BONUS_TURN,
        EventKind.TURN_PASSED,
    }
    assert {EventKind.ENGINE, EventKind.LEADER, EventKind.PLAY, EventKind.DRAW} <= kinds_seen


# ----------------------------------------------------------------- states from outside


def test_forged_states_are_refused() -> None:
    # the module docstring's reachable states
    match = position(
        ["5-2 8-0", "7-0 8-1"], ["9-5 5-5", "9-4", "9-3", "9-2", "5-1", "", ""], hand_size=5
    )
    RULES.check_match(match)
    state = match.hand_state
    forged = {  # the arms, the feet, and what the check says
        "toes skip one": (("9-5 5-5", "9-4", "9-3", "9-2", "", "5-1", ""), (9, 5)),
        "arm 4 is not a chain": (("9-5 5-5", "9-4", "9-3", "9-2", "4-1", "", ""), (9, 5)),
        "while foot 0 was pending": (("9-5 5-5", "9-4", "9-3", "", "5-1", "", ""), (9, 5)),
        "past a double": (("9-5 5-5 5-1", "9-4", "9-3", "9-2", "", "", ""), (9, 5)),
        "not the doubles": (("9-5 5-5", "9-4", "9-3", "9-2", "", "", ""), (9, 4)),
    }
    for says, (arms, feet) in forged.items():
        laid = tuple(in_order(text) for text in arms)
        forged_state = ChickenFootHandState(
            state.hands, state.boneyard, state.engine, laid, feet, 0, 0, 0
        )
        with pytest.raises(InvalidStateError, match=says):
            RULES.check_match(Match(2, match.options, "cf", 1, forged_state))
    earlier = (HandResult((1, 1), (1, 1), (0, 1), HandEnd.BLOCKED),)
    wrong_engine = Match(2, match.options, "cf", 2, state, earlier)
    with pytest.raises(InvalidStateError):
        RULES.check_match(wrong_engine)


def test_random_matches_stay_consistent() -> None:
    # every state play reaches passes the check of a state from outside
    import random

    for values, players in (
        ({"set_max_pip": 6}, 4),
        ({"engine": "FROM_HAND", "hands": 2}, 5),
        ({"set_max_pip": 12, "centre_toes": 6, "hands": 1}, 8),
    ):
        match = RULES.new_match(options(**values), players, f"random-{players}")
        chooser = random.Random(players)
        while match.status is not Status.MATCH_OVER:
            RULES.check_match(match)
            match = apply(match, chooser.choice(RULES.legal_moves(match)))
