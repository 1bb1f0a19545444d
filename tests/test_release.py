"""A release is one version, kept in a changelog, checked against the previous release.

``docs/VERSIONING.md``: one version for the service, both clients, the contract bundle
and the image; ``CHANGELOG.md`` has its entry; the previous release (``release/
previous-release``) is the previous minor version (or, for a patch, this minor version),
and its wheel and corpus are kept; the OpenAPI document breaks nothing of the previous
release's, and the checker does see what would; the JSON Schema of the REST messages in
the contract bundle takes the service's answers.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema_rs
import pytest
from google.protobuf import json_format

import domino_rules
from domino_rules.api import RulesService
from domino_rules.v1 import domino_rules_pb2 as pb

ROOT = Path(__file__).resolve().parent.parent
VERSION = domino_rules.__version__
PREVIOUS = (ROOT / "release" / "previous-release").read_text().strip()


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "release" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


dist = _script("dist")
openapi_diff = _script("openapi_diff")


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def test_every_part_of_the_release_has_its_version() -> None:
    assert set(dist.versions().values()) == {VERSION}
    assert dist.version() == VERSION
    for manifest in ("base/kustomization.yaml", "overlays/production/kustomization.yaml"):
        text = (ROOT / "deploy" / "kubernetes" / manifest).read_text()
        assert f'newTag: "{VERSION}"' in text, manifest
    assert (
        f"image: domino-rules:{VERSION}"
        in (ROOT / "deploy" / "kubernetes" / "base" / "deployment.yaml").read_text()
    )
    python_readme = (ROOT / "clients" / "python" / "README.md").read_text()
    assert f"domino_rules_client-{VERSION}-py3-none-any.whl" in python_readme
    assert f"domino-rules-client=={VERSION}" in python_readme
    ts_readme = (ROOT / "clients" / "typescript" / "README.md").read_text()
    assert f"domino-rules-client-{VERSION}.tgz" in ts_readme
    assert f"domino-rules-client@{VERSION}" in ts_readme


def test_the_changelog_has_this_release_first() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[([^\]]+)\]", text, re.M)
    assert releases[0] == "Unreleased"
    assert releases[1] == VERSION
    assert PREVIOUS in releases[2:]


def test_the_policy_and_the_changelog_are_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    for target in ("CHANGELOG.md", "docs/VERSIONING.md", "docs/RELEASING.md"):
        assert f"]({target})" in readme, target
        assert (ROOT / target).is_file()


def test_the_previous_release_is_the_previous_minor_version_and_is_kept() -> None:
    major, minor, _ = _numbers(VERSION)
    previous = _numbers(PREVIOUS)
    assert previous < _numbers(VERSION)
    if minor > 0:
        assert previous[:2] in ((major, minor - 1), (major, minor)), PREVIOUS
    kept = ROOT / "tests" / "upgrade" / PREVIOUS
    assert (kept / "corpus.json.gz").is_file()
    assert (kept / f"domino_rules-{PREVIOUS}-py3-none-any.whl").is_file()


def test_the_openapi_document_breaks_nothing_of_the_previous_release() -> None:
    wheel = ROOT / "tests" / "upgrade" / PREVIOUS / f"domino_rules-{PREVIOUS}-py3-none-any.whl"
    old, version = openapi_diff.load(wheel)
    assert version == PREVIOUS
    new, _ = openapi_diff.load(openapi_diff.CURRENT)
    assert openapi_diff.breaking(old, new) == []
    assert openapi_diff.main(["--against", str(wheel)]) == 0


def _changed(document: dict[str, Any], change: str) -> dict[str, Any]:
    new: dict[str, Any] = json.loads(json.dumps(document))
    schemas = new["components"]["schemas"]
    if change == "property removed":
        del schemas["GetViewResponse"]["properties"]["hand"]
    elif change == "enum value removed":
        schemas["NewGameRequest"]["properties"]["ruleset"]["enum"].remove("tiu_u")
    elif change == "range narrowed":
        schemas["NewGameRequest"]["properties"]["players"]["maximum"] = 9
    elif change == "newly required":
        schemas["GetViewRequest"].setdefault("required", []).append("seat")
    elif change == "type changed":
        schemas["Tile"]["properties"]["high"]["type"] = "string"
    elif change == "schema removed":
        del schemas["TiuUTable"]
    elif change == "operation removed":
        del new["paths"]["/v1/games:score"]
    return new


@pytest.mark.parametrize(
    "change",
    [
        "property removed",
        "enum value removed",
        "range narrowed",
        "newly required",
        "type changed",
        "schema removed",
        "operation removed",
    ],
)
def test_the_openapi_diff_sees_a_breaking_change(change: str) -> None:
    old, _ = openapi_diff.load(openapi_diff.CURRENT)
    assert openapi_diff.breaking(old, _changed(old, change)) != []


def test_the_openapi_diff_lets_additions_pass() -> None:
    old, _ = openapi_diff.load(openapi_diff.CURRENT)
    new: dict[str, Any] = json.loads(json.dumps(old))
    schemas = new["components"]["schemas"]
    schemas["GetViewResponse"]["properties"]["added"] = {"type": "string"}
    schemas["NewGameRequest"]["properties"]["ruleset"]["enum"].append("a_new_game")
    schemas["Added"] = {"type": "object"}
    new["paths"]["/v1/added"] = {"get": {"operationId": "Added", "responses": {}}}
    assert openapi_diff.breaking(old, new) == []


def _json(message: Any) -> Any:
    return json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )


def test_the_messages_schema_of_the_contract_bundle_takes_the_service_s_answers() -> None:
    openapi = json.loads((dist.OPENAPI / "openapi.json").read_text())
    schema = dist.messages_schema(openapi, VERSION)
    service = RulesService()
    game = service.NewGame(pb.NewGameRequest(ruleset="tiu_u", players=3, seed="schema"))
    legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=game.state))
    answers = {
        "NewGameResponse": game,
        "GetLegalMovesResponse": legal,
        "ApplyMoveResponse": service.ApplyMove(
            pb.ApplyMoveRequest(state=game.state, move=legal.moves[0])
        ),
        "GetViewResponse": service.GetView(pb.GetViewRequest(state=game.state, seat=0)),
        "GetScoreResponse": service.GetScore(pb.GetScoreRequest(state=game.state)),
    }
    for name, answer in answers.items():
        validator = jsonschema_rs.validator_for({**schema, "$ref": f"#/$defs/{name}"})
        validator.validate(_json(answer))
        wrong = {**_json(answer), "version": "not a number"}
        assert not validator.is_valid(wrong), name
