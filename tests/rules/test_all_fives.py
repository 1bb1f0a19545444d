"""All Fives, Muggins and Fives and Threes: scripted tests per rule tag [A5-1]..[A5-15],
RULES.md's worked examples, the decisions of the module docstring, and bad input."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from google.protobuf import json_format

from domino_rules import games
from domino_rules.api import RulesService
from domino_rules.api.service import new_seed
from domino_rules.bots.playout import Step, play_out
from domino_rules.games.all_fives.rules import (
    PROFILES,
    AllFivesHandState,
    AllFivesOptions,
    AllFivesTable,
    ArmTile,
    bonus,
    count,
    hand_size,
    play_points,
    rank,
    rounded,
)
from domino_rules.rules import rng
from domino_rules.rules.errors import (
    IllegalMoveError,
    InvalidStateError,
    OptionsError,
    PlayerCountError,
)
from domino_rules.rules.events import Event, EventKind
from domino_rules.rules.match import HandEnd, HandResult, Match, Status
from domino_rules.rules.moves import End, Move, MoveKind
from domino_rules.rules.registry import get
from domino_rules.rules.tiles import Tile, double_n
from domino_rules.state.codec import Game, options_to_pb, ruleset_to_pb
from domino_rules.state.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

from .positions import hand as tiles
from .positions import laid
from .positions import tiles as in_order

RULES = get("all_fives")
A5 = Match[AllFivesOptions, AllFivesHandState]
L, R, U, D = End.LEFT, End.RIGHT, End.UP, End.DOWN


def options(**values: Any) -> AllFivesOptions:
    made: AllFivesOptions = RULES.make_options(values)
    return made


def position(
    hands: list[str],
    *,
    line: str = "",
    spinner_at: int | None = None,
    up: tuple[ArmTile, ...] = (),
    down: tuple[ArmTile, ...] = (),
    boneyard: str | None = None,
    to_act: int = 0,
    leader: int = 0,
    any_lead: bool = True,
    points: tuple[int, ...] | None = None,
    history: tuple[HandResult, ...] = (),
    **values: Any,
) -> A5:
    """An exact position: ``hands`` and the ``line`` as written, the boneyard every other
    tile of the set (ascending) unless given."""
    opts = options(**values)
    held = [tile for text in hands for tile in tiles(text)]
    on_line = laid(line)
    if boneyard is None:
        used = {*held, *(lt.tile for lt in on_line), *(a.tile for a in (*up, *down))}
        pile = tuple(t for t in double_n(opts.set_max_pip) if t not in used)
    else:
        pile = in_order(boneyard)
    draws = max(0, len(pile) - opts.boneyard_keep) if opts.draw else 0
    last = (to_act - 1) % len(hands) if on_line else None
    state = AllFivesHandState(
        tuple(tiles(text) for text in hands),
        pile,
        on_line,
        spinner_at,
        up,
        down,
        to_act,
        leader,
        any_lead,
        draws,
        last,
        points if points is not None else (0,) * len(hands),
        None,
    )
    return Match(len(hands), opts, "a5", len(history) + 1, state, history)


def play(seat: int, tile: str, end: End | None = None) -> Move:
    return Move(seat, MoveKind.PLAY, Tile.parse(tile), end=end)


def moves(match: A5) -> list[str]:
    return [str(move) for move in RULES.legal_moves(match)]


def table(match: A5) -> AllFivesTable:
    made: AllFivesTable = RULES.table(match, None)
    return made


def pegs(events: tuple[Event, ...]) -> list[tuple[int | None, int | None, int | None]]:
    return [(e.seat, e.points, e.count) for e in events if e.kind is EventKind.PEG]


def lay_out(plays: list[tuple[str, End | None]], **values: Any) -> list[tuple[int, int]]:
    """The count and the points after each play of ``plays``, laid by two players in
    turn (each holding one more tile, so that nobody goes out), in a single hand."""
    values.setdefault("target_score", 0)
    first = [text for text, _ in plays[0::2]]
    second = [text for text, _ in plays[1::2]]
    used = {Tile.parse(text) for text, _ in plays}
    spare = [t for t in double_n(6) if t not in used][:2]
    match = position(
        [" ".join([*first, str(spare[0])[1:-1]]), " ".join([*second, str(spare[1])[1:-1]])],
        **values,
    )
    out = []
    for n, (text, end) in enumerate(plays):
        match, events = RULES.apply(match, play(n % 2, text, end))
        assert match.status is Status.IN_PROGRESS
        found = pegs(events)
        out.append((table(match).count, (found[0][1] or 0) if found else 0))
        if found:
            assert found[0] == (n % 2, found[0][1], table(match).count)
    return out


# ----------------------------------------------------------------- RULES.md's worked examples

HOYLE = [("5-5", None), ("5-0", R), ("0-0", R), ("6-5", L), ("4-0", R)]
SPINNER_ON_AN_END = [("6-4", None), ("4-4", R), ("4-2", R), ("4-1", U)]
PAGAT_35 = [
    ("3-3", None),
    ("6-3", L),
    ("5-3", R),
    ("6-6", L),
    ("5-5", R),
    ("4-3", U),
    ("4-4", U),
    ("3-2", D),
    ("5-2", D),
]
THREE_ARMS = [("5-5", None), ("5-2", R), ("5-3", L), ("5-0", U), ("6-5", D)]
MUGGINS_HIGHEST = [("6-4", None), ("6-6", L), ("4-4", R)]


@pytest.mark.parametrize("spinner", ["FIRST_DOUBLE", "NONE"])
def test_worked_example_hoyle(spinner: str) -> None:
    """[A5-8] [A5-9] Hoyle's layout, with a spinner or without: counts 10, 10, 10, 6, 10."""
    fives = lay_out(HOYLE, spinner=spinner)
    assert [c for c, _ in fives] == [10, 10, 10, 6, 10]
    assert [p for _, p in fives] == [10, 10, 10, 0, 10]
    threes = lay_out(HOYLE, spinner=spinner, play_scoring="FIVES_AND_THREES")
    assert [p for _, p in threes] == [2, 2, 2, 2, 2]


