"""The OpenAPI document (service/domino_rules/web/openapi/openapi.json): fresh, valid, served,
and true to what the gateway answers.

- a fresh generation from proto/ (``proto/openapi.py``) gives the committed bytes;
- the document is valid OpenAPI 3.1; every RPC is an operation named after it, on the
  route the gateway serves;
- every message and enum of the generated code has its schema, field for field;
- the error reasons agree with README's table and with every reason the code raises;
- whole matches of every ruleset, played in process, answer only bodies that fit the
  schemas (views of every seat and of a spectator, legal moves, scores, errors);
- ``GET /openapi.json`` and ``GET /docs`` serve it, the page with nothing from elsewhere.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import itertools
import json
import pathlib
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import jsonschema_rs
import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from google.protobuf import descriptor as d

from domino_rules import games
from domino_rules.api import RulesService
from domino_rules.api import errors as api_errors
from domino_rules.doors import rest
from domino_rules.games.package import GamePackage
from domino_rules.rules import errors as rules_errors
from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.web import docs

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "service" / "domino_rules" / "web" / "openapi" / "openapi.json"
DOCUMENT: dict[str, Any] = json.loads(COMMITTED.read_text(encoding="utf-8"))
SCHEMAS: dict[str, Any] = DOCUMENT["components"]["schemas"]
SERVICE = pb.DESCRIPTOR.services_by_name["DominoRules"]


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("proto_openapi", ROOT / "proto" / "openapi.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


GENERATOR = _generator()


def _operations() -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in DOCUMENT["paths"].items():
        for verb, operation in item.items():
            yield path, verb, operation


OPERATIONS = {op["operationId"]: (path, verb, op) for path, verb, op in _operations()}


def _validator(schema: dict[str, Any]) -> jsonschema_rs.Draft202012Validator:
    """A validator of ``schema``, its ``$ref`` resolved in the document's components."""
    return jsonschema_rs.Draft202012Validator({**schema, "components": DOCUMENT["components"]})


def _response_schema(operation_id: str, status: int) -> dict[str, Any]:
    response = OPERATIONS[operation_id][2]["responses"][str(status)]
    schema: dict[str, Any] = response["content"]["application/json"]["schema"]
    return schema


def _fits(operation_id: str, status: int, body: Any) -> None:
    validator = _validator(_response_schema(operation_id, status))
    errors = [f"{e.instance_path}: {e.message}" for e in validator.iter_errors(body)]
    assert not errors, f"{operation_id} {status} does not fit the document: {errors[:5]}"


# ------------------------------------------------------------------------ the document


