"""Tsair Deng (Slant Nail): scripted positions, one test (or more) per rule tag [TD-n]."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from domino_rules.bots.playout import Step, hand_over, play_out
from domino_rules.games.tsair_deng import GAME
from domino_rules.games.tsair_deng.rules import TileSet, TsairDengHandState, TsairDengOptions
from domino_rules.rules import rng
from domino_rules.rules.errors import IllegalMoveError, OptionsError, PlayerCountError
from domino_rules.rules.events import EventKind
from domino_rules.rules.match import HandEnd, HandResult, Match, Status
from domino_rules.rules.moves import Move, MoveKind
from domino_rules.rules.registry import get
from domino_rules.rules.tiles import Tile
from domino_rules.rules.views import View

from . import positions
from .positions import hand as ts
from .positions import tile as t

RULES = get("tsair_deng")
SEED = "tsair-deng-test"
TD = Match[TsairDengOptions, TsairDengHandState]

PLAY, DISCARD, NEXT_HAND = MoveKind.PLAY, MoveKind.DISCARD, MoveKind.NEXT_HAND


def position(
    hands: list[str],
    *,
    discards: list[str] | None = None,
    played: str = "",
    open_pip: int | None = None,
    to_act: int = 0,
    leader: int = 0,
    unused: str = "",
) -> TsairDengHandState:
    """A Tsair Deng hand state (discards in the order discarded, played in play order)."""
    return TsairDengHandState(
        hands=tuple(positions.hand(h) for h in hands),
        discards=tuple(positions.tiles(d) for d in (discards or [""] * len(hands))),
        played=positions.tiles(played),
        open_pip=open_pip,
        to_act=to_act,
        leader=leader,
        unused=positions.hand(unused),
    )


def options(**values: Any) -> Any:
    return RULES.make_options(values)


def match_of(
    state: TsairDengHandState,
    opts: Any = None,
    *,
    hand_number: int = 1,
    history: tuple[HandResult, ...] = (),
    status: Status = Status.IN_PROGRESS,
) -> TD:
    return positions.match_of(
        RULES,
        state,
        options=opts,
        seed=SEED,
        hand_number=hand_number,
        history=history,
        status=status,
    )


def played_result(points: tuple[int, ...], winner: int = 0) -> HandResult:
    """A finished earlier hand with these points (its counts are irrelevant here)."""
    return HandResult(counts=points, points=points, winners=(winner,), end=HandEnd.ALL_TILES_PLACED)


def tiles_in(value: Any) -> list[Tile]:
    """Every tile anywhere inside a view (hand, moves, events, table)."""
    if isinstance(value, Tile):
        return [value]
    if isinstance(value, (tuple, list)):
        return [x for item in value for x in tiles_in(item)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [x for f in dataclasses.fields(value) for x in tiles_in(getattr(value, f.name))]
    return []


def tops(view: View) -> list[Tile | None]:
    return [place.top for place in view.table.places]


def depths(view: View) -> list[int]:
    return [place.depth for place in view.table.places]


def moves_text(moves: tuple[Move, ...]) -> list[str]:
    return [str(m) for m in moves]


def assert_rejected(match: TD, move: Move, rebuilt: TD) -> None:
    """The move raises IllegalMoveError and the state passed in is unchanged."""
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, move)
    assert match == rebuilt


# --------------------------------------------------------------------------- [TD-1]

CIVIL_TEXT = "6-6 1-1 4-4 3-1 5-5 3-3 2-2 6-5 6-4 6-1 5-1"
MILITARY_TEXT = "6-3 5-4 6-2 5-3 5-2 4-3 4-1 3-2 4-2 2-1"


def test_td1_tile_set_option_and_sets() -> None:
    """[TD-1] tile_set: CHINESE (default, 32 tiles, civil twice) or DOUBLE_SIX (28)."""
    specs = {s.name: s for s in RULES.option_specs()}
    assert list(specs) == ["tile_set", "must_play_if_able", "hands", "target_score"]
    assert specs["tile_set"].allowed == ("CHINESE", "DOUBLE_SIX")
    assert specs["tile_set"].default_text == "CHINESE"
    assert (specs["must_play_if_able"].type, specs["must_play_if_able"].default) == ("bool", False)
    assert (specs["hands"].default, specs["hands"].minimum, specs["hands"].maximum) == (4, 1, 1000)
    assert (specs["target_score"].default, specs["target_score"].minimum) == (0, 0)
    assert specs["target_score"].maximum == 100_000
    assert options().tile_set is TileSet.CHINESE
    assert options(tile_set="DOUBLE_SIX").tile_set is TileSet.DOUBLE_SIX
    with pytest.raises(OptionsError):
        options(tile_set="DOUBLE_NINE")
    with pytest.raises(OptionsError):
        options(hands=0)

    chinese = Counter(RULES.full_set(options()))
    assert sum(chinese.values()) == 32
    assert chinese == Counter(ts(CIVIL_TEXT) * 2 + ts(MILITARY_TEXT))
    assert not any(tile.has(0) for tile in chinese)

    six = RULES.full_set(options(tile_set="DOUBLE_SIX"))
    assert len(six) == len(set(six)) == 28
    assert set(six) == {Tile(a, b) for a in range(7) for b in range(a + 1)}

    for name, full in (("CHINESE", chinese), ("DOUBLE_SIX", Counter(six))):
        match = RULES.new_match(options(tile_set=name), 4, SEED)
        assert Counter(RULES.all_tiles(match.hand_state)) == full


# --------------------------------------------------------------------------- [TD-2]


@pytest.mark.parametrize(
    ("tile_set", "players", "size", "aside"),
    [
        ("CHINESE", 2, 16, 0),
        ("CHINESE", 3, 10, 2),
        ("CHINESE", 4, 8, 0),
        ("DOUBLE_SIX", 2, 14, 0),
        ("DOUBLE_SIX", 3, 9, 1),
        ("DOUBLE_SIX", 4, 7, 0),
    ],
)
def test_td2_deal_sizes(tile_set: str, players: int, size: int, aside: int) -> None:
    """[TD-2] 16/10/8 Chinese, 14/9/7 double-six; tiles left over with 3 are not used."""
    opts = options(tile_set=tile_set)
    match = RULES.new_match(opts, players, SEED)
    state = match.hand_state
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.unused) == aside
    assert match.last_events[0].kind is EventKind.DEAL and match.last_events[0].count == size
    # the documented derivation: the set shuffled with label deal/1/0, seat s takes slice s
    order = rng.shuffled(SEED, "deal/1/0", RULES.full_set(opts))
    for seat in range(players):
        assert Counter(state.hands[seat]) == Counter(order[seat * size : (seat + 1) * size])
    assert Counter(state.unused) == Counter(order[players * size :])
    # the tiles aside are in nobody's view and nobody draws them
    for seat in (*range(players), None):
        view = RULES.view(match, seat)
        assert view.stock == 0
        assert view.hand_sizes == (size,) * players
        own = set(state.hands[seat]) if seat is not None else set()
        assert set(tiles_in(view)) <= own  # nothing but the seat's own tiles before the lead


def test_td2_player_range() -> None:
    """[TD-2] 2, 3 or 4 players with either set."""
    for name in ("CHINESE", "DOUBLE_SIX"):
        assert RULES.player_range(options(tile_set=name)) == (2, 4)
        for players in (1, 5):
            with pytest.raises(PlayerCountError):
                RULES.new_match(options(tile_set=name), players, SEED)


# --------------------------------------------------------------------------- [TD-3]


def test_td3_chinese_first_leader_is_random() -> None:
    """[TD-3] Chinese set: the first leader is drawn with label lead/1."""
    leaders = set()
    for i in range(12):
        seed = f"lead-{i}"
        match = RULES.new_match(options(), 4, seed)
        expected = rng.Stream(seed, "lead/1").below(4)
        assert match.hand_state.leader == match.hand_state.to_act == RULES.to_act(match) == expected
        assert [(e.kind, e.seat) for e in match.last_events][-1] == (EventKind.LEADER, expected)
        leaders.add(expected)
    assert len(leaders) > 1  # not always the same seat


def test_td3_double_six_holder_of_6_6_leads_any_tile() -> None:
    """[TD-3] double-six: the holder of [6-6] leads the first hand, with any tile."""
    leaders = set()
    for i in range(8):
        match = RULES.new_match(options(tile_set="DOUBLE_SIX"), 4, f"six-{i}")
        leader = match.hand_state.leader
        assert t("6-6") in match.hand_state.hands[leader]
        assert RULES.to_act(match) == leader
        led = {m.tile for m in RULES.legal_moves(match)}
        assert led == set(match.hand_state.hands[leader])  # any tile, not only [6-6]
        leaders.add(leader)
    assert len(leaders) > 1


def test_td3_double_six_aside_gives_a_random_leader() -> None:
    """[TD-3] with 3 players [6-6] may lie aside: then the leader is drawn at random."""
    for i in range(500):
        seed = f"aside-{i}"
        match = RULES.new_match(options(tile_set="DOUBLE_SIX"), 3, seed)
        if match.hand_state.unused == (t("6-6"),):
            break
    else:  # pragma: no cover
        pytest.fail("no deal put [6-6] aside")
    assert match.hand_state.leader == rng.Stream(seed, "lead/1").below(3)


@pytest.mark.parametrize("tile_set", ["CHINESE", "DOUBLE_SIX"])
def test_td3_previous_winner_leads_next_hand(tile_set: str) -> None:
    """[TD-3] later hands are led by the previous hand's winner (also with double-six)."""
    finished = position(["", "", "", ""], played="6-6", open_pip=6)
    found_non_holder = False
    for i in range(20):
        seed = f"next-{i}"
        done = Match(
            4,
            options(tile_set=tile_set),
            seed,
            1,
            finished,
            history=(played_result((9, 8, 0, 7), winner=2),),
            status=Status.HAND_OVER,
        )
        assert RULES.legal_moves(done) == (Move(0, NEXT_HAND),)
        new, events = RULES.apply(done, Move(0, NEXT_HAND))
        assert new.hand_number == 2 and new.status is Status.IN_PROGRESS
        assert new.hand_state.leader == new.hand_state.to_act == 2
        assert [e.kind for e in events] == [EventKind.NEXT_HAND, EventKind.DEAL, EventKind.LEADER]
        assert events[-1].seat == 2
        found_non_holder |= t("6-6") not in new.hand_state.hands[2]
    assert found_non_holder


