"""How ``domino-rules serve`` runs its doors: a supervisor that never loads gRPC, gRPC
processes sharing one port, a graceful stop, and many starts without a crash."""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import http.client
import json
import os
import signal
import socket
import sys
import threading
import time
import urllib.error
import urllib.request

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from domino_rules.serving.supervisor import MIN_LIFETIME
from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc

from .served import Served, children, door_processes, outlived, serving, start, tcp_sockets
from .support.waiting import wait_until

#: Starts fleets of serve, 50 times over, and waits on their processes: alone on the machine.
pytestmark = [
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="reads /proc; SO_REUSEPORT as Linux has it"
    ),
    pytest.mark.serial,
]

SERVICE = "domino_rules.v1.DominoRules"


def _listening_sockets(port: int) -> int:
    """How many sockets listen on TCP ``port`` on this machine."""
    return sum(1 for fields in tcp_sockets(port) if fields[3] == "0A")


def _health(port: int, service: str) -> int:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        answer = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=service), timeout=10
        )
    return int(answer.status)


def _http_status(url: str) -> tuple[int, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_the_supervisor_never_loads_grpc_nor_starts_a_thread() -> None:
    """serve forks nothing after gRPC threads exist: it never has gRPC loaded, nor any
    thread but its main one; each door runs in a process of its own."""
    with serving("--grpc-workers", "2", "--http-workers", "1") as served:
        pid = served.process.pid
        with open(f"/proc/{pid}/maps") as maps:
            assert "cygrpc" not in maps.read()
        assert os.listdir(f"/proc/{pid}/task") == [str(pid)]
        assert len(door_processes(served, "grpc")) == 2
        assert len(door_processes(served, "rest")) == 1
        assert served.stop()[0] == 0


def test_grpc_processes_share_the_port() -> None:
    """Each gRPC process listens on the one port (SO_REUSEPORT), port 0 included."""
    with serving("--grpc-workers", "2", "--http-workers", "1") as served:
        assert _listening_sockets(served.grpc_port) == 2
        for _ in range(4):  # new connections, spread by the kernel: each is answered
            assert _health(served.grpc_port, "") == health_pb2.HealthCheckResponse.SERVING
        assert served.stop()[0] == 0


def _worker_of_each(served: Served, client_ports: list[int]) -> list[int]:
    """The gunicorn worker holding the server side of each connection (from /proc)."""
    inodes = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == served.http_port:
                    inodes[int(fields[2].rsplit(":", 1)[1], 16)] = fields[9]
    holder = {}
    (gateway,) = door_processes(served, "rest")
    for worker in children(gateway):
        for fd in os.listdir(f"/proc/{worker}/fd"):
            with contextlib.suppress(OSError):
                holder[os.readlink(f"/proc/{worker}/fd/{fd}")] = worker
    return [holder.get(f"socket:[{inodes.get(port)}]", 0) for port in client_ports]


def test_rest_workers_share_a_burst_of_kept_alive_connections() -> None:
    """16 connections opened at once spread over both workers, not all on one."""
    with serving("--grpc-workers", "1", "--http-workers", "2") as served:
        connections = [
            http.client.HTTPConnection("127.0.0.1", served.http_port, timeout=30) for _ in range(16)
        ]
        for connection in connections:
            connection.connect()
        for connection in connections:  # each answered: each accepted by some worker
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            response.read()
            assert response.status == 200
        workers = _worker_of_each(served, [c.sock.getsockname()[1] for c in connections])
        for connection in connections:
            connection.close()
        counts = collections.Counter(workers)
        assert 0 not in counts and len(counts) == 2, counts
        assert max(counts.values()) <= 2 * min(counts.values()), counts


def _call_until(
    stub: pb_grpc.DominoRulesStub, stop: threading.Event, outcomes: list[str], sent_at: list[float]
) -> None:
    """NewGame calls back to back on an open connection until ``stop``; each outcome, and
    the time each call that succeeded was answered."""
    request = pb.NewGameRequest(ruleset="one_arm_joe", players=3, seed="stop")
    while not stop.is_set():
        try:
            stub.NewGame(request, timeout=30)
        except grpc.RpcError as error:
            outcomes.append(error.code().name)
            return
        outcomes.append("OK")
        sent_at.append(time.monotonic())


def _refused(port: int) -> bool:
    """Whether a new TCP connection to ``port`` is refused."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except ConnectionRefusedError:
        return True
    return False


def test_a_graceful_stop_drains_then_lets_calls_in_flight_finish() -> None:
    """On SIGTERM: gRPC health and /readyz say NOT_SERVING at once, and the gRPC door
    refuses new connections (a balancer retries them elsewhere), while the connections
    already open are served as before for the drain delay; a call in flight when the
    doors stop gets the grace to finish, no call is refused by an answer, and serve
    exits 0."""
    with serving(
        "--grpc-workers", "1", "--http-workers", "1", "--drain-delay", "2", "--grace", "10"
    ) as served:
        channel = grpc.insecure_channel(f"127.0.0.1:{served.grpc_port}")
        stub = pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]
        health = health_pb2_grpc.HealthStub(channel)
        stop_calling = threading.Event()
        outcomes: list[list[str]] = [[] for _ in range(4)]
        answered: list[list[float]] = [[] for _ in range(4)]
        callers = [
            threading.Thread(target=_call_until, args=(stub, stop_calling, o, a))
            for o, a in zip(outcomes, answered, strict=True)
        ]
        for caller in callers:
            caller.start()
        wait_until(lambda: all(outcomes), 30, "a first answer to each caller")
        assert all(o and o[0] == "OK" for o in outcomes), outcomes
        state = stub.NewGame(pb.NewGameRequest(ruleset="throw_up", players=3)).state
        legal = stub.GetLegalMoves(pb.GetLegalMovesRequest(state=state)).moves
        search = pb.SuggestMoveRequest(state=state, level=pb.BotLevel.STRONG, playouts=2000)
        signalled = time.monotonic()
        served.process.send_signal(signal.SIGTERM)
        not_serving = health_pb2.HealthCheckResponse.NOT_SERVING
        check = health_pb2.HealthCheckRequest
        wait_until(
            lambda: health.Check(check(service=""), timeout=10).status == not_serving,
            signalled + 1.5 - time.monotonic(),
            "gRPC health NOT_SERVING within 1.5 s of SIGTERM",
        )
        assert health.Check(check(service=SERVICE), timeout=10).status == not_serving
        assert _http_status(f"{served.base}/readyz") == (503, {"status": "NOT_SERVING"})
        assert _http_status(f"{served.base}/healthz") == (200, {"status": "SERVING"})
        assert _refused(served.grpc_port)  # no new connection, while the open ones serve
        # A pause that stays: the callers go on into the drain delay (2 s) as a balancer's
        # would, and stop near its end; no event marks that moment, only the clock.
        time.sleep(max(0.0, signalled + 1.7 - time.monotonic()))
        stop_calling.set()  # a balancer has stopped sending by the end of the drain delay
        # three long searches (one running, two waiting for a bot) just before the doors
        # stop, at 2 s: they end well after the stop, within the grace
        searches = [stub.SuggestMove.future(search, timeout=60) for _ in range(3)]
        for caller in callers:
            caller.join(timeout=60)
        code, err = served.wait(60, "SIGTERM")
        channel.close()
    assert code == 0, err
    assert all(s.result().move in legal for s in searches)  # each answered, in the grace
    for outcome, times in zip(outcomes, answered, strict=True):
        assert set(outcome) == {"OK"}, outcome  # never refused, never cancelled
        assert any(t > signalled + 1 for t in times)  # served during the drain
    assert "Traceback" not in err


def _serves(served: Served) -> bool:
    return bool(_health(served.grpc_port, SERVICE) == health_pb2.HealthCheckResponse.SERVING)


@pytest.mark.slow
def test_a_grpc_process_that_dies_is_replaced() -> None:
    with serving("--grpc-workers", "2", "--http-workers", "1") as served:
        # a process that dies sooner than the minimum lifetime stops all; the supervisor
        # notes a start a moment after the fork, hence the margin
        old_enough = MIN_LIFETIME + 0.5
        wait_until(
            lambda: outlived(served, "grpc", 2, old_enough),
            old_enough + 30,
            "both gRPC processes to outlive the minimum lifetime",
            every=0.05,
        )
        first, second = door_processes(served, "grpc")
        os.kill(first, signal.SIGKILL)

        def replaced() -> list[int]:
            now = door_processes(served, "grpc")
            return now if len(now) == 2 and first not in now else []

        now = wait_until(replaced, 30, "a gRPC process in place of the one that died")
        assert second in now and _serves(served)
        assert served.stop()[0] == 0


def test_serve_stops_with_status_1_if_the_gateway_dies() -> None:
    with serving("--grpc-workers", "1", "--http-workers", "1") as served:
        (gateway,) = door_processes(served, "rest")
        os.kill(gateway, signal.SIGKILL)
        code, err = served.wait(60, "its gateway died")
        assert code == 1
        assert "the REST gateway exited" in err


def _start_and_stop(attempt: int) -> None:
    served = start("--grpc-workers", "1", "--http-workers", "1")
    try:
        code, err = served.stop()
    finally:
        served.kill()
    assert code == 0, f"start {attempt}: exit status {code}\n{err}"
    for sign in ("Traceback", "Abort", "epoll", "SIG"):
        assert sign not in err, f"start {attempt}:\n{err}"


@pytest.mark.slow
def test_serve_starts_and_stops_50_times_without_a_crash() -> None:
    """Start-up forks nothing after a gRPC thread exists: 50 starts (two at a time),
    50 clean stops, nothing on stderr but the start-up warning."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for outcome in pool.map(_start_and_stop, range(50)):
            assert outcome is None


def test_the_gunicorn_internals_the_gateway_builds_on_are_there() -> None:
    """GatewayWorker overrides parts of gunicorn's threaded worker: a gunicorn whose
    worker lacks them must fail here, by name, not in production."""
    from gunicorn.workers import gthread  # type: ignore[import-untyped, unused-ignore]

    for name in (
        "accept",
        "enqueue_req",
        "finish_request",
        "handle",
        "handle_request",
        "murder_keepalived",
        "murder_pending",
        "set_accept_enabled",
        "wait_for_and_dispatch_events",
        "_cap_keepalive",
        "_keepalive_after",
    ):
        assert callable(getattr(gthread.ThreadWorker, name, None)), name
    assert callable(getattr(gthread.TConn, "init", None))