def test_worked_example_spinner_on_an_end() -> None:
    """[A5-7] [A5-8] a spinner laid on an end: 10, 14, 8, 9."""
    fives = lay_out(SPINNER_ON_AN_END)
    assert fives == [(10, 10), (14, 0), (8, 0), (9, 0)]
    threes = lay_out(SPINNER_ON_AN_END, play_scoring="FIVES_AND_THREES")
    assert [p for _, p in threes] == [2, 0, 0, 3]


def test_worked_example_pagats_35() -> None:
    """[A5-7] [A5-8] pagat's 35: every arm ends in a double or a 5."""
    fives = lay_out(PAGAT_35)
    assert [c for c, _ in fives] == [6, 12, 11, 17, 22, 26, 30, 32, 35]
    assert [p for _, p in fives] == [0, 0, 0, 0, 0, 0, 30, 0, 35]
    threes = lay_out(PAGAT_35, play_scoring="FIVES_AND_THREES")
    assert [p for _, p in threes] == [2, 4, 0, 0, 0, 0, 16, 0, 7]


def test_worked_example_three_arms() -> None:
    """[A5-8] three arms started, DOWN not yet: 10, 12, 5, 5, 11."""
    fives = lay_out(THREE_ARMS)
    assert fives == [(10, 10), (12, 0), (5, 5), (5, 5), (11, 0)]
    threes = lay_out(THREE_ARMS, play_scoring="FIVES_AND_THREES")
    assert [p for _, p in threes] == [2, 4, 1, 1, 0]


@pytest.mark.parametrize("spinner", ["FIRST_DOUBLE", "NONE"])
def test_worked_example_muggins_highest(spinner: str) -> None:
    """[A5-8] Muggins' highest count, 20, with a spinner or without."""
    fives = lay_out(MUGGINS_HIGHEST, spinner=spinner)
    assert fives == [(10, 10), (16, 0), (20, 20)]
    threes = lay_out(MUGGINS_HIGHEST, spinner=spinner, play_scoring="FIVES_AND_THREES")
    assert [p for _, p in threes] == [2, 0, 4]


# --------------------------------------------------------------------------- rules


@pytest.mark.parametrize("pips", [6, 9, 18])
def test_the_set_is_double_n(pips: int) -> None:
    """[A5-1] Western double-N, N from 6 to 18."""
    match = RULES.new_match(options(set_max_pip=pips), 2, "set")
    assert sorted(RULES.all_tiles(match.hand_state)) == sorted(double_n(pips))
    with pytest.raises(OptionsError):
        options(set_max_pip=19)


def test_players_sides_and_the_deal() -> None:
    """[A5-2] 7 each to two players, 5 to more (a partnership too); exactly 4 in a
    partnership; seat 0 takes the first k tiles of ``deal/<hand>/0``."""
    assert hand_size(options(), 2) == 7
    assert hand_size(options(), 3) == hand_size(options(partnership=True), 4) == 5
    assert hand_size(options(hand_size=9), 2) == 9
    assert RULES.player_range(options()) == (2, 5)
    assert RULES.player_range(options(partnership=True)) == (4, 4)
    with pytest.raises(PlayerCountError):
        RULES.new_match(options(partnership=True), 3, "p")
    with pytest.raises(PlayerCountError):
        RULES.new_match(options(hand_size=7), 5, "p")
    match = RULES.new_match(options(), 3, "cut")
    order = rng.shuffled("cut", "deal/1/0", double_n(6))
    assert [list(h) for h in match.hand_state.hands] == [
        sorted(order[5 * s : 5 * s + 5]) for s in range(3)
    ]
    assert match.hand_state.boneyard == tuple(order[15:])
    assert [e.kind for e in match.last_events] == [EventKind.DEAL, EventKind.LEADER]