# --------------------------------------------------------------------------- [TD-4]


def lead_position() -> TD:
    return match_of(position(["5-5 1-1", "6-4 6-4 3-3 2-1", "6-2 4-1"], to_act=1, leader=1))


def test_td4_lead_names_the_open_half() -> None:
    """[TD-4] the leader plays any tile and names open_pip: either half, a double's own."""
    match = lead_position()
    assert moves_text(RULES.legal_moves(match)) == [
        "1 PLAY [2-1] open=2",
        "1 PLAY [2-1] open=1",
        "1 PLAY [3-3] open=3",
        "1 PLAY [6-4] open=6",
        "1 PLAY [6-4] open=4",
    ]
    new, events = RULES.apply(match, Move(1, PLAY, t("6-4"), open_pip=4))
    assert new.hand_state.open_pip == 4
    assert new.hand_state.hands[1] == ts("6-4 3-3 2-1")
    assert [(e.kind, e.seat, e.tile, e.open_pip) for e in events] == [
        (EventKind.PLAY, 1, t("6-4"), 4)
    ]
    assert RULES.to_act(new) == 2
    view = RULES.view(new, None)
    assert view.table.open_pip == 4 and view.table.played == 1 and view.table.leader == 1
    assert tops(view)[0] == t("6-4")

    other, _ = RULES.apply(match, Move(1, PLAY, t("6-4"), open_pip=6))
    assert other.hand_state.open_pip == 6
    double, _ = RULES.apply(match, Move(1, PLAY, t("3-3"), open_pip=3))
    assert double.hand_state.open_pip == 3


