#!/usr/bin/env python3
"""The request path through each door: an ApplyMove against a trivial call of that door.

Starts ``domino-rules serve`` as users start it (tests/served.py: ports 0, sealed
tokens, ``--grpc-workers 1 --http-workers 1`` unless told otherwise), then, for each
door and each client count (1 and 8 by default), runs interleaved rounds of:

- the door's trivial call: gRPC ``grpc.health.v1.Health/Check``, REST ``GET /healthz``;
- ``ApplyMove`` of every ruleset, on a token in the middle of a hand (the same legal
  move each time: the state is never advanced, so every call does the same work). The
  token was made by the bench, not by the server, so the server opens and checks it in
  full on every call: the *cold* path;
- ``ApplyMove`` of every ruleset *played forward*, as a client plays: each call sends the
  token the last answer carried and the next move of a fixed line of play, from the same
  mid-hand state to the end of the hand, then the line starts again. A process keeps the
  games it sealed lately (``domino_rules.api.minted``), so such a token is not opened
  again; the first call of each pass (one in ``moves`` shown) is cold.

For each it prints calls per second and the **server CPU per call**, read from the
door's own processes' accounting (``/proc/<pid>/stat``, the door's processes and their
children), so the load generator's cost does not count. The targets (issue "Fast all
the way"): server CPU per ApplyMove ≤ 1.25x the trivial call's, and throughput at 8
clients ≥ 0.8x the trivial call's, on both doors. Also prints the resident memory of
every server process and the load average before and after. Figures only; no
thresholds fail anything (machines are noisy: compare ratios within one run).

Usage::

    python bench/doors.py [--seconds 2] [--rounds 3] [--clients 1 8] [--json]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import grpc
from google.protobuf import json_format
from grpc_health.v1 import health_pb2, health_pb2_grpc

from domino_rules import rules
from domino_rules.api import RulesService
from domino_rules.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc
from tests import served

CPU_RATIO_TARGET = 1.25
THROUGHPUT_TARGET = 0.8
TICKS = os.sysconf("SC_CLK_TCK")


def descendants(pids: list[int]) -> list[int]:
    """``pids`` and every process below them."""
    parents: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        parents.setdefault(parent, []).append(int(name))
    out, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(parents.get(pid, ()))
    return out


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime + stime
    return total / TICKS


def rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def mid_hand_requests(service: RulesService) -> dict[str, pb.ApplyMoveRequest]:
    """For every ruleset, an ApplyMove of a legal move on a state in the middle of a hand."""
    out = {}
    for ruleset in rules.all_rulesets():
        _low, high = ruleset.player_range(ruleset.make_options({}))
        players = min(4, high)
        game = service.NewGame(
            pb.NewGameRequest(ruleset=ruleset.id, players=players, seed=f"bench-{ruleset.id}")
        )
        state = game.state
        for _ in range(6):
            legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
            state = service.ApplyMove(pb.ApplyMoveRequest(state=state, move=legal.moves[0])).state
        legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        assert legal.status == pb.IN_PROGRESS, ruleset.id
        out[ruleset.id] = pb.ApplyMoveRequest(state=state, move=legal.moves[0])
    return out


#: The longest line of play a forward call repeats.
MAX_LINE = 40


def lines_of_play(
    service: RulesService, requests: dict[str, pb.ApplyMoveRequest]
) -> dict[str, tuple[bytes, list[pb.Move]]]:
    """For every ruleset, the mid-hand token of ``requests`` and the moves that play its
    hand on (each the first legal move) to the hand's end, at most :data:`MAX_LINE`."""
    out = {}
    for ruleset_id, request in requests.items():
        state, moves = request.state, [request.move]
        answer = service.ApplyMove(request)
        while answer.status == pb.IN_PROGRESS and len(moves) < MAX_LINE:
            legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=answer.state))
            if legal.status != pb.IN_PROGRESS:
                break
            moves.append(legal.moves[0])
            answer = service.ApplyMove(pb.ApplyMoveRequest(state=answer.state, move=legal.moves[0]))
        out[ruleset_id] = (state, moves)
    return out


Call = Callable[[], None]