def test_drawing_and_passing() -> None:
    """[A5-3] a player who can play must; one who cannot draws until a tile fits (then
    plays it), and passes when nothing may be drawn; Fives and Threes never draws."""
    match = position(["6-6 1-0", "2-2 3-3"], line="6-5", boneyard="4-4 5-1 3-2", to_act=0)
    assert moves(match) == ["0 PLAY [6-6] LEFT"]
    match = position(["1-0 2-1", "2-2 3-3"], line="6-5", boneyard="4-4 5-1 3-2", to_act=0)
    assert moves(match) == ["0 DRAW"]
    after, events = RULES.apply(match, Move(0, MoveKind.DRAW))
    assert [e.tile for e in events] == [Tile(4, 4), Tile(5, 1)]
    assert all(e.kind is EventKind.DRAW and e.private_to == 0 for e in events)
    assert after.hand_state.to_act == 0 and moves(after) == ["0 PLAY [5-1] RIGHT"]
    kept = position(["1-0 2-1", "2-2 6-3"], line="6-5", boneyard="4-4 5-1", boneyard_keep=2)
    assert moves(kept) == ["0 PASS"]
    threes = position(["1-0 2-1", "2-2 6-3"], line="6-5", draw=False)
    assert moves(threes) == ["0 PASS"]
    after, events = RULES.apply(threes, Move(0, MoveKind.PASS))
    assert [e.kind for e in events] == [EventKind.PASS] and after.hand_state.to_act == 1
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, Move(0, MoveKind.PASS))


def test_the_first_lead() -> None:
    """[A5-4] ANY_TILE: seat 0 leads any tile; HIGHEST_DOUBLE: the highest-ranked tile
    dealt is the leader's only move; a lead is counted and scored (a [6-4] lead scores 10)."""
    match = RULES.new_match(options(), 2, "lead")
    assert match.hand_state.leader == 0
    assert len(RULES.legal_moves(match)) == 7
    hoyle = RULES.new_match(options(first_lead="HIGHEST_DOUBLE"), 3, "lead")
    state = hoyle.hand_state
    top = max((t for h in state.hands for t in h), key=rank)
    assert top in state.hands[state.leader]
    assert [m.tile for m in RULES.legal_moves(hoyle)] == [top]
    lead = position(["6-4 1-0", "2-2 3-3"])
    after, events = RULES.apply(lead, play(0, "6-4"))
    assert pegs(events) == [(0, 10, 10)]
    assert after.hand_state.line[0].left == 6 and after.hand_state.line[0].right == 4
    with pytest.raises(IllegalMoveError):
        RULES.apply(lead, play(0, "6-4", L))  # a lead names no end


def _after_hand(end: HandEnd, last_layer: int, **values: Any) -> A5:
    """A match between hands, the last one ended ``end`` with ``last_layer`` last."""
    opts = options(**values)
    first = RULES.new_match(opts, 3, "next")
    state = first.hand_state
    ended = replace(state, end=end, last_layer=last_layer, leader=1)
    result = HandResult((5, 0, 5), (0, 10, 0), (1,), end)
    return Match(3, opts, "next", 1, ended, (result,), Status.HAND_OVER)


@pytest.mark.parametrize(
    ("next_lead", "end", "leader"),
    [
        ("WINNER", HandEnd.DOMINOED, 2),
        ("WINNER", HandEnd.BLOCKED, rng.Stream("next", "lead/2").below(3)),
        ("NEXT_SEAT", HandEnd.DOMINOED, 2),
        ("AS_FIRST", HandEnd.DOMINOED, 0),
    ],
)
def test_the_next_hands_lead(next_lead: str, end: HandEnd, leader: int) -> None:
    """[A5-5] WINNER: the player who dominoed, or by lot (``lead/<hand>``) after a block;
    NEXT_SEAT: the seat after the last leader; AS_FIRST: as the first hand."""
    match = _after_hand(end, 2, next_lead=next_lead)
    after, events = RULES.apply(match, Move(0, MoveKind.NEXT_HAND))
    assert after.hand_state.leader == after.hand_state.to_act == leader
    assert Event(EventKind.LEADER, seat=leader) in events
    assert after.hand_state.any_lead


def test_decision_the_lead_by_lot_is_the_seeds_lead_stream() -> None:
    """[A5-5] (module docstring) after a blocked hand the leader is
    ``Stream(seed, "lead/<hand>").below(players)``, for every seat the stream can give."""
    seen = set()
    for n in range(40):
        opts = options()
        first = RULES.new_match(opts, 3, f"lot-{n}")
        ended = replace(first.hand_state, end=HandEnd.BLOCKED, last_layer=0)
        result = HandResult((5, 0, 5), (0, 10, 0), (1,), HandEnd.BLOCKED)
        match = Match(3, opts, f"lot-{n}", 1, ended, (result,), Status.HAND_OVER)
        after, _ = RULES.apply(match, Move(0, MoveKind.NEXT_HAND))
        expected = rng.Stream(f"lot-{n}", "lead/2").below(3)
        assert after.hand_state.leader == expected
        seen.add(expected)
    assert seen == {0, 1, 2}