def test_td4_bad_leads_are_illegal() -> None:
    """[TD-4] a lead without open_pip, with a pip not on the tile, or a discard: illegal."""
    match = lead_position()
    for bad in (
        Move(1, PLAY, t("6-4")),  # no open_pip
        Move(1, PLAY, t("6-4"), open_pip=5),  # not a half of the tile
        Move(1, PLAY, t("6-4"), open_pip=0),
        Move(1, PLAY, t("3-3"), open_pip=4),
        Move(1, PLAY, t("5-5"), open_pip=5),  # not in the leader's hand
        Move(1, DISCARD, t("2-1")),  # the leader must lead
    ):
        assert_rejected(match, bad, lead_position())


# --------------------------------------------------------------------------- [TD-5]


def turn_position(opts: Any = None, *, open_pip: int = 3) -> TD:
    return match_of(
        position(
            ["6-6 1-1", "4-4 6-5", "6-3 3-3 5-1 5-1 4-2"],
            played="5-3",
            open_pip=open_pip,
            to_act=2,
            leader=1,
        ),
        opts,
    )


def test_td5_play_or_discard() -> None:
    """[TD-5] play a tile matching the open half (no open_pip), or discard any tile."""
    match = turn_position()
    assert moves_text(RULES.legal_moves(match)) == [
        "2 PLAY [3-3]",
        "2 PLAY [6-3]",
        "2 DISCARD [3-3]",
        "2 DISCARD [4-2]",
        "2 DISCARD [5-1]",
        "2 DISCARD [6-3]",
    ]
    # the other half becomes the open half
    new, events = RULES.apply(match, Move(2, PLAY, t("6-3")))
    assert new.hand_state.open_pip == 6
    assert (events[0].kind, events[0].tile, events[0].open_pip) == (EventKind.PLAY, t("6-3"), 6)
    assert RULES.view(new, None).table.played == 2
    assert RULES.to_act(new) == 0
    # a double keeps it
    new, _ = RULES.apply(match, Move(2, PLAY, t("3-3")))
    assert new.hand_state.open_pip == 3
    # a discard is face down: only the discarder sees the tile
    new, events = RULES.apply(match, Move(2, DISCARD, t("5-1")))
    assert new.hand_state.open_pip == 3 and new.hand_state.played == (t("5-3"),)
    assert new.hand_state.hands[2] == ts("6-3 3-3 5-1 4-2")
    assert (events[0].kind, events[0].seat, events[0].tile) == (EventKind.DISCARD, 2, t("5-1"))
    own = RULES.view(new, 2)
    assert own.events[0].tile == t("5-1") and not own.events[0].hidden
    assert own.table.discards == (t("5-1"),)
    assert own.table.discard_counts == (0, 0, 1)
    for seat in (0, 1, None):
        view = RULES.view(new, seat)
        assert view.events[0].kind is EventKind.DISCARD and view.events[0].seat == 2
        assert view.events[0].hidden and view.events[0].tile is None
        assert view.table.discards == ()
        assert view.table.discard_counts == (0, 0, 1)
        assert t("5-1") not in tiles_in(view)


def test_td5_must_play_if_able() -> None:
    """[TD-5] must_play_if_able: discarding is legal only without a matching tile."""
    strict = options(must_play_if_able=True)
    assert moves_text(RULES.legal_moves(turn_position(strict))) == ["2 PLAY [3-3]", "2 PLAY [6-3]"]
    # open 2: seat 2 holds [4-2], so it must play it
    assert moves_text(RULES.legal_moves(turn_position(strict, open_pip=2))) == ["2 PLAY [4-2]"]
    # no matching tile: any tile may be discarded
    no_match = match_of(
        position(["6-6", "4-4", "6-5 5-5 5-5"], played="3-2", open_pip=2, to_act=2, leader=1),
        strict,
    )
    assert moves_text(RULES.legal_moves(no_match)) == ["2 DISCARD [5-5]", "2 DISCARD [6-5]"]
    # by default a player holding a matching tile may still discard it
    assert Move(2, DISCARD, t("6-3")) in RULES.legal_moves(turn_position())


def test_td5_bad_moves_are_illegal() -> None:
    """[TD-5] illegal later moves raise IllegalMoveError and change nothing."""
    match = turn_position()
    for bad in (
        Move(2, PLAY, t("5-1")),  # does not match the open half 3
        Move(2, PLAY, t("4-2")),
        Move(2, PLAY, t("6-3"), open_pip=6),  # later plays carry no open_pip
        Move(2, PLAY, t("5-3")),  # matches, but not in hand
        Move(2, DISCARD, t("6-6")),  # not in hand
    ):
        assert_rejected(match, bad, turn_position())
    strict = options(must_play_if_able=True)
    assert_rejected(turn_position(strict), Move(2, DISCARD, t("5-1")), turn_position(strict))


