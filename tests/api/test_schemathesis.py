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
move, a stale ``expected_version``, busy bots); a schema-valid request refused with any
other reason, or with any other status, fails, as it would without the list. A 504 is
the caller's own ``x-request-timeout`` passing, so ``SuggestMove`` may answer it, with
``DEADLINE_EXCEEDED``, when the request set one.

Each run is seeded, and prints what it sent per operation and phase, and how often each
check ran (``-s``); a check that never ran fails the test. The default run makes
``DEFAULT_EXAMPLES`` per operation and phase; the ``slow`` one ``SLOW_EXAMPLES``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from schemathesis.checks import CHECKS
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import events, from_schema
from schemathesis.engine.recorder import ScenarioRecorder

from ..served import Served, serving

#: Every operation of the document: the RPCs and the probes.
RPCS = {
    "ListRulesets",
    "NewGame",
    "GetLegalMoves",
    "ApplyMove",
    "GetScore",
    "GetView",
    "SuggestMove",
    "Replay",
}
OPERATIONS = RPCS | {"Healthz", "Readyz"}
#: Operations that take no input at all: a handful of requests is all there is to send.
NO_INPUTS = {"ListRulesets", "Healthz"}
SEED = 20261125
#: Examples per operation and phase (schemathesis's ``--max-examples``).
DEFAULT_EXAMPLES = 40
SLOW_EXAMPLES = 200
#: schemathesis's default statuses for a schema-valid request, and 400: which 400s (and
#: which of the others) a schema-valid request may get is narrowed, per operation, by
#: ``refused_only_beyond_the_schema``.
POSITIVE_STATUSES = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]
#: schemathesis's default, and the 504 that SuggestMove answers when the request's own
#: deadline passes (checked by ``refused_only_beyond_the_schema``).
SERVER_ERROR_STATUSES = ["2xx", "3xx", "4xx", "504"]
#: schemathesis's default statuses for a schema-violating request, and the 413 that a body
#: over the size limit gets (a string past its ``maxLength`` can make one).
NEGATIVE_STATUSES = [
    "400",
    "401",
    "403",
    "404",
    "406",
    "409",
    "413",
    "415",
    "422",
    "428",
    "429",
    "5xx",
]


@schemathesis.check
def refused_only_beyond_the_schema(ctx: Any, response: Any, case: Any) -> bool | None:
    """A schema-valid request that is refused (any 4xx, or a 504) carries a reason that its
    operation lists in ``x-refused-beyond-the-schema``, and never for a body that did not
    parse; a 504 (from any request) is ``SuggestMove``'s answer to the request's own
    ``x-request-timeout``."""
    meta = case.meta
    status = response.status_code
    if meta is None or not (400 <= status < 500 or status == 504):
        return None
    positive = meta.generation.mode.is_positive
    if status != 504 and not positive:
        return None  # schema-violating: refused, as negative_data_rejection wants
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
    allowed = operation.get("x-refused-beyond-the-schema", [])
    if reason not in allowed:
        raise AssertionError(
            f"a schema-valid request was refused {status} {reason} ({body.get('message')!r}); "
            f"beyond the schema, {operation.get('operationId')} refuses only with {allowed}"
        )
    if reason == "MALFORMED_REQUEST" and str(body.get("message", "")).startswith("the body"):
        raise AssertionError(f"a schema-valid body does not parse: {body.get('message')!r}")
    return None


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    """``domino-rules serve`` on port 0, as users run it."""
    with serving() as served:
        yield served


def _schema(base_url: str, max_examples: int) -> Any:
    """The document as the gateway serves it, configured as ``schemathesis run --checks
    all --seed SEED --max-examples N`` would be, with this API's allowed statuses."""
    config = SchemathesisConfig(seed=SEED)
    schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json", config=config)
    project = schema.config
    project.update(base_url=base_url)
    project.phases.update(phases=["examples", "coverage", "fuzzing", "stateful"])
    project.checks.update(included_check_names=["all"])
    project.checks.positive_data_acceptance.expected_statuses = POSITIVE_STATUSES
    project.checks.not_a_server_error.expected_statuses = SERVER_ERROR_STATUSES
    project.checks.negative_data_rejection.expected_statuses = NEGATIVE_STATUSES
    project.generation.update(max_examples=max_examples, database="none")
    return schema


