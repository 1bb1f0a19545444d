"""What the tests over the catalogue need of One Arm Joe (see :mod:`domino_rules.games.testing`).

What a seat sees: its own hand and the arm; not others' hands, nor the boneyard.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from ...rules import Match, Tile
from ..redeal import DOUBLE_SIX_SET, as_tuples, shuffled
from ..testing import (
    DealCase,
    GameTests,
    HiddenPlace,
    Judge,
    MatchRecord,
    PlaygroundMatch,
    Setup,
    Strength,
    leak,
    own,
    seeds,
)

__all__ = ["TESTS", "forgeries", "redeal"]


def _sees(hand: Any, seat: int | None) -> list[Tile]:
    return [*own(hand.hands, seat), *hand.line]


def redeal(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
    """[OAJ-3] 3 tiles a seat from ``deal/<hand>/<attempt>``, dealt again while no seat
    holds a double; the rest the boneyard; the highest double leads."""
    assert options.get("set_max_pip", 6) == 6, "the re-dealer knows the double-six set only"
    players, stats = record.players, Counter[str]()
    for hand in record.hands:
        attempt = 0
        while True:  # [OAJ-3] void while no seat holds a double
            order = shuffled(seed, f"deal/{hand.number}/{attempt}", DOUBLE_SIX_SET)
            dealt = [sorted(order[3 * s : 3 * s + 3]) for s in range(players)]
            if any(high == low for seat in dealt for high, low in seat):
                break
            attempt += 1
        redeals = [e for e in hand.deal_events if e["kind"] == "REDEAL"]
        assert [e["count"] for e in redeals] == list(range(1, attempt + 1)), f"hand {hand.number}"
        assert hand.hands == dealt, f"hand {hand.number}"
        assert hand.stock == len(DOUBLE_SIX_SET) - 3 * players
        assert as_tuples(hand.internal.boneyard) == order[3 * players :]
        # the highest double leads
        leader = max((t, s) for s, seat in enumerate(dealt) for t in seat if t[0] == t[1])[1]
        assert hand.to_act == leader
        stats["redeals"] += attempt
    return dict(stats)


def forgeries(match: Match[Any, Any]) -> Iterator[tuple[str, Match[Any, Any]]]:
    """Forgeries of its own fields and of the invariants its docstring names."""
    state, replace = match.hand_state, dataclasses.replace

    def with_state(**fields: Any) -> Match[Any, Any]:
        return replace(match, hand_state=replace(state, **fields))

    yield "boneyard of 200 tiles", with_state(boneyard=(Tile(1, 0),) * 200)
    yield "open end outside the set", with_state(open_end=19)
    yield (
        "open end None mid-hand" if state.line else "open end before the lead",
        (with_state(open_end=None if state.line else 6)),
    )
    yield "dominoed by nobody out", with_state(dominoed=(state.to_act + 1) % match.players)
    yield "dominoed huge", with_state(dominoed=2**63 - 1)
    if not state.line:
        other = (state.leader + 1) % match.players
        yield (
            "the lead by a seat without the highest double",
            with_state(leader=other, to_act=other),
        )
    yield "a line twice as long", with_state(line=state.line * 2 + (Tile(0, 0),))


TESTS = GameTests(
    int_values={"set_max_pip": (6, 9, 12), "target_score": (0, 50, 100)},
    conformance_matches=1200,
    players=tuple(range(2, 10)),
    short=Setup(4, {"target_score": 40}),
    tokens=Setup(9, {}, seeds("rt", 3)),
    judge=Judge(
        frozenset(
            {"hands", "boneyard", "line", "open_end", "to_act", "bonus", "leader", "dominoed"}
        ),
        _sees,
    ),
    leak_games=(
        leak(2, {"target_score": 0}, "oaj2", 4),
        leak(3, {"target_score": 30, "lead_double_bonus": True}, "oaj3", 3),
        leak(4, {"target_score": 0, "set_max_pip": 9}, "oaj4", 3),
        leak(6, {"target_score": 0, "set_max_pip": 12}, "oaj6", 2),
        leak(9, {"target_score": 0}, "oaj9", 2),
    ),
    private_events=True,
    redeal=redeal,
    deals=(DealCase("one_arm_joe", 2, "check-one_arm_joe-0", {"target_score": 30}, ("redeals",)),),
    bot_setups=(
        Setup(2, {"target_score": 0}),
        Setup(3, {"target_score": 30, "lead_double_bonus": True}),
        Setup(5, {"target_score": 0, "set_max_pip": 9}),
    ),
    hidden=(HiddenPlace("hands", True, True), HiddenPlace("boneyard", False, False)),
    # STRONG's edge over GREEDY, about 0.1, is some three standard errors of 100 deals
    strength=Strength({"target_score": 0}, greedy_over_random=100, strong_over_greedy=100),
    playground=PlaygroundMatch(3, 1, "GREEDY", "playground one arm joe", {"target_score": "60"}),
    checked_int_values={"set_max_pip": (6, 6, 9, 18), "target_score": (0, 0, 25)},
    forgeries=forgeries,
    golden_int_values={"set_max_pip": (6, 9), "target_score": (0, 30)},
)