def _forward(apply: Callable[[bytes, int], bytes], start: bytes, length: int) -> Call:
    """A call that plays a line of play on: ``apply(token, i)`` sends the line's move
    ``i`` with ``token`` and returns the answer's token."""
    token, i = start, 0

    def call() -> None:
        nonlocal token, i
        if i == length:
            token, i = start, 0
        token, i = apply(token, i), i + 1

    return call


def grpc_calls(
    port: int,
    requests: dict[str, pb.ApplyMoveRequest],
    lines: dict[str, tuple[bytes, list[pb.Move]]] | None = None,
) -> Callable[[], dict[str, Call]]:
    def per_client() -> dict[str, Call]:
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        stub = pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]
        health = health_pb2_grpc.HealthStub(channel)
        check = health_pb2.HealthCheckRequest()
        calls: dict[str, Call] = {"trivial": lambda: health.Check(check, timeout=30) and None}
        for ruleset_id, request in requests.items():
            calls[ruleset_id] = lambda r=request: stub.ApplyMove(r, timeout=30) and None  # type: ignore[misc]
        for ruleset_id, (start, moves) in (lines or {}).items():

            def apply(token: bytes, i: int, moves: list[pb.Move] = moves) -> bytes:
                request = pb.ApplyMoveRequest(state=token, move=moves[i])
                state: bytes = stub.ApplyMove(request, timeout=30).state
                return state

            calls[f"forward {ruleset_id}"] = _forward(apply, start, len(moves))
        return calls

    return per_client


def rest_calls(
    port: int,
    requests: dict[str, pb.ApplyMoveRequest],
    lines: dict[str, tuple[bytes, list[pb.Move]]] | None = None,
) -> Callable[[], dict[str, Call]]:
    bodies = {
        ruleset_id: json.dumps(json_format.MessageToDict(request)).encode()
        for ruleset_id, request in requests.items()
    }
    starts = {
        ruleset_id: (
            json_format.MessageToDict(pb.ApplyMoveRequest(state=start))["state"],
            [json.dumps(json_format.MessageToDict(move)) for move in moves],
        )
        for ruleset_id, (start, moves) in (lines or {}).items()
    }

    def per_client() -> dict[str, Call]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

        def send(method: str, path: str, body: bytes | None) -> bytes:
            headers = {"Content-Type": "application/json"} if body else {}
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            answer = response.read()
            if response.status != 200:
                raise RuntimeError(f"{path} answered {response.status}")
            return answer

        def post(body: bytes) -> Call:
            def call() -> None:
                send("POST", "/v1/games:applyMove", body)

            return call

        def healthz() -> None:
            send("GET", "/healthz", None)

        calls: dict[str, Call] = {"trivial": healthz}
        for ruleset_id, body in bodies.items():
            calls[ruleset_id] = post(body)
        for ruleset_id, (start, moves) in starts.items():

            def apply(token: bytes, i: int, moves: list[str] = moves) -> bytes:
                body = f'{{"state":"{token.decode()}","move":{moves[i]}}}'.encode()
                answer = json.loads(send("POST", "/v1/games:applyMove", body))
                return str(answer["state"]).encode()

            calls[f"forward {ruleset_id}"] = _forward(apply, start.encode(), len(moves))
        return calls

    return per_client


def measure(
    clients: list[dict[str, Call]], name: str, seconds: float, pids: list[int]
) -> tuple[float, float]:
    """Calls per second and server CPU µs per call of ``name`` with every client busy."""
    counts = [0] * len(clients)
    stop = time.monotonic() + seconds

    def run(i: int) -> None:
        call, n = clients[i][name], 0
        while time.monotonic() < stop:
            call()
            n += 1
        counts[i] = n

    before, start = cpu_seconds(pids), time.monotonic()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed, cpu = time.monotonic() - start, cpu_seconds(pids) - before
    calls = sum(counts)
    return calls / elapsed, cpu / calls * 1e6