def test_the_layout_and_what_a_move_names() -> None:
    """[A5-6] one move per open end a tile fits, also where two ends show the same number;
    a later play names its end, a tile that does not show the end's number is refused."""
    match = position(["4-3 1-0", "2-2 3-3"], line="3-5 5-4", spinner_at=None)
    assert moves(match) == ["0 PLAY [4-3] LEFT", "0 PLAY [4-3] RIGHT"]
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, play(0, "4-3"))  # no end
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, play(0, "1-0", L))
    after, _ = RULES.apply(match, play(0, "4-3", R))
    assert [(t.left, t.right) for t in after.hand_state.line] == [(3, 5), (5, 4), (4, 3)]


def test_the_spinner_opens_up_and_down() -> None:
    """[A5-7] the first double is the spinner; UP and DOWN open once both its sides are
    touched, each showing its number; later doubles are ordinary; NONE has no spinner."""
    match = position(["5-5 6-6 1-0", "5-1 5-2 3-3"])
    match, _ = RULES.apply(match, play(0, "5-5"))
    assert match.hand_state.spinner == 0
    assert table(match).up_end is None
    match, _ = RULES.apply(match, play(1, "5-1", R))
    assert table(match).up_end is None
    with pytest.raises(IllegalMoveError):
        RULES.apply(match, Move(0, MoveKind.PLAY, Tile(1, 0), end=U))
    match, _ = RULES.apply(match, play(0, "1-0", R))
    match, _ = RULES.apply(match, play(1, "5-2", L))
    view = table(match)
    assert view.spinner == 1 and (view.up_end, view.down_end) == (5, 5)
    assert "0 PLAY [6-6] UP" not in moves(match)
    plain = position(["5-5 6-6 1-0", "5-1 5-2 3-3"], spinner="NONE")
    plain, _ = RULES.apply(plain, play(0, "5-5"))
    assert plain.hand_state.spinner is None


def test_arms_grow_and_a_later_double_is_ordinary() -> None:
    """[A5-7] a tile on UP grows the arm from the spinner outwards; a double there lies
    crosswise and counts twice while outermost; DOWN is a move of its own."""
    match = position(["5-3 3-3 1-0", "2-1 6-4"], line="6-5 5-5 5-4", spinner_at=1, to_act=0)
    assert "0 PLAY [5-3] UP" in moves(match) and "0 PLAY [5-3] DOWN" in moves(match)
    match, _ = RULES.apply(match, play(0, "5-3", U))
    assert match.hand_state.up == (ArmTile(Tile(5, 3), 5, 3),)
    assert table(match).count == 6 + 4 + 3
    match, _ = RULES.apply(match, Move(1, MoveKind.PLAY, Tile(6, 4), end=L))
    match, _ = RULES.apply(match, play(0, "3-3", U))
    assert table(match).up == (ArmTile(Tile(5, 3), 5, 3), ArmTile(Tile(3, 3), 3, 3))
    assert table(match).count == 4 + 4 + 6


def test_the_count() -> None:
    """[A5-8] the open ends' numbers, a double end twice, UP and DOWN nothing until
    started, a lone tile its pips once."""
    assert count((), None, (), ()) == 0
    assert count(laid("5-5"), 0, (), ()) == 10
    assert count(laid("6-4"), None, (), ()) == 10
    assert count(laid("6-4 4-4"), 1, (), ()) == 14
    assert count(laid("6-4 4-4 4-2"), 1, (), ()) == 8
    assert count(laid("6-4 4-4 4-2"), 1, (ArmTile(Tile(4, 1), 4, 1),), ()) == 9


@pytest.mark.parametrize(
    ("value", "fives", "threes"),
    [
        (0, 0, 0),
        (3, 0, 1),
        (5, 5, 1),
        (6, 0, 2),
        (9, 0, 3),
        (10, 10, 2),
        (12, 0, 4),
        (15, 15, 8),
        (18, 0, 6),
        (20, 20, 4),
        (21, 0, 7),
        (24, 0, 8),
        (25, 25, 5),
        (27, 0, 9),
        (30, 30, 16),
        (35, 35, 7),
    ],
)
def test_scoring_during_play(value: int, fives: int, threes: int) -> None:
    """[A5-9] FIVES a multiple of 5 itself; FIVES_AND_THREES a fifth and a third; with
    divide_by_five a fifth (15 scores 3)."""
    assert play_points(options(), value) == fives
    assert play_points(options(play_scoring="FIVES_AND_THREES"), value) == threes
    assert play_points(options(divide_by_five=True), value) == fives // 5


