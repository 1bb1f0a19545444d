#!/usr/bin/env python3
"""The floor of each door: what an ApplyMove costs the server when the rules cost nothing.

The request-path target (issue "Fast all the way": server CPU per ApplyMove at most
1.25x the door's trivial call) splits into two parts: what the door itself spends on an
ApplyMove-sized exchange (receive, parse, the handler, the request id, metrics and access
line, the answer's encoding and sending) and what the rules spend (open and check the
token, apply the move, seal the new state). This bench measures both, so the budget the
target leaves for the rules can be read off.

For each door it starts two servers built exactly as ``domino-rules serve`` builds its
doors (:func:`domino_rules.grpc_server.serve_process`, :func:`domino_rules.gateway.run_gateway`
under gunicorn with the gateway's worker; one process, sealed tokens, access lines at
INFO to a pipe the bench reads), which differ only in the service they are given:

- ``rules``: the real service; each ApplyMove opens the token in full (*cold*, as in
  ``bench/doors.py``);
- ``canned``: ApplyMove answers from a table, made at start-up by the real service, of
  the answer to each of the bench's requests: the same answer bytes, with no rules work.

and runs interleaved rounds, on both servers, of the door's trivial call (gRPC health
check, REST ``GET /healthz``) and ApplyMove of every ruleset on a mid-hand token. For
each it prints calls per second and the server CPU per call from the server process's own
accounting (``/proc``), and the ratio to the trivial call *of the same server*. Then, per
door and client count: the floor (worst ``canned`` ratio), what the 1.25x target leaves
for the rules in µs (``1.25 x trivial - canned``), and what the rules cost here
(``rules - canned``). Last, for comparison, the rules' cost in the bench's own process:
an ApplyMove called back to back, every cache hot, and one called after other work has
evicted the caches, as a server's own machinery does between two calls. Figures only;
no thresholds fail anything.

Usage::

    python bench/floor.py [--seconds 1.5] [--rounds 3] [--clients 1 8] [--json]
"""

from __future__ import annotations

import argparse
import base64
import collections
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.doors import (
    CPU_RATIO_TARGET,
    Call,
    descendants,
    grpc_calls,
    measure,
    mid_hand_requests,
    rest_calls,
)
from domino_rules.api import RulesService
from domino_rules.settings import Settings
from domino_rules.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

ANSWERS = ("rules", "canned")
DOORS = ("grpc", "rest")


class CannedService(RulesService):
    """The real service, but ApplyMove answers each known request from a table."""

    def __init__(self, tokens: TokenCodec, requests: list[pb.ApplyMoveRequest]) -> None:
        super().__init__(tokens)
        self.answers = {r.state: super(CannedService, self).ApplyMove(r) for r in requests}

    def ApplyMove(self, request: pb.ApplyMoveRequest) -> pb.ApplyMoveResponse:
        return self.answers[request.state]


def _settings_class(answers: str, requests: list[pb.ApplyMoveRequest]) -> type[Settings]:
    class BenchSettings(Settings):
        def service(self) -> RulesService:
            if answers == "canned":
                return CannedService(self.tokens(), requests)
            return super().service()

    return BenchSettings


def serve(door: str, answers: str, requests_file: str) -> int:
    """The server of one door (in this process), answering as ``answers`` says; prints
    its port once it serves."""
    from domino_rules import logs

    requests = [
        pb.ApplyMoveRequest.FromString(base64.b64decode(line))
        for line in Path(requests_file).read_text().split()
    ]
    # a port reserved as serve's supervisor reserves it: gRPC binds it too (SO_REUSEPORT),
    # gunicorn serves on this socket
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    env = {**os.environ, "DOMINO_RULES_GRPC_PORT": str(port), "DOMINO_RULES_HTTP_PORT": "0"}
    settings = _settings_class(answers, requests).from_env(env)
    logs.configure(settings.log_level, settings.log_format)
    ready_read, ready_write = os.pipe()

    def say_ready() -> None:
        os.read(ready_read, 1)
        print(port, flush=True)

    threading.Thread(target=say_ready, daemon=True).start()
    if door == "grpc":
        from domino_rules.grpc_server import serve_process

        return serve_process(settings, ready_fd=ready_write, drain_fd=None)
    from domino_rules.gateway import run_gateway

    listener.listen(1024)
    return run_gateway(
        settings, listen_fds=[listener.fileno()], drain_fd=None, ready_fd=ready_write
    )