def _label(name: str, lines: dict[str, tuple[bytes, list[pb.Move]]]) -> str:
    if name == "trivial":
        return name
    if name.startswith("forward "):
        ruleset_id = name.removeprefix("forward ")
        return f"ApplyMove {ruleset_id} fwd/{len(lines[ruleset_id][1])}"
    return f"ApplyMove {name} cold"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (medians)")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--grpc-workers", default="1")
    parser.add_argument("--http-workers", default="1")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()

    load_before = os.getloadavg()
    keys = KeyRing.generate("bench")
    service = RulesService(TokenCodec(KeyRing.parse(keys)))
    requests = mid_hand_requests(service)
    lines = lines_of_play(service, requests)
    results: list[dict[str, Any]] = []
    memory: dict[str, list[float]] = {}
    with served.serving(
        "--grpc-workers", args.grpc_workers, "--http-workers", args.http_workers,
        "--seal-keys", keys, "--require-sealed",
    ) as server:  # fmt: skip
        doors = {
            "grpc": (
                grpc_calls(server.grpc_port, requests, lines),
                served.door_processes(server, "grpc"),
            ),
            "rest": (
                rest_calls(server.http_port, requests, lines),
                served.door_processes(server, "rest"),
            ),
        }
        for door, (factory, roots) in doors.items():
            pids = descendants(roots)
            for n in args.clients:
                clients = [factory() for _ in range(n)]
                names = ["trivial", *requests, *(f"forward {r}" for r in lines)]
                for name in names:  # warm up every path once
                    measure(clients, name, 0.2, pids)
                samples: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
                for _ in range(args.rounds):
                    for name in names:
                        samples[name].append(measure(clients, name, args.seconds, pids))
                trivial_rate = statistics.median(s[0] for s in samples["trivial"])
                trivial_cpu = statistics.median(s[1] for s in samples["trivial"])
                for name in names:
                    rate = statistics.median(s[0] for s in samples[name])
                    cpu = statistics.median(s[1] for s in samples[name])
                    results.append(
                        {
                            "door": door,
                            "clients": n,
                            "call": _label(name, lines),
                            "calls_per_s": round(rate, 1),
                            "server_cpu_us": round(cpu, 1),
                            "cpu_ratio": round(cpu / trivial_cpu, 3),
                            "throughput_ratio": round(rate / trivial_rate, 3),
                        }
                    )
            memory[door] = [round(rss_mib(pid), 1) for pid in descendants(roots)]
    load_after = os.getloadavg()

    if args.json:
        print(
            json.dumps({"load": [load_before, load_after], "rss_mib": memory, "results": results})
        )
        return 0
    print(f"load average at start {load_before[0]:.2f}, at end {load_after[0]:.2f}")
    print(f"{'door':5} {'clients':>7}  {'call':28} {'calls/s':>9} {'server µs':>10} "
          f"{'cpu x':>7} {'tput x':>7}")  # fmt: skip
    worst_cpu: dict[tuple[str, str], float] = {}
    worst_tput: dict[tuple[str, str], float] = {}
    for r in results:
        print(
            f"{r['door']:5} {r['clients']:>7}  {r['call']:28} {r['calls_per_s']:>9.0f} "
            f"{r['server_cpu_us']:>10.0f} {r['cpu_ratio']:>7.2f} {r['throughput_ratio']:>7.2f}"
        )
        if r["call"] != "trivial":
            key = (r["door"], "cold tokens" if r["call"].endswith(" cold") else "played forward")
            worst_cpu[key] = max(worst_cpu.get(key, 0.0), r["cpu_ratio"])
            if r["clients"] == max(args.clients):
                worst_tput[key] = min(worst_tput.get(key, 9.0), r["throughput_ratio"])
    for (door, how), cpu in worst_cpu.items():
        cpu_ok = "PASS" if cpu <= CPU_RATIO_TARGET else "FAIL"
        tput = worst_tput[door, how]
        tput_ok = "PASS" if tput >= THROUGHPUT_TARGET else "FAIL"
        print(
            f"{door}, {how}: worst server CPU per ApplyMove {cpu:.2f}x the trivial call "
            f"(target ≤ {CPU_RATIO_TARGET}): {cpu_ok}; worst throughput at "
            f"{max(args.clients)} clients {tput:.2f}x (target ≥ {THROUGHPUT_TARGET}): {tput_ok}"
        )
    for door, sizes in memory.items():
        print(f"{door} processes RSS MiB: {', '.join(map(str, sizes))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
