"""A rolling update behind a real balancer loses no call, and no match.

nginx (Debian's package, which ``make test`` installs) runs the configuration that
``deploy/nginx/domino-rules.conf.template`` documents, in front of three ``serve``
replicas. Clients call through nginx on both doors without pause, gRPC and REST, each
call a short game step (NewGame, GetView, ApplyMove), while each replica in turn gets
SIGTERM, drains, exits and starts again on the same ports. Every call must succeed.

The mixed-version run updates the fleet from the previous release (its wheel, kept in
``tests/upgrade/``) to this code, one replica at a time, while clients play whole
matches through nginx with sealed tokens: the moves of a match go to old and new
replicas in turn, so tokens cross from each version to the other. Every call must
succeed and every match end.
"""

from __future__ import annotations

import base64
import contextlib
import http.client
import itertools
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

import domino_rules
from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc

from .served import Served, start
from .support.waiting import wait_until

#: Three replicas of serve behind nginx, restarted in turn under load: alone on the machine.
pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "nginx" / "domino-rules.conf.template"
REPLICA_ARGS = ("--grpc-workers", "1", "--http-workers", "1", "--grace", "10")
DRAIN_DELAY = "1.5"
GRPC_CLIENTS = 4
REST_CLIENTS = 4


def _nginx() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if found is None:
        pytest.fail("nginx is not installed: `make test` installs it (Debian's nginx package)")
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_port(port: int, process: subprocess.Popen[str], timeout: float = 30) -> None:
    def listens() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"nginx exited with status {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return True
        return False

    wait_until(listens, timeout, f"nginx to listen on {port}")


@contextlib.contextmanager
def _balancer(tmp: Path, replicas: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """nginx with the documented configuration in front of ``replicas`` (gRPC port, REST
    port); the ports it listens on, gRPC and REST."""
    grpc_port, rest_port = _free_port(), _free_port()
    values = {"GRPC_LISTEN": f"127.0.0.1:{grpc_port}", "REST_LISTEN": f"127.0.0.1:{rest_port}"}
    for i, (replica_grpc, replica_rest) in enumerate(replicas, start=1):
        values[f"REPLICA_{i}_GRPC"] = f"127.0.0.1:{replica_grpc}"
        values[f"REPLICA_{i}_REST"] = f"127.0.0.1:{replica_rest}"
    # as envsubst fills it: ${NAME} of the names given (nginx's own $variables stay)
    rendered = re.sub(r"\$\{([A-Z0-9_]+)\}", lambda m: values[m.group(1)], TEMPLATE.read_text())
    (tmp / "domino-rules.conf").write_text(rendered)
    temp_paths = "\n".join(
        f"    {kind}_temp_path {tmp / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    (tmp / "nginx.conf").write_text(
        f"""worker_processes 1;
daemon off;
pid {tmp / "nginx.pid"};
error_log {tmp / "error.log"} warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
{temp_paths}
    uwsgi_temp_path {tmp / "uwsgi"};
    scgi_temp_path {tmp / "scgi"};
    include {tmp / "domino-rules.conf"};
}}
"""
    )
    command = [_nginx(), "-p", str(tmp), "-c", str(tmp / "nginx.conf")]
    check = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stderr
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL, text=True)
    try:
        _wait_for_port(grpc_port, process)
        _wait_for_port(rest_port, process)
        yield grpc_port, rest_port
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class _Tally:
    ok: int = 0
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, failure: str | None) -> None:
        with self.lock:
            if failure is None:
                self.ok += 1
            else:
                self.failures.append(failure)


Client = tuple[Callable[[int], None], Callable[[], None]]


def _grpc_client(port: int) -> Client:
    """A game step over gRPC, and how to close the client."""
    # its own connection to nginx, as an independent client has
    channel = grpc.insecure_channel(
        f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)]
    )
    stub = pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]

    def step(n: int) -> None:
        game = stub.NewGame(pb.NewGameRequest(ruleset="tiu_u", players=3, seed=f"g{n}"), timeout=20)
        view = stub.GetView(pb.GetViewRequest(state=game.state, seat=game.to_act), timeout=20)
        stub.ApplyMove(pb.ApplyMoveRequest(state=game.state, move=view.legal_moves[0]), timeout=20)

    return step, channel.close


