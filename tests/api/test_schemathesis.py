"""The REST door against its own OpenAPI document, with schemathesis, as its CLI runs it.

``domino-rules serve`` runs as users start it (the gunicorn gateway and the gRPC door,
in their own processes, on port 0); schemathesis loads ``/openapi.json`` from it and
runs its engine as ``schemathesis run --checks all`` does: every phase (the examples,
the coverage phase's boundary and invalid values, fuzzing with schema-valid and
schema-violating requests, and stateful chains through the document's ``links``, from
``NewGame`` through ``SuggestMove``, ``ApplyMove``, ``GetView`` and ``GetScore``) and
every check it has: no 5xx, documented statuses, content types, headers and bodies,
schema-violating requests refused, schema-valid requests accepted, methods not served
refused with a right ``Allow``, and the rest. A single failure fails the test, with
schemathesis's own description of each.

What no JSON Schema can say is in the document, and only that is allowed: an operation
lists in ``x-refused-beyond-the-schema`` the reasons with which it may refuse a request
that fits the schema (a token it did not make, a seat past the game's table, an illegal
move); a schema-valid request refused with any other reason fails, as it would without
the list. A 504 is the caller's own ``x-request-timeout`` passing, so ``SuggestMove``
may answer it, with ``DEADLINE_EXCEEDED``, when the request set one.

Each run is seeded, and prints what it sent per operation and phase (``-s``). The
default run is bounded; the ``slow`` one makes at least 100 requests per operation.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from schemathesis.config import HealthCheck, SchemathesisConfig
from schemathesis.engine import events, from_schema
from schemathesis.engine.recorder import ScenarioRecorder

from ..served import serving

#: Every operation of the document: the RPCs and the probes.
RPCS = {
    "ListRulesets",
    "NewGame",
    "GetLegalMoves",
    "ApplyMove",
    "GetScore",
    "GetView",
    "SuggestMove",
}
OPERATIONS = RPCS | {"Healthz", "Readyz"}
SEED = 20261125
#: schemathesis's default statuses, and those this API answers for what no schema says.
POSITIVE_STATUSES = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]
SERVER_ERROR_STATUSES = ["2xx", "3xx", "4xx", "504"]


@schemathesis.check
def refused_only_beyond_the_schema(ctx: Any, response: Any, case: Any) -> bool | None:
    """A schema-valid request refused with 400 carries a reason its operation lists in
    ``x-refused-beyond-the-schema``, and never a body that did not parse; a 504 is
    ``SuggestMove``'s answer to the caller's own deadline."""
    meta = case.meta
    status = response.status_code
    if status not in (400, 504) or meta is None:
        return None
    operation = case.operation.definition.raw
    try:
        body = json.loads(response.content)
        reason = body["details"][0]["reason"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise AssertionError(f"{status} without the service's error body") from None
    if status == 504:
        headers = {k.lower() for k in (case.headers or {})}
        if reason != "DEADLINE_EXCEEDED" or "x-request-timeout" not in headers:
            raise AssertionError(f"504 {reason} to a request with no deadline of its own")
        return None
    if not meta.generation.mode.is_positive:
        return None
    allowed = operation.get("x-refused-beyond-the-schema", [])
    if reason not in allowed:
        raise AssertionError(
            f"a schema-valid request was refused with {reason} ({body.get('message')!r}); "
            f"beyond the schema, {operation.get('operationId')} refuses only {allowed}"
        )
    if reason == "MALFORMED_REQUEST" and str(body.get("message", "")).startswith("the body"):
        raise AssertionError(f"a schema-valid body does not parse: {body.get('message')!r}")
    return None


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """``domino-rules serve`` on port 0, as users run it."""
    with serving() as served:
        yield served.base


def _schema(base_url: str, max_examples: int) -> Any:
    """The document as the gateway serves it, configured as ``schemathesis run --checks
    all --seed SEED --max-examples N`` would be, with this API's allowed statuses."""
    # the seed's pattern (no C* character) is long: generating from it is slow, not wrong
    config = SchemathesisConfig(seed=SEED, suppress_health_check=[HealthCheck.too_slow])
    schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json", config=config)
    project = schema.config
    project.update(base_url=base_url)
    project.phases.update(phases=["examples", "coverage", "fuzzing", "stateful"])
    project.checks.update(included_check_names=["all"])
    project.checks.positive_data_acceptance.expected_statuses = POSITIVE_STATUSES
    project.checks.not_a_server_error.expected_statuses = SERVER_ERROR_STATUSES
    project.generation.update(max_examples=max_examples, database="none")
    return schema


def _run(base_url: str, max_examples: int) -> dict[str, Counter[str]]:
    """Run the engine; every failure fails the test. Returns the requests sent, per
    operation and phase."""
    schema = _schema(base_url, max_examples)
    sent: dict[str, Counter[str]] = {}
    failures: list[str] = []
    errors: list[str] = []
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            _count(event.recorder, event.phase.value if event.phase else "?", sent, failures)
        elif isinstance(event, events.NonFatalError):
            errors.append(f"{event.label}: {event.info.format()}")
        elif isinstance(event, events.FatalError):
            errors.append(f"fatal: {event.exception!r}")
    _report(sent)
    assert not errors, "schemathesis could not run:\n" + "\n".join(errors[:10])
    assert not failures, f"{len(failures)} failures:\n" + "\n\n".join(failures[:15])
    return sent


def _count(
    recorder: ScenarioRecorder,
    phase: str,
    sent: dict[str, Counter[str]],
    failures: list[str],
) -> None:
    for case_id, node in recorder.cases.items():
        case = node.value
        operation = str(case.operation.definition.raw.get("operationId", case.operation.label))
        sent.setdefault(operation, Counter())[phase] += 1
        for check in recorder.checks.get(case_id, []):
            if check.failure_info is not None:
                failure = check.failure_info.failure
                interaction = recorder.interactions.get(case_id)
                response = interaction.response if interaction else None
                answer = response.content[:400].decode("utf-8", "replace") if response else "-"
                failures.append(
                    f"[{phase}] {case.operation.label}: {failure.title}\n  {failure.message}\n"
                    f"  body: {json.dumps(case.body, default=str)[:400]}\n"
                    f"  headers: {case.headers}\n"
                    f"  answer: {response.status_code if response else '-'} {answer}"
                )


def _report(sent: dict[str, Counter[str]]) -> None:
    phases = ["examples", "coverage", "fuzzing", "stateful"]
    print(f"\nschemathesis requests per operation ({' / '.join(phases)} = total):")
    for operation in sorted(sent):
        counts = sent[operation]
        row = " / ".join(str(counts[p]) for p in phases)
        print(f"  {operation:14} {row} = {sum(counts.values())}")
    total = sum(sum(c.values()) for c in sent.values())
    print(f"  {'all':14} {total}")


def _check_reach(sent: dict[str, Counter[str]], at_least: int) -> None:
    missing = OPERATIONS - set(sent)
    assert not missing, f"never called: {missing}"
    for operation in RPCS:
        total = sum(sent[operation].values())
        assert total >= at_least, f"{operation}: {total} requests, fewer than {at_least}"
        assert sent[operation]["stateful"] > 0 or operation == "ListRulesets", operation


def test_every_check_on_every_operation(base_url: str) -> None:
    """Bounded: a few dozen requests per operation, in every phase."""
    _check_reach(_run(base_url, max_examples=15), at_least=15)


@pytest.mark.slow
def test_every_check_on_every_operation_at_length(base_url: str) -> None:
    """At least 100 requests per operation."""
    _check_reach(_run(base_url, max_examples=100), at_least=100)
