"""Random full matches over every registered ruleset and its option combinations.

After every move: the tiles of the set are all accounted for, a move's tile came from
the actor's hand, ``apply`` left its input unchanged, legal moves belong to the seat to
act, views agree with the state; every match ends, and settlements sum to zero.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from domino_rules import rules
from domino_rules.rules import MoveKind, Status

#: Values tried for integer options (every bool and enum value is tried).
INT_VALUES: dict[str, dict[str, tuple[int, ...]]] = {
    "one_arm_joe": {"set_max_pip": (6, 9, 12), "target_score": (0, 50, 100)},
    "tsair_deng": {"hands": (1, 3), "target_score": (0, 120)},
    "tiu_u": {"hands": (1, 2)},
    "throw_up": {"hands_per_player": (1, 2)},
}
#: Matches per ruleset, spread over its option combinations.
MATCHES = {"one_arm_joe": 1200, "tsair_deng": 300, "tiu_u": 300, "throw_up": 300}
#: Kinds whose tile must come from the actor's hand.
FROM_HAND = {MoveKind.PLAY, MoveKind.DISCARD, MoveKind.CAPTURE, MoveKind.PILE}
MAX_MOVES = 50_000


def combinations(ruleset: rules.Ruleset[Any, Any]) -> list[dict[str, Any]]:
    axes = []
    for spec in ruleset.option_specs():
        if spec.type == "int":
            values = INT_VALUES.get(ruleset.id, {}).get(spec.name, (spec.default,))
        elif spec.type == "bool":
            values = (False, True)
        else:
            values = spec.allowed
        axes.append([(spec.name, v) for v in values])
    return [dict(c) for c in itertools.product(*axes)]


def play_match(
    ruleset: rules.Ruleset[Any, Any], options: Any, players: int, seed: str, chooser: random.Random
) -> int:
    match = ruleset.new_match(options, players, seed)
    full = Counter(ruleset.full_set(options))
    moves = 0
    while match.status is not Status.MATCH_OVER:
        assert Counter(ruleset.all_tiles(match.hand_state)) == full, "tiles not conserved"
        legal = ruleset.legal_moves(match)
        to_act = ruleset.to_act(match)
        assert legal, f"no legal move in {match.status}"
        assert all(m.seat == to_act for m in legal)
        assert len(set(legal)) == len(legal), "duplicate legal moves"
        view = ruleset.view(match, to_act)
        assert view.legal_moves == legal and view.hand == ruleset.hand_tiles(
            match.hand_state, to_act
        )
        spectator = ruleset.view(match, None)
        assert spectator.hand == () and spectator.legal_moves == ()
        for seen in (view, spectator):
            for event in seen.events:
                # another seat's secret is redacted: no tile, marked hidden
                assert event.private_to in (None, seen.seat)
                if event.hidden:
                    assert event.tile is None and event.target is None and not event.tiles
        move = chooser.choice(legal)
        if move.kind in FROM_HAND and match.status is Status.IN_PROGRESS:
            assert move.tile in ruleset.hand_tiles(match.hand_state, move.seat), (
                f"{move} not from hand"
            )
        before = repr(match)
        after, events = ruleset.apply(match, move)
        assert repr(match) == before, "apply changed its input"
        assert after.last_events == events
        match = after
        moves += 1
        assert moves < MAX_MOVES, "the match does not end"
    score = ruleset.score(match)
    assert score.winners, "a finished match has winners"
    assert len(score.hands) == match.hand_number
    assert sum(score.match_points) == sum(sum(h.points) for h in score.hands)
    if score.settlement is not None:
        assert sum(score.settlement) == 0
    assert ruleset.legal_moves(match) == () and ruleset.to_act(match) is None
    return moves


@pytest.mark.parametrize("ruleset_id", sorted(MATCHES))
def test_random_matches(ruleset_id: str) -> None:
    ruleset = rules.get(ruleset_id)
    combos = combinations(ruleset)
    chooser = random.Random(ruleset_id)
    total = 0
    for n in range(MATCHES[ruleset_id]):
        options = ruleset.make_options(combos[n % len(combos)])
        low, high = ruleset.player_range(options)
        players = chooser.randint(low, min(high, 9))
        total += play_match(ruleset, options, players, f"conformance-{n}", chooser)
    assert total > MATCHES[ruleset_id]


def test_every_ruleset_is_exercised() -> None:
    assert {r.id for r in rules.all_rulesets()} <= set(MATCHES)
