#!/usr/bin/env python3
"""Memory of a gRPC process of ``domino-rules serve`` through a flood of large calls.

Starts ``domino-rules serve --grpc-workers 1`` on 127.0.0.1 (ports 0; extra flags are
passed on, e.g. ``--grpc-max-calls 100000`` to see the flood without the limit), reads
the resident memory (``VmRSS``) of its gRPC process, then sends ``--calls`` (2,000)
``GetLegalMoves`` calls whose state token is ``--kib`` (900) KiB, ``--at-once`` (500)
at a time on one channel. Each is refused (``BAD_STATE_TOKEN``: a token is at most
64 KiB), or refused at once with ``RESOURCE_EXHAUSTED`` past the concurrent-call limit.
Prints the answers by status code and the memory before, at the peak (sampled every
10 ms), right after, and ``--settle`` (5) seconds after the flood. Linux only (``/proc``).

Prints figures only; there are no thresholds. Traffic goes only to 127.0.0.1.

Usage::

    python bench/grpc_flood.py [--calls 2000] [--at-once 500] [--kib 900] [-- FLAGS...]
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import signal
import subprocess
import sys
import threading
import time

import grpc

from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc

SERVE = [sys.executable, "-m", "domino_rules.cli", "serve", "--grpc-port", "0", "--http-port", "0"]


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def grpc_process(serve_pid: int) -> int:
    """The pid of the (one) gRPC process under ``serve``."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{name}/cmdline", "rb") as cmdline:
                words = cmdline.read().split(b"\0")
        except OSError:
            continue
        if parent == serve_pid and b"grpc" in words:
            return int(name)
    raise RuntimeError("no gRPC process found")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--at-once", type=int, default=500)
    parser.add_argument("--kib", type=int, default=900)
    parser.add_argument("--settle", type=float, default=5.0)
    parser.add_argument("flags", nargs="*", help="more flags for serve (after --)")
    args = parser.parse_args()
    process = subprocess.Popen(
        [*SERVE, "--grpc-workers", "1", "--http-workers", "1", *args.flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        process.stdout.readline()
        found = re.search(r"gRPC listening on 127\.0\.0\.1:(\d+)", line)
        if not found:
            raise SystemExit(f"serve did not start: {line!r}")
        port = int(found.group(1))
        pid = grpc_process(process.pid)
        before = rss_mib(pid)
        peak = before
        sampling = True

        def sample() -> None:  # every 10 ms while the flood lasts
            nonlocal peak
            while sampling:
                peak = max(peak, rss_mib(pid))
                time.sleep(0.01)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        request = pb.GetLegalMovesRequest(state=os.urandom(args.kib * 1024))
        codes: collections.Counter[str] = collections.Counter()
        started = time.monotonic()
        with grpc.insecure_channel(
            f"127.0.0.1:{port}", options=[("grpc.max_send_message_length", 64 * 1024 * 1024)]
        ) as channel:
            stub = pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]
            sent = 0
            while sent < args.calls:
                batch = min(args.at_once, args.calls - sent)
                calls = [stub.GetLegalMoves.future(request, timeout=120) for _ in range(batch)]
                for call in calls:
                    try:
                        call.result()
                        codes["OK"] += 1
                    except grpc.RpcError as error:
                        codes[error.code().name] += 1
                sent += batch
        elapsed = time.monotonic() - started
        sampling = False
        sampler.join()
        after = rss_mib(pid)
        time.sleep(args.settle)
        settled = rss_mib(pid)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
    print(
        f"{args.calls} calls of {args.kib} KiB, {args.at_once} at a time, "
        f"in {elapsed:.1f} s; serve flags: {' '.join(args.flags) or '(defaults)'}"
    )
    print("answers: " + ", ".join(f"{code} {count}" for code, count in sorted(codes.items())))
    print(
        f"gRPC process RSS: {before:.0f} MiB before, {peak:.0f} MiB at the peak, "
        f"{after:.0f} MiB right after, {settled:.0f} MiB {args.settle:g} s later"
    )


if __name__ == "__main__":
    main()
