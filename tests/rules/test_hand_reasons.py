"""A finished hand in words: every hand's reason names how it ended and who won it, and
a tie-break or a special score the rules applied is named with its rule's tag.

The reasons (``Ruleset.explain_hand``) come from what the match holds: a hand's result,
the hands before it and, for the hand just over, its final state. They name seats and
counts, never a tile. Random matches of every ruleset check the general promise here;
scripted positions, each played to its last move by the rules, check each tie-break with
the game's other rule tests (``tests/rules/test_<id>.py``).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from google.protobuf import json_format

from domino_rules import rules
from domino_rules.api import RulesService
from domino_rules.bots.playout import AnyMatch, AnyRuleset, Step, random_match
from domino_rules.rules import HandEnd, HandResult, Match, Status
from domino_rules.rules.ruleset import HAND_END_WORDS, seats_text
from domino_rules.v1 import domino_rules_pb2 as pb

from ..cases import cases_for
from .test_conformance import combinations

RULESET_IDS = [r.id for r in rules.all_rulesets()]
ROOT = Path(__file__).resolve().parents[2]
#: A tile as a reason would write it: digits on both sides (a rule tag has letters).
TILE = re.compile(r"\[\d+-\d+\]")
#: A rule tag in a reason.
TAG = re.compile(r"\[([A-Z][A-Z0-9]*)-([0-9]+)\]")
#: Words of a reason that say less than the hand's final state told, once the match no
#: longer holds it: a tie-break step (an earlier hand's discards); each game adds its own
#: (``reasons_later_say``: which of two seats left with 0 pips went out, say).
LESS_KNOWN = ("the first of these that separates them",)
#: Random matches per ruleset, spread over its option combinations.
MATCHES = 40


def _rulebook_tags() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"^- `\[([A-Z][A-Z0-9]*-[0-9]+)\]`", text, re.MULTILINE))


RULEBOOK_TAGS = _rulebook_tags()


def prefix_of(ruleset: AnyRuleset) -> str:
    """The prefix of the ruleset's rule tags, as its ``source`` cites them."""
    found = TAG.search(ruleset.source)
    assert found, f"{ruleset.id}'s source cites no rule tag"
    return found.group(1)


def check_reason(ruleset: AnyRuleset, reason: str, result: HandResult) -> None:
    """What every reason says: the end first, the winners (or that nobody won), a rule
    tag of the ruleset's own; and never a tile."""
    assert reason.strip(), "an empty reason"
    assert reason.startswith(HAND_END_WORDS[result.end]), (result.end, reason)
    if result.winners:
        assert seats_text(result.winners) in reason, (result.winners, reason)
    else:
        assert "nobody" in reason or "no side wins" in reason, reason
    assert not TILE.search(reason), f"a reason names a tile: {reason}"
    tags = [f"{prefix}-{number}" for prefix, number in TAG.findall(reason)]
    assert tags, f"a reason cites no rule: {reason}"
    prefix = prefix_of(ruleset)
    for tag in tags:
        assert tag in RULEBOOK_TAGS and tag.startswith(prefix + "-"), (tag, reason)


class HandEnds:
    """A playout observer: each hand's reason as it stood when the hand ended."""

    def __init__(self, ruleset: AnyRuleset) -> None:
        self.ruleset = ruleset
        self.at_end: list[str] = []

    def step(self, step: Step) -> None:
        after = step.after
        if step.before.status is Status.IN_PROGRESS and after.status is not Status.IN_PROGRESS:
            reasons = self.ruleset.score(after).reasons
            assert len(reasons) == len(after.history)
            check_reason(self.ruleset, reasons[-1], after.history[-1])
            self.at_end.append(reasons[-1])