def test_partners_are_both_credited_a_peg() -> None:
    """[A5-9] the points go at once to the layer's side, both partners' seats."""
    match = position(["6-4 1-0", "2-2 3-3", "2-1 6-6", "4-4 0-0"], partnership=True)
    after, events = RULES.apply(match, play(0, "6-4"))
    assert pegs(events) == [(0, 10, 10)]
    assert after.hand_state.points == (10, 0, 10, 0)
    assert RULES.totals(after) == (10, 0, 10, 0)


def test_the_hand_ends_when_a_side_goes_out_or_is_blocked() -> None:
    """[A5-10] a player's last tile ends the hand; a blocked hand ends inside the move; a
    PASS never ends one; partners_play_out waits for both partners and skips a seat out."""
    out = position(["6-4", "2-2 3-3"], line="3-4", to_act=0)
    after, _ = RULES.apply(out, play(0, "6-4", R))
    assert after.status is not Status.IN_PROGRESS
    assert after.history[-1].end is HandEnd.DOMINOED
    blocked = position(["6-5 2-1", "1-1 3-3"], line="5-5", spinner_at=0, draw=False)
    after, _ = RULES.apply(blocked, play(0, "6-5", L))
    assert after.history[-1].end is HandEnd.BLOCKED
    team = position(
        ["4-1", "2-2 3-3", "5-0 6-6", "6-0 1-1 4-2"],
        line="4-4",
        spinner_at=0,
        partnership=True,
        partners_play_out=True,
        draw=False,
    )
    after, _ = RULES.apply(team, play(0, "4-1", R))
    assert after.status is Status.IN_PROGRESS  # the partner still holds tiles
    assert after.hand_state.to_act == 1
    after, _ = RULES.apply(after, Move(1, MoveKind.PASS))
    assert after.hand_state.to_act == 2
    after, _ = RULES.apply(after, Move(2, MoveKind.PASS))
    after, _ = RULES.apply(after, Move(3, MoveKind.PLAY, Tile(1, 1), end=R))
    assert after.hand_state.to_act == 1  # seat 0 is out: skipped


@pytest.mark.parametrize(
    ("hand_bonus", "own", "others", "out", "points"),
    [
        ("OTHERS_ROUNDED", 0, 13, True, 15),
        ("OTHERS_ROUNDED", 0, 12, True, 10),
        ("OTHERS_MINUS_OWN_ROUNDED", 4, 17, False, 15),
        ("OTHERS_MINUS_OWN_ROUNDED", 20, 10, False, 0),
        ("CHIP_OUT_POINT", 0, 30, True, 1),
        ("CHIP_OUT_POINT", 2, 30, False, 0),
        ("NONE", 0, 30, True, 0),
    ],
)
def test_the_hands_bonus(hand_bonus: str, own: int, others: int, out: bool, points: int) -> None:
    """[A5-11] what the winning side scores at the hand's end."""
    assert bonus(options(hand_bonus=hand_bonus), own, others, went_out=out) == points


@pytest.mark.parametrize(
    ("pips", "points"), [(1, 0), (2, 0), (3, 5), (4, 5), (5, 5), (12, 10), (13, 15)]
)
def test_bonus_rounding(pips: int, points: int) -> None:
    """[A5-11] the others' counts rounded to the nearest 5: 1, 2 down, 3, 4 up."""
    assert rounded(pips) == points
    assert bonus(options(), 0, pips, went_out=True) == points


def test_bonus_rounding_divided_by_five() -> None:
    """[A5-11] with divide_by_five, 13 rounds to 15 and scores 3."""
    assert bonus(options(divide_by_five=True), 0, 13, went_out=True) == 3


def test_a_lone_two_one_left_scores_five_and_a_lone_one_blank_nothing() -> None:
    """[A5-11] [A5-12] the play that goes out scores its count and the bonus together:
    the hand's points in HAND_OVER include the bonus, the PEG the count's only."""
    match = position(["6-4", "2-1"], line="1-4", to_act=0)
    after, events = RULES.apply(match, play(0, "6-4", R))
    assert pegs(events) == []  # 6 + 1 = 7 scores nothing
    assert after.history[-1].points == (5, 0)
    assert after.history[-1].winners == (0,)
    blank = position(["6-4", "1-0"], line="5-4", to_act=0)
    after, events = RULES.apply(blank, play(0, "6-4", R))
    assert pegs(events) == []
    assert after.history[-1].points == (0, 0)


def test_a_tie_scores_no_bonus() -> None:
    """[A5-11] equal lowest counts in a blocked hand: nobody wins, no bonus."""
    blocked = position(["6-5 2-1", "1-1 1-0"], line="5-5", spinner_at=0, draw=False)
    after, _ = RULES.apply(blocked, play(0, "6-5", L))
    assert after.history[-1].end is HandEnd.BLOCKED
    assert after.history[-1].winners == () and after.history[-1].points == (0, 0)