# --------------------------------------------------------------------------- [TD-6]

# A double-six chain of 17 tiles; the 11 others are spare tiles in the two hands.
CHAIN = [
    "6-6",
    "6-5",
    "5-5",
    "5-4",
    "4-4",
    "4-3",
    "3-3",
    "3-2",
    "2-2",
    "2-1",
    "1-1",
    "1-0",
    "0-0",
    "6-0",
    "6-4",
    "4-2",
    "2-0",
]


def serpentine_start() -> TD:
    seat0 = " ".join(CHAIN[0::2]) + " 6-3 6-2 6-1 5-3 5-2"
    seat1 = " ".join(CHAIN[1::2]) + " 5-1 5-0 4-1 4-0 3-1 3-0"
    state = position([seat0, seat1])
    assert Counter(RULES.all_tiles(state)) == Counter(
        RULES.full_set(options(tile_set="DOUBLE_SIX"))
    )
    return match_of(state, options(tile_set="DOUBLE_SIX"))


def play_chain(match: TD, upto: int) -> TD:
    for n in range(len(match.hand_state.played) + 1, upto + 1):
        seat = match.hand_state.to_act
        tile = t(CHAIN[n - 1])
        move = Move(seat, PLAY, tile, open_pip=6) if n == 1 else Move(seat, PLAY, tile)
        match, _ = RULES.apply(match, move)
    return match


def assert_hidden_everywhere(match: TD, covered: Tile) -> None:
    for seat in (0, 1, None):
        assert covered not in tiles_in(RULES.view(match, seat))


def test_td6_serpentine_covers_tiles_9_16_17() -> None:
    """[TD-6] rows of 8: tile 9 covers 8, tile 16 covers 1, tile 17 covers 16."""
    match = play_chain(serpentine_start(), 8)
    view = RULES.view(match, None)
    assert tops(view) == [t(x) for x in CHAIN[:8]]
    assert depths(view) == [1] * 8

    match = play_chain(match, 9)
    view = RULES.view(match, None)
    assert tops(view)[7] == t("2-2") and depths(view) == [1] * 7 + [2]
    assert tops(view)[:7] == [t(x) for x in CHAIN[:7]]
    assert_hidden_everywhere(match, t("3-2"))  # tile 8

    match = play_chain(match, 10)
    assert tops(RULES.view(match, None))[6] == t("2-1")  # tile 10 covers tile 7
    assert_hidden_everywhere(match, t("3-3"))

    match = play_chain(match, 16)
    view = RULES.view(match, 0)
    # the second layer runs right to left: place p shows tile 16 - p
    assert tops(view) == [t(CHAIN[15 - p]) for p in range(8)]
    assert depths(view) == [2] * 8
    assert_hidden_everywhere(match, t("6-6"))  # tile 1
    assert view.table.open_pip == 2 and view.table.played == 16

    match = play_chain(match, 17)
    view = RULES.view(match, 1)
    assert tops(view)[0] == t("2-0") and depths(view) == [3] + [2] * 7
    assert tops(view)[1:] == [t(CHAIN[15 - p]) for p in range(1, 8)]
    assert_hidden_everywhere(match, t("4-2"))  # tile 16
    assert view.table.open_pip == 0 and view.table.played == 17
    assert sum(depths(view)) == 17
    # none of the 9 covered tiles shows anywhere, for any seat
    covered = set(t(x) for x in CHAIN) - {p for p in tops(view) if p is not None}
    assert len(covered) == 9
    for seat in (0, 1, None):
        assert not covered & set(tiles_in(RULES.view(match, seat)))


# --------------------------------------------------------------------------- [TD-7]


def test_td7_hand_ends_when_every_tile_is_used() -> None:
    """[TD-7] the hand goes on until every player has played or discarded every tile."""
    match = match_of(
        position(
            ["6-3", "5-5", "3-1"],
            discards=["6-6", "4-4", "6-5"],
            played="2-1 1-1",
            open_pip=1,
            to_act=1,
            leader=1,
        )
    )
    match, _ = RULES.apply(match, Move(1, DISCARD, t("5-5")))  # the leader's last tile
    assert match.status is Status.IN_PROGRESS and RULES.to_act(match) == 2
    assert RULES.view(match, None).hand_sizes == (1, 0, 1)
    match, _ = RULES.apply(match, Move(2, PLAY, t("3-1")))
    assert match.status is Status.IN_PROGRESS and RULES.to_act(match) == 0
    match, events = RULES.apply(match, Move(0, PLAY, t("6-3")))
    assert match.status is Status.HAND_OVER
    assert events[-1].kind is EventKind.HAND_OVER
    assert match.history[-1].end is HandEnd.ALL_TILES_PLACED  # [TD-7] how the hand ended
    assert RULES.legal_moves(match) == (Move(0, NEXT_HAND),)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_td7_every_seat_takes_one_turn_per_tile(players: int) -> None:
    """[TD-7] a hand lasts players * k turns in strict rotation from the leader."""
    chooser = random.Random(players)
    match = RULES.new_match(options(), players, f"turns-{players}")
    size, leader = len(match.hand_state.hands[0]), match.hand_state.leader
    seats: list[int] = []
    observe = lambda step: seats.append(step.move.seat)  # noqa: E731
    match = play_out(RULES, match, chooser, until=hand_over, observe=observe)
    assert seats == [(leader + i) % players for i in range(players * size)]
    assert match.status is Status.HAND_OVER


