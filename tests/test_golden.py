"""The golden corpus replays identically: same seed, options and moves, same answers.

The corpus (``tests/golden/*.json.gz``, see :mod:`tests.golden.corpus`) holds every
answer the service gave, move by move, for seeded matches of every ruleset over a grid
of its options. Any change to the rules core, the codec or the tokens that changes a
single answer fails here.
"""

from __future__ import annotations

from typing import Any

import pytest

from domino_rules import rules
from domino_rules.api import RulesService

from .golden import corpus


def test_every_ruleset_has_a_corpus() -> None:
    for ruleset in rules.all_rulesets():
        assert corpus.path_of(ruleset.id).is_file(), f"no golden corpus for {ruleset.id}"


@pytest.mark.parametrize("ruleset_id", [r.id for r in rules.all_rulesets()])
def test_the_corpus_replays_identically(ruleset_id: str) -> None:
    service = RulesService()
    recorded = corpus.load(ruleset_id)
    assert len(recorded) == corpus.MATCHES
    steps = 0
    for match in recorded:
        replayed: dict[str, Any] = corpus.play(service, match["new_game"], match["moves"])
        for n, (old, new) in enumerate(zip(match["steps"], replayed["steps"], strict=True)):
            assert new == old, f"{match['new_game']['seed']}: step {n} differs"
        steps += len(match["steps"])
        assert match["steps"][-1]["legal"]["status"] == "MATCH_OVER"
    assert steps > 100