def _on(total: int, **values: Any) -> A5:
    """Seat 0 on ``total`` in hand 2, to lay [3-3] on [6-3]: a count of 12."""
    opts = {**dict(PROFILES[5].options), **values}
    result = HandResult((0, 0), (total, 0), (0,), HandEnd.DOMINOED)
    return position(
        ["3-3 1-0", "6-1 2-2"], line="6-3", history=(result,), to_act=0, leader=1, **opts
    )


def test_exact_target_57_plus_12_ends_the_match() -> None:
    """[A5-12] Fives and Threes on 57: a count of 12 (4 points) reaches 61 exactly and
    ends the match at once, TARGET_REACHED, with no bonus."""
    after, events = RULES.apply(_on(57), play(0, "3-3", R))
    assert pegs(events) == [(0, 4, 12)]
    assert after.status is Status.MATCH_OVER
    assert after.history[-1].end is HandEnd.TARGET_REACHED
    assert after.history[-1].winners == (0,) and after.history[-1].points == (4, 0)
    assert RULES.totals(after) == (61, 0) and RULES.winners(after) == (0,)
    kinds = [e.kind for e in events]
    assert kinds == [EventKind.PLAY, EventKind.PEG, EventKind.HAND_OVER, EventKind.MATCH_OVER]
    assert RULES.legal_moves(after) == ()


def test_exact_target_on_58_the_count_is_not_scored() -> None:
    """[A5-12] on 58 the same 4 points would pass 61: not scored, and the play stands."""
    after, events = RULES.apply(_on(58), play(0, "3-3", R))
    assert pegs(events) == []
    assert after.status is Status.IN_PROGRESS
    assert after.hand_state.points == (0, 0) and RULES.totals(after) == (58, 0)
    assert after.hand_state.line[-1].tile == Tile(3, 3)


def test_without_exact_target_the_match_ends_mid_hand_past_the_target() -> None:
    """[A5-12] the match ends the moment a side reaches the target, past it too."""
    after, _ = RULES.apply(_on(58, exact_target=False), play(0, "3-3", R))
    assert after.status is Status.MATCH_OVER
    assert after.history[-1].end is HandEnd.TARGET_REACHED
    assert RULES.totals(after) == (62, 0)


def test_finish_hand_plays_the_hand_out() -> None:
    """[A5-12] with finish_hand the score that reaches the target does not end the hand."""
    after, events = RULES.apply(_on(57, finish_hand=True), play(0, "3-3", R))
    assert pegs(events) == [(0, 4, 12)] and after.status is Status.IN_PROGRESS
    assert RULES.totals(after) == (61, 0)


def test_the_going_out_score_is_one_score_under_exact_target() -> None:
    """[A5-12] pagat: on 59 a last tile making 6 (2 points) and the chip-out point (1)
    would make 62: nothing is scored; the hand still ends DOMINOED."""
    opts = dict(PROFILES[5].options)
    result = HandResult((0, 0), (59, 0), (0,), HandEnd.DOMINOED)
    match = position(["3-3", "6-1 2-2"], line="0-3", history=(result,), **opts)
    after, events = RULES.apply(match, play(0, "3-3", R))
    assert pegs(events) == []
    assert after.history[-1].end is HandEnd.DOMINOED and after.history[-1].points == (0, 0)
    assert after.status is Status.HAND_OVER
    on_58 = HandResult((0, 0), (58, 0), (0,), HandEnd.DOMINOED)
    match = position(["3-3", "6-1 2-2"], line="0-3", history=(on_58,), **opts)
    after, events = RULES.apply(match, play(0, "3-3", R))
    assert pegs(events) == [(0, 2, 6)]
    assert after.history[-1].points == (3, 0) and after.status is Status.MATCH_OVER
    assert after.history[-1].end is HandEnd.DOMINOED  # bonus included


def test_a_seats_view() -> None:
    """[A5-13] the layout, each open end, the count, the hand's points and the leader; a
    seat's own hand, never another's (a partner's neither)."""
    match = position(
        ["5-3 1-0", "2-1 6-4"], line="6-5 5-5 5-4", spinner_at=1, to_act=0, points=(10, 5)
    )
    view = RULES.view(match, 0)
    shown: AllFivesTable = view.table
    assert shown.spinner == 1 and shown.up == () and shown.down == ()
    assert (shown.left_end, shown.right_end, shown.up_end, shown.down_end) == (6, 4, 5, 5)
    assert shown.count == 10 and shown.hand_points == (10, 5) and shown.leader == 0
    assert view.hand == tiles("5-3 1-0") and view.hand_sizes == (2, 2)
    assert RULES.view(match, None).hand == ()
    fresh = table(RULES.new_match(options(), 2, "view"))
    assert (fresh.left_end, fresh.up_end, fresh.spinner, fresh.count) == (None, None, None, 0)


