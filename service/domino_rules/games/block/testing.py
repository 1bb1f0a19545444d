"""What the tests over the catalogue need of the Block game (see
:mod:`domino_rules.games.testing`).

What a seat sees: its own hand and the line; not others' hands (a partner's included
``[BLK-14]``), nor the boneyard.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...rules import Tile
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
    TileTuple,
    leak,
    own,
    seeds,
)

__all__ = ["TESTS", "redeal"]


def _sees(hand: Any, seat: int | None) -> list[Tile]:
    # [BLK-14] a partner is a seat like any other: its tiles stay hidden
    return [*own(hand.hands, seat), *(laid.tile for laid in hand.line)]


def _rank(tile: TileTuple) -> tuple[int, int, int]:
    """[BLK-4] doubles first, highest first; then by pip total, then the higher high half."""
    high, low = tile
    return (1, high, 0) if high == low else (0, high + low, high)


def redeal(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
    """[BLK-2] [BLK-4] the deal and the first lead, from RULES.md and the module docstring:
    k tiles a seat from ``deal/<hand>/0`` (7 for two players and a partnership Block game,
    5 otherwise), the rest the boneyard; under ``HIGHEST_DOUBLE`` (every hand led as the
    first) the holder of the highest-ranked tile leads."""
    assert options.get("set_max_pip", 6) == 6, "the re-dealer knows the double-six set only"
    assert options.get("next_lead", "AS_FIRST") == "AS_FIRST", "it re-deals AS_FIRST leads"
    players, stats = record.players, Counter[str]()
    partnership, draw = options.get("partnership", False), options.get("draw", False)
    k = options.get("hand_size", 0) or (7 if players == 2 or (partnership and not draw) else 5)
    for hand in record.hands:
        order = shuffled(seed, f"deal/{hand.number}/0", DOUBLE_SIX_SET)
        dealt = [sorted(order[k * s : k * s + k]) for s in range(players)]
        assert hand.hands == dealt, f"hand {hand.number}"
        assert hand.stock == len(DOUBLE_SIX_SET) - k * players
        assert as_tuples(hand.internal.boneyard) == order[k * players :]
        if options.get("first_lead", "HIGHEST_DOUBLE") == "HIGHEST_DOUBLE":
            top = max((t for seat in dealt for t in seat), key=_rank)
            leader = next(s for s, seat in enumerate(dealt) if top in seat)
            stats["leads without a double"] += top[0] != top[1]
        else:
            leader = 0
        assert hand.to_act == leader, f"hand {hand.number}"
    return dict(stats)


TESTS = GameTests(
    int_values={"set_max_pip": (6, 9), "hand_size": (0, 3), "target_score": (0, 60)},
    conformance_matches=600,
    players=(2, 3, 4, 5),
    short=Setup(4, {"partnership": True, "target_score": 40}),
    tokens=Setup(4, {"draw": True}, seeds("rt", 3)),
    judge=Judge(
        frozenset(
            {
                "hands",
                "boneyard",
                "line",
                "to_act",
                "leader",
                "any_lead",
                "draws_left",
                "last_layer",
            }
        ),
        _sees,
    ),
    leak_games=(
        leak(2, {"target_score": 0}, "blk2", 4),
        leak(4, {"target_score": 0, "partnership": True}, "blkp", 4),
        leak(3, {"target_score": 0, "draw": True}, "blkd3", 4),
        leak(4, {"target_score": 0, "partnership": True, "draw": True}, "blkpd", 3),
        leak(2, {"target_score": 40, "draw": True, "boneyard_keep": 2}, "blkk", 2),
    ),
    private_events=True,
    redeal=redeal,
    deals=(DealCase("block", 2, "check-block-0", {"target_score": 60, "draw": True}, ()),),
    bot_setups=(
        Setup(2, {"target_score": 0}),
        Setup(3, {"target_score": 0, "draw": True}),
        Setup(4, {"target_score": 0, "partnership": True}),
    ),
    hidden=(HiddenPlace("hands", True, True), HiddenPlace("boneyard", False, False)),
    # GREEDY's edge over RANDOM in a single hand, about 0.05, is some four standard errors
    # of 1,000 deals (the luck of the deal weighs much)
    strength=Strength(
        {"target_score": 0},
        greedy_over_random=1000,
        why_not=(
            "STRONG's edge over GREEDY takes more matches to show than this test plays:"
            " bench/tournament.py measures it"
        ),
    ),
    playground=PlaygroundMatch(
        4,
        2,
        "GREEDY",
        "playground block",
        {"partnership": "true", "draw": "true", "target_score": "40"},
    ),
    checked_int_values={
        "set_max_pip": (6, 6, 9),
        "hand_size": (0, 0, 3),
        "boneyard_keep": (0, 0, 2),
        "target_score": (0, 0, 30),
    },
    forgeries=None,
    golden_int_values={
        "set_max_pip": (6,),
        "hand_size": (0,),
        "boneyard_keep": (0, 2),
        "target_score": (0, 30),
    },
    # which of two seats left with 0 pips went out
    reasons_later_say=("Dominoed: a player",),
)
