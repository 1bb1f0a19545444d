"""What the tests over the catalogue need of Throw-up (see :mod:`domino_rules.games.testing`).

What a seat sees: its own hand and the line; not others' hands, nor the boneyard.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from ...rules import Match, Tile
from ..redeal import DOUBLE_SIX_WITHOUT_BLANK, as_tuples, shuffled, throw
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
    return [*own(hand.hands, seat), *(laid.tile for laid in hand.line)]


def redeal(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
    """7 tiles a seat of double-six less [0-0] from ``deal/<hand>/0``, the rest the
    boneyard; the throw-off (``lead/<attempt>/<seat>``) and every round's dice
    (``dice/<hand>/<round>/<throw>``) thrown again."""
    rethrow = bool(options.get("rethrow_repeats", False))
    players, stats = record.players, Counter[str]()
    leader = -1
    for hand in record.hands:
        order = shuffled(seed, f"deal/{hand.number}/0", DOUBLE_SIX_WITHOUT_BLANK)
        assert hand.hands == [sorted(order[7 * s : 7 * s + 7]) for s in range(players)]
        assert hand.stock == len(DOUBLE_SIX_WITHOUT_BLANK) - 7 * players
        assert as_tuples(hand.internal.boneyard) == order[7 * players :]
        expected: list[tuple[int, tuple[int, ...]]] = []
        if hand.number == 1:  # the throw-off
            contenders, attempt = list(range(players)), 0
            while True:
                totals = {}
                for seat in contenders:
                    dice = throw(seed, f"lead/{attempt}/{seat}")
                    expected.append((seat, dice))
                    totals[seat] = sum(dice)
                contenders = [s for s in contenders if totals[s] == max(totals.values())]
                if len(contenders) == 1:
                    break
                attempt += 1
                stats["throw-off rethrows"] += 1
            leader = contenders[0]
        else:
            leader = (leader + 1) % players
        assert hand.to_act == leader
        assert [e["seat"] for e in hand.deal_events if e["kind"] == "LEADER"] == [leader]
        previous: tuple[int, ...] | None = None
        for round_number in range(1, hand.final_table["round"] + 1):
            t = 0
            while True:
                dice = throw(seed, f"dice/{hand.number}/{round_number}/{t}")
                expected.append((leader, dice))
                repeat = previous is not None and sorted(dice) == sorted(previous)
                if not (rethrow and repeat):
                    stats["repeats kept"] += repeat
                    break
                t += 1
                stats["rethrows"] += 1
            previous = dice
        stats["rounds"] += hand.final_table["round"]
        assert hand.dice == expected, f"hand {hand.number}"
    return dict(stats)


def forgeries(match: Match[Any, Any]) -> Iterator[tuple[str, Match[Any, Any]]]:
    """Forgeries of its own fields and of the invariants its docstring names."""
    state, replace = match.hand_state, dataclasses.replace

    def with_state(**fields: Any) -> Match[Any, Any]:
        return replace(match, hand_state=replace(state, **fields))

    for dice in ((), (1, 2), (1, 2, 3, 4), (1, 2, 3) * 8, (0, 1, 2), (6, 6, 7), (1, 2, None)):
        yield f"dice {dice}", with_state(dice=dice)
    yield "pegs one more", with_state(pegs=(*state.pegs, 0))
    yield "pegs that do not add up", with_state(pegs=(state.pegs[0] + 1, *state.pegs[1:]))
    yield "round 0", with_state(round=0)
    yield "round huge", with_state(round=2**63 - 1)
    yield "idle rounds 3", with_state(idle_rounds=3)
    yield "idle rounds -1", with_state(idle_rounds=-1)
    yield "laid None", with_state(laid_this_round=None)
    if state.line:
        first = state.line[0]
        yield (
            "a laid tile with wrong halves",
            with_state(line=(replace(first, left=first.right + 7), *state.line[1:])),
        )
        yield (
            "a laid tile of pip 99",
            with_state(line=(replace(first, left=99, right=99), *state.line[1:])),
        )


TESTS = GameTests(
    int_values={"hands_per_player": (1, 2)},
    conformance_matches=300,
    players=(2, 3),
    short=Setup(3, {"hands_per_player": 1}),
    tokens=Setup(3, {}, seeds("rt", 3)),
    judge=Judge(
        frozenset(
            {
                "hands",
                "boneyard",
                "line",
                "dice",
                "round",
                "leader",
                "to_act",
                "pegs",
                "idle_rounds",
                "laid_this_round",
            }
        ),
        _sees,
    ),
    leak_games=(
        leak(2, {"hands_per_player": 1}, "thr2", 5),
        leak(3, {"hands_per_player": 1, "rethrow_repeats": True}, "thr3", 4),
    ),
    private_events=True,
    redeal=redeal,
    deals=(
        # a tied throw-off, and a repeated round throw kept
        DealCase(
            "throw_up",
            3,
            "check-throw_up-20",
            {"hands_per_player": 1},
            ("throw-off rethrows", "repeats kept"),
        ),
        # a repeated round throw thrown again
        DealCase(
            "throw_up_rethrow",
            3,
            "check-throw_up_rethrow-0",
            {"hands_per_player": 1, "rethrow_repeats": True},
            ("rethrows",),
        ),
    ),
    bot_setups=(
        Setup(2, {"hands_per_player": 1}),
        Setup(3, {"hands_per_player": 1, "rethrow_repeats": True}),
    ),
    hidden=(HiddenPlace("hands", True, True), HiddenPlace("boneyard", False, False)),
    strength=Strength(
        {"hands_per_player": 1},
        greedy_over_random=100,
        why_not=(
            "STRONG's edge over GREEDY is a few points in a hundred: it takes thousands of"
            " matches to show, which bench/tournament.py plays"
        ),
    ),
    playground=PlaygroundMatch(2, 0, "RANDOM", "playground throw-up", {"hands_per_player": "1"}),
    checked_int_values={"hands_per_player": (1,)},
    forgeries=forgeries,
    golden_int_values={"hands_per_player": (1,)},
)
