#!/usr/bin/env python3
"""Every core used: throughput of one server process against two, on each door.

Starts ``domino-rules serve`` (tests/served.py) twice per door: with one process for the
door (``--grpc-workers 1`` or ``--http-workers 1``) and with two, and drives it with
``--clients`` (8) client *processes* (so the load generator is not held to one core by
its own interpreter lock), each sending ``ApplyMove`` on a One Arm Joe token in the
middle of a hand, back to back, for ``--seconds``. Prints calls per second for each
arrangement and the ratio two/one (target ≥ 1.6 at 8 clients: issue "Fast all the
way"), with the load average and each server process's resident memory. On a machine
with fewer than two cores the ratio says nothing. Figures only; no thresholds fail.

Usage::

    python bench/servers.py [--seconds 5] [--clients 8] [--rounds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import doors
from domino_rules.api import RulesService
from domino_rules.tokens import KeyRing, TokenCodec
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per arrangement (medians)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    load_before = os.getloadavg()
    keys = KeyRing.generate("bench")
    request = doors.mid_hand_requests(RulesService(TokenCodec(KeyRing.parse(keys))))[
        "one_arm_joe"
    ].SerializeToString()
    results: dict[str, dict[int, float]] = {"grpc": {}, "rest": {}}
    memory: dict[str, list[float]] = {}
    for door, flag in (("grpc", "--grpc-workers"), ("rest", "--http-workers")):
        for processes in (1, 2):
            other = "--http-workers" if door == "grpc" else "--grpc-workers"
            with served.serving(flag, str(processes), other, "1", "--seal-keys", keys) as server:
                port = server.grpc_port if door == "grpc" else server.http_port
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
        "calls_per_s": results,
        "ratio": {d: round(r[2] / r[1], 2) for d, r in results.items()},
        "rss_mib": memory,
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"load average at start {load_before[0]:.2f}, at end {load_after[0]:.2f}; "
          f"{report['cores']} cores; {args.clients} client processes")  # fmt: skip
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