@pytest.mark.parametrize("players", [2, 3, 4])
def test_td7_the_seat_to_act_empties_its_hand_last(players: int) -> None:
    """[TD-7] one tile a turn in seat order: the seat to act holds no tile exactly when no
    seat does, which is all hand_over reads."""
    chooser = random.Random(players)
    match = RULES.new_match(options(), players, f"last-{players}")
    states = [match.hand_state]
    observe = lambda step: states.append(step.after.hand_state)  # noqa: E731
    play_out(RULES, match, chooser, until=hand_over, observe=observe)
    assert not any(states[-1].hands)
    for state in states:
        assert RULES.hand_over(state) is (not any(state.hands))


# --------------------------------------------------------------------------- [TD-8]


def test_td8_no_discards_doubles_the_others() -> None:
    """[TD-8] one player ended with no discards: every other hand score is doubled."""
    match = match_of(
        position(
            ["", "3-2", ""],
            discards=["6-5 3-1", "", "2-1"],
            played="6-6 6-3 3-3 3-3",
            open_pip=3,
            to_act=1,
            leader=2,
        )
    )
    match, events = RULES.apply(match, Move(1, PLAY, t("3-2")))
    result = match.history[-1]
    assert result.counts == (15, 0, 3)
    assert result.points == (30, 0, 6)
    assert result.winners == (1,)
    assert events[-1].scores == (30, 0, 6) and events[-1].seats == (1,)
    score = RULES.score(match)
    assert score.hand_points == (30, 0, 6) and score.match_points == (30, 0, 6)
    # after the hand the discards stay face down: each seat sees only its own
    assert RULES.view(match, 0).table.discards == (t("6-5"), t("3-1"))
    assert RULES.view(match, 1).table.discards == ()
    assert RULES.view(match, 2).table.discards == (t("2-1"),)
    for seat in (1, 2, None):
        assert not {t("6-5"), t("3-1")} & set(tiles_in(RULES.view(match, seat)))


def test_td8_two_players_without_discards_double_the_third() -> None:
    """[TD-8] "at least one" player with no discards: with two such players the third is
    doubled all the same."""
    match = match_of(
        position(
            ["", "3-2", ""],
            discards=["", "", "6-5"],
            played="6-6 6-3 3-3 3-3",
            open_pip=3,
            to_act=1,
            leader=2,
        )
    )
    match, _ = RULES.apply(match, Move(1, PLAY, t("3-2")))
    assert match.history[-1].counts == (0, 0, 11)
    assert match.history[-1].points == (0, 0, 22)


def test_td8_everyone_discarded_no_doubling() -> None:
    """[TD-8] every player discarded something: scores are the discarded pips."""
    match = match_of(
        position(
            ["", "1-1", ""],
            discards=["6-5 3-1", "2-2", "2-1"],
            played="6-6 6-3",
            open_pip=3,
            to_act=1,
            leader=2,
        )
    )
    match, _ = RULES.apply(match, Move(1, DISCARD, t("1-1")))  # the last move discards
    assert match.history[-1].counts == (15, 6, 3)
    assert match.history[-1].points == (15, 6, 3)


def test_td8_a_discarded_blank_double_is_a_discard() -> None:
    """[TD-8] a player whose only discard is [0-0] has discards (of 0 pips): no doubling."""
    match = match_of(
        position(["", "3-2"], discards=["6-5", "0-0"], played="6-6 6-3 3-3", open_pip=3, to_act=1),
        options(tile_set="DOUBLE_SIX"),
    )
    match, _ = RULES.apply(match, Move(1, PLAY, t("3-2")))
    assert match.history[-1].counts == (11, 0)
    assert match.history[-1].points == (11, 0)
    assert match.history[-1].winners == (1,)


def test_td8_nobody_discarded() -> None:
    """[TD-8] nobody discarded: everyone scores 0."""
    match = match_of(position(["", "3-2"], played="6-6 6-3 3-3", open_pip=3, to_act=1))
    match, _ = RULES.apply(match, Move(1, PLAY, t("3-2")))
    assert match.history[-1].points == (0, 0)


# --------------------------------------------------------------------------- [TD-9]


def finish(state: TsairDengHandState, *, history: tuple[HandResult, ...] = ()) -> TD:
    """Apply the last move (the only tile left, matching the open half)."""
    match = match_of(state, hand_number=len(history) + 1, history=history)
    seat = state.to_act
    (tile,) = state.hands[seat]
    match, _ = RULES.apply(match, Move(seat, PLAY, tile))
    assert match.status is Status.HAND_OVER
    return match


def test_td9_fewest_points_wins() -> None:
    """[TD-9] the fewest points win, even with more discarded tiles and a later turn."""
    match = finish(
        position(
            ["", "", "3-3"],
            discards=["5-5", "1-1 1-1", "6-4"],
            played="6-3",
            open_pip=3,
            to_act=2,
            leader=0,
        )
    )
    assert match.history[-1].points == (10, 4, 10)
    assert match.history[-1].winners == (1,)


def test_td9_tie_fewer_discarded_tiles() -> None:
    """[TD-9] equal points: fewer discarded tiles wins, before totals and turn order."""
    match = finish(
        position(
            ["", "3-1", ""],
            discards=["6-6", "6-5 6-4", "3-3 3-3"],
            played="6-3",
            open_pip=3,
            to_act=1,
            leader=2,
        ),
        history=(played_result((10, 0, 0)),),
    )
    assert match.history[-1].points == (12, 21, 12)
    # seat 2 leads and has the lower total, but discarded two tiles to seat 0's one
    assert match.history[-1].winners == (0,)