@pytest.mark.parametrize(
    "values",
    [
        {"set_max_pip": 5},
        {"hand_size": 15},
        {"boneyard_keep": 29},
        {"target_score": 100_001},
        {"divide_by_five": True, "play_scoring": "FIVES_AND_THREES"},
        {"divide_by_five": True, "hand_bonus": "CHIP_OUT_POINT"},
        {"exact_target": True, "target_score": 61},
        {"exact_target": True, "target_score": 201, "hand_bonus": "OTHERS_MINUS_OWN_ROUNDED"},
        {"spinner": "SNIFF"},
    ],
)
def test_bad_options_are_refused(values: dict[str, Any]) -> None:
    """[A5-14] ranges, and the options that do not go together."""
    with pytest.raises(OptionsError):
        options(**values)


@pytest.mark.parametrize(
    "values",
    [
        {"exact_target": True, "target_score": 61, "play_scoring": "FIVES_AND_THREES"},
        {"exact_target": True, "target_score": 61, "divide_by_five": True},
        {"exact_target": True, "target_score": 61, "hand_bonus": "CHIP_OUT_POINT"},
        {"exact_target": True, "target_score": 0},
        {"boneyard_keep": 5, "draw": False},
        {"partners_play_out": True},
        {"finish_hand": True, "target_score": 0},
    ],
)
def test_options_accepted_and_ignored(values: dict[str, Any]) -> None:
    """[A5-14] a target some score can land on; options that change nothing here."""
    options(**values)


def test_refused_moves_change_nothing() -> None:
    """[A5-14] UP before it opens, a tile not showing the end's number, a DRAW or PASS
    by a seat that can play: ILLEGAL_MOVE, and the match is as it was."""
    match = position(["6-6 1-0", "2-2 3-3"], line="6-5", boneyard="4-4 5-1 3-2")
    before = repr(match)
    for move in (
        Move(0, MoveKind.PLAY, Tile(6, 6), end=U),
        Move(0, MoveKind.PLAY, Tile(1, 0), end=L),
        Move(0, MoveKind.DRAW),
        Move(0, MoveKind.PASS),
    ):
        with pytest.raises(IllegalMoveError):
            RULES.apply(match, move)
    assert repr(match) == before


def test_moves_and_events() -> None:
    """[A5-15] PLAY, then PEG right after a PLAY that scores; HAND_OVER's scores are the
    hand points, play and bonus together."""
    match = position(["4-2 5-0", "2-2 3-3"], line="4-4", spinner_at=0, to_act=0)
    after, events = RULES.apply(match, play(0, "4-2", R))
    assert [e.kind for e in events] == [EventKind.PLAY, EventKind.PEG]
    assert events[0].end is R and pegs(events) == [(0, 10, 10)]
    out = position(["5-0", "2-2 3-3"], line="5-4", spinner_at=None, to_act=0, points=(10, 0))
    after, events = RULES.apply(out, play(0, "5-0", L))
    assert [e.kind for e in events] == [EventKind.PLAY, EventKind.HAND_OVER]  # 0 + 4: no PEG
    over = next(e for e in events if e.kind is EventKind.HAND_OVER)
    assert over.seats == (0,) and over.scores == (10 + 10, 0)
    assert after.history[-1].counts == (0, 10)


def test_a_forged_state_is_refused() -> None:
    """[A5-13] [A5-7] a spinner on a tile that is no double, an arm before it opens,
    partners with different points: refused."""
    match = position(["6-4 1-0", "2-2 3-3"], line="6-5 5-4", spinner_at=0)
    with pytest.raises(InvalidStateError):
        RULES.check_match(match)
    arm = (ArmTile(Tile(5, 3), 5, 3),)
    match = position(["6-4 1-0", "2-2 3-3"], line="5-5 5-4", spinner_at=0, up=arm)
    with pytest.raises(InvalidStateError):
        RULES.check_match(match)


# --------------------------------------------------------------------------- decisions


def test_decision_a_blocked_hand_scores_the_play_then_the_bonus() -> None:
    """[A5-10] [A5-11] (module docstring) the last play's points first, then the lowest
    side's bonus; the hand stays BLOCKED."""
    blocked = position(["5-0 2-1", "1-1 3-6"], line="5-5", spinner_at=0, draw=False)
    after, events = RULES.apply(blocked, play(0, "5-0", R))
    assert pegs(events) == [(0, 10, 10)]
    result = after.history[-1]
    assert result.end is HandEnd.BLOCKED and result.winners == (0,)
    assert result.points == (10 + 10, 0)  # 10 pegged, the others' 11 pips rounded to 10


def test_decision_getscore_after_target_reached() -> None:
    """[A5-12] [A5-15] (module docstring) after TARGET_REACHED GetScore shows the hand's
    points up to the score that reached the target, no bonus, and each seat's pips left."""
    after, _ = RULES.apply(_on(57), play(0, "3-3", R))
    score = RULES.score(after)
    assert score.hand_points == (4, 0)
    assert score.match_points == (61, 0)
    assert score.hands[-1].counts == (1, 11)
    assert score.hands[-1].end is HandEnd.TARGET_REACHED
    assert "target" in score.reasons[-1] and "[A5-12]" in score.reasons[-1]


