#!/usr/bin/env python3
"""How the REST door spreads load over its workers, and how it stands slow clients.

Starts ``domino-rules serve`` on 127.0.0.1 (ports 0), then, by default:

- **balance**: opens ``--connections`` keep-alive connections (16), each driven by its
  own thread sending ``POST /v1/games`` back to back for ``--seconds`` (5), and prints
  how many requests each gunicorn worker served. The worker holding each connection is
  found from ``/proc`` (the server side of the connection is a socket that only that
  worker has open), so the server needs no instrumentation. Linux only.

With ``--slow-clients``:

- **slow clients**: opens 200 idle connections, 8 that send half a request head and 8
  that send a head and part of a body, then times ``--probes`` requests (50) from fresh
  connections and prints the worst and median latency, then how long the server took to
  close the idle and the stuck connections.

Prints figures only; there are no thresholds. Traffic goes only to 127.0.0.1 and every
loop is bounded in count and time.

Usage::

    python bench/doors_workers.py [--http-workers 2] [--connections 16] [--seconds 5]
    python bench/doors_workers.py --slow-clients
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

SERVE = [sys.executable, "-m", "domino_rules.cli", "serve", "--grpc-port", "0", "--http-port", "0"]
NEW_GAME = json.dumps({"ruleset": "one_arm_joe", "players": 3, "seed": "bench"}).encode()


@contextlib.contextmanager
def serve(*flags: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """``domino-rules serve`` on ports 0 with ``flags``; yields the process and the REST port."""
    process = subprocess.Popen(
        [*SERVE, *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline(), process.stdout.readline()]
        found = re.search(r"REST listening on http://127\.0\.0\.1:(\d+)", lines[1])
        if not found:
            raise SystemExit(f"serve did not start: {lines!r}")
        yield process, int(found.group(1))
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


# ---------------------------------------------------------------- who holds a connection


def _children() -> dict[int, list[int]]:
    out: dict[int, list[int]] = collections.defaultdict(list)
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(fields[1])].append(int(name))
    return out


def gateway_workers(serve_pid: int) -> list[int]:
    """The gunicorn workers under ``serve``: grandchildren through the gateway process."""
    tree = _children()
    workers = []
    for child in tree.get(serve_pid, []):
        try:
            with open(f"/proc/{child}/cmdline", "rb") as cmdline:
                if b"rest" not in cmdline.read().split(b"\0"):
                    continue
        except OSError:
            continue
        workers.extend(tree.get(child, []))
    return sorted(workers)


def _server_inodes(port: int) -> dict[int, int]:
    """Remote port -> socket inode, for connections accepted on local ``port``."""
    out = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                local, remote, inode = fields[1], fields[2], int(fields[9])
                if int(local.rsplit(":", 1)[1], 16) == port and inode:
                    out[int(remote.rsplit(":", 1)[1], 16)] = inode
    return out


def owners(port: int, client_ports: list[int], workers: list[int]) -> dict[int, int]:
    """Client port -> the worker pid holding the server side of that connection."""
    inodes = _server_inodes(port)
    holder = {}
    for pid in workers:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if target.startswith("socket:["):
                        holder[int(target[8:-1])] = pid
    return {p: holder.get(inodes.get(p, -1), 0) for p in client_ports}


# ---------------------------------------------------------------- balance


def balance(args: argparse.Namespace) -> None:
    with serve("--http-workers", str(args.http_workers), "--grpc-workers", "1") as (process, port):
        stop = time.monotonic() + args.seconds
        counts: dict[int, int] = {}
        connections = [
            http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            for _ in range(args.connections)
        ]
        for connection in connections:
            connection.connect()
        time.sleep(0.3)  # let the workers accept them all
        client_ports = [c.sock.getsockname()[1] for c in connections]
        workers = gateway_workers(process.pid)
        holder = owners(port, client_ports, workers)

        def drive(index: int, connection: http.client.HTTPConnection) -> None:
            done = 0
            while time.monotonic() < stop:
                connection.request("POST", "/v1/games", body=NEW_GAME)
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    raise SystemExit(f"unexpected status {response.status}")
                done += 1
            counts[index] = done

        threads = [threading.Thread(target=drive, args=(i, c)) for i, c in enumerate(connections)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        per_worker: dict[int, list[int]] = {pid: [0, 0] for pid in workers}
        for index, client_port in enumerate(client_ports):
            pid = holder[client_port]
            per_worker.setdefault(pid, [0, 0])
            per_worker[pid][0] += 1
            per_worker[pid][1] += counts.get(index, 0)
        for connection in connections:
            connection.close()
    print(
        f"{args.connections} keep-alive connections, {args.http_workers} REST workers, "
        f"{args.seconds:g} s of POST /v1/games"
    )
    print(f"{'worker pid':>10} {'connections':>12} {'requests':>9}")
    for pid, (held, served) in sorted(per_worker.items()):
        print(f"{pid or 'unknown':>10} {held:>12} {served:>9}")
    served_counts = [served for _, served in per_worker.values()]
    if len(served_counts) >= 2 and min(served_counts):
        print(f"busiest / least busy: {max(served_counts) / min(served_counts):.2f}")
    else:
        print("busiest / least busy: a worker served nothing")


# ---------------------------------------------------------------- slow clients


def slow_clients(args: argparse.Namespace) -> None:
    with serve("--grpc-workers", "1", "--http-workers", str(args.http_workers)) as (_, port):
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(200)]
        stuck = []
        for _ in range(8):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"POST /v1/games HTTP/1.1\r\nHost: x\r\n")
            stuck.append(sock)
        for _ in range(8):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
            stuck.append(sock)
        time.sleep(0.5)
        started = time.monotonic()
        latencies = []
        for _ in range(args.probes):
            begin = time.monotonic()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("POST", "/v1/games", body=NEW_GAME)
            response = connection.getresponse()
            response.read()
            connection.close()
            latencies.append(time.monotonic() - begin)
        print("200 idle connections, 8 stuck in the head, 8 stuck in the body")
        print(
            f"{args.probes} requests from new connections: worst {max(latencies) * 1000:.1f} ms, "
            f"median {statistics.median(latencies) * 1000:.1f} ms"
        )

        def closed_after(sock: socket.socket) -> float:
            sock.settimeout(max(0.1, 60 - (time.monotonic() - started)))
            with contextlib.suppress(OSError):
                while sock.recv(65536):
                    pass
            return time.monotonic() - started

        idle_closed = [closed_after(s) for s in idle]
        stuck_closed = [closed_after(s) for s in stuck]
        print(f"idle connections closed by the server after {max(idle_closed):.1f} s at most")
        print(f"stuck connections closed by the server after {max(stuck_closed):.1f} s at most")
        for sock in idle + stuck:
            sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--http-workers", type=int, default=2)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--slow-clients", action="store_true")
    parser.add_argument("--probes", type=int, default=50)
    args = parser.parse_args()
    if args.slow_clients:
        slow_clients(args)
    else:
        balance(args)


if __name__ == "__main__":
    main()
