"""``domino-rules serve``: both doors up, ports printed, graceful stop; settings errors."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from domino_rules import cli
from domino_rules.serving import supervisor
from domino_rules.serving.settings import SettingError, Settings
from domino_rules.state.tokens import KeyRing

from .served import SERVE, kill_group, popen, start


def test_serve_starts_both_doors_and_stops_on_sigterm() -> None:
    served = start()
    try:
        with urllib.request.urlopen(f"{served.base}/v1/rulesets", timeout=30) as response:
            ids = [r["id"] for r in json.load(response)["rulesets"]]
        assert "one_arm_joe" in ids
        body = json.dumps({"ruleset": "one_arm_joe", "players": 2, "seed": "cli"}).encode()
        request = urllib.request.Request(f"{served.base}/v1/games", data=body, method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            assert json.load(response)["status"] == "IN_PROGRESS"
        for path in ("/healthz", "/readyz"):
            with urllib.request.urlopen(f"{served.base}{path}", timeout=30) as response:
                assert json.load(response) == {"status": "SERVING"}
        with grpc.insecure_channel(f"127.0.0.1:{served.grpc_port}") as channel:
            health = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=30
            )
            assert health.status == health_pb2.HealthCheckResponse.SERVING
        code, err = served.stop()
    finally:
        served.kill()
    assert code == 0
    assert "NOT sealed" in err  # the one start-up warning when no keys are set
    assert "Traceback" not in err


def test_ports_from_the_environment() -> None:
    served = start(env={"DOMINO_RULES_GRPC_PORT": "0", "DOMINO_RULES_HTTP_PORT": "0"})
    try:
        assert served.grpc_port != 50051 and served.http_port != 8080
    finally:
        assert served.stop()[0] == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal is Linux's")
def test_doors_never_outlive_serve() -> None:
    """Even when serve is killed outright (no handler can run), both doors end too."""
    served = start("--grpc-workers", "2", "--http-workers", "2")
    served.process.kill()  # SIGKILL to serve alone, not its process group
    served.wait(60, "SIGKILL")  # returns once no door holds serve's stderr
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{served.base}/healthz", timeout=5)
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", served.grpc_port), 5):
        pass


@pytest.mark.parametrize("delay", [0.0, 0.3, 0.8, 1.5])
def test_sigterm_during_start_up_leaves_nothing_running(delay: float) -> None:
    """A SIGTERM at any moment of start-up ends serve and its doors: nothing is left
    holding its output open (communicate returns)."""
    process = popen("--grpc-port", "0", "--http-port", "0")
    time.sleep(delay)  # stays: the moment of start-up the signal lands in is the subject
    process.send_signal(signal.SIGTERM)
    try:
        process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        kill_group(process)
        raise AssertionError("serve or its doors outlived SIGTERM") from None
    # -15 only when the signal came before the interpreter set its handlers
    assert process.returncode in (0, -signal.SIGTERM)


def _refused(*args: str, env: dict[str, str] | None = None) -> str:
    """Run serve with a bad setting: exit status 2, nothing said to listen, one line on
    stderr and no traceback; returns that line."""
    result = subprocess.run(
        [*SERVE, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


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
    line = _refused("--grpc-port", "0", "--http-port", "0", env=env)
    assert message in line


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (("--grpc-workers", "100000"), {}),
        ((), {"DOMINO_RULES_HTTP_WORKERS": "99999999999999999999"}),
        (("--bot-queue", "1e9"), {}),
    ],
)
def test_huge_worker_counts_stop_start_up_before_anything_forks(
    args: tuple[str, ...], env: dict[str, str]
) -> None:
    """A count past its documented maximum is one line and exit status 2, not a fork
    bomb or a traceback: nothing was started (no port was bound)."""
    line = _refused("--grpc-port", "0", "--http-port", "0", *args, env=env)
    assert "must be a whole number from" in line and "DOMINO_RULES_" in line


BAD_VALUES = [
    ("http_workers", "0", "must be a whole number from 1 to 64"),
    ("http_workers", "100000", "must be a whole number from 1 to 64"),
    ("grpc_workers", "100000", "must be a whole number from 1 to 64"),
    ("http_threads", "100000", "must be a whole number from 1 to 256"),
    ("http_max_connections", "10000000", "must be a whole number from 1 to 65536"),
    ("grpc_max_calls", "99999999999", "must be a whole number from 1 to 10000"),
    ("bot_capacity", "0", "must be a whole number from 1 to 64"),
    ("bot_capacity", "65", "must be a whole number from 1 to 64"),
    ("bot_queue", "-1", "must be a whole number from 0 to 1024"),
    ("minted_cache_bytes", "-1", "must be a whole number from 0 to 4294967296"),
    ("grace", "1e9", "<= 3600"),
    ("drain_delay", "7200", "<= 3600"),
    ("http_workers", "-1", "must be a whole number"),
    ("http_workers", "abc", "must be a whole number"),
    ("grpc_workers", "0", "must be a whole number"),
    ("grpc_workers", "2.5", "must be a whole number"),
    ("http_threads", "0", "must be a whole number"),
    ("http_max_connections", "none", "must be a whole number"),
    ("grpc_max_calls", "0", "must be a whole number"),
    ("max_request_bytes", "10", "must be a whole number from 1024"),
    ("max_request_bytes", "1e6", "must be a whole number"),
    ("http_port", "70000", "from 0 to 65535"),
    ("grpc_port", "-1", "from 0 to 65535"),
    ("grace", "-1", "must be a number of seconds >= 0"),
    ("grace", "soon", "must be a number of seconds"),
    ("grace", "nan", "must be a number of seconds"),
    ("drain_delay", "-0.5", "must be a number of seconds >= 0"),
    ("http_idle_timeout", "0", "must be a number of seconds > 0"),
    ("http_request_timeout", "inf", "must be a number of seconds > 0"),
    ("host", " ", "must be a host name or address"),
    ("require_sealed", "maybe", "must be 1 or 0"),
]


@pytest.mark.parametrize(("name", "value", "message"), BAD_VALUES)
@pytest.mark.parametrize("source", ["flag", "env"])
def test_every_bad_value_names_flag_and_variable(
    name: str, value: str, message: str, source: str
) -> None:
    """In process: each setting's checks and message, from a flag and from a variable."""
    flags: dict[str, object] = {name: value} if source == "flag" else {}
    env = {Settings.variable(name): value} if source == "env" else {}
    with pytest.raises(SettingError) as caught:
        Settings.load(flags, env=env)
    assert str(caught.value).startswith(f"{Settings.flag(name)} / {Settings.variable(name)} ")
    assert message in str(caught.value) and repr(value) in str(caught.value)