def _rest_client(port: int) -> Client:
    """A game step over REST (one kept-alive connection), and how to close the client."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)

    def post(path: str, body: dict[str, object]) -> dict[str, object]:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise AssertionError(f"{path}: {response.status} {data[:300]!r}")
        answer: dict[str, object] = json.loads(data)
        return answer

    def step(n: int) -> None:
        try:
            game = post("/v1/games", {"ruleset": "tiu_u", "players": 3, "seed": f"r{n}"})
            view = post("/v1/games:view", {"state": game["state"], "seat": game["to_act"]})
            moves = view["legal_moves"]
            assert isinstance(moves, list)
            post("/v1/games:applyMove", {"state": game["state"], "move": moves[0]})
        except (OSError, http.client.HTTPException):
            connection.close()  # nginx closed it: the client opens another
            raise

    return step, connection.close


def _load(client: Client, tally: _Tally, stop: threading.Event) -> None:
    step, close = client
    n = 0
    try:
        while not stop.is_set():
            n += 1
            try:
                step(n)
            except Exception as exc:
                tally.add(f"{type(exc).__name__}: {str(exc)[:300]}")
            else:
                tally.add(None)
    finally:
        close()


def _restart(replica: Served, drain_delay: str, env: dict[str, str] | None = None) -> Served:
    code, err = replica.stop()
    assert code == 0, err
    return start(
        "--grpc-port", str(replica.grpc_port), "--http-port", str(replica.http_port),
        "--drain-delay", drain_delay, *REPLICA_ARGS, env=env,
    )  # fmt: skip


@pytest.mark.slow
def test_a_rolling_restart_behind_nginx_fails_no_call(tmp_path: Path) -> None:
    replicas = [start("--drain-delay", DRAIN_DELAY, *REPLICA_ARGS) for _ in range(3)]
    try:
        with _balancer(tmp_path, [(r.grpc_port, r.http_port) for r in replicas]) as ports:
            grpc_tally, rest_tally = _Tally(), _Tally()
            stop = threading.Event()
            clients = [
                threading.Thread(target=_load, args=(_grpc_client(ports[0]), grpc_tally, stop))
                for _ in range(GRPC_CLIENTS)
            ] + [
                threading.Thread(target=_load, args=(_rest_client(ports[1]), rest_tally, stop))
                for _ in range(REST_CLIENTS)
            ]
            for client in clients:
                client.start()
            try:
                # A pause that stays: a phase of steady load through all three replicas
                # before the first restart, the baseline for the calls during the restarts.
                time.sleep(1)
                served_before = grpc_tally.ok, rest_tally.ok
                for i in range(len(replicas)):
                    replicas[i] = _restart(replicas[i], DRAIN_DELAY)
                    # A pause that stays: past nginx's fail_timeout (2 s), the replica is
                    # back in use. nginx shows no sign of its timer running out, and the
                    # replica's first answers are not one: stopping the next replica then
                    # fails calls.
                    time.sleep(2.5)
            finally:
                stop.set()
                for client in clients:
                    client.join(60)
            error_log = (tmp_path / "error.log").read_text()
    finally:
        for replica in replicas:
            replica.kill()
    print(f"calls through nginx: gRPC {grpc_tally.ok}, REST {rest_tally.ok}")
    unusual = [
        line for line in error_log.splitlines() if "[error]" in line and "refused" not in line
    ]
    assert grpc_tally.failures == [] and rest_tally.failures == [], "\n".join(unusual)[-4000:]
    # calls went on through every restart, on both doors
    assert grpc_tally.ok > served_before[0] + 50 and rest_tally.ok > served_before[1] + 50
    # nginx did meet the draining replicas, and sent those calls elsewhere
    assert "Connection refused" in error_log or "prematurely closed" in error_log


# ------------------------------------------------------------------ mixed versions

UPGRADE = ROOT / "tests" / "upgrade"
#: The previous release, whose replicas the rolling update replaces.
PREVIOUS = (ROOT / "release" / "previous-release").read_text().strip()
#: Short matches of every ruleset, two of them over two hands (a token between hands
#: crosses versions too).
MATCHES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("tiu_u", 2, {"tiu_u": {"hands": 2}}),
    ("one_arm_joe", 3, {"one_arm_joe": {"target_score": 0}}),
    ("throw_up", 2, {"throw_up": {"hands_per_player": 1}}),
    ("block", 2, {"block": {"target_score": 0}}),
    ("tsair_deng", 2, {"tsair_deng": {"hands": 1}}),
    ("dancing_dragons", 2, {"dancing_dragons": {"hands": 2}}),
)
_REST_PATHS = {
    "NewGame": "/v1/games",
    "GetLegalMoves": "/v1/games:legalMoves",
    "ApplyMove": "/v1/games:applyMove",
    "GetScore": "/v1/games:score",
}
#: One call: ``(rpc, request as proto3 JSON, request id) -> answer as proto3 JSON``.
Call = Callable[[str, dict[str, Any], str], dict[str, Any]]


def _previous_release(tmp: Path) -> Path:
    """The previous release's package, unpacked from its wheel (pure Python: a wheel is
    a zip of the package; its dependencies are this venv's, the same pinned versions)."""
    wheels = list((UPGRADE / PREVIOUS).glob("domino_rules-*.whl"))
    assert len(wheels) == 1, wheels
    target = tmp / f"domino-rules-{PREVIOUS}"
    with zipfile.ZipFile(wheels[0]) as wheel:
        wheel.extractall(target)
    version = subprocess.run(
        [sys.executable, "-m", "domino_rules.cli", "--version"],
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert version == ["domino-rules", PREVIOUS] != ["domino-rules", domino_rules.__version__]
    return target


def _grpc_caller(port: int) -> tuple[Call, Callable[[], None]]:
    channel = grpc.insecure_channel(
        f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)]
    )
    stub = pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]
    requests = {
        "NewGame": pb.NewGameRequest,
        "GetLegalMoves": pb.GetLegalMovesRequest,
        "ApplyMove": pb.ApplyMoveRequest,
        "GetScore": pb.GetScoreRequest,
    }

    def call(rpc: str, body: dict[str, Any], request_id: str) -> dict[str, Any]:
        request = json_format.ParseDict(body, requests[rpc]())
        answer = getattr(stub, rpc)(request, timeout=20, metadata=(("x-request-id", request_id),))
        out: dict[str, Any] = json_format.MessageToDict(
            answer, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
        )
        return out

    return call, channel.close