def tied_on_discards(leader: int) -> TsairDengHandState:
    """Seats 0 and 2 discarded one [6-6] each (12 points); seat 1 has 21 points."""
    last = (leader - 1) % 3
    hands = ["", "", ""]
    hands[last] = "3-3"
    return position(
        hands,
        discards=["6-6", "6-5 6-4", "6-6"],
        played="6-3",
        open_pip=3,
        to_act=last,
        leader=leader,
    )


def test_td9_tie_lower_match_total_before() -> None:
    """[TD-9] equal points and discards: the lower match total before this hand wins."""
    # leader 0: turn order 0, 1, 2 favours seat 0; totals before are 30, 0, 15
    match = finish(
        tied_on_discards(0), history=(played_result((20, 0, 15)), played_result((10, 0, 0)))
    )
    assert match.history[-1].points == (12, 21, 12)
    assert match.history[-1].winners == (2,)  # not seat 1 (lowest total, more points)
    # leader 2: turn order 2, 0, 1 favours seat 2; totals before are 5, 0, 25
    match = finish(tied_on_discards(2), history=(played_result((5, 0, 25)),))
    assert match.history[-1].winners == (0,)


@pytest.mark.parametrize(("leader", "winner"), [(2, 3), (0, 0), (3, 3), (1, 3)])
def test_td9_tie_first_in_turn_order_from_leader(leader: int, winner: int) -> None:
    """[TD-9] all else equal: first in turn order from this hand's leader."""
    last = (leader - 1) % 4
    hands = ["", "", "", ""]
    hands[last] = "3-3"
    match = finish(
        position(
            hands,
            discards=["5-1", "6-6", "6-5", "4-2"],
            played="6-3",
            open_pip=3,
            to_act=last,
            leader=leader,
        ),
        history=(played_result((7, 7, 7, 7)),),
    )
    assert match.history[-1].points == (6, 12, 11, 6)
    assert match.history[-1].winners == (winner,)
    # [TD-3] the winner leads the next hand
    new, _ = RULES.apply(match, Move(0, NEXT_HAND))
    assert new.hand_state.leader == RULES.to_act(new) == winner


# --------------------------------------------------------------------------- [TD-10]


def last_move_match(
    opts: Any, hand_number: int, history: tuple[HandResult, ...], discards: list[str]
) -> TD:
    match = match_of(
        position(["", "3-3", ""], discards=discards, played="6-3", open_pip=3, to_act=1, leader=2),
        opts,
        hand_number=hand_number,
        history=history,
    )
    match, _ = RULES.apply(match, Move(1, PLAY, t("3-3")))
    return match


def test_td10_match_of_n_hands() -> None:
    """[TD-10] without target_score the match is `hands` hands; fewest total wins."""
    opts = options(hands=2)
    first = last_move_match(opts, 1, (), ["5-5", "", "6-6"])
    assert first.status is Status.HAND_OVER
    assert RULES.legal_moves(first) == (Move(0, NEXT_HAND),)
    assert RULES.score(first).winners == ()
    # settlement of the totals so far, (20, 0, 24): 0 - 20 + 24 - 20, 20 + 24, 20 - 24 - 24
    assert RULES.score(first).settlement == (-16, 44, -28)
    second = last_move_match(opts, 2, first.history, ["1-1", "6-5", "4-4"])
    assert second.status is Status.MATCH_OVER
    assert RULES.legal_moves(second) == () and RULES.to_act(second) is None
    # totals: (20 + 2, 0 + 11, 24 + 8)
    assert RULES.totals(second) == (22, 11, 32)
    assert RULES.score(second).winners == (1,)
    assert [e.kind for e in second.last_events][-1] is EventKind.MATCH_OVER
    assert second.last_events[-1].seats == (1,)


def test_td10_target_score_ignores_hands() -> None:
    """[TD-10] with target_score > 0 the match ends when a total reaches it."""
    opts = options(hands=1, target_score=50)
    below = last_move_match(opts, 1, (), ["6-6", "", "5-5"])  # (24, 0, 20)
    assert below.status is Status.HAND_OVER  # hands=1 is ignored
    reached = last_move_match(opts, 2, below.history, ["6-6 1-1", "", "1-1"])  # + (28, 0, 4)
    assert RULES.totals(reached) == (52, 0, 24)
    assert reached.status is Status.MATCH_OVER
    assert RULES.score(reached).winners == (1,)
    # exactly at the target also ends it; later hands are played while below it
    opts = options(hands=1, target_score=24)
    assert last_move_match(opts, 1, (), ["6-6", "", "5-5"]).status is Status.MATCH_OVER
    opts = options(hands=1, target_score=25)
    assert last_move_match(opts, 7, (), ["6-6", "", "5-5"]).status is Status.HAND_OVER


def test_td10_equal_fewest_totals_share_the_win() -> None:
    """[TD-10] equal fewest totals share the win."""
    opts = options(hands=2)
    history = (played_result((0, 12, 4)),)
    # this hand: discards of 4 and 4 pips, seat 1 none: (8, 0, 8)
    over = last_move_match(opts, 2, history, ["2-2", "", "1-1 1-1"])
    assert over.history[-1].points == (8, 0, 8)
    assert RULES.totals(over) == (8, 12, 12)
    assert RULES.score(over).winners == (0,)
    history = (played_result((4, 8, 0)),)
    over = last_move_match(opts, 2, history, ["2-2", "", "1-1 1-1"])
    assert RULES.totals(over) == (12, 8, 8)
    assert RULES.score(over).winners == (1, 2)


