"""The previous release's tokens and records, with today's code.

``docs/VERSIONING.md``: a version accepts the state tokens and the match records of the
previous minor version. ``tests/upgrade/<release>/corpus.json.gz`` holds what that
release wrote (see :mod:`tests.upgrade.capture`): tokens of every game at the deal,
mid-hand, between hands and in the second hand, unsealed and sealed, each with the moves
that continued its match and the final score the release gave; and records with their
verdicts. Today's service must show each token's seat the view it showed (the fields it
had: a minor version may add some), play each match to the same end with the same
moves, and replay each record to the same verdict.
"""

from __future__ import annotations

import base64
import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

from domino_rules import rules
from domino_rules.api import RulesService
from domino_rules.records import form
from domino_rules.state.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

from . import capture

HERE = Path(__file__).parent
#: The releases whose corpus is kept: the previous minor version's.
RELEASES = sorted(p.parent.name for p in HERE.glob("*/corpus.json.gz"))


@cache
def corpus(release: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(gzip.decompress(capture.path_of(release).read_bytes()))
    return data


def service(release: str, sealed: bool) -> RulesService:
    if sealed:
        return RulesService(TokenCodec(KeyRing.parse(corpus(release)["seal_keys"])))
    return RulesService()


def contains(new: Any, old: Any) -> bool:
    """``new`` holds everything ``old`` did: the same values, perhaps more fields."""
    if isinstance(old, dict):
        return isinstance(new, dict) and all(
            k in new and contains(new[k], v) for k, v in old.items()
        )
    if isinstance(old, list):
        return (
            isinstance(new, list)
            and len(new) == len(old)
            and all(contains(n, o) for n, o in zip(new, old, strict=True))
        )
    return bool(new == old)


SEALED = {False: "unsealed", True: "sealed"}


def token_cases() -> list[Any]:
    return [
        pytest.param(
            release,
            index,
            sealed,
            id=f"{release}-{t['ruleset']}-{t['players']}p-{t['stage']}-{SEALED[sealed]}",
        )
        for release in RELEASES
        for index, t in enumerate(corpus(release)["tokens"])
        for sealed in (False, True)
    ]


def record_cases() -> list[Any]:
    return [
        pytest.param(release, index, id=f"{release}-{r['ruleset']}-{r['players']}p-{r['name']}")
        for release in RELEASES
        for index, r in enumerate(corpus(release)["records"])
    ]


def test_the_previous_release_is_kept() -> None:
    assert RELEASES, "no corpus of a previous release in tests/upgrade"
    for release in RELEASES:
        kept = {t["ruleset"] for t in corpus(release)["tokens"]}
        assert kept == {r["ruleset"] for r in corpus(release)["records"]}
        assert kept <= {r.id for r in rules.all_rulesets()}, "a ruleset was removed"
        stages = {(t["ruleset"], t["stage"], t["status"]) for t in corpus(release)["tokens"]}
        for ruleset_id in kept:
            assert (ruleset_id, "between_hands", "HAND_OVER") in stages
            assert (ruleset_id, "mid_hand", "IN_PROGRESS") in stages


@pytest.mark.parametrize(("release", "index", "sealed"), token_cases())
def test_a_token_of_the_previous_release_plays_on_to_the_same_end(
    release: str, index: int, sealed: bool
) -> None:
    entry = corpus(release)["tokens"][index]
    rules_service = service(release, sealed)
    token = base64.b64decode(entry["sealed" if sealed else "unsealed"])
    view = rules_service.GetView(pb.GetViewRequest(state=token, seat=0))
    assert contains(capture.as_json(view), entry["view"])
    assert view.version == entry["version"]
    assert pb.Status.Name(view.status) == entry["status"]
    version, status = entry["version"], view.status
    for move_json in entry["continuation"]["moves"]:
        move = json_format.ParseDict(move_json, pb.Move())
        legal = rules_service.GetLegalMoves(pb.GetLegalMovesRequest(state=token))
        assert move in legal.moves
        answer = rules_service.ApplyMove(
            pb.ApplyMoveRequest(state=token, move=move, expected_version=version)
        )
        token, version, status = answer.state, answer.version, answer.status
    assert status == pb.MATCH_OVER
    score = rules_service.GetScore(pb.GetScoreRequest(state=token))
    assert contains(capture.as_json(score), entry["continuation"]["score"])


@pytest.mark.parametrize(("release", "index"), record_cases())
def test_a_record_of_the_previous_release_replays_to_the_same_verdict(
    release: str, index: int
) -> None:
    entry = corpus(release)["records"][index]
    rules_service = service(release, entry["sealed"])
    for record in (form.from_json(entry["record"]), form.parse(entry["text"])):
        answer = rules_service.Replay(pb.ReplayRequest(record=record, from_step=0, to_step=0))
        assert pb.ReplayResponse.Verdict.Name(answer.verdict) == entry["verdict"]
        if entry["divergence"] is not None:
            assert contains(capture.as_json(answer.divergence), entry["divergence"])
    assert entry["verdict"] == "VALID"