def _rest_caller(port: int) -> tuple[Call, Callable[[], None]]:
    holder = [http.client.HTTPConnection("127.0.0.1", port, timeout=20)]

    def call(rpc: str, body: dict[str, Any], request_id: str) -> dict[str, Any]:
        connection = holder[0]
        headers = {"Content-Type": "application/json", "x-request-id": request_id}
        try:
            connection.request("POST", _REST_PATHS[rpc], json.dumps(body), headers)
            response = connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            connection.close()  # nginx closed it: the client opens another
            raise
        if response.status != 200:
            raise AssertionError(f"{rpc}: {response.status} {data[:300]!r}")
        answer: dict[str, Any] = json.loads(data)
        return answer

    return call, lambda: holder[0].close()


@dataclass
class _Ledger:
    """What the match players did: their calls, each with the call whose answer made the
    token it sent (``None`` for NewGame), matches begun and ended, failures."""

    calls: list[tuple[str, str, str | None]] = field(default_factory=list)
    begun: int = 0
    ended: int = 0
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _play_matches(
    name: str, caller: tuple[Call, Callable[[], None]], ledger: _Ledger, stop: threading.Event
) -> None:
    """Whole matches, one after another, until ``stop``; the match under way is played
    to its end."""
    call, close = caller
    chooser = random.Random(name)
    counter = itertools.count(1)

    def traced(rpc: str, body: dict[str, Any], source: str | None) -> tuple[dict[str, Any], str]:
        request_id = f"{name}-{next(counter)}"
        answer = call(rpc, body, request_id)
        with ledger.lock:
            ledger.calls.append((request_id, rpc, source))
        return answer, request_id

    try:
        for n in itertools.count():
            if stop.is_set():
                break
            ruleset, players, options = MATCHES[n % len(MATCHES)]
            with ledger.lock:
                ledger.begun += 1
            try:
                game, source = traced(
                    "NewGame", {"ruleset": ruleset, "players": players, "options": options}, None
                )
                state, version = game["state"], game["version"]
                while True:
                    legal, _ = traced("GetLegalMoves", {"state": state}, source)
                    if legal["status"] == "MATCH_OVER":
                        break
                    move = chooser.choice(legal["moves"])
                    body = {"state": state, "move": move, "expected_version": version}
                    answer, source = traced("ApplyMove", body, source)
                    state, version = answer["state"], answer["version"]
                traced("GetScore", {"state": state}, source)
            except Exception as exc:
                with ledger.lock:
                    ledger.failures.append(f"{ruleset} {type(exc).__name__}: {str(exc)[:300]}")
            else:
                with ledger.lock:
                    ledger.ended += 1
    finally:
        close()