@contextlib.contextmanager
def started(door: str, answers: str, requests_file: str, keys: str) -> Iterator[tuple[int, int]]:
    """A server of :func:`serve` in a child process: its port and pid."""
    env = {
        **os.environ,
        "DOMINO_RULES_SEAL_KEYS": keys,
        "DOMINO_RULES_REQUIRE_SEALED": "1",
        "DOMINO_RULES_GRPC_WORKERS": "1",
        "DOMINO_RULES_HTTP_WORKERS": "1",
    }
    command = [sys.executable, __file__, "--serve", door, answers, requests_file]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stderr is not None
    stderr = process.stderr
    last_lines: collections.deque[str] = collections.deque(maxlen=20)
    # the access lines, read as serve's are, the last few kept for a failed start
    reader = threading.Thread(target=lambda: last_lines.extend(stderr), daemon=True)
    reader.start()
    try:
        line = process.stdout.readline()
        if not line:
            process.wait(30)
            reader.join(5)
            raise RuntimeError(f"the {answers} {door} server did not start:\n{''.join(last_lines)}")
        yield int(line), process.pid
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.5, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (medians)")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--serve", nargs=3, metavar=("DOOR", "ANSWERS", "FILE"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.serve:
        return serve(*args.serve)

    load_before = os.getloadavg()
    keys = KeyRing.generate("bench")
    requests = mid_hand_requests(RulesService(TokenCodec(KeyRing.parse(keys))))
    results: list[dict[str, Any]] = []
    with (
        tempfile.NamedTemporaryFile("w", suffix=".requests") as file,
        contextlib.ExitStack() as stack,
    ):
        file.write(
            "\n".join(base64.b64encode(r.SerializeToString()).decode() for r in requests.values())
        )
        file.flush()
        for door in DOORS:
            factory = grpc_calls if door == "grpc" else rest_calls
            servers: dict[str, tuple[Callable[[], dict[str, Call]], list[int]]] = {}
            for answers in ANSWERS:
                port, pid = stack.enter_context(started(door, answers, file.name, keys))
                servers[answers] = (factory(port, requests), descendants([pid]))
            for n in args.clients:
                clients = {answers: [f() for _ in range(n)] for answers, (f, _) in servers.items()}
                names = ["trivial", *requests]
                for answers, (_, pids) in servers.items():
                    for name in names:  # warm up every path once
                        measure(clients[answers], name, 0.2, pids)
                samples: dict[tuple[str, str], list[tuple[float, float]]] = {}
                for _ in range(args.rounds):
                    for name in names:
                        for answers, (_, pids) in servers.items():
                            sample = measure(clients[answers], name, args.seconds, pids)
                            samples.setdefault((answers, name), []).append(sample)
                for answers in ANSWERS:
                    trivial_cpu = statistics.median(s[1] for s in samples[answers, "trivial"])
                    for name in names:
                        rate = statistics.median(s[0] for s in samples[answers, name])
                        cpu = statistics.median(s[1] for s in samples[answers, name])
                        results.append(
                            {
                                "door": door,
                                "clients": n,
                                "answers": answers,
                                "call": name if name == "trivial" else f"ApplyMove {name}",
                                "calls_per_s": round(rate, 1),
                                "server_cpu_us": round(cpu, 1),
                                "cpu_ratio": round(cpu / trivial_cpu, 3),
                            }
                        )
            stack.close()  # this door's servers stop before the next door's start
    in_process = rules_in_process(keys, requests, args.rounds)
    load_after = os.getloadavg()
    summary = _summary(results)
    if args.json:
        print(
            json.dumps(
                {
                    "load": [load_before, load_after],
                    "results": results,
                    "summary": summary,
                    "in_process": in_process,
                }
            )
        )
        return 0
    print(f"load average at start {load_before[0]:.2f}, at end {load_after[0]:.2f}")
    print(f"{'door':5} {'clients':>7} {'answers':8} {'call':24} {'calls/s':>9} "
          f"{'server µs':>10} {'cpu x':>7}")  # fmt: skip
    for r in results:
        print(
            f"{r['door']:5} {r['clients']:>7} {r['answers']:8} {r['call']:24} "
            f"{r['calls_per_s']:>9.0f} {r['server_cpu_us']:>10.0f} {r['cpu_ratio']:>7.2f}"
        )
    for s in summary:
        print(
            f"{s['door']} at {s['clients']} client(s): floor {s['floor_ratio']:.2f}x the trivial "
            f"call; the {CPU_RATIO_TARGET}x target leaves {s['budget_us']:.0f} µs for the rules, "
            f"which cost {s['rules_us_min']:.0f}-{s['rules_us_max']:.0f} µs here"
        )
    print("the rules in this process (CPU µs per ApplyMove, cold token):")
    for ruleset_id, (hot, evicted) in in_process.items():
        print(f"  {ruleset_id:12} hot {hot:6.0f}   after other work {evicted:6.0f}")
    return 0


#: What :func:`rules_in_process` touches between two calls to evict the caches.
_EVICT_BYTES = 16 << 20
_EVICT_STRIDE = 4096


def rules_in_process(
    keys: str, requests: dict[str, pb.ApplyMoveRequest], rounds: int, calls: int = 1000
) -> dict[str, tuple[float, float]]:
    """Per ruleset, the CPU µs of an ApplyMove called back to back (every cache hot) and
    called after other work (a pass over :data:`_EVICT_BYTES` of memory and some
    unrelated interpreter work, as a server's own machinery does between two calls),
    its cost counted apart; medians of ``rounds``."""
    service = RulesService(TokenCodec(KeyRing.parse(keys)))
    memory = bytearray(_EVICT_BYTES)
    other = {str(i): [i, str(i)] for i in range(150)}

    def evict() -> None:
        for i in range(0, _EVICT_BYTES, _EVICT_STRIDE):
            memory[i] ^= 1
        json.loads(json.dumps(other))

    def cpu_us(call: Callable[[], object]) -> float:
        start = time.process_time()
        for _ in range(calls):
            call()
        return (time.process_time() - start) / calls * 1e6

    out = {}
    for ruleset_id, request in requests.items():
        hot, evicted = [], []

        def apply(request: pb.ApplyMoveRequest = request) -> None:
            service.ApplyMove(request)

        def evict_then_apply(request: pb.ApplyMoveRequest = request) -> None:
            evict()
            service.ApplyMove(request)

        for _ in range(rounds):
            hot.append(cpu_us(apply))
            alone = cpu_us(evict)
            evicted.append(cpu_us(evict_then_apply) - alone)
        out[ruleset_id] = (round(statistics.median(hot), 1), round(statistics.median(evicted), 1))
    return out


def _summary(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per door and client count: the floor, the rules' budget and the rules' cost."""
    out = []
    keys = sorted(
        {(r["door"], r["clients"]) for r in results}, key=lambda k: (DOORS.index(k[0]), k[1])
    )
    for door, n in keys:
        rows = {
            (r["answers"], r["call"]): r for r in results if r["door"] == door and r["clients"] == n
        }
        calls = [call for answers, call in rows if answers == "canned" and call != "trivial"]
        trivial = rows["canned", "trivial"]["server_cpu_us"]
        canned = {c: rows["canned", c]["server_cpu_us"] for c in calls}
        costs = [rows["rules", c]["server_cpu_us"] - canned[c] for c in calls]
        out.append(
            {
                "door": door,
                "clients": n,
                "floor_ratio": max(rows["canned", c]["cpu_ratio"] for c in calls),
                "budget_us": round(CPU_RATIO_TARGET * trivial - max(canned.values()), 1),
                "rules_us_min": round(min(costs), 1),
                "rules_us_max": round(max(costs), 1),
            }
        )
    return out


if __name__ == "__main__":
    sys.exit(main())
