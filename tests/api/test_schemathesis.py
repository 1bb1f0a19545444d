"""The REST door against its own OpenAPI document, with schemathesis.

A real gateway (werkzeug on 127.0.0.1, port 0, in a thread) serves ``/openapi.json``;
schemathesis loads the document from there and

- calls every operation with requests generated from its schema (examples, then
  generated bodies);
- follows the document's ``links`` from ``NewGame`` through ``GetLegalMoves``,
  ``ApplyMove``, ``GetView`` and ``GetScore``, playing real games (the generated
  ``NewGame`` bodies of these runs get a player count every ruleset seats, so that most
  chains have a game to play);

and checks every answer: no 5xx, a documented status code, the documented content type,
and a body that fits the documented schema (errors included: the reason must be one the
operation lists). Examples are bounded and derandomized, so each run makes the same
requests.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

import hypothesis
import pytest
import schemathesis
from hypothesis import HealthCheck
from hypothesis import strategies as st
from schemathesis import GenerationMode, HookContext
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from werkzeug.serving import make_server

from domino_rules import docs
from domino_rules.api import RulesService
from domino_rules.rest import create_app

HOST = "127.0.0.1"
#: Generated requests per operation.
MAX_EXAMPLES = 40
#: Stateful runs, and calls in each.
STATEFUL_RUNS = 30
STATEFUL_STEPS = 25
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
#: Every RPC, by operationId, and the probes.
OPERATIONS = {"ListRulesets", "NewGame", "GetLegalMoves", "ApplyMove", "GetScore", "GetView"}
PROBES = ["Healthz", "Readyz"]
#: The operations with a request body (the others take no input at all, so have no
#: negative requests).
WITH_BODY = OPERATIONS - {"ListRulesets"}

pytestmark = pytest.mark.slow

#: Answers seen, per operation and status (the counts the module's last test checks).
SEEN: Counter[tuple[str, int]] = Counter()
STATEFUL: Counter[tuple[str, int]] = Counter()


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    app = create_app(service=RulesService())
    if "openapi" not in app.view_functions:
        docs.register(app)
    server = make_server(HOST, 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="schemathesis-gateway")
    thread.start()
    try:
        yield f"http://{HOST}:{server.port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _load(base_url: str) -> Any:
    """The document as the gateway serves it, calling that gateway."""
    schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json")
    schema.config.update(base_url=base_url)
    schema.config.generation.update(max_examples=MAX_EXAMPLES, deterministic=True)
    return schema


@pytest.fixture(scope="module")
def api(base_url: str) -> Any:
    return _load(base_url)


def _playable(context: HookContext, body: Any) -> Any:
    """A generated ``NewGame`` body with a player count every ruleset seats (2 or 3) and
    no options of another ruleset, so that most chains start with a game to play."""
    if context.operation is None or not isinstance(body, dict):
        return body
    if context.operation.definition.raw.get("operationId") != "NewGame":
        return body
    players = body.get("players")
    body = {**body, "players": 2 + (int(players) % 2 if isinstance(players, int | float) else 0)}
    if not isinstance(body.get("options"), dict) or body.get("ruleset") not in body["options"]:
        body.pop("options", None)
    return body


@pytest.fixture(scope="module")
def chain_api(base_url: str) -> Any:
    """The document for the stateful runs: positive requests, and games that start."""
    schema = _load(base_url)
    schema.config.generation.update(modes=[GenerationMode.POSITIVE])
    schema.hooks.register_hook_with_name(_playable, "map_body")
    return schema


def _settings(max_examples: int, **extra: Any) -> hypothesis.settings:
    return hypothesis.settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
        **extra,
    )


def _operation_id(case: Any) -> str:
    return str(case.operation.definition.raw["operationId"])


def _call(case: Any) -> None:
    response = case.call_and_validate(checks=CHECKS)
    SEEN[_operation_id(case), response.status_code] += 1


@pytest.mark.parametrize(
    ("operation_id", "mode"),
    [(name, GenerationMode.POSITIVE) for name in [*sorted(OPERATIONS), *PROBES]]
    + [(name, GenerationMode.NEGATIVE) for name in sorted(WITH_BODY)],
)
def test_every_operation(api: Any, operation_id: str, mode: GenerationMode) -> None:
    """The operation's examples, then bodies generated from its schema (``POSITIVE``)
    or from its negation (``NEGATIVE``)."""
    operation = api.find_operation_by_id(operation_id)
    strategy = operation.as_strategy(generation_mode=mode)
    if mode is GenerationMode.POSITIVE:
        strategy = st.one_of(*operation.get_strategies_from_examples(), strategy)

    @_settings(MAX_EXAMPLES)
    @hypothesis.given(strategy)
    def run(case: Any) -> None:
        _call(case)

    run()


def test_the_chain_of_a_game(chain_api: Any) -> None:
    """NewGame -> GetLegalMoves -> ApplyMove -> GetView -> GetScore, through the links."""
    base = chain_api.as_state_machine()

    class Game(base):  # type: ignore[misc, valid-type]
        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            operation = _operation_id(case)
            STATEFUL[operation, response.status_code] += 1
            SEEN[operation, response.status_code] += 1
            case.validate_response(response, checks=CHECKS)

    Game.run(settings=_settings(STATEFUL_RUNS, stateful_step_count=STATEFUL_STEPS))
    assert STATEFUL["ApplyMove", 200] > 0, f"no move was applied: {dict(STATEFUL)}"


def test_every_operation_was_answered() -> None:
    """The runs above reached every operation, and the games got past NewGame."""
    print(f"\nanswers: {dict(sorted(SEEN.items()))}")
    print(f"of which stateful: {dict(sorted(STATEFUL.items()))}")
    answered = {operation for operation, status in SEEN if status == 200}
    assert answered >= OPERATIONS, f"never answered 200: {OPERATIONS - answered}"
