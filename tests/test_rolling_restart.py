"""A rolling update behind a real balancer loses no call.

nginx (Debian's package, which ``make test`` installs) runs the configuration that
``deploy/nginx/domino-rules.conf.template`` documents, in front of three ``serve``
replicas. Clients call through nginx on both doors without pause, gRPC and REST, each
call a short game step (NewGame, GetView, ApplyMove), while each replica in turn gets
SIGTERM, drains, exits and starts again on the same ports. Every call must succeed.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest

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


def _restart(replica: Served, drain_delay: str) -> Served:
    code, err = replica.stop()
    assert code == 0, err
    return start(
        "--grpc-port", str(replica.grpc_port), "--http-port", str(replica.http_port),
        "--drain-delay", drain_delay, *REPLICA_ARGS,
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