def play_matches(ruleset_id: str) -> list[tuple[AnyMatch, list[str]]]:
    ruleset, cases = rules.get(ruleset_id), cases_for(ruleset_id)
    combos = combinations(ruleset)
    chooser = random.Random(f"reasons-{ruleset_id}")
    played = []
    for n in range(MATCHES):
        values = {**combos[(n * 7) % len(combos)], **cases.short.options}
        options = ruleset.make_options(values)
        low, high = ruleset.player_range(options)
        players = chooser.choice([p for p in cases.players if low <= p <= high])
        ends = HandEnds(ruleset)
        end = random_match(
            ruleset, options, players, f"reasons-{n}", chooser=chooser, observe=ends.step
        )
        played.append((end, ends.at_end))
    return played


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_finished_hand_has_a_reason(ruleset_id: str) -> None:
    """At each hand's end and at the match's end, every hand's reason names its end and
    its winners (or says nobody won), cites a rule of its game and names no tile. An
    earlier hand's words stay as they were at its end, but for what only the hand's final
    state told (an earlier hand's discards, or which of two seats with 0 pips went out)."""
    ruleset = rules.get(ruleset_id)
    less_known = (*LESS_KNOWN, *cases_for(ruleset_id).reasons_later_say)
    hands = 0
    for end, at_end in play_matches(ruleset_id):
        reasons = ruleset.score(end).reasons
        assert len(reasons) == len(end.history) == len(at_end)
        for reason, result, first in zip(reasons, end.history, at_end, strict=True):
            check_reason(ruleset, reason, result)
            assert reason == first or any(words in reason for words in less_known), (
                first,
                reason,
            )
            hands += 1
    assert hands >= MATCHES


def any_result(ruleset: AnyRuleset, players: int, chooser: random.Random) -> HandResult:
    """A result that passes the check of a state from outside, whether or not the rules
    could give it (a token's earlier hands are checked only so far)."""
    least = 0 if ruleset.hands_may_have_no_winner else 1
    winners = sorted(chooser.sample(range(players), chooser.randint(least, players)))
    return HandResult(
        tuple(chooser.choice((0, 0, 1, 5, 12)) for _ in range(players)),
        tuple(chooser.choice((0, 0, 2, 7)) for _ in range(players)),
        tuple(winners),
        chooser.choice(sorted(ruleset.hand_ends, key=lambda end: end.value)),
        tuple(chooser.randint(-9, 9) for _ in range(players)) if ruleset.settles_hands else (),
    )


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_earlier_results_from_outside_get_a_reason_too(ruleset_id: str) -> None:
    """A token's earlier hands are checked for their shape, not replayed: a result the
    rules could not give still gets a reason (the plain facts), never an error."""
    ruleset, cases = rules.get(ruleset_id), cases_for(ruleset_id)
    chooser = random.Random(f"outside-{ruleset_id}")
    options = ruleset.make_options(cases.short.options)
    players = cases.short.players
    current = ruleset.new_match(options, players, "outside")
    for _ in range(200):
        history = tuple(any_result(ruleset, players, chooser) for _ in range(3))
        match = Match(players, options, "outside", 4, current.hand_state, history)
        for reason, result in zip(ruleset.score(match).reasons, history, strict=True):
            assert reason.startswith(HAND_END_WORDS[result.end]), reason
            if result.winners:
                assert seats_text(result.winners) in reason, (result, reason)
            assert not TILE.search(reason), reason


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_getscore_carries_each_hands_reason(ruleset_id: str) -> None:
    """Through the service: ``GetScore``'s ``hands[i].reason`` is each hand's reason, at
    every hand's end and when the match is over."""
    ruleset, setup = rules.get(ruleset_id), cases_for(ruleset_id).short
    service = RulesService()
    request = {
        "ruleset": ruleset_id,
        "players": setup.players,
        "seed": f"reasons-{ruleset_id}",
        "options": {ruleset_id: dict(setup.options)},
    }
    answer = service.NewGame(json_format.ParseDict(request, pb.NewGameRequest()))
    state, chooser, finished = answer.state, random.Random(ruleset_id), 0
    while True:
        legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        if not legal.moves:
            break
        applied = service.ApplyMove(
            pb.ApplyMoveRequest(state=state, move=chooser.choice(list(legal.moves)))
        )
        state = applied.state
        if applied.status == pb.IN_PROGRESS:
            continue
        score = service.GetScore(pb.GetScoreRequest(state=state))
        assert [hand.hand for hand in score.hands] == list(range(1, len(score.hands) + 1))
        finished = len(score.hands)
        for hand in score.hands:
            result = HandResult(
                tuple(hand.counts),
                tuple(hand.points),
                tuple(hand.winners),
                HandEnd[pb.HandEnd.Name(hand.end)],
                tuple(hand.settlement),
            )
            check_reason(ruleset, hand.reason, result)
        as_json = json_format.MessageToDict(score, preserving_proto_field_name=True)
        assert as_json["hands"][-1]["reason"] == score.hands[-1].reason
    assert finished >= 1 and score.status == pb.MATCH_OVER