@pytest.mark.parametrize(
    ("args", "env", "line"),
    [
        (
            (),
            {"DOMINO_RULES_HTTP_WORKERS": "0"},
            "--http-workers / DOMINO_RULES_HTTP_WORKERS must be a whole number from 1 to 64, "
            "not '0'",
        ),
        (
            (),
            {"DOMINO_RULES_HTTP_WORKERS": "-1"},
            "--http-workers / DOMINO_RULES_HTTP_WORKERS must be a whole number from 1 to 64, "
            "not '-1'",
        ),
        (
            (),
            {"DOMINO_RULES_HTTP_WORKERS": "abc"},
            "--http-workers / DOMINO_RULES_HTTP_WORKERS must be a whole number from 1 to 64, "
            "not 'abc'",
        ),
        (
            ("--http-workers", "2"),
            {"DOMINO_RULES_HTTP_WORKERS": "abc"},
            "--http-workers / DOMINO_RULES_HTTP_WORKERS must be a whole number from 1 to 64, "
            "not 'abc'",
        ),
        (
            ("--grpc-workers", "0"),
            {},
            "--grpc-workers / DOMINO_RULES_GRPC_WORKERS must be a whole number from 1 to 64, "
            "not '0'",
        ),
        (
            ("--grace", "-1"),
            {},
            "--grace / DOMINO_RULES_GRACE must be a number of seconds >= 0 and <= 3600, not '-1'",
        ),
        (
            (),
            {"DOMINO_RULES_GRPC_MAX_CALLS": "lots"},
            "--grpc-max-calls / DOMINO_RULES_GRPC_MAX_CALLS must be a whole number from 1 to "
            "10000, not 'lots'",
        ),
        (
            ("--grpc-port", "http"),
            {},
            "--grpc-port / DOMINO_RULES_GRPC_PORT must be a whole number from 0 to 65535, "
            "not 'http'",
        ),
    ],
)
def test_bad_settings_exit_2_with_one_line(
    args: tuple[str, ...], env: dict[str, str], line: str
) -> None:
    """A flag wins over its variable, but a bad variable is refused all the same."""
    assert _refused(*args, env=env) == f"domino-rules: {line}"