def test_td10_settlement_worked_example() -> None:
    """[TD-10] each pair settles the difference: net_i = sum_j (total_j - total_i)."""
    # totals 10, 25, 40: seat 0 collects 15 + 30; seat 1 pays 15, collects 15; seat 2 pays 45
    done = Match(
        3,
        options(hands=1),
        SEED,
        1,
        position(["", "", ""]),
        history=(played_result((10, 25, 40)),),
        status=Status.MATCH_OVER,
    )
    score = RULES.score(done)
    assert score.settlement == (45, 0, -45)
    # totals 0, 12, 30, 6 over two hands:
    # seat 0: 12 + 30 + 6 = 48; seat 1: -12 + 18 - 6 = 0; seat 2: -30 - 18 - 24 = -72;
    # seat 3: -6 + 6 + 24 = 24
    done = Match(
        4,
        options(hands=2),
        SEED,
        2,
        position(["", "", "", ""]),
        history=(played_result((0, 10, 20, 0)), played_result((0, 2, 10, 6))),
        status=Status.MATCH_OVER,
    )
    score = RULES.score(done)
    assert score.match_points == (0, 12, 30, 6)
    assert score.settlement == (48, 0, -72, 24)
    assert sum(score.settlement) == 0
    assert score.winners == (0,)


# --------------------------------------------------------------------------- random matches


def check_view_hides(match: TD) -> None:
    state = match.hand_state
    visible_top = [p for p in RULES.view(match, None).table.places if p.top is not None]
    assert sum(p.depth for p in RULES.view(match, None).table.places) == len(state.played)
    assert len(visible_top) == min(len(state.played), 8)
    for seat in (*range(match.players), None):
        view = RULES.view(match, seat)
        seen = Counter(tiles_in(view))
        allowed = Counter(p.top for p in visible_top)
        if seat is not None:
            allowed += Counter(state.hands[seat]) + Counter(state.discards[seat])
            # the seat's own moves repeat its tiles
            allowed += Counter(m.tile for m in view.legal_moves if m.tile is not None)
            allowed += Counter(e.tile for e in view.events if e.tile is not None)
        else:
            allowed += Counter(e.tile for e in view.events if e.tile is not None)
            assert all(e.tile is None for e in view.events if e.kind is EventKind.DISCARD)
        assert seen - allowed == Counter()


@pytest.mark.parametrize(
    ("tile_set", "must_play", "hands", "target"),
    list(itertools.product(["CHINESE", "DOUBLE_SIX"], [False, True], [2], [0]))
    + list(itertools.product(["CHINESE", "DOUBLE_SIX"], [False, True], [1], [60])),
)
def test_random_matches_reach_match_over(
    tile_set: str, must_play: bool, hands: int, target: int
) -> None:
    """[TD-1]..[TD-10] random legal moves: tiles conserved, rules hold, the match ends."""
    opts = options(tile_set=tile_set, must_play_if_able=must_play, hands=hands, target_score=target)
    full = Counter(RULES.full_set(opts))
    for players in (2, 3, 4):
        chooser = random.Random(f"{tile_set}/{must_play}/{target}/{players}")
        match = RULES.new_match(opts, players, f"random-{tile_set}-{must_play}-{players}")

        def check(step: Step) -> None:
            before, match = step.before, step.after
            assert Counter(RULES.all_tiles(before.hand_state)) == full
            if (
                must_play
                and before.status is Status.IN_PROGRESS
                and before.hand_state.open_pip is not None
            ):
                kinds = {m.kind for m in step.legal}
                assert len(kinds) == 1  # plays only, or discards only
            assert (
                before.status is not Status.IN_PROGRESS or before.hand_state is not match.hand_state
            )
            if match.status is Status.IN_PROGRESS:
                check_view_hides(match)
            else:  # the hand just ended [TD-7] [TD-8] [TD-9]
                assert not any(match.hand_state.hands)
                result = match.history[-1]
                clean = any(not d for d in match.hand_state.discards)
                assert result.points == tuple((2 if clean else 1) * c for c in result.counts)
                assert result.points[result.winners[0]] == min(result.points)

        match = play_out(RULES, match, chooser, observe=check, max_moves=5000)
        assert Counter(RULES.all_tiles(match.hand_state)) == full
        totals = RULES.totals(match)
        if target:
            assert max(totals) >= target
            earlier = [sum(r.points[s] for r in match.history[:-1]) for s in range(players)]
            assert max(earlier) < target
        else:
            assert len(match.history) == hands
        assert all(len(result.winners) == 1 for result in match.history)
        score = RULES.score(match)
        assert score.settlement is not None and sum(score.settlement) == 0
        assert score.winners == tuple(s for s in range(players) if totals[s] == min(totals))


@pytest.mark.parametrize(
    ("tile_set", "must_play"), list(itertools.product(["CHINESE", "DOUBLE_SIX"], [False, True]))
)
def test_playouts_choose_as_greedy_from_the_view(tile_set: str, must_play: bool) -> None:
    """[TD-4] [TD-5] the bot's heuristic, which its playouts play for every seat, picks the
    move that the GREEDY scores of that seat's view put first, at every turn with a choice."""
    bot = GAME.bot
    opts = options(tile_set=tile_set, must_play_if_able=must_play)
    checked = 0

    def check(step: Step) -> None:
        nonlocal checked
        if len(step.legal) > 1:
            view = RULES.view(step.before, step.legal[0].seat)
            assert bot.heuristic(step.before, step.legal) == bot.greedy(view, opts)
            checked += 1

    for players in (2, 3, 4):
        for n in range(3):
            chooser = random.Random(f"greedy/{tile_set}/{must_play}/{players}/{n}")
            match = RULES.new_match(opts, players, f"greedy-{tile_set}-{must_play}-{players}-{n}")
            play_out(RULES, match, chooser, until=hand_over, observe=check)
    assert checked > 100


