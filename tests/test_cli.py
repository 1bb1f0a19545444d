"""``domino-rules serve``: both doors up, ports printed, graceful stop; settings errors."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from domino_rules.settings import Settings
from domino_rules.tokens import KeyRing


def _start(*args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], int, int]:
    process = subprocess.Popen(
        [sys.executable, "-m", "domino_rules.cli", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
        start_new_session=True,  # its own process group, so a failed test can end it all
    )
    assert process.stdout is not None
    lines = [process.stdout.readline(), process.stdout.readline()]
    grpc_line = re.fullmatch(r"gRPC listening on 127\.0\.0\.1:(\d+)\n", lines[0])
    rest_line = re.fullmatch(r"REST listening on http://127\.0\.0\.1:(\d+)\n", lines[1])
    if not (grpc_line and rest_line):
        raise AssertionError(f"unexpected start-up lines {lines!r}: {_kill_group(process)}")
    return process, int(grpc_line.group(1)), int(rest_line.group(1))


def _stop(process: subprocess.Popen[str]) -> tuple[int, str]:
    """SIGTERM, then wait; returns the exit code and what was written to stderr."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        raise AssertionError("serve did not stop within 30 s of SIGTERM") from None
    return process.returncode, err


def _kill_group(process: subprocess.Popen[str]) -> str:
    """SIGKILL serve and every process it started (the REST workers hold its pipes);
    returns what was left to read on stderr."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    return process.communicate(timeout=30)[1] or ""


@pytest.fixture
def served() -> Iterator[tuple[subprocess.Popen[str], int, int]]:
    process, grpc_port, http_port = _start("--grpc-port", "0", "--http-port", "0")
    try:
        yield process, grpc_port, http_port
    finally:
        _kill_group(process)


def test_serve_starts_both_doors_and_stops_on_sigterm(served) -> None:
    process, grpc_port, http_port = served
    with urllib.request.urlopen(
        f"http://127.0.0.1:{http_port}/v1/rulesets", timeout=30
    ) as response:
        ids = [r["id"] for r in json.load(response)["rulesets"]]
    assert "one_arm_joe" in ids
    body = json.dumps({"ruleset": "one_arm_joe", "players": 2, "seed": "cli"}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{http_port}/v1/games", data=body, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert json.load(response)["status"] == "IN_PROGRESS"
    with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
        health = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(), timeout=30
        )
        assert health.status == health_pb2.HealthCheckResponse.SERVING
    code, err = _stop(process)
    assert code == 0
    assert "NOT sealed" in err  # the one start-up warning when no keys are set


def test_ports_from_the_environment() -> None:
    process, grpc_port, http_port = _start(
        env={"DOMINO_RULES_GRPC_PORT": "0", "DOMINO_RULES_HTTP_PORT": "0"}
    )
    try:
        assert grpc_port != 50051 and http_port != 8080
    finally:
        assert _stop(process)[0] == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal is Linux's")
def test_rest_workers_never_outlive_serve() -> None:
    """Even when serve is killed outright (no handler can run), its REST workers end too."""
    process, _, http_port = _start("--grpc-port", "0", "--http-port", "0")
    process.kill()  # SIGKILL to serve alone, not its process group
    try:
        process.communicate(timeout=30)  # returns once no worker holds serve's output
    except subprocess.TimeoutExpired:
        _kill_group(process)
        raise AssertionError("the REST workers outlived serve") from None
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{http_port}/healthz", timeout=5)


@pytest.mark.parametrize("delay", [0.0, 0.3, 0.8, 1.5])
def test_sigterm_during_start_up_leaves_nothing_running(delay: float) -> None:
    """A SIGTERM at any moment of start-up ends serve and its REST workers: nothing is
    left holding its output open (communicate returns)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "domino_rules.cli", "serve", "--grpc-port", "0", "--http-port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(delay)
    process.send_signal(signal.SIGTERM)
    try:
        process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        raise AssertionError("serve or its workers outlived SIGTERM") from None
    # -15 only when the signal came before the interpreter set its handlers
    assert process.returncode in (0, -signal.SIGTERM)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DOMINO_RULES_SEAL_KEYS": "k1:not-base64!"}, "not valid base64"),
        ({"DOMINO_RULES_SEAL_KEYS": "k1:" + "QUJD"}, "32"),
        ({"DOMINO_RULES_SEAL_KEYS": "nocolon"}, "':'"),
        ({"DOMINO_RULES_REQUIRE_SEALED": "1"}, "no sealing key"),
        ({"DOMINO_RULES_GRPC_PORT": "http"}, "DOMINO_RULES_GRPC_PORT"),
    ],
)
def test_bad_settings_stop_start_up_with_a_message(env: dict[str, str], message: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "domino_rules.cli", "serve", "--grpc-port", "0", "--http-port", "0"],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
    )
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_settings_defaults_need_no_configuration() -> None:
    settings = Settings.from_env({})
    assert (settings.host, settings.grpc_port, settings.http_port) == ("127.0.0.1", 50051, 8080)
    assert not settings.tokens().sealed


def test_keygen_prints_a_usable_key() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "domino_rules.cli", "keygen", "--id", "2026a"],
        capture_output=True,
        text=True,
        check=True,
    )
    ring = KeyRing.parse(result.stdout.strip())
    assert ring.keys[0][0] == "2026a" and len(ring.keys[0][1]) == 32
