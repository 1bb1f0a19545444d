"""The levels are ordered: seeded 2-player matches, each deal played with the seats swapped.

The measurement, with confidence intervals, many more matches and the suggestion times,
is ``bench/tournament.py``; this only guards against a level that stopped playing its
part, where the edge is large next to the luck of so few deals. Each game declares which
pairs of levels it tests, on how many deals and under which options (its declarations'
``strength``), and why it leaves a pair out (an edge of a few points in a hundred takes
thousands of matches to show, which the bench plays). Matches are short (a single hand
where the ruleset allows it) and fully determined by their seeds.
"""

from __future__ import annotations

import pytest

from domino_rules import rules
from domino_rules.bots import Level, suggest
from domino_rules.rules import MoveKind, Status

from ..cases import cases_for

RULESET_IDS = [r.id for r in rules.all_rulesets()]


def hero_share(ruleset_id: str, hero: Level, opponent: Level, deals: int, playouts: int) -> float:
    """The hero's mean share of the win over ``deals`` deals, each played twice."""
    ruleset = rules.get(ruleset_id)
    options = ruleset.make_options(cases_for(ruleset_id).strength.options)
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


def deals_or_skip(ruleset_id: str, deals: int) -> int:
    """``deals``, or a skip that gives the game's reason for not testing the pair."""
    if not deals:
        pytest.skip(f"{ruleset_id}: {cases_for(ruleset_id).strength.why_not}")
    return deals


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_greedy_beats_random(ruleset_id: str) -> None:
    deals = deals_or_skip(ruleset_id, cases_for(ruleset_id).strength.greedy_over_random)
    assert hero_share(ruleset_id, Level.GREEDY, Level.RANDOM, deals=deals, playouts=1) > 0.5


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_strong_beats_greedy(ruleset_id: str) -> None:
    deals = deals_or_skip(ruleset_id, cases_for(ruleset_id).strength.strong_over_greedy)
    assert hero_share(ruleset_id, Level.STRONG, Level.GREEDY, deals=deals, playouts=60) > 0.5
