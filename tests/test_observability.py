"""What an operator sees of ``domino-rules serve``: metrics summed over every process,
one access line per request on both doors, request ids, health and readiness, and
tracing that costs nothing when off.

Most tests run a real ``serve`` on 127.0.0.1 (tests/served.py) and read what it
exposes: ``GET /metrics``, its stderr, gRPC metadata and health.
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import http.server
import importlib.util
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client import CollectorRegistry, Histogram
from prometheus_client.parser import text_string_to_metric_families

from domino_rules.api import ApiError, RulesService
from domino_rules.doors.rest import create_app
from domino_rules.observability import calls, logs, metrics
from domino_rules.serving.supervisor import MIN_LIFETIME
from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc

from .served import SERVE, Served, door_processes, outlived, serving
from .support.waiting import wait_until

#: Starts serve again and again and reads its processes and their metrics: alone on the machine.
pytestmark = [
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="reads /proc; serve's doors are Linux's"
    ),
    pytest.mark.serial,
]

ROOT = Path(__file__).resolve().parent.parent
SERVICE = "domino_rules.v1.DominoRules"
DASHBOARD = ROOT / "deploy" / "grafana" / "domino-rules.json"
#: How long a test waits for the metrics of its calls (each process writes once a second).
SETTLE = 10.0

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


# ------------------------------------------------------------------ helpers


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def _post(
    base: str, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], dict[str, Any]]:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), method="POST", headers=headers or {}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return (
                answer.status,
                {k.lower(): v for k, v in answer.headers.items()},
                json.load(answer),
            )
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, json.load(error)


def _scrape(url: str) -> tuple[Samples, set[str]]:
    """Every sample of ``/metrics`` (name and sorted labels -> value), and every family."""
    status, _, body = _get(url)
    assert status == 200, body
    samples: Samples = {}
    families = set()
    for family in text_string_to_metric_families(body.decode()):
        families.add(family.name)
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples, families


def _delta(after: Samples, before: Samples, name: str) -> Counter[tuple[tuple[str, str], ...]]:
    """How much each labelled sample of ``name`` grew (only those that did)."""
    out: Counter[tuple[tuple[str, str], ...]] = Counter()
    for (sample, labels), value in after.items():
        grown = value - before.get((sample, labels), 0.0)
        if sample == name and grown:
            out[labels] = int(grown) if grown == int(grown) else grown  # type: ignore[assignment]
    return out


def _labels(**labels: str) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(labels.items()))


def _until(check: Callable[[], bool], timeout: float = SETTLE, what: str = "") -> None:
    """:func:`wait_until`, at a pace fit for a check that may scrape ``/metrics``."""
    wait_until(check, timeout, what, every=0.05)


def _stub(port: int) -> tuple[grpc.Channel, Any]:
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    return channel, pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]


def _health(port: int, service: str = "") -> int:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        answer = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=service), timeout=10
        )
    return int(answer.status)


def _access_lines(served: Served) -> list[str]:
    return [line for line in served.stderr().splitlines() if "domino_rules.access" in line]


def _json_lines(served: Served) -> list[dict[str, Any]]:
    out = []
    for line in served.stderr().splitlines():
        if line.startswith("{"):
            out.append(json.loads(line))
    return out


# ------------------------------------------------------------------ metrics


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    """One serve for the module: two gRPC processes, two REST workers, text logs."""
    with serving("--grpc-workers", "2", "--http-workers", "2") as running:
        yield running


def _play_over_grpc(stub: Any, ruleset: str, players: int, seed: str) -> int:
    """A whole match over gRPC, first legal move each time; the calls it made."""
    game = stub.NewGame(pb.NewGameRequest(ruleset=ruleset, players=players, seed=seed), timeout=30)
    state, calls = game.state, 1
    while True:
        legal = stub.GetLegalMoves(pb.GetLegalMovesRequest(state=state), timeout=30)
        calls += 1
        if legal.status == pb.MATCH_OVER:
            return calls
        answer = stub.ApplyMove(pb.ApplyMoveRequest(state=state, move=legal.moves[0]), timeout=30)
        state, calls = answer.state, calls + 1


def test_known_traffic_through_both_doors_gives_exact_counts(served: Served) -> None:
    """Counters, histogram counts and games are summed over every process of both doors,
    exactly; probes and scrapes are not counted."""
    url = f"{served.base}/metrics"
    before, _ = _scrape(url)
    base = served.base
    # REST: 2 NewGame, 1 unknown ruleset, 1 GetLegalMoves, 1 bad token, 1 unknown path
    games = [
        _post(base, "/v1/games", {"ruleset": "one_arm_joe", "players": 3, "seed": f"m{i}"})[2]
        for i in range(2)
    ]
    assert _post(base, "/v1/games", {"ruleset": "chess", "players": 2})[0] == 400
    assert _post(base, "/v1/games:legalMoves", {"state": games[0]["state"]})[0] == 200
    assert _post(base, "/v1/games:applyMove", {"state": "AAAA"})[0] == 400
    assert _get(f"{base}/v1/nothing")[0] == 404
    with socket.create_connection(("127.0.0.1", served.http_port), timeout=30) as sock:
        sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")  # refused by the HTTP parser
        assert sock.recv(100).startswith(b"HTTP/1.1 400 ")
    for path in ("/healthz", "/readyz", "/metrics"):
        assert _get(base + path)[0] == 200
    # gRPC: a whole Tiu U match, a bad token, a move out of turn; health is not counted
    channel, stub = _stub(served.grpc_port)
    with channel:
        calls = _play_over_grpc(stub, "tiu_u", 2, "metrics")
        with pytest.raises(grpc.RpcError):
            stub.GetScore(pb.GetScoreRequest(state=b"garbage"), timeout=30)
        game = stub.NewGame(pb.NewGameRequest(ruleset="throw_up", players=2, seed="t"), timeout=30)
        move = stub.GetLegalMoves(pb.GetLegalMovesRequest(state=game.state), timeout=30).moves[0]
        wrong = pb.Move()
        wrong.CopyFrom(move)
        wrong.seat = 1 - move.seat
        with pytest.raises(grpc.RpcError) as caught:
            stub.ApplyMove(pb.ApplyMoveRequest(state=game.state, move=wrong), timeout=30)
        assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert _health(served.grpc_port) == health_pb2.HealthCheckResponse.SERVING

    applied = (calls - 1) // 2
    requests = Counter(
        {
            _labels(door="rest", rpc="NewGame", code="OK", reason=""): 2,
            _labels(
                door="rest", rpc="NewGame", code="INVALID_ARGUMENT", reason="UNKNOWN_RULESET"
            ): 1,
            _labels(door="rest", rpc="GetLegalMoves", code="OK", reason=""): 1,
            _labels(
                door="rest", rpc="ApplyMove", code="INVALID_ARGUMENT", reason="BAD_STATE_TOKEN"
            ): 1,
            _labels(door="rest", rpc="other", code="NOT_FOUND", reason="NOT_FOUND"): 1,
            _labels(
                door="rest", rpc="other", code="INVALID_ARGUMENT", reason="MALFORMED_REQUEST"
            ): 1,
            _labels(door="grpc", rpc="NewGame", code="OK", reason=""): 2,
            _labels(door="grpc", rpc="GetLegalMoves", code="OK", reason=""): applied + 2,
            _labels(door="grpc", rpc="ApplyMove", code="OK", reason=""): applied,
            _labels(
                door="grpc", rpc="GetScore", code="INVALID_ARGUMENT", reason="BAD_STATE_TOKEN"
            ): 1,
            _labels(
                door="grpc", rpc="ApplyMove", code="FAILED_PRECONDITION", reason="NOT_YOUR_TURN"
            ): 1,
        }
    )
    seen: list[Samples] = []

    def settled() -> bool:
        seen[:] = [_scrape(url)[0]]
        return _delta(seen[0], before, "domino_rules_requests_total") == requests

    _until(settled, what="domino_rules_requests_total")
    # A pause that stays: no more than that comes later, which only a later write of
    # every process can show, and a write leaves no sign of its own to wait on.
    time.sleep(metrics.FLUSH_EVERY + 0.5)
    after, families = _scrape(url)
    assert _delta(after, before, "domino_rules_requests_total") == requests
    durations = _delta(after, before, "domino_rules_request_duration_seconds_count")
    per_rpc: Counter[tuple[tuple[str, str], ...]] = Counter()
    for labels, count in requests.items():
        per_rpc[tuple(kv for kv in labels if kv[0] in ("door", "rpc"))] += count
    summed: Counter[tuple[tuple[str, str], ...]] = Counter()
    for labels, count in durations.items():
        summed[tuple(kv for kv in labels if kv[0] != "ruleset")] += count
    assert summed == per_rpc
    # the latency histogram by ruleset: the game's, or empty; never what a client sent
    rulesets = {dict(labels)["ruleset"] for labels in durations}
    assert rulesets == {"", "one_arm_joe", "tiu_u", "throw_up"}, rulesets
    assert durations[_labels(door="rest", rpc="NewGame", ruleset="one_arm_joe")] == 2
    assert durations[_labels(door="rest", rpc="NewGame", ruleset="")] == 1  # "chess"
    assert durations[_labels(door="grpc", rpc="ApplyMove", ruleset="tiu_u")] == applied
    assert durations[_labels(door="grpc", rpc="ApplyMove", ruleset="throw_up")] == 1
    assert durations[_labels(door="grpc", rpc="GetScore", ruleset="")] == 1
    assert _delta(after, before, "domino_rules_games_started_total") == Counter(
        {
            _labels(ruleset="one_arm_joe"): 2,
            _labels(ruleset="tiu_u"): 1,
            _labels(ruleset="throw_up"): 1,
        }
    )
    assert _delta(after, before, "domino_rules_matches_finished_total") == Counter(
        {_labels(ruleset="tiu_u"): 1}
    )
    tokens = _delta(after, before, "domino_rules_state_token_bytes_count")
    assert tokens[_labels(door="rest", rpc="NewGame", direction="out")] == 2
    assert tokens[_labels(door="rest", rpc="ApplyMove", direction="in")] == 1
    assert tokens[_labels(door="grpc", rpc="ApplyMove", direction="in")] == applied + 1
    assert tokens[_labels(door="grpc", rpc="ApplyMove", direction="out")] == applied
    sizes = _delta(after, before, "domino_rules_state_token_bytes_sum")
    assert sizes[_labels(door="rest", rpc="NewGame", direction="out")] == sum(
        len(base64.b64decode(g["state"])) for g in games
    )
    for door in ("grpc", "rest"):
        assert after[("domino_rules_requests_in_flight", _labels(door=door))] == 0
    # the process metrics: the supervisor, each gRPC process, the gateway and its workers,
    # per role; no series is a process's own (no pid: a restart makes no new series)
    roles = {
        dict(labels)["role"]: value
        for (name, labels), value in after.items()
        if name == "domino_rules_processes"
    }
    roles.pop("grpc_pool", None)  # a gRPC process's own pool, if it has started one
    assert roles == {"supervisor": 1, "grpc": 2, "gateway": 1, "rest_worker": 2}
    assert not [key for key in after if "pid" in dict(key[1])]
    for name in ("process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds"):
        found = {dict(labels)["role"] for (sample, labels) in after if sample == name}
        assert found - {"grpc_pool"} == set(roles), name
    assert all(value > 0 for (name, _), value in after.items() if name == "process_open_fds")

    # what the HTTP parser refused is one access line too, with no traceback
    (refused,) = [line for line in served.stderr().splitlines() if "invalid request" in line]
    assert "INFO domino_rules.access: invalid request from 127.0.0.1: " in refused
    assert "door=rest rpc=other status=INVALID_ARGUMENT reason=MALFORMED_REQUEST" in refused
    assert "Traceback" not in served.stderr()

    # the Grafana dashboard names only metrics that exist
    names = set(re.findall(r"\b(?:domino_rules|process)_[a-z_]+\b", DASHBOARD.read_text()))
    exposed = {name for name, _ in after} | families
    assert names and names <= exposed, names - exposed


def test_a_metrics_port_of_its_own_serves_metrics_alone() -> None:
    with serving("--grpc-workers", "1", "--http-workers", "1", "--metrics-port", "0") as served:
        assert served.metrics_port and served.metrics_port not in (served.http_port, 0)
        metrics_base = f"http://127.0.0.1:{served.metrics_port}"
        status, headers, body = _get(f"{metrics_base}/metrics")
        assert status == 200 and headers["content-type"].startswith("text/plain")
        assert b"domino_rules_build_info" in body
        assert _get(f"{served.base}/metrics")[0] == 404
        assert _get(f"{metrics_base}/v1/rulesets")[0] == 404
        assert _get(f"{served.base}/v1/rulesets")[0] == 200
        assert served.stop()[0] == 0


def _environ(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as environ:
        pairs = [item.split(b"=", 1) for item in environ.read().split(b"\0") if b"=" in item]
    return {key.decode(): value.decode() for key, value in pairs}


@pytest.mark.slow
def test_metrics_outlive_a_dead_process_and_their_directory_goes_with_serve() -> None:
    """Each door process writes into a private directory that serve removes at its end;
    a gRPC process that dies leaves its counts and loses its live gauge."""
    with serving("--grpc-workers", "2", "--http-workers", "1") as served:
        first, _ = door_processes(served, "grpc")
        directory = Path(_environ(first)["PROMETHEUS_MULTIPROC_DIR"])
        assert directory.is_dir() and (directory.stat().st_mode & 0o777) == 0o700
        assert "PROMETHEUS_MULTIPROC_DIR" not in _environ(served.process.pid)
        for i in range(20):  # new connections: the kernel spreads them over both
            channel, stub = _stub(served.grpc_port)
            with channel:
                stub.NewGame(
                    pb.NewGameRequest(ruleset="tiu_u", players=2, seed=f"d{i}"), timeout=30
                )
        key = (
            "domino_rules_requests_total",
            _labels(door="grpc", rpc="NewGame", code="OK", reason=""),
        )
        _until(lambda: _scrape(f"{served.base}/metrics")[0].get(key) == 20, what="20 NewGame")
        assert (directory / f"gauge_livesum_{first}.db").exists()
        # past the minimum lifetime, so that serve starts another (the supervisor notes a
        # start a moment after the fork, hence the margin)
        old_enough = MIN_LIFETIME + 0.5
        _until(
            lambda: outlived(served, "grpc", 2, old_enough),
            old_enough + 30,
            "both gRPC processes to outlive the minimum lifetime",
        )
        cpu = ("process_cpu_seconds_total", _labels(role="grpc"))
        cpu_before = _scrape(f"{served.base}/metrics")[0][cpu]
        os.kill(first, signal.SIGKILL)
        _until(lambda: not (directory / f"gauge_livesum_{first}.db").exists(), what="gauge gone")
        assert (directory / f"counter_{first}.db").exists()
        _until(lambda: len(door_processes(served, "grpc")) == 2, what="a new gRPC process")
        after, _ = _scrape(f"{served.base}/metrics")
        assert after[key] == 20  # nothing lost with it
        # the role's CPU counter keeps the dead process's seconds: it never goes back
        assert after[cpu] >= cpu_before
        assert after[("domino_rules_processes", _labels(role="grpc"))] == 2
        assert served.stop()[0] == 0
    assert not directory.exists()


_PARENT = """
import subprocess, sys
burn = subprocess.Popen(
    [sys.executable, "-c", sys.argv[1], "domino_rules.doors.child", "grpc"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
)
burn.stdout.readline()
print("burnt", burn.pid, flush=True)
sys.stdin.readline()
burn.stdin.close()
burn.wait()  # reaped: its CPU time is now this process's cutime and cstime
print("reaped", flush=True)
sys.stdin.read()
"""
_BURN = """
import sys, time
while time.process_time() < 0.3:
    pass
print("burnt", flush=True)
sys.stdin.read()
"""


def test_an_ended_process_keeps_its_cpu_seconds_in_its_role() -> None:
    """Process metrics are per role: a gRPC process that ends (reaped by the supervisor)
    leaves the role's process count, but its CPU seconds stay in the role's counter."""
    parent = subprocess.Popen(
        [sys.executable, "-c", _PARENT, _BURN],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert parent.stdin is not None and parent.stdout is not None
    try:
        collector = metrics.ProcessesCollector(parent.pid, "supervisor")
        assert parent.stdout.readline().startswith("burnt ")
        alive = collector.roles()
        assert {role: r.count for role, r in alive.items()} == {"supervisor": 1, "grpc": 1}
        assert alive["grpc"].cpu >= 0.25  # in clock ticks: /proc rounds down
        parent.stdin.write("reap\n")
        parent.stdin.flush()
        assert parent.stdout.readline() == "reaped\n"
        ended = collector.roles()
        assert ended["grpc"].count == 0 and ended["grpc"].cpu >= alive["grpc"].cpu
        families = {f.name: f for f in collector.collect()}
        samples = {
            (f.name, s.labels["role"]): s.value
            for f in families.values()
            for s in f.samples
            if "role" in s.labels
        }
        assert samples[("domino_rules_processes", "grpc")] == 0
        assert samples[("process_cpu_seconds", "grpc")] >= alive["grpc"].cpu
        assert ("process_resident_memory_bytes", "grpc") not in samples
        assert all(
            set(s.labels) <= {"role", "version"} for f in families.values() for s in f.samples
        )
    finally:
        parent.kill()
        parent.wait()
        parent.stdin.close()
        parent.stdout.close()


def test_the_ruleset_label_is_the_registrys_or_empty() -> None:
    assert metrics.ruleset_label("tiu_u") == "tiu_u"
    for other in (None, "", "chess", "TIU_U", "tiu_u "):
        assert metrics.ruleset_label(other) == ""


def test_recorder_counts_exactly_in_one_process() -> None:
    """Without a multiprocess directory (a door built in process) the counts are the
    process's own, and a scrape writes them first."""
    app = create_app(service=RulesService())
    client = app.test_client()

    def scrape() -> Samples:
        samples: Samples = {}
        for family in text_string_to_metric_families(client.get("/metrics").get_data(as_text=True)):
            for sample in family.samples:
                samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
        return samples

    before = scrape()
    for _ in range(3):
        assert (
            client.post("/v1/games", json={"ruleset": "tsair_deng", "players": 2}).status_code
            == 200
        )
    assert client.post("/v1/games:score", json={"state": "!!"}).status_code == 400
    after = scrape()
    assert _delta(after, before, "domino_rules_requests_total") == Counter(
        {
            _labels(door="rest", rpc="NewGame", code="OK", reason=""): 3,
            _labels(
                door="rest", rpc="GetScore", code="INVALID_ARGUMENT", reason="BAD_STATE_TOKEN"
            ): 1,
        }
    )
    assert _delta(after, before, "domino_rules_games_started_total") == Counter(
        {_labels(ruleset="tsair_deng"): 3}
    )
    roles = {dict(labels)["role"] for (name, labels) in after if name == "process_open_fds"}
    assert "main" in roles


def test_histogram_writes_match_observe() -> None:
    """The recorder adds counted observations to a histogram through prometheus_client's
    internals (there is no public call for many at once): the same as one observe each."""
    registry = CollectorRegistry()
    one_by_one = Histogram("one", "", buckets=metrics.TOKEN_BUCKETS, registry=registry)
    at_once = Histogram("many", "", buckets=metrics.TOKEN_BUCKETS, registry=registry)
    counts = metrics._Counts(metrics.TOKEN_BUCKETS)
    for value in (0, 100, 128, 129, 5000, 65536, 10**6):
        one_by_one.observe(value)
        counts.observe(value)
    counts.add_to(at_once)
    by_metric: dict[str, dict[tuple[str, tuple[tuple[str, str], ...]], float]] = {}
    for family in registry.collect():
        by_metric[family.name] = {
            (s.name.removeprefix(family.name), tuple(sorted(s.labels.items()))): s.value
            for s in family.samples
        }
    assert by_metric["one"] == by_metric["many"]
    assert by_metric["one"][("_count", ())] == 7


# ------------------------------------------------------------------ access lines


def _traffic(served: Served) -> dict[str, Any]:
    """One call of each kind through both doors; what the test needs to find them."""
    base = served.base
    status, headers, game = _post(
        base,
        "/v1/games",
        {"ruleset": "one_arm_joe", "players": 3, "seed": "log"},
        {"x-request-id": "rest-given-1"},
    )
    assert status == 200 and headers["x-request-id"] == "rest-given-1"
    status, headers, _ = _post(
        base,
        "/v1/games:applyMove",
        {"state": game["state"], "move": {"seat": (game["to_act"] + 1) % 3, "kind": "DRAW"}},
        {"x-request-id": "bad id, with spaces"},
    )
    assert status == 400 and re.fullmatch(r"[0-9a-f]{32}", headers["x-request-id"])
    made = headers["x-request-id"]
    channel, stub = _stub(served.grpc_port)
    with channel:
        answer, call = stub.NewGame.with_call(
            pb.NewGameRequest(ruleset="tiu_u", players=2, seed="log"),
            metadata=(("x-request-id", "grpc-given-1"),),
            timeout=30,
        )
        assert ("x-request-id", "grpc-given-1") in tuple(call.initial_metadata())
        with pytest.raises(grpc.RpcError) as caught:
            stub.GetView(
                pb.GetViewRequest(state=b"\x02garbage"),
                metadata=(("x-request-id", "bad id"),),
                timeout=30,
            )
        ids = dict(caught.value.initial_metadata())  # type: ignore[attr-defined]
        assert re.fullmatch(r"[0-9a-f]{32}", ids["x-request-id"])
        # a call that sends no id is logged under a new one, which its answer does not
        # carry (sending metadata ahead of the answer costs a gRPC call dearly)
        _, call = stub.GetLegalMoves.with_call(
            pb.GetLegalMovesRequest(state=answer.state), timeout=30
        )
        assert "x-request-id" not in dict(call.initial_metadata())
    _get(f"{base}/healthz")
    return {
        "rest_game": game,
        "rest_made": made,
        "grpc_game": answer,
        "grpc_made": ids["x-request-id"],
    }


def _secrets(found: dict[str, Any]) -> list[str]:
    """Token contents that must never be logged, in the forms a log could hold them."""
    rest_token = found["rest_game"]["state"]
    grpc_token = found["grpc_game"].state
    return [
        rest_token,
        rest_token[:24],
        base64.b64encode(grpc_token).decode()[:24],
        grpc_token.hex()[:24],
    ]


def test_access_lines_in_text() -> None:
    with serving("--grpc-workers", "1", "--http-workers", "1") as served:
        found = _traffic(served)
        _until(lambda: len(_access_lines(served)) >= 5, what="five access lines")
        lines = _access_lines(served)
        code, err = served.stop()
    assert code == 0
    assert len(lines) == 5, lines  # one per call; /healthz is below INFO
    _, rest_error, grpc_ok, _, _ = lines
    line = re.compile(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO domino_rules\.access: "
        r"door=(\w+) rpc=(\w+) status=(\w+) reason=(\S+)( http_status=\d+)? duration_ms=[\d.]+ "
        r"ruleset=(\S+) game_id=(\S+) version=(\S+) request_id=(\S+) peer=(\S+)(.*)"
    )
    parsed = [line.fullmatch(text) for text in lines]
    assert all(parsed), lines
    assert parsed[0] and parsed[0].groups() == (
        "rest", "NewGame", "OK", "-", " http_status=200", "one_arm_joe",
        found["rest_game"]["game_id"], "0", "rest-given-1", "127.0.0.1",
        " method=POST path=/v1/games",
    )  # fmt: skip
    assert parsed[1] and parsed[1].groups()[:9] == (
        "rest", "ApplyMove", "FAILED_PRECONDITION", "NOT_YOUR_TURN", " http_status=400",
        "one_arm_joe", found["rest_game"]["game_id"], "0", found["rest_made"],
    )  # fmt: skip
    assert parsed[2] and parsed[2].groups()[:9] == (
        "grpc", "NewGame", "OK", "-", None, "tiu_u", found["grpc_game"].game_id, "0",
        "grpc-given-1",
    )  # fmt: skip
    assert parsed[3] and parsed[3].groups()[:9] == (
        "grpc", "GetView", "INVALID_ARGUMENT", "BAD_STATE_TOKEN", None, "-", "-", "-",
        found["grpc_made"],
    )  # fmt: skip
    assert " peer=ipv4:127.0.0.1:" in grpc_ok and " peer=127.0.0.1 " in rest_error
    assert parsed[4] and parsed[4].groups()[:8] == (
        "grpc", "GetLegalMoves", "OK", "-", None, "tiu_u", found["grpc_game"].game_id, "0",
    )  # fmt: skip
    assert re.fullmatch(r"[0-9a-f]{32}", parsed[4].group(9))
    assert "Traceback" not in err
    for secret in _secrets(found):
        assert secret not in err


def test_access_lines_in_json() -> None:
    with serving(
        "--grpc-workers", "1", "--http-workers", "1", env={"DOMINO_RULES_LOG_FORMAT": "json"}
    ) as served:
        found = _traffic(served)
        _until(
            lambda: sum(r.get("logger") == "domino_rules.access" for r in _json_lines(served)) >= 5,
            what="five access lines",
        )
        code, err = served.stop()
    assert code == 0
    records = [json.loads(line) for line in err.splitlines()]  # every line is one object
    access = [r for r in records if r["logger"] == "domino_rules.access"]
    assert [(r["door"], r["rpc"], r["status"], r["reason"]) for r in access] == [
        ("rest", "NewGame", "OK", None),
        ("rest", "ApplyMove", "FAILED_PRECONDITION", "NOT_YOUR_TURN"),
        ("grpc", "NewGame", "OK", None),
        ("grpc", "GetView", "INVALID_ARGUMENT", "BAD_STATE_TOKEN"),
        ("grpc", "GetLegalMoves", "OK", None),
    ]
    first = access[0]
    assert first["request_id"] == "rest-given-1" and first["http_status"] == 200
    assert (first["ruleset"], first["game_id"], first["version"]) == (
        "one_arm_joe",
        found["rest_game"]["game_id"],
        0,
    )
    assert access[1]["request_id"] == found["rest_made"]
    assert access[2]["request_id"] == "grpc-given-1" and "http_status" not in access[2]
    assert access[3]["request_id"] == found["grpc_made"]
    assert all(isinstance(r["duration_ms"], float) and re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", r["time"]) for r in access)  # fmt: skip
    assert {r["level"] for r in records} <= {"INFO", "WARNING"}
    assert any("NOT sealed" in r.get("message", "") for r in records)
    for secret in _secrets(found):
        assert secret not in err


def test_json_logs_make_every_line_json_from_start_to_stop() -> None:
    """With --log-format json, the listening lines on stdout, gunicorn's own lines, the
    start-up warning, the gRPC core's lines and the stop are all JSON objects; and a
    start-up error that stops serve is one JSON line."""
    env = {**os.environ, "DOMINO_RULES_LOG_FORMAT": "json", "DOMINO_RULES_LOG_LEVEL": "debug"}
    args = ["--grpc-port", "0", "--http-port", "0", "--grpc-workers", "1", "--http-workers", "1"]
    process = subprocess.Popen(
        [*SERVE, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        listening = [json.loads(process.stdout.readline()) for _ in range(2)]
        assert [line["door"] for line in listening] == ["grpc", "rest"], listening
        assert listening[0]["message"] == f"gRPC listening on 127.0.0.1:{listening[0]['port']}"
        assert listening[1]["message"] == (
            f"REST listening on http://127.0.0.1:{listening[1]['port']}"
        )
        assert {line["level"] for line in listening} == {"INFO"}
        http_port = listening[1]["port"]
        assert _get(f"http://127.0.0.1:{http_port}/v1/rulesets")[0] == 200
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, err
    assert out == ""
    records = [json.loads(line) for line in err.splitlines()]  # each line one object
    loggers = {r["logger"] for r in records}
    assert {"domino_rules", "domino_rules.access", "gunicorn.error"} <= loggers, loggers
    assert any("NOT sealed" in r.get("message", "") for r in records)
    assert all({"time", "level", "logger", "pid"} <= set(r) for r in records)
    # a port in use stops serve before it starts: one JSON line, exit 2
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        failed = subprocess.run(
            [*SERVE, "--grpc-port", "0", "--http-port", str(holder.getsockname()[1])],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
    assert failed.returncode == 2 and failed.stdout == ""
    (error,) = [json.loads(line) for line in failed.stderr.splitlines() if "in use" in line]
    assert error["level"] == "ERROR" and "DOMINO_RULES_HTTP_PORT" in error["message"]
    assert all(json.loads(line) for line in failed.stderr.splitlines())


_JSON_PROCESS = """
import os, sys, threading, warnings
from domino_rules.observability import logs
logs.relay_native_stderr()
logs.configure("info", "json")
warnings.warn("a warning at start-up")
os.write(2, b"E1125 20:51:59.135506    2461 listener.cc:186] a line of the gRPC core\\n")
thread = threading.Thread(target=lambda: 1 / 0, name="worker-1")
thread.start()
thread.join()
raise RuntimeError("nobody caught this")
"""


def test_json_logs_turn_warnings_native_lines_and_uncaught_exceptions_into_json() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _JSON_PROCESS], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    records = [json.loads(line) for line in result.stderr.splitlines()]
    by_logger: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        by_logger.setdefault(record["logger"], []).append(record)
    (warning,) = by_logger["py.warnings"]
    assert warning["level"] == "WARNING" and "a warning at start-up" in warning["message"]
    (native,) = by_logger["native"]
    assert native["level"] == "ERROR" and native["message"].endswith("a line of the gRPC core")
    thread, main = by_logger["domino_rules"]
    assert "worker-1" in thread["message"] and "ZeroDivisionError" in thread["exception"]
    assert main["level"] == "CRITICAL" and "RuntimeError: nobody caught" in main["exception"]
    # the text format leaves Python's lines as they always were
    text = subprocess.run(
        [
            sys.executable,
            "-c",
            _JSON_PROCESS.replace('"json"', '"text"').replace("logs.relay_native_stderr()", ""),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback (most recent call last)" in text.stderr
    assert "UserWarning: a warning at start-up" in text.stderr


_RELAY_WITH_A_CHILD = """
import atexit, os, subprocess, sys, threading
from domino_rules.observability import logs

def relay_state():  # registered first, so it runs after the relay's own drain
    alive = any(t.name == "stderr-relay" for t in threading.enumerate())
    sys.stdout.write("relay alive at exit: %s" % alive)
    sys.stdout.flush()

atexit.register(relay_state)
logs.relay_native_stderr()
logs.configure("info", "json")
# a process started now holds descriptor 2 (the relay's pipe) and outlives this one
sleeper = [sys.executable, "-c", "import time; time.sleep(30)"]
child = subprocess.Popen(sleeper, stdout=subprocess.DEVNULL)
sys.stdout.write("child %d\\n" % child.pid)
sys.stdout.flush()
os.write(2, b"E1125 20:51:59.135506    2461 server.cc:1] the last line before exit\\n")
"""


def test_the_native_relay_reads_this_processs_lines_to_their_end_whatever_its_children_hold() -> (
    None
):
    """The relay of descriptor 2 stops at this process's exit once it has read every line
    this process wrote, even while a process it started (a search process, the
    multiprocessing tracker) still holds the pipe: the relay does not wait for an end of
    the pipe that would come only after this process is gone."""
    result = subprocess.run(
        [sys.executable, "-c", _RELAY_WITH_A_CHILD], capture_output=True, text=True, timeout=60
    )
    child = int(result.stdout.split()[1])
    os.kill(child, signal.SIGKILL)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("relay alive at exit: False")
    (native,) = [json.loads(line) for line in result.stderr.splitlines() if "native" in line]
    assert native["message"].endswith("the last line before exit")


def test_log_level_warning_writes_no_access_line_and_debug_writes_probes() -> None:
    with serving("--grpc-workers", "1", "--http-workers", "1", "--log-level", "warning") as served:
        assert _post(served.base, "/v1/games", {"ruleset": "tiu_u", "players": 2})[0] == 200
        assert _get(f"{served.base}/v1/nothing")[0] == 404
        code, err = served.stop()
    assert code == 0 and "domino_rules.access" not in err and "NOT sealed" in err
    with serving("--grpc-workers", "1", "--http-workers", "1", "--log-level", "debug") as served:
        assert _get(f"{served.base}/healthz", {"x-request-id": "probe-1"})[0] == 200
        _until(lambda: "request_id=probe-1" in served.stderr(), what="the probe's line")
        code, err = served.stop()
    (probe,) = [line for line in err.splitlines() if "request_id=probe-1" in line]
    assert " DEBUG domino_rules.access: door=rest rpc=other status=OK" in probe
    assert "path=/healthz" in probe


def test_an_internal_error_is_logged_with_its_request_id(caplog: pytest.LogCaptureFixture) -> None:
    """A bug is the one thing logged with a traceback; the client learns nothing more
    than INTERNAL, and the request id ties the two together."""

    class Broken(RulesService):
        def ListRulesets(self, request: pb.ListRulesetsRequest) -> pb.ListRulesetsResponse:
            raise RuntimeError("a bug")

    caplog.set_level(logging.INFO)
    client = create_app(service=Broken()).test_client()
    answer = client.get("/v1/rulesets", headers={"x-request-id": "bug-1"})
    assert answer.status_code == 500 and answer.headers["x-request-id"] == "bug-1"
    assert answer.get_json()["details"][0]["reason"] == "INTERNAL"
    (bug,) = [r for r in caplog.records if r.exc_info]
    assert "bug-1" in bug.getMessage()
    (line,) = [r for r in caplog.records if r.name == "domino_rules.access"]
    assert "status=INTERNAL reason=INTERNAL http_status=500" in line.getMessage()


def test_the_service_tells_its_observer_what_each_call_opens_and_seals() -> None:
    """A door learns a call's game from the observer it gives the service
    (``RulesService.observe``), an explicit hook, the service's own methods untouched:
    what is noted in the call, for its access line and its metrics, comes from there."""
    seen: list[tuple[str, str | None, int]] = []

    class Recorder:
        def on_decoded(self, game: Any, token_bytes: int) -> None:
            seen.append(("decoded", game.game_id if game else None, token_bytes))

        def on_encoded(self, game: Any, token_bytes: int) -> None:
            seen.append(("encoded", game.game_id, token_bytes))

    recorder = Recorder()
    service = RulesService(observer=recorder)
    service.observe(recorder)  # twice is once
    create_app(service=service)
    create_app(service=service)  # the door's own observer, once, after the first
    assert service.observers == (recorder, calls.OBSERVER)
    assert not {"decode", "encode"} & set(vars(service))
    game = service.NewGame(pb.NewGameRequest(ruleset="tiu_u", players=2, seed="observed"))
    assert seen == [("encoded", game.game_id, len(game.state))]
    seen.clear()
    legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=game.state))
    call = calls.begin("grpc", "ApplyMove", None, None, counted=False)
    try:
        answer = service.ApplyMove(pb.ApplyMoveRequest(state=game.state, move=legal.moves[0]))
    finally:
        calls.finish(call)
    assert seen[1:] == [
        ("decoded", game.game_id, len(game.state)),
        ("encoded", game.game_id, len(answer.state)),
    ]
    noted = (call.ruleset, call.game_id, call.version, call.token_in, call.token_out)
    assert noted == ("tiu_u", game.game_id, 1, len(game.state), len(answer.state))
    assert call.match_over is False
    seen.clear()
    call = calls.begin("grpc", "GetScore", None, None, counted=False)
    try:
        with pytest.raises(ApiError):
            service.GetScore(pb.GetScoreRequest(state=b"garbage"))
    finally:
        calls.finish(call)
    assert seen == [("decoded", None, 7)]  # a token that holds no game is still counted
    assert (call.token_in, call.ruleset, call.game_id) == (7, None, None)


# ------------------------------------------------------------------ formats


def test_logfmt_quotes_only_what_needs_it() -> None:
    assert logs.logfmt({"a": "plain-value_1.2:/x", "b": None, "c": 3, "d": 1.5}) == (
        "a=plain-value_1.2:/x b=- c=3 d=1.5"
    )
    assert logs.logfmt({"path": '/a b"c=\\', "u": "é", "nl": "x\ny"}) == (
        'path="/a b\\"c=\\\\" u="\\u00e9" nl="x\\ny"'
    )


def test_json_records_are_one_line_even_with_a_traceback() -> None:
    formatter = logs.JsonFormatter()
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging_record("a failure", exc_info=sys.exc_info())
    line = formatter.format(record)
    assert "\n" not in line
    data = json.loads(line)
    assert data["message"] == "a failure" and "ValueError: boom" in data["exception"]
    call = calls.Call("rest", "NewGame", "id-1", "127.0.0.1", counted=True)
    call.http_status, call.method, call.path = 200, "POST", "/v1/games"
    structured = logging_record(calls.AccessLine(call, 0.0015))
    data = json.loads(formatter.format(structured))
    assert data["door"] == "rest" and data["duration_ms"] == 1.5 and "message" not in data
    text = logs.TextFormatter().format(structured)
    assert text.endswith(
        "door=rest rpc=NewGame status=OK reason=- http_status=200 duration_ms=1.500 "
        "ruleset=- game_id=- version=- request_id=id-1 peer=127.0.0.1 method=POST "
        "path=/v1/games"
    )


def logging_record(message: object, exc_info: Any = None) -> logging.LogRecord:
    return logging.LogRecord("test", logging.INFO, "", 0, message, (), exc_info)


def test_request_ids() -> None:
    assert calls.request_id("abc-DEF_1.2:3/4+5=6@7") == "abc-DEF_1.2:3/4+5=6@7"
    for bad in (None, "", "a b", "x" * 129, "é", "a\nb"):
        made = calls.request_id(bad)
        assert re.fullmatch(r"[0-9a-f]{32}", made), bad
    assert calls.new_request_id() != calls.new_request_id()


# ------------------------------------------------------------------ health


def test_health_agrees_on_both_doors_per_service_name(served: Served) -> None:
    for name in ("", SERVICE):
        assert _health(served.grpc_port, name) == health_pb2.HealthCheckResponse.SERVING
        status, _, body = _get(f"{served.base}/readyz?service={name}")
        assert (status, json.loads(body)) == (200, {"status": "SERVING"})
    with pytest.raises(grpc.RpcError) as caught:
        _health(served.grpc_port, "no.such.Service")
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND
    status, _, body = _get(f"{served.base}/readyz?service=no.such.Service")
    error = json.loads(body)  # the service's error shape, reason as gRPC's NOT_FOUND says
    assert (status, error["code"], error["details"][0]["reason"]) == (404, 5, "SERVICE_UNKNOWN")
    assert "no.such.Service" in error["message"]


def test_readiness_follows_the_grpc_door() -> None:
    """/readyz says NOT_SERVING while the gRPC door does not answer (here: stopped), and
    SERVING again once it does; /healthz (liveness) stays 200 throughout."""
    with serving("--grpc-workers", "1", "--http-workers", "1") as served:
        (grpc_process,) = door_processes(served, "grpc")
        assert _get(f"{served.base}/readyz")[0] == 200
        os.kill(grpc_process, signal.SIGSTOP)
        try:
            _until(lambda: _get(f"{served.base}/readyz")[0] == 503, 10, "not ready")
            status, _, body = _get(f"{served.base}/readyz")
            assert (status, json.loads(body)) == (503, {"status": "NOT_SERVING"})
            assert _get(f"{served.base}/healthz")[0] == 200
        finally:
            os.kill(grpc_process, signal.SIGCONT)
        _until(lambda: _get(f"{served.base}/readyz")[0] == 200, 10, "ready again")
        assert served.stop()[0] == 0


# ------------------------------------------------------------------ tracing


def test_without_an_endpoint_nothing_of_opentelemetry_is_imported() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    script = """
import sys
from domino_rules.doors import gateway, grpc_server, rest
from domino_rules.observability import tracing
from domino_rules.api import RulesService
door = grpc_server.build_door("127.0.0.1:0", RulesService())
app = rest.create_app(service=RulesService())
assert tracing.instrument_grpc_server() is False
assert tracing.instrument_flask(app) is False
loaded = sorted(m for m in sys.modules if m.split(".")[0] == "opentelemetry")
print(loaded)
sys.exit(1 if loaded else 0)
"""
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_an_endpoint_without_the_extra_warns_and_serves_untraced() -> None:
    env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"}
    script = """
import sys
sys.modules["opentelemetry"] = None  # as if the otel extra were not installed
from domino_rules.observability import tracing
assert tracing.enabled()
assert tracing.instrument_grpc_server() is False
assert tracing.instrument_grpc_server() is False  # warned once
"""
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("OpenTelemetry is not installed") == 1
    assert "pip install 'domino-rules[otel]'" in result.stderr


class _Collector(http.server.ThreadingHTTPServer):
    """An OTLP/HTTP trace collector on 127.0.0.1: keeps each span's (trace id, span id,
    name)."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _CollectorHandler)
        self.spans: list[tuple[str, str, str]] = []


class _CollectorHandler(http.server.BaseHTTPRequestHandler):
    server: _Collector

    def do_POST(self) -> None:
        from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        if self.headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        request = trace_service_pb2.ExportTraceServiceRequest.FromString(body)
        for resource in request.resource_spans:
            for scope in resource.scope_spans:
                for span in scope.spans:
                    self.server.spans.append((span.trace_id.hex(), span.span_id.hex(), span.name))
        answer = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_access_lines_carry_the_ids_of_the_calls_spans() -> None:
    """With tracing on, each access line of both doors names the trace and span that the
    collector received for that call."""
    if importlib.util.find_spec("opentelemetry.sdk") is None:
        pytest.skip("the otel extra is not installed")
    collector = _Collector()
    thread = threading.Thread(target=collector.serve_forever, daemon=True)
    thread.start()
    env = {
        "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{collector.server_address[1]}",
        "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
        "OTEL_BSP_SCHEDULE_DELAY": "100",
        "DOMINO_RULES_LOG_FORMAT": "json",
    }
    try:
        with serving("--grpc-workers", "1", "--http-workers", "1", env=env) as served:
            status, _, _ = _post(
                served.base,
                "/v1/games",
                {"ruleset": "tiu_u", "players": 2},
                {"x-request-id": "traced-rest"},
            )
            assert status == 200
            channel, stub = _stub(served.grpc_port)
            with channel:
                stub.NewGame(
                    pb.NewGameRequest(ruleset="tiu_u", players=2),
                    metadata=(("x-request-id", "traced-grpc"),),
                    timeout=30,
                )
            _until(
                lambda: (
                    sum(r.get("request_id", "").startswith("traced-") for r in _json_lines(served))
                    == 2
                ),
                what="two access lines",
            )
            lines = {
                r["request_id"]: r
                for r in _json_lines(served)
                if r.get("request_id", "").startswith("traced-")
            }
            wanted = {(r["trace_id"], r["span_id"]) for r in lines.values()}
            _until(lambda: wanted <= {(t, s) for t, s, _ in collector.spans}, what="the spans")
            code, err = served.stop()
    finally:
        collector.shutdown()
        collector.server_close()
    assert code == 0, err
    for request_id in ("traced-rest", "traced-grpc"):
        line = lines[request_id]
        assert re.fullmatch(r"[0-9a-f]{32}", line["trace_id"]), line
        assert re.fullmatch(r"[0-9a-f]{16}", line["span_id"]), line
    assert lines["traced-rest"]["trace_id"] != lines["traced-grpc"]["trace_id"]
    names = {(t, s): name for t, s, name in collector.spans}
    assert "NewGame" in names[(lines["traced-grpc"]["trace_id"], lines["traced-grpc"]["span_id"])]
    assert "Traceback" not in err
