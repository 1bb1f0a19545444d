#!/usr/bin/env python3
"""Every core used: throughput of one server process against two, on each door.

Starts ``domino-rules serve`` (tests/served.py) twice per door: with one process for the
door (``--grpc-workers 1`` or ``--http-workers 1``) and with two, and drives it with
``--clients`` (8) clients, each sending ``ApplyMove`` on a One Arm Joe token in the middle
of a hand, back to back (one call in flight per client), for ``--seconds``. Prints calls
per second for each arrangement and the ratio two/one (target ≥ 1.6 at 8 clients: issue
"Fast all the way"), with the load average and each server process's resident memory.

The load generator shares the machine's cores with the servers, so it must cost them
little. By default it is ``h2load`` (nghttp2's load generator, in C; Debian's
``nghttp2-client``): each client is one connection (HTTP/2 for gRPC, with the request's
gRPC frame as the body; HTTP/1.1 keep-alive for REST), after a second of warm-up; every
answer must be a success with the answer's full size, or the bench stops. Without
``h2load`` (or with ``--python-clients``) the clients are Python processes (gRPC sending
and keeping raw bytes, REST one keep-alive connection each), which take a large share of
the cores from the servers: the ratio then understates what a second core gives. On a
machine with fewer than two cores the ratio says nothing. Figures only; no thresholds
fail.

Usage::

    python bench/servers.py [--seconds 5] [--clients 8] [--rounds 3] [--python-clients] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import doors
from domino_rules.api import RulesService
from domino_rules.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb
from tests import served

TARGET = 1.6
APPLY_MOVE = "/domino_rules.v1.DominoRules/ApplyMove"


def _client(door: str, port: int, request: bytes, seconds: float, start_at: float) -> int:
    """One client process: calls until the deadline; returns how many it made.

    The load generator shares the machine's cores with the servers, so each call is made
    as cheaply as its door allows: gRPC sends the request's bytes as they are and keeps
    the answer's bytes (no protobuf work in the client), REST one keep-alive connection.
    """
    call: Callable[[], object]
    if door == "grpc":
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        method: grpc.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(APPLY_MOVE)

        def call() -> object:
            return method(request, timeout=30)
    else:
        from domino_rules.v1 import domino_rules_pb2 as pb

        message = pb.ApplyMoveRequest.FromString(request)
        call = doors.rest_calls(port, {"one_arm_joe": message})()["one_arm_joe"]
    call()  # connect before the clock starts
    time.sleep(max(0.0, start_at - time.time()))
    n, stop = 0, start_at + seconds
    while time.time() < stop:
        call()
        n += 1
    return n


def rate(door: str, port: int, request: bytes, clients: int, seconds: float) -> float:
    context = multiprocessing.get_context("spawn")  # never fork a process that holds grpc
    start_at = time.time() + 2.0 + 0.2 * clients
    with context.Pool(clients) as pool:
        counts = pool.starmap(
            _client, [(door, port, request, seconds, start_at) for _ in range(clients)]
        )
    return sum(counts) / seconds


def h2load_rate(
    door: str, port: int, request: pb.ApplyMoveRequest, answer: bytes, clients: int, seconds: float
) -> float:
    """Calls per second with ``h2load``: ``clients`` connections, one call in flight on
    each. Raises if any call failed or (gRPC) came back without the whole ``answer``."""
    if door == "grpc":
        data = request.SerializeToString()
        body = b"\0" + len(data).to_bytes(4, "big") + data  # one uncompressed gRPC frame
        options = ["-H", "content-type: application/grpc", "-H", "te: trailers"]
        url = f"http://127.0.0.1:{port}{APPLY_MOVE}"
    else:
        body = json.dumps(json_format.MessageToDict(request)).encode()
        options = ["--h1", "-H", "content-type: application/json"]
        url = f"http://127.0.0.1:{port}/v1/games:applyMove"
    with tempfile.NamedTemporaryFile(suffix=".body") as file:
        file.write(body)
        file.flush()
        command = [
            "h2load", *options, "-d", file.name, "-c", str(clients), "-m", "1", "-t", "1",
            "--warm-up-time", "1", "-D", f"{round(seconds * 1000)}ms", url,
        ]  # fmt: skip
        done_run = subprocess.run(command, capture_output=True, text=True, check=False)
    out = done_run.stdout
    if done_run.returncode != 0:
        raise RuntimeError(f"h2load failed ({done_run.returncode}):\n{out}{done_run.stderr}")
    done = re.search(r"(\d+) done, \d+ succeeded, (\d+) failed, (\d+) errored, (\d+) timeout", out)
    per_second = re.search(r"finished in [\d.]+s, ([\d.]+) req/s", out)
    statuses = re.search(r"status codes: \d+ 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", out)
    received = re.search(r"\((\d+)\) data", out)
    if not (done and per_second and statuses and received):
        raise RuntimeError(f"h2load printed no figures:\n{out}")
    calls = int(done.group(1))
    if any(int(n) for n in (*done.groups()[1:], *statuses.groups())):
        raise RuntimeError(f"some calls failed:\n{out}")
    if door == "grpc" and int(received.group(1)) < calls * (len(answer) + 5):
        raise RuntimeError(f"some gRPC calls did not answer in full (an error status?):\n{out}")
    return float(per_second.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per arrangement (medians)")
    parser.add_argument(
        "--python-clients",
        action="store_true",
        help="load from Python client processes, even if h2load is installed",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    generator = "h2load" if shutil.which("h2load") and not args.python_clients else "python"

    load_before = os.getloadavg()
    keys = KeyRing.generate("bench")
    service = RulesService(TokenCodec(KeyRing.parse(keys)))
    message = doors.mid_hand_requests(service)["one_arm_joe"]
    request = message.SerializeToString()
    answer = service.ApplyMove(message).SerializeToString()
    results: dict[str, dict[int, float]] = {"grpc": {}, "rest": {}}
    memory: dict[str, list[float]] = {}
    for door, flag in (("grpc", "--grpc-workers"), ("rest", "--http-workers")):
        for processes in (1, 2):
            other = "--http-workers" if door == "grpc" else "--grpc-workers"
            with served.serving(flag, str(processes), other, "1", "--seal-keys", keys) as server:
                port = server.grpc_port if door == "grpc" else server.http_port
                if generator == "h2load":
                    rates = [
                        h2load_rate(door, port, message, answer, args.clients, args.seconds)
                        for _ in range(args.rounds)
                    ]
                else:
                    rates = [
                        rate(door, port, request, args.clients, args.seconds)
                        for _ in range(args.rounds)
                    ]
                results[door][processes] = statistics.median(rates)
                pids = doors.descendants(served.door_processes(server, door))
                memory[f"{door} x{processes}"] = [round(doors.rss_mib(p), 1) for p in pids]
    load_after = os.getloadavg()

    report: dict[str, Any] = {
        "load": [load_before, load_after],
        "cores": len(os.sched_getaffinity(0)),
        "clients": args.clients,
        "load_generator": generator,
        "calls_per_s": results,
        "ratio": {d: round(r[2] / r[1], 2) for d, r in results.items()},
        "rss_mib": memory,
    }
    if args.json:
        print(json.dumps(report))
        return 0
    clients = "h2load connections" if generator == "h2load" else "Python client processes"
    print(f"load average at start {load_before[0]:.2f}, at end {load_after[0]:.2f}; "
          f"{report['cores']} cores; {args.clients} {clients}")  # fmt: skip
    for door, by in results.items():
        ratio = by[2] / by[1]
        verdict = "PASS" if ratio >= TARGET else "FAIL"
        print(
            f"{door}: one process {by[1]:.0f} calls/s, two {by[2]:.0f} calls/s: "
            f"{ratio:.2f}x (target >= {TARGET}): {verdict}"
        )
    for name, sizes in memory.items():
        print(f"{name} processes RSS MiB: {', '.join(map(str, sizes))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