def _run(served: Served, max_examples: int) -> dict[str, Counter[str]]:
    """Run the engine; every failure fails the test, with what serve logged of errors.
    Returns the requests sent, per operation and phase."""
    schema = _schema(served.base, max_examples)
    sent: dict[str, Counter[str]] = {}
    checked: Counter[str] = Counter()
    failures: list[str] = []
    errors: list[str] = []
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            phase = event.phase.value if event.phase else "?"
            _count(event.recorder, phase, sent, checked, failures)
        elif isinstance(event, events.NonFatalError):
            errors.append(f"{event.label}: {event.info.format()}")
        elif isinstance(event, events.FatalError):
            errors.append(f"fatal: {event.exception!r}")
    _report(sent, checked)
    assert not errors, "schemathesis could not run:\n" + "\n".join(errors[:10])
    if failures:
        logged = [line for line in served.stderr().splitlines() if "status=OK" not in line]
        raise AssertionError(
            f"{len(failures)} failures:\n"
            + "\n\n".join(failures[:15])
            + "\n\nserve's log, but for the calls answered:\n"
            + "\n".join(logged[-60:])
        )
    unchecked = set(CHECKS.get_all_names()) - set(checked)
    assert not unchecked, f"checks never run: {unchecked}"
    return sent


def _count(
    recorder: ScenarioRecorder,
    phase: str,
    sent: dict[str, Counter[str]],
    checked: Counter[str],
    failures: list[str],
) -> None:
    for case_id, node in recorder.cases.items():
        case = node.value
        operation = str(case.operation.definition.raw.get("operationId", case.operation.label))
        sent.setdefault(operation, Counter())[phase] += 1
        for check in recorder.checks.get(case_id, []):
            checked[check.name] += 1
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


def _report(sent: dict[str, Counter[str]], checked: Counter[str]) -> None:
    phases = ["examples", "coverage", "fuzzing", "stateful"]
    print(f"\nschemathesis requests per operation ({' / '.join(phases)} = total):")
    for operation in sorted(sent):
        counts = sent[operation]
        row = " / ".join(str(counts[p]) for p in phases)
        print(f"  {operation:14} {row} = {sum(counts.values())}")
    total = sum(sum(c.values()) for c in sent.values())
    print(f"  {'all':14} {total}")
    print("checks run: " + ", ".join(f"{name} {count}" for name, count in sorted(checked.items())))


def _check_reach(sent: dict[str, Counter[str]], at_least: int) -> None:
    """Every operation was called in every phase it has; every operation with inputs at
    least ``at_least`` times (one without, ``ListRulesets`` and the probes, has only a few
    requests to make: each method on its path)."""
    missing = OPERATIONS - set(sent)
    assert not missing, f"never called: {missing}"
    for operation in OPERATIONS:
        counts = sent[operation]
        assert counts["coverage"] > 0 and counts["fuzzing"] > 0, (operation, counts)
        if operation in RPCS - NO_INPUTS:
            total = sum(counts.values())
            assert total >= at_least, f"{operation}: {total} requests, fewer than {at_least}"
            assert counts["stateful"] > 0, f"{operation}: never in a stateful chain"


#: Hypothesis warns when the text of a generated case is large (a request that carries a
#: whole game's options and a long state token is): a note about its own reports, not a
#: finding about the service.
LARGE_REPR = "ignore:Generating overly large repr"


@pytest.mark.filterwarnings(LARGE_REPR)
def test_every_check_on_every_operation(served: Served) -> None:
    """Bounded: a few dozen requests per operation, in every phase."""
    _check_reach(_run(served, max_examples=DEFAULT_EXAMPLES), at_least=DEFAULT_EXAMPLES)


@pytest.mark.slow
@pytest.mark.filterwarnings(LARGE_REPR)
def test_every_check_on_every_operation_at_length(served: Served) -> None:
    """At length: at least SLOW_EXAMPLES requests per operation."""
    _check_reach(_run(served, max_examples=SLOW_EXAMPLES), at_least=SLOW_EXAMPLES)
