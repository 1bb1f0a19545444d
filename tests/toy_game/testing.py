"""What the tests over the catalogue need of High Tile (see :mod:`domino_rules.games.testing`).

What a seat sees: its own hand and every tile played (face up, in the events); not
others' hands, nor the stock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domino_rules.games.redeal import as_tuples, double_n, shuffled
from domino_rules.games.testing import (
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
from domino_rules.rules import Tile

__all__ = ["TESTS", "redeal"]


def _sees(hand: Any, seat: int | None) -> list[Tile]:
    return [*own(hand.hands, seat), *(tile for tiles in hand.played for tile in tiles)]


def redeal(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
    """3 tiles a seat of double-three from ``deal/1/0``, the rest the stock; seat 0 leads."""
    players = record.players
    for hand in record.hands:
        order = shuffled(seed, f"deal/{hand.number}/0", double_n(3))
        assert hand.hands == [sorted(order[3 * s : 3 * s + 3]) for s in range(players)]
        assert hand.stock == len(order) - 3 * players
        assert as_tuples(hand.internal.stock) == order[3 * players :]
        assert hand.to_act == 0
    return {}


TESTS = GameTests(
    int_values={},
    conformance_matches=60,
    players=(2, 3),
    short=Setup(3),
    tokens=Setup(3, {}, seeds("rt", 3)),
    judge=Judge(frozenset({"hands", "stock", "played", "to_act", "leader"}), _sees),
    leak_games=(leak(2, {}, "ht2", 3), leak(3, {}, "ht3", 3)),
    private_events=False,
    redeal=redeal,
    deals=(DealCase("high_tile", 3, "check-high_tile-0", {}, ()),),
    bot_setups=(Setup(2), Setup(3)),
    hidden=(
        HiddenPlace("hands", True, True),
        HiddenPlace("stock", False, False),
        HiddenPlace("played", True, False),
    ),
    strength=Strength(
        {},
        why_not=(
            "every seat plays all its tiles, in whatever order: the deal alone decides the"
            " hand, so no level can play better than another"
        ),
    ),
    playground=PlaygroundMatch(2, 1, "GREEDY", "toy-page"),
    checked_int_values={},
    forgeries=None,
    golden_int_values={},
)
