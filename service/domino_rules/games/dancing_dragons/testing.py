"""What the tests over the catalogue need of Dancing Dragons (see
:mod:`domino_rules.games.testing`).

What a seat sees: its own hand, its own face-down discards and the line ``[DD-10]``; not
others' hands, others' discards, nor the tiles aside.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...rules import Tile
from ..redeal import CHINESE, Stream, as_tuples, shuffled
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

__all__ = ["TESTS", "redeal"]


def _sees(hand: Any, seat: int | None) -> list[Tile]:
    # [DD-10] the line face up; a seat's own discards; the tiles aside never
    return [
        *own(hand.hands, seat),
        *own(hand.discards, seat),
        *(laid.tile for laid in hand.line),
    ]


def redeal(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
    """[DD-1] [DD-2] k tiles a seat of the Chinese set from ``deal/<hand>/0`` (16, 10 or 8),
    the last two aside with 3 players; the first leader ``Stream(seed, "lead/1")``'s draw
    below the player count, later ones the last hand's winner."""
    players = record.players
    k = {2: 16, 3: 10, 4: 8}[players]
    for hand in record.hands:
        order = shuffled(seed, f"deal/{hand.number}/0", CHINESE)
        assert hand.hands == [sorted(order[k * s : k * s + k]) for s in range(players)]
        assert hand.stock == 0
        assert as_tuples(hand.internal.unused) == sorted(order[k * players :])
        if hand.number == 1:
            assert hand.to_act == Stream(seed, "lead/1").below(players)
    return {}


TESTS = GameTests(
    int_values={"hands": (1, 2), "target_score": (0, 60)},
    conformance_matches=300,
    players=(2, 3, 4),
    short=Setup(3, {"hands": 2}),
    tokens=Setup(4, {}, seeds("rt", 3)),
    judge=Judge(frozenset({"hands", "discards", "line", "to_act", "leader", "unused"}), _sees),
    leak_games=(
        leak(2, {"hands": 1}, "dd2", 3),
        leak(3, {"hands": 2}, "dd3", 3),
        leak(4, {"hands": 1, "must_play_if_able": False}, "dd4", 3),
    ),
    private_events=True,
    redeal=redeal,
    deals=(DealCase("dancing_dragons", 3, "check-dancing_dragons-0", {"hands": 2}, ()),),
    bot_setups=(
        Setup(2, {"hands": 1}),
        Setup(3, {"hands": 2, "must_play_if_able": False}),
        Setup(4, {"hands": 1}),
    ),
    hidden=(
        HiddenPlace("hands", True, True),
        HiddenPlace("discards", True, False),
        HiddenPlace("unused", False, True),
    ),
    strength=Strength(
        {"hands": 1},
        greedy_over_random=100,
        why_not=(
            "STRONG's edge over GREEDY takes more matches to show than this test plays:"
            " bench/tournament.py measures it"
        ),
    ),
    playground=PlaygroundMatch(3, 1, "GREEDY", "playground dancing dragons", {"hands": "2"}),
    checked_int_values={"hands": (1, 2), "target_score": (0, 0, 40)},
    forgeries=None,
    golden_int_values={"hands": (1, 2), "target_score": (0, 50)},
)