def _served_by(replicas: list[tuple[str, Served]]) -> dict[str, tuple[int, str]]:
    """Each request id that a replica answered OK: the replica (its index) and its
    version, from the replicas' JSON access lines."""
    out: dict[str, tuple[int, str]] = {}
    for index, (version, replica) in enumerate(replicas):
        for line in replica.stderr().splitlines():
            if not line.startswith("{"):
                continue
            entry = json.loads(line)
            if entry.get("rpc") in _REST_PATHS and entry.get("status") == "OK":
                out[entry["request_id"]] = (index, version)
    return out


@pytest.mark.slow
def test_a_rolling_update_from_the_previous_release_loses_no_match(tmp_path: Path) -> None:
    """Three replicas of the previous release, replaced one at a time by this code,
    sealed tokens (one key for all), matches played through nginx across both."""
    previous = _previous_release(tmp_path)
    keys = {
        # one key for every replica, as `domino-rules keygen --id mixed` makes it
        "DOMINO_RULES_SEAL_KEYS": f"mixed:{base64.b64encode(os.urandom(32)).decode()}",
        "DOMINO_RULES_REQUIRE_SEALED": "1",
        "DOMINO_RULES_LOG_FORMAT": "json",
    }
    old_env = {**keys, "PYTHONPATH": str(previous)}
    current = domino_rules.__version__
    started: list[tuple[str, Served]] = []
    replicas = [start("--drain-delay", DRAIN_DELAY, *REPLICA_ARGS, env=old_env) for _ in range(3)]
    started += [(PREVIOUS, r) for r in replicas]
    ledger = _Ledger()
    try:
        with _balancer(tmp_path, [(r.grpc_port, r.http_port) for r in replicas]) as ports:
            stop = threading.Event()
            players = [
                threading.Thread(
                    target=_play_matches,
                    args=(f"g{i}", _grpc_caller(ports[0]), ledger, stop),
                )
                for i in range(GRPC_CLIENTS)
            ] + [
                threading.Thread(
                    target=_play_matches,
                    args=(f"r{i}", _rest_caller(ports[1]), ledger, stop),
                )
                for i in range(REST_CLIENTS)
            ]
            for player in players:
                player.start()
            try:
                # A pause that stays: matches under way on the old fleet first.
                time.sleep(1)
                for i in range(len(replicas)):
                    replicas[i] = _restart(replicas[i], DRAIN_DELAY, env=keys)
                    started.append((current, replicas[i]))
                    # A pause that stays: the mixed fleet serves (past nginx's 2 s
                    # fail_timeout, as in the test above) before the next replica goes.
                    time.sleep(2.5)
            finally:
                stop.set()
                for player in players:
                    player.join(120)
    finally:
        for replica in replicas:
            replica.kill()
    served = _served_by(started)
    reads = [(rid, rpc, source) for rid, rpc, source in ledger.calls if source is not None]
    crossings = {(a, b): 0 for a in (PREVIOUS, current) for b in (PREVIOUS, current)}
    other_replica = 0
    for rid, _, source in reads:
        (made_on, made_by), (read_on, read_by) = served[source], served[rid]
        crossings[made_by, read_by] += 1
        other_replica += made_on != read_on
    moves = sum(1 for _, rpc, _ in ledger.calls if rpc == "ApplyMove")
    print(
        f"mixed-version rolling update {PREVIOUS} -> {current}: {len(ledger.calls)} calls, "
        f"{len(ledger.failures)} failed; {ledger.ended} of {ledger.begun} matches played to "
        f"the end, {moves} moves; tokens read {len(reads)} times, "
        f"{other_replica / max(len(reads), 1):.0%} on another replica than made them; "
        + ", ".join(f"made by {a} read by {b}: {n}" for (a, b), n in crossings.items())
    )
    assert ledger.failures == []
    assert ledger.ended == ledger.begun > 2 * len(MATCHES)
    assert set(served) >= {rid for rid, _, _ in ledger.calls}
    # tokens crossed from each version to the other
    assert crossings[PREVIOUS, current] > 0 and crossings[current, PREVIOUS] > 0
