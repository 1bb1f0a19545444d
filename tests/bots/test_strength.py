"""The levels are ordered: seeded 2-player matches, each deal played with the seats swapped.

The measurement, with confidence intervals, many more matches and the suggestion times,
is ``bench/tournament.py``; this only guards against a level that stopped playing its
part, where the edge is large next to the luck of so few deals (GREEDY against RANDOM in
every ruleset; STRONG against GREEDY in One Arm Joe and Tsair Deng, at a small budget).
STRONG's edge over GREEDY in Tiu U and Throw-up is a few points in a hundred: it takes
thousands of matches to show, which the bench plays. Matches are short (a single hand
where the ruleset allows it) and fully determined by their seeds.
"""

from __future__ import annotations

from typing import Any

import pytest

from domino_rules import rules
from domino_rules.bots import Level, suggest
from domino_rules.rules import MoveKind, Status

SHORT: dict[str, dict[str, Any]] = {
    "one_arm_joe": {"target_score": 0},
    "tsair_deng": {"hands": 1},
    "tiu_u": {"hands": 1},
    "throw_up": {"hands_per_player": 1},
}


def hero_share(ruleset_id: str, hero: Level, opponent: Level, deals: int, playouts: int) -> float:
    """The hero's mean share of the win over ``deals`` deals, each played twice."""
    ruleset = rules.get(ruleset_id)
    options = ruleset.make_options(SHORT[ruleset_id])
    total = 0.0
    for number in range(2 * deals):
        hero_seat = number % 2
        match = ruleset.new_match(options, 2, f"strength/{ruleset_id}/{number // 2}")
        while match.status is not Status.MATCH_OVER:
            legal = ruleset.legal_moves(match)
            seat = ruleset.to_act(match)
            if legal[0].kind is MoveKind.NEXT_HAND or len(legal) == 1 or seat is None:
                move = legal[0]
            else:
                level = hero if seat == hero_seat else opponent
                view = ruleset.view(match, seat)
                move = suggest(
                    ruleset, options, 2, view, level, seed=str(number), playouts=playouts
                ).move
            match, _ = ruleset.apply(match, move)
        winners = ruleset.winners(match)
        total += 1 / len(winners) if hero_seat in winners else 0.0
    return total / (2 * deals)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", sorted(SHORT))
def test_greedy_beats_random(ruleset_id: str) -> None:
    # the smallest edge (Tiu U, about 0.1) is some four standard errors of 100 deals
    assert hero_share(ruleset_id, Level.GREEDY, Level.RANDOM, deals=100, playouts=1) > 0.5


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset_id", "deals"), [("one_arm_joe", 100), ("tsair_deng", 20)])
def test_strong_beats_greedy(ruleset_id: str, deals: int) -> None:
    # edges of about 0.1 and 0.2: some three standard errors of these deals
    assert hero_share(ruleset_id, Level.STRONG, Level.GREEDY, deals=deals, playouts=60) > 0.5
