"""What the tests over the catalogue need of All Fives (see
:mod:`domino_rules.games.testing`).

What a seat sees: its own hand and the layout (the line and the spinner's arms); not
others' hands (a partner's included ``[A5-13]``), nor the boneyard.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from ...rules import HandEnd, Match, Tile
from ..redeal import DOUBLE_SIX_SET, Stream, as_tuples, shuffled
from ..testing import (
    DealCase,
    GameTests,
    HiddenPlace,
    Judge,
    MatchRecord,
    PlaygroundMatch,
    Setup,
    Strength,
    TileTuple,
    leak,
    own,
    seeds,
)
from .rules import ArmTile

__all__ = ["TESTS", "forgeries", "redeal"]


def _sees(hand: Any, seat: int | None) -> list[Tile]:
    # [A5-13] a partner is a seat like any other: its tiles stay hidden
    laid = [laid.tile for laid in hand.line] + [arm.tile for arm in (*hand.up, *hand.down)]
    return [*own(hand.hands, seat), *laid]


def _rank(tile: TileTuple) -> tuple[int, int, int]:
    """[A5-4] doubles first, highest first; then by pip total, then the higher high half."""
    high, low = tile
    return (1, high, 0) if high == low else (0, high + low, high)


def redeal(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
    """[A5-2] [A5-4] [A5-5] the deal and every hand's lead, from RULES.md and the module
    docstring: k tiles a seat from ``deal/<hand>/0`` (7 to two players, 5 to more), the
    rest the boneyard; the first hand led by seat 0 (``ANY_TILE``) or the holder of the
    highest-ranked tile (``HIGHEST_DOUBLE``); under ``WINNER`` a later hand led by the
    player who dominoed the last one (without partners: its winner), else by
    ``Stream(seed, "lead/<hand>")``'s draw below the player count; under ``NEXT_SEAT`` by
    the seat after the last leader."""
    assert options.get("set_max_pip", 6) == 6, "the re-dealer knows the double-six set only"
    assert not options.get("partnership", False), "it re-deals games without partners"
    players, stats = record.players, Counter[str]()
    k = options.get("hand_size", 0) or (7 if players == 2 else 5)
    first = options.get("first_lead", "ANY_TILE")
    next_lead = options.get("next_lead", "WINNER")
    results = record.score["hands"]
    leader = -1
    for hand in record.hands:
        order = shuffled(seed, f"deal/{hand.number}/0", DOUBLE_SIX_SET)
        dealt = [sorted(order[k * s : k * s + k]) for s in range(players)]
        assert hand.hands == dealt, f"hand {hand.number}"
        assert hand.stock == len(DOUBLE_SIX_SET) - k * players
        assert as_tuples(hand.internal.boneyard) == order[k * players :]
        if hand.number == 1 or next_lead == "AS_FIRST":
            if first == "HIGHEST_DOUBLE":
                top = max((t for seat in dealt for t in seat), key=_rank)
                leader = next(s for s, seat in enumerate(dealt) if top in seat)
            else:
                leader = 0
        elif next_lead == "NEXT_SEAT":
            leader = (leader + 1) % players
        elif results[hand.number - 2]["end"] == "DOMINOED":
            leader = results[hand.number - 2]["winners"][0]
            stats["leads by the player who dominoed"] += 1
        else:
            leader = Stream(seed, f"lead/{hand.number}").below(players)
            stats["leads by lot"] += 1
        assert hand.to_act == leader, f"hand {hand.number}"
    return dict(stats)


def forgeries(match: Match[Any, Any]) -> Iterator[tuple[str, Match[Any, Any]]]:
    """Forgeries of its own fields and of the invariants its docstring names."""
    state, replace = match.hand_state, dataclasses.replace

    def with_state(**fields: Any) -> Match[Any, Any]:
        return replace(match, hand_state=replace(state, **fields))

    yield "points for one seat more", with_state(points=(*state.points, 0))
    yield "points below 0", with_state(points=(-5, *state.points[1:]))
    yield "a spinner with no line", with_state(spinner=0, line=())
    yield "draws_left off by one", with_state(draws_left=state.draws_left + 1)
    if match.options.partnership:
        yield (
            "partners with different points",
            with_state(points=(state.points[0] + 5, *state.points[1:])),
        )
    if state.line:
        yield "a spinner out of the line", with_state(spinner=len(state.line))
        if not any(laid.tile.is_double for laid in state.line):
            yield "a spinner that is no double", with_state(spinner=0)
        if all(state.hands):
            yield "dominoed with nobody out", with_state(end=HandEnd.DOMINOED)
        spinner = state.spinner
        if spinner is not None and not state.up and not 0 < spinner < len(state.line) - 1:
            pip = state.line[spinner].tile.high
            arm = (ArmTile(Tile(pip, pip), pip, pip),)
            yield "an arm before the spinner's sides are touched", with_state(up=arm)


TESTS = GameTests(
    int_values={"set_max_pip": (6, 9), "hand_size": (0, 3), "target_score": (0, 60)},
    conformance_matches=300,
    players=(2, 3, 4, 5),
    short=Setup(4, {"partnership": True, "target_score": 60}),
    tokens=Setup(4, {"partnership": True, "partners_play_out": True}, seeds("rt", 3)),
    judge=Judge(
        frozenset(
            {
                "hands",
                "boneyard",
                "line",
                "spinner",
                "up",
                "down",
                "to_act",
                "leader",
                "any_lead",
                "draws_left",
                "last_layer",
                "points",
                "end",
            }
        ),
        _sees,
    ),
    leak_games=(
        leak(2, {"target_score": 0}, "a5two", 4),
        leak(4, {"target_score": 0, "partnership": True}, "a5p", 4),
        leak(3, {"target_score": 0, "boneyard_keep": 2}, "a5k3", 3),
        leak(4, {"target_score": 0, "draw": False, "spinner": "NONE"}, "a5nd", 3),
        leak(2, {"target_score": 60}, "a5t", 2),
    ),
    private_events=True,
    redeal=redeal,
    deals=(
        DealCase("all_fives", 2, "check-all-fives-0", {"target_score": 150}, ()),
        DealCase(
            "all_fives-next",
            3,
            "check-all-fives-1",
            {"target_score": 100, "next_lead": "NEXT_SEAT", "first_lead": "HIGHEST_DOUBLE"},
            (),
        ),
    ),
    bot_setups=(
        Setup(2, {"target_score": 0}),
        Setup(3, {"target_score": 0, "boneyard_keep": 2}),
        Setup(4, {"target_score": 0, "partnership": True, "partners_play_out": True}),
        Setup(2, {"target_score": 0, "draw": False, "play_scoring": "FIVES_AND_THREES"}),
    ),
    hidden=(HiddenPlace("hands", True, True), HiddenPlace("boneyard", False, False)),
    strength=Strength(
        {"target_score": 0},
        greedy_over_random=400,
        why_not=(
            "STRONG's edge over GREEDY takes more matches to show than this test plays:"
            " bench/tournament.py measures it"
        ),
    ),
    playground=PlaygroundMatch(
        2,
        0,
        "GREEDY",
        "playground all_fives",
        {"target_score": "50"},
    ),
    checked_int_values={
        "set_max_pip": (6, 6, 9),
        "hand_size": (0, 0, 3),
        "boneyard_keep": (0, 0, 2),
        "target_score": (0, 0, 30, 61),
    },
    forgeries=forgeries,
    # every one of the corpus's 16 combinations of these is a valid one ([A5-14])
    golden_int_values={
        "set_max_pip": (6,),
        "hand_size": (0,),
        "boneyard_keep": (0, 2),
        "target_score": (0, 60, 100),
    },
)