@pytest.mark.parametrize("door", ["http", "grpc"])
def test_a_port_in_use_stops_start_up(door: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        other = "grpc" if door == "http" else "http"
        line = _refused(f"--{door}-port", port, f"--{other}-port", "0")
    assert line.startswith(f"domino-rules: --{door}-port / DOMINO_RULES_{door.upper()}_PORT")
    assert f"port {port} is in use" in line


def test_a_grpc_port_held_with_so_reuseport_is_in_use_too() -> None:
    """Another copy of the service (gRPC binds with SO_REUSEPORT) must not be joined."""
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        line = _refused("--grpc-port", port, "--http-port", "0")
    assert "--grpc-port / DOMINO_RULES_GRPC_PORT" in line and "in use" in line


def test_a_host_that_is_not_this_machine_stops_start_up() -> None:
    line = _refused("--host", "203.0.113.7", "--grpc-port", "0", "--http-port", "0")
    assert line == (
        "domino-rules: --host / DOMINO_RULES_HOST: '203.0.113.7' is not an address of this machine"
    )


def test_a_host_that_does_not_resolve_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """In process, with the resolver replaced: no name lookup leaves the machine."""

    def fail(*args: object, **kwargs: object) -> object:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", fail)
    settings = Settings.load({"host": "no-such-host.invalid"}, env={})
    with pytest.raises(SettingError) as caught:
        supervisor.bind_ports(settings)
    assert str(caught.value) == (
        "--host / DOMINO_RULES_HOST cannot be resolved: 'no-such-host.invalid' "
        "(Name or service not known)"
    )


def test_settings_defaults_need_no_configuration() -> None:
    settings = Settings.from_env({})
    assert (settings.host, settings.grpc_port, settings.http_port) == ("127.0.0.1", 50051, 8080)
    assert settings.grpc_workers >= 1 and settings.http_workers >= 2
    assert (settings.grace, settings.drain_delay) == (10.0, 5.0)
    assert (settings.bot_capacity, settings.bot_queue) == (1, 2)
    assert settings.max_request_bytes == 1024 * 1024
    assert not settings.tokens().sealed


def test_settings_round_trip_through_the_environment() -> None:
    """The supervisor hands its checked settings to the doors as variables."""
    settings = Settings.load(
        {"grace": "2.5", "http_workers": "3", "require_sealed": False, "drain_delay": "1"},
        env={},
    )
    assert Settings.from_env(settings.to_env()) == settings


def test_keygen_prints_a_usable_key() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "domino_rules.cli", "keygen", "--id", "2026a"],
        capture_output=True,
        text=True,
        check=True,
    )
    ring = KeyRing.parse(result.stdout.strip())
    assert ring.keys[0][0] == "2026a" and len(ring.keys[0][1]) == 32


@pytest.mark.parametrize("key_id", ["", "a b", "x" * 65, "k:1"])
def test_keygen_refuses_an_id_the_key_ring_would_not_read(
    key_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["keygen", "--id", key_id]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("domino-rules: --id: id ")


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (("--log-format", "json", "--http-workers", "999"), {}),
        (("--log-level", "loud"), {"DOMINO_RULES_LOG_FORMAT": "json"}),
    ],
)
def test_with_json_logs_a_bad_setting_is_one_json_line(
    args: tuple[str, ...], env: dict[str, str]
) -> None:
    line = _refused("--grpc-port", "0", "--http-port", "0", *args, env=env)
    record = json.loads(line)
    assert record["level"] == "ERROR" and "DOMINO_RULES_" in record["message"]