def test_decision_the_reason_tells_the_bonus_and_its_rounding() -> None:
    """[A5-11] (module docstring) the hand's reason names the bonus and its rounding."""
    match = position(["6-4", "6-6 1-0"], line="1-4", to_act=0)
    after, _ = RULES.apply(match, play(0, "6-4", R))
    reason = RULES.score(after).reasons[-1]
    assert reason.startswith("Dominoed") and "13 pips, rounded to 15" in reason


# --------------------------------------------------------------------------- profiles and the API


def test_every_profile_is_valid_and_served_by_list_rulesets() -> None:
    """[A5-14] the six profiles are valid options, and ListRulesets serves them whole."""
    assert [p.id for p in PROFILES] == [
        "all_fives",
        "muggins",
        "hoyle_muggins",
        "pagat_two_hands",
        "cribbage_board",
        "fives_and_threes",
    ]
    info = ruleset_to_pb(RULES)
    assert [p.id for p in info.profiles] == [p.id for p in PROFILES]
    for profile, served in zip(PROFILES, info.profiles, strict=True):
        made = RULES.make_options(profile.options)
        assert served.options == options_to_pb(RULES, made)
    three = next(p for p in info.profiles if p.id == "fives_and_threes")
    assert three.options.all_fives.play_scoring == pb.AllFivesOptions.FIVES_AND_THREES
    assert three.options.all_fives.exact_target and three.options.all_fives.target_score == 61
    # every game serves its own profiles, and only those
    for game in games.all_games():
        served_ids = [p.id for p in ruleset_to_pb(game.ruleset).profiles]
        assert served_ids == [p.id for p in game.ruleset.profiles], game.id


def _record_a_match(choice: int) -> tuple[pb.MatchRecord, pb.HandScore]:
    """A 2-player match to 30 played to its end through the service, recorded as a
    platform records it (viewpoint MOVER), and its last hand's score."""
    service = RulesService()
    opts = options_to_pb(RULES, options(target_score=30))
    new = service.NewGame(
        pb.NewGameRequest(ruleset="all_fives", players=2, options=opts, seed=f"mid-{choice}")
    )
    record = pb.MatchRecord(
        format=1,
        ruleset="all_fives",
        players=2,
        options=opts,
        game_id=new.game_id,
        seed_commitment=new.seed_commitment,
        viewpoint=pb.MatchRecord.MOVER,
        first_state=new.state,
    )
    record.deal.extend(new.events)
    chooser = random.Random(choice)
    state = new.state
    while True:
        legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        if legal.status == pb.MATCH_OVER:
            break
        move = chooser.choice(list(legal.moves))
        answer = service.ApplyMove(pb.ApplyMoveRequest(state=state, move=move))
        state = answer.state
        recorded = record.moves.add(move=move)
        recorded.events.extend(answer.events)
        view = service.GetView(pb.GetViewRequest(state=state))
        recorded.match_points.extend(view.match_points)
    score = service.GetScore(pb.GetScoreRequest(state=state))
    record.seed = score.seed
    return record, score.hands[-1]


def test_a_match_that_ends_mid_hand_replays_valid() -> None:
    """[A5-12] [A5-15] a match that ends TARGET_REACHED replays VALID through Replay."""
    for choice in range(40):
        record, last = _record_a_match(choice)
        if last.end == pb.TARGET_REACHED:
            break
    else:
        pytest.fail("no match to 30 of 40 ended mid-hand")
    answer = RulesService().Replay(pb.ReplayRequest(record=record))
    assert answer.verdict == pb.ReplayResponse.VALID, json_format.MessageToJson(answer)
    assert record.moves[-1].events[-1].kind == pb.Event.MATCH_OVER
    assert any(e.kind == pb.Event.PEG for e in record.moves[-1].events)


def test_the_largest_sealed_token_of_a_long_match_fits_a_kibibyte() -> None:
    """[A5-13] every sealed token of 50 hands at the largest table (5 players, a target
    nobody reaches) stays within 1 KiB (the layout, the arms and the hand's points
    included)."""
    game = games.get("all_fives")
    values, players = game.long_match(50)
    service = RulesService(TokenCodec(KeyRing.parse(KeyRing.generate("2026a"))))
    match = RULES.new_match(options(**values), players, new_seed())
    sizes = [len(service.encode(Game(RULES, match, "ab" * 12, 0)))]

    def measure(step: Step) -> None:
        sizes.append(len(service.encode(Game(RULES, step.after, "ab" * 12, step.number))))

    def fifty(m: Any) -> bool:
        return bool(m.hand_number > 50 or m.status is Status.MATCH_OVER)

    play_out(RULES, match, random.Random("a5-long"), until=fifty, observe=measure)
    assert max(sizes) <= 1024, max(sizes)