# ---------------------------------------------------------------- [TD-9] a hand's reason


def td_earlier(points: tuple[int, ...], winner: int) -> HandResult:
    """An earlier hand with these points, won by ``winner`` (the next hand's leader)."""
    return HandResult(points, points, (winner,), HandEnd.ALL_TILES_PLACED)


def td_finish(
    held: list[str], discards: list[str], leader: int, history: tuple[HandResult, ...]
) -> TD:
    """The last move of a hand: the one seat holding a tile plays it on the open 3."""
    last = next(seat for seat, text in enumerate(held) if text)
    state = position(held, discards=discards, played="6-3", open_pip=3, to_act=last, leader=leader)
    match = positions.match_of(
        RULES, state, options={"hands": 4}, hand_number=len(history) + 1, history=history
    )
    (tile,) = state.hands[last]
    after, _ = RULES.apply(match, Move(last, MoveKind.PLAY, tile))
    assert after.status is Status.HAND_OVER
    return after


def test_td9_reason_fewer_discarded_tiles_breaks_the_tie() -> None:
    """[TD-9] equal fewest points, one discarded tile against two: the reason names the
    tie, the step that broke it with both counts, and the tag. Once the next hand is
    dealt, the hand's discards are no longer held: its reason gives the rule's order."""
    after = td_finish(
        ["", "3-1", ""], ["6-6", "6-5 6-4", "3-3 3-3"], 2, (td_earlier((10, 5, 0), 2),)
    )
    result = after.history[-1]
    assert result.points == (12, 21, 12) and result.winners == (0,)  # the tie happened
    assert RULES.score(after).reasons[-1] == (
        "Every tile played or discarded [TD-7]: seats 0 and 2 tie for the fewest points, "
        "12 each; seat 0 wins the tie on fewer discarded tiles (1, against 2 for seat 2) "
        "[TD-9]. Each seat scores its discarded pips [TD-8]: seat 0 12, seat 1 21 and "
        "seat 2 12."
    )
    later, _ = RULES.apply(after, Move(0, MoveKind.NEXT_HAND))
    assert RULES.score(later).reasons[-1] == (
        "Every tile played or discarded [TD-7]: seats 0 and 2 tie for the fewest points, "
        "12 each; seat 0 wins the tie on the first of these that separates them: fewer "
        "discarded tiles, the lower match total before this hand, the first in turn order "
        "from this hand's leader, seat 2 [TD-9]. Each seat scores its discarded pips "
        "[TD-8]: seat 0 12, seat 1 21 and seat 2 12."
    )


def test_td9_reason_the_lower_match_total_before_breaks_the_tie() -> None:
    """[TD-9] equal points and equal discards: the lower match total before this hand."""
    history = (td_earlier((20, 0, 15), winner=1), td_earlier((10, 0, 0), winner=1))
    after = td_finish(["3-3", "", ""], ["6-6", "6-5 6-4", "6-6"], 1, history)
    result = after.history[-1]
    assert result.points == (12, 21, 12) and result.winners == (2,)
    assert RULES.totals(after) == (42, 21, 27)  # 30 and 15 before this hand
    reason = RULES.score(after).reasons[-1]
    assert (
        "seats 0 and 2 tie for the fewest points, 12 each; seat 2 wins the tie on the lower "
        "match total before this hand (15, against 30 for seat 0) [TD-9]."
    ) in reason


@pytest.mark.parametrize(("leader", "winner"), [(2, 3), (0, 0), (3, 3), (1, 3)])
def test_td9_reason_turn_order_from_the_leader_breaks_the_tie(leader: int, winner: int) -> None:
    """[TD-9] all else equal: the first of the tied seats in turn order from this hand's
    leader, named in the reason."""
    held = ["", "", "", ""]
    held[(leader - 1) % 4] = "3-3"
    history = (td_earlier((7, 7, 7, 7), winner=leader),)
    after = td_finish(held, ["5-1", "6-6", "6-5", "4-2"], leader, history)
    result = after.history[-1]
    assert result.points == (6, 12, 11, 6) and result.winners == (winner,)
    reason = RULES.score(after).reasons[-1]
    assert (
        f"seats 0 and 3 tie for the fewest points, 6 each; seat {winner} wins the tie on the "
        f"first in turn order from this hand's leader, seat {leader} [TD-9]."
    ) in reason


def test_td9_reason_of_an_earlier_first_hand_names_the_leader_its_deal_gave() -> None:
    """[TD-8] [TD-9] an earlier first hand tied at 0 points (two seats discarded nothing,
    so the others' scores doubled): the Chinese set has no blank, so both discarded
    nothing, and the turn order from the leader the seed's deal gave breaks the tie."""
    options = RULES.make_options({"hands": 4})
    leader = RULES.new_match(options, 4, positions.SEED).hand_state.leader
    winner = min((0, 1), key=lambda seat: (seat - leader) % 4)
    first = HandResult((0, 0, 5, 7), (0, 0, 10, 14), (winner,), HandEnd.ALL_TILES_PLACED)
    now = RULES.new_match(options, 4, positions.SEED)
    match = Match(4, options, positions.SEED, 2, now.hand_state, (first,))
    (reason,) = RULES.score(match).reasons
    assert reason == (
        "Every tile played or discarded [TD-7]: seats 0 and 1 tie for the fewest points, 0 "
        f"each; seat {winner} wins the tie on the first in turn order from this hand's "
        f"leader, seat {leader} [TD-9]. Each seat scores its discarded pips, doubled because "
        "seats 0 and 1 discarded nothing [TD-8]: seat 0 0, seat 1 0, seat 2 10 and seat 3 14."
    )