def test_committed_document_is_not_stale(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "openapi.json"
    subprocess.run(
        [sys.executable, str(ROOT / "proto" / "openapi.py"), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    assert out.read_bytes() == COMMITTED.read_bytes(), (
        "the OpenAPI document is stale: run `python proto/openapi.py`"
    )


def test_document_is_valid_openapi_3_1() -> None:
    assert DOCUMENT["openapi"].startswith("3.1.")
    schemathesis.openapi.from_dict(DOCUMENT).validate()
    for name, schema in SCHEMAS.items():  # each a valid JSON Schema 2020-12
        jsonschema_rs.meta.validate(schema)
        assert _validator({"$ref": f"#/components/schemas/{name}"}) is not None


def test_every_rpc_is_an_operation_on_its_route() -> None:
    routes = {name: (verb.lower(), path) for name, verb, path, _ in rest.routes()}
    assert set(routes) == {m.name for m in SERVICE.methods}
    for name, (verb, path) in routes.items():
        assert name in OPERATIONS, f"{name} is not documented"
        assert OPERATIONS[name][:2] == (path, verb), f"{name} is documented on another route"
        operation = OPERATIONS[name][2]
        method = SERVICE.methods_by_name[name]
        ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
        assert ok == {"$ref": f"#/components/schemas/{method.output_type.name}"}
        if verb == "post":
            body = operation["requestBody"]["content"]["application/json"]["schema"]
            assert body == {"$ref": f"#/components/schemas/{method.input_type.name}"}


def _messages(container: Any) -> Iterator[d.Descriptor]:
    for message in container.message_types_by_name.values():
        yield message
        yield from _nested(message)


def _nested(message: d.Descriptor) -> Iterator[d.Descriptor]:
    for nested in message.nested_types:
        if not nested.GetOptions().map_entry:
            yield nested
            yield from _nested(nested)


def _referenced(schemas: list[Any]) -> set[str]:
    """The component schemas that ``schemas`` reach through ``$ref``."""
    found: set[str] = set()
    todo = list(schemas)
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.rsplit("/", 1)[1] not in found:
                found.add(ref.rsplit("/", 1)[1])
                todo.append(SCHEMAS[ref.rsplit("/", 1)[1]])
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return found


def _name(descriptor: d.Descriptor | d.EnumDescriptor) -> str:
    return descriptor.full_name.removeprefix(pb.DESCRIPTOR.package + ".")


def test_every_message_and_enum_has_its_schema() -> None:
    """Field for field, against the generated code: names as the proto writes them, and in
    answers the fields without presence (which the gateway always prints) required."""
    answers = _referenced([_response_schema(m.name, 200) for m in SERVICE.methods])
    for message in _messages(pb.DESCRIPTOR):
        names = [n for n in (_name(message), _name(message) + "Input") if n in SCHEMAS]
        assert names, f"{_name(message)} has no schema"
        for name in names:
            schema = SCHEMAS[name]
            assert list(schema["properties"]) == [f.name for f in message.fields], name
            assert schema["additionalProperties"] is False
            if name not in answers:
                continue  # requests: what the service requires (checked by the servers)
            printed = [f.name for f in message.fields if not f.has_presence]
            assert schema.get("required", []) == printed, name
    enums = [*pb.DESCRIPTOR.enum_types_by_name.values()]
    enums += [e for m in _messages(pb.DESCRIPTOR) for e in m.enum_types]
    for enum in enums:
        never = GENERATOR.NEVER_SENT.get(_name(enum), ())
        assert SCHEMAS[_name(enum)]["enum"] == [v.name for v in enum.values if v.name not in never]


def test_options_take_at_most_one_ruleset_and_requests_name_known_rulesets() -> None:
    # the form a request takes (an answer, ListRulesets' profiles, prints every field)
    name = "OptionsInput" if "OptionsInput" in SCHEMAS else "Options"
    options = SCHEMAS[name]
    ids = list(options["properties"])
    valid = _validator({"$ref": f"#/components/schemas/{name}"}).is_valid
    assert valid({}) and valid({"tiu_u": {}}) and valid({"tiu_u": {}, "one_arm_joe": None})
    assert not valid({"tiu_u": {}, "one_arm_joe": {}})
    assert set(ids) == {r.id for r in _rulesets()}
    assert SCHEMAS["NewGameRequest"]["properties"]["ruleset"]["enum"] == ids


def _rulesets() -> list[Any]:
    from domino_rules import rules

    return list(rules.all_rulesets())


# ------------------------------------------------------------------------------ errors


def _readme_reasons() -> dict[str, tuple[str, int]]:
    """README's error table: reason -> (gRPC code, HTTP status)."""
    rows = re.findall(
        r"^\| `([A-Z_]+)` \| `([A-Z_]+)` \| (\d{3})", (ROOT / "README.md").read_text(), re.M
    )
    return {reason: (code, int(status)) for reason, code, status in rows}


def test_error_reasons_agree_with_readme() -> None:
    readme = _readme_reasons()
    assert readme, "README has no error table"
    documented = {r.name: (r.code, r.http) for r in GENERATOR.REASONS}
    for reason, (code, status) in readme.items():
        assert documented.get(reason) == (code, status), f"{reason}: README says {code} {status}"
    assert SCHEMAS["ErrorReason"]["enum"] == list(documented)


def _raised_reasons() -> set[str]:
    """Every reason the REST door's code may answer, read from its sources."""
    found: set[str] = set()
    sources = ["api/errors.py", "api/service.py", "rest.py", "gateway.py", "tokens.py", "codec.py"]
    for source in sources:
        path = ROOT / "service" / "domino_rules" / source
        if not path.exists():
            continue
        text = path.read_text()
        found |= set(re.findall(r"code_pb2\.[A-Z_]+,\s*\"([A-Z_]+)\"", text))
        found |= set(re.findall(r"\.invalid\(\s*\"([A-Z_]+)\"", text))
    return found


def test_every_reason_raised_is_documented() -> None:
    documented = {r.name for r in GENERATOR.REASONS}
    # from_rules_error's fallback, for a RulesError subclass without a row of its own:
    # every subclass has one (checked here), so it is never answered.
    fallback = "INVALID_ARGUMENT"
    mapped = {cls for cls, _, _ in api_errors._RULES_ERRORS}
    leaves = [
        c
        for c in vars(rules_errors).values()
        if isinstance(c, type) and issubclass(c, rules_errors.RulesError) and not c.__subclasses__()
    ]
    assert all(any(issubclass(c, m) for m in mapped) for c in leaves)
    assert _raised_reasons() - {fallback} <= documented


def test_every_operation_lists_its_reasons() -> None:
    for name, reasons in GENERATOR.RPC_REASONS.items():
        listed = set()
        for status, response in OPERATIONS[name][2]["responses"].items():
            if status == "200":
                continue
            schema = response["content"]["application/json"]["schema"]
            enum = schema["allOf"][1]["properties"]["details"]["items"]["properties"]["reason"]
            listed |= set(enum["enum"])
            for reason in enum["enum"]:
                assert GENERATOR.REASON[reason].http == int(status)
        assert listed == set(reasons), name


def test_links_name_operations_and_fields_that_exist() -> None:
    for path, verb, operation in _operations():
        for link in operation["responses"].get("200", {}).get("links", {}).values():
            target = OPERATIONS[link["operationId"]][2]
            request = target["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            for fields, expression in _link_fields(link["requestBody"], _schema_of(request)):
                field = expression[0]
                assert field in fields, f"{path} {verb}: {field} is not a request field"
                source, _, pointer = expression[1].partition("#/")
                top = pointer.split("/")[0]
                if source == "$response.body":
                    schema = _response_schema(operation["operationId"], 200)["$ref"]
                else:
                    schema = operation["requestBody"]["content"]["application/json"]["schema"][
                        "$ref"
                    ]
                assert top in SCHEMAS[schema.rsplit("/", 1)[1]]["properties"], expression


def _schema_of(ref: str) -> dict[str, Any]:
    return SCHEMAS[ref.rsplit("/", 1)[1]]  # type: ignore[no-any-return]


def _link_fields(
    body: dict[str, Any], schema: dict[str, Any]
) -> list[tuple[dict[str, Any], tuple[str, str]]]:
    """``(the properties of the object, (field, runtime expression))`` for every expression
    of a link's request body, nested objects walked through their schemas."""
    found = []
    fields = schema["properties"]
    for field, value in body.items():
        if isinstance(value, dict):
            assert field in fields, f"{field} is not a request field"
            refs = [s["$ref"] for s in fields[field].get("anyOf", [fields[field]]) if "$ref" in s]
            found += _link_fields(value, _schema_of(refs[0]))
        else:
            found.append((fields, (field, value)))
    return found


# ----------------------------------------------------------------- the gateway's answers


@pytest.fixture(scope="module")
def app() -> Flask:
    app = rest.create_app(service=RulesService())
    if "openapi" not in app.view_functions:
        docs.register(app)
    return app


@pytest.fixture(scope="module")
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def _call(client: FlaskClient, operation_id: str, body: dict[str, Any] | None = None) -> Any:
    path, verb, _ = OPERATIONS[operation_id]
    response = client.open(path, method=verb.upper(), json=body)
    assert response.content_type == "application/json"
    _fits(operation_id, response.status_code, response.get_json())
    return response.get_json()


@pytest.mark.parametrize("game", games.all_games(), ids=lambda game: game.id)
def test_a_whole_match_fits_the_document(client: FlaskClient, game: GamePackage) -> None:
    """Every game's shortest match (a single hand where the game allows it), 3 players."""
    assert _call(client, "ListRulesets")["rulesets"]
    ruleset, shortest = game.id, dict(game.shortest)
    options = {"options": {ruleset: shortest}} if shortest else {}
    new = _call(client, "NewGame", {"ruleset": ruleset, "players": 3, "seed": "openapi", **options})
    state, players = new["state"], 3
    for number in itertools.count():
        assert number < 2000, "the match did not end"
        legal = _call(client, "GetLegalMoves", {"state": state})
        if number % 5 == 0 or legal["status"] != "IN_PROGRESS":
            for seat in [*range(players), None]:
                _call(
                    client,
                    "GetView",
                    {"state": state} if seat is None else {"state": state, "seat": seat},
                )
            _call(client, "GetScore", {"state": state})
        if legal["status"] == "MATCH_OVER":
            break
        move = legal["moves"][number % len(legal["moves"])]
        state = _call(client, "ApplyMove", {"state": state, "move": move})["state"]
    over = _call(client, "ApplyMove", {"state": state, "move": {"seat": 0, "kind": "NEXT_HAND"}})
    assert over["details"][0]["reason"] == "GAME_OVER"


def test_errors_fit_the_document(client: FlaskClient) -> None:
    game = _call(client, "NewGame", {"ruleset": "tiu_u", "players": 2, "seed": "errors"})
    state, to_act = game["state"], game["to_act"]
    cases: list[tuple[str, dict[str, Any], int, str]] = [
        ("NewGame", {"ruleset": "chess", "players": 2}, 400, "UNKNOWN_RULESET"),
        ("NewGame", {"ruleset": "tiu_u", "players": 9}, 400, "BAD_PLAYER_COUNT"),
        ("NewGame", {"ruleset": "tiu_u", "players": 2, "seed": ""}, 400, "BAD_SEED"),
        (
            "NewGame",
            {"ruleset": "tiu_u", "players": 2, "options": {"throw_up": {}}},
            400,
            "BAD_OPTIONS",
        ),
        ("NewGame", {"ruleset": "tiu_u", "nope": 1}, 400, "MALFORMED_REQUEST"),
        ("GetScore", {"state": "AAAA"}, 400, "BAD_STATE_TOKEN"),
        ("GetView", {"state": state, "seat": 7}, 400, "BAD_SEAT"),
        ("GetLegalMoves", {"state": state, "seat": -1}, 400, "BAD_SEAT"),
        (
            "ApplyMove",
            {"state": state, "move": {"seat": 1 - to_act, "kind": "PASS"}},
            400,
            "NOT_YOUR_TURN",
        ),
        (
            "ApplyMove",
            {
                "state": state,
                "move": {"seat": to_act, "kind": "PILE", "tile": {"high": 0, "low": 0}},
            },
            400,
            "ILLEGAL_MOVE",
        ),
        (
            "ApplyMove",
            {"state": state, "move": {"seat": to_act, "kind": "PASS"}, "expected_version": 5},
            409,
            "STALE_STATE",
        ),
    ]
    for operation_id, body, status, reason in cases:
        path, verb, _ = OPERATIONS[operation_id]
        response = client.open(path, method=verb.upper(), json=body)
        assert (response.status_code, response.get_json()["details"][0]["reason"]) == (
            status,
            reason,
        ), (operation_id, body, response.get_json())
        _fits(operation_id, status, response.get_json())
    big = client.post("/v1/games", data=b"{" + b" " * rest.MAX_REQUEST_BYTES + b"}")
    assert big.status_code == 413
    _fits("NewGame", 413, big.get_json())


def test_requests_may_use_json_names(client: FlaskClient) -> None:
    game = _call(client, "NewGame", {"ruleset": "throw_up", "players": 2, "seed": "camel"})
    legal = _call(client, "GetLegalMoves", {"state": game["state"]})
    answer = _call(
        client,
        "ApplyMove",
        {"state": game["state"], "move": legal["moves"][0], "expectedVersion": 0},
    )
    assert answer["version"] == 1 and "game_id" in answer


# ------------------------------------------------------------------------------ served


def test_openapi_json_is_served(client: FlaskClient) -> None:
    response = client.get("/openapi.json")
    assert response.status_code == 200 and response.content_type == "application/json"
    assert response.get_data() == COMMITTED.read_bytes()


def test_docs_are_served_and_self_contained(client: FlaskClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    embedded = re.search(
        r'<script type="application/json" id="openapi-document">(.*?)</script>', page, re.S
    )
    assert embedded is not None and json.loads(embedded.group(1)) == DOCUMENT
    # nothing loaded from elsewhere: no external script, style, image or font, no CDN
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert not re.search(r"@import|url\(\s*['\"]?(https?:)?//", page)
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]


def test_docs_fit_a_phone(client: FlaskClient) -> None:
    """``/docs`` is the page (``/docs/`` redirects to it); it sets a viewport, lays itself
    out again for a narrow screen, and sets no width a 390 px phone lacks (``max-width``
    aside)."""
    page = client.get("/docs").get_data(as_text=True)
    assert client.get("/docs/", follow_redirects=True).get_data(as_text=True) == page
    assert re.search(r'<meta name="viewport" content="width=device-width[^"]*">', page)
    style = re.search(r"<style>(.*?)</style>", page, re.S)
    assert style is not None and "@media (max-width:" in style.group(1)
    rules = re.sub(r"@media[^{]*\{", "", style.group(1))  # the conditions are no widths
    widths = re.findall(r"(?<![-\w])(?:min-)?width:\s*(\d+)px", rules)
    assert widths and all(int(w) <= 390 for w in widths), widths


def test_the_document_and_the_page_ship_in_the_package() -> None:
    """A regular install (the container's) has them: setuptools package data names them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["domino_rules"]
    for name in ("web/openapi/openapi.json", "web/openapi/docs.html"):
        assert (ROOT / "service" / "domino_rules" / name).is_file()
        assert any(fnmatch.fnmatch(name, p) for p in patterns), f"{name} is not package data"


@pytest.mark.parametrize(
    ("red_sixes", "status"),
    [("ALL_SIXES", 200), (2, 200), (2.0, 200), (None, 200), (2.5, 400), ("2", 400), (False, 400)],
)
def test_an_enum_is_a_name_or_a_number_as_the_document_says(
    client: FlaskClient, red_sixes: Any, status: int
) -> None:
    body = {"ruleset": "tiu_u", "players": 2, "options": {"tiu_u": {"red_sixes": red_sixes}}}
    schema = OPERATIONS["NewGame"][2]["requestBody"]["content"]["application/json"]["schema"]
    assert _validator(schema).is_valid(body) == (status == 200)
    response = client.post("/v1/games", json=body)
    assert response.status_code == status, response.get_json()
