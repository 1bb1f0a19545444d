"""A bot flood against the players: ApplyMove latency with and without it, per door.

Starts ``domino-rules serve`` as users run it (ports 0 on 127.0.0.1, default workers and
bot room). On each door, ``--players`` client processes call ApplyMove back to back (a
mid-hand state of every ruleset and a legal move, cycled) and time each call; alone for
``--seconds`` (idle), then while ``--flooders`` more processes, half on each door, loop
SuggestMove at STRONG (the flood); the two phases alternate ``--rounds`` times and each
phase's calls are pooled. The flooders wait the retry delay of a refusal before they
call again, as a bot should; with ``--impolite`` they call again at once. They run at
nice +10: they stand for bots on other machines, whose CPU is not the server's. For
that nice to mean anything, serve runs in this script's session: Linux groups the
processes of a session (autogroup) and shares the CPU evenly between groups whatever
their nice, so clients in a session of their own would take half the cores from the
server, as no remote client can. Prints
ApplyMove p50/p99 idle and in the flood per door, the ratio of the p99s, and what
became of the flood's calls (answered, shed, other).

Target (issue "fleet-ready"): in the flood, each door's ApplyMove p99 at most 3x its
idle p99 and under 50 ms.

    python bench/flood.py [--seconds 8] [--rounds 2] [--players 2] [--flooders 16]
                          [--impolite] [--json]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import harness
from domino_rules import rules
from domino_rules.api import RulesService
from domino_rules.v1 import domino_rules_pb2 as pb

Steps = list[tuple[bytes, bytes]]  # (ApplyMoveRequest, SuggestMoveRequest) serialized
#: Each client process's channel its own connection.
LOCAL_POOL = [("grpc.use_local_subchannel_pool", 1)]


def _positions() -> Steps:
    """A mid-hand position of every ruleset: ApplyMove with a legal move, and STRONG."""
    service = RulesService()
    out: Steps = []
    for ruleset in rules.all_rulesets():
        players = 3 if ruleset.id != "tsair_deng" else 4
        # a few moves in, so the hands are not the deal's
        apply = harness.mid_hand_request(service, ruleset.id, players, "fl", moves=4)
        suggest = pb.SuggestMoveRequest(state=apply.state, level=pb.BotLevel.STRONG)
        out.append((apply.SerializeToString(), suggest.SerializeToString()))
    return out


def _rest_body(message: Any) -> bytes:
    return harness.rest_body(message, proto_names=True)


def _player(door: str, port: int, steps: Steps, until: float, out: Any) -> None:
    """ApplyMove back to back until ``until``; the latency of each, in seconds."""
    latencies: list[float] = []
    if door == "grpc":
        channel, call = harness.raw_grpc(port, harness.APPLY_MOVE, LOCAL_POOL)
        requests = [apply for apply, _ in steps]
        i = 0
        while time.monotonic() < until:
            started = time.perf_counter()
            call(requests[i % len(requests)], timeout=30)
            latencies.append(time.perf_counter() - started)
            i += 1
        channel.close()
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        bodies = [_rest_body(pb.ApplyMoveRequest.FromString(apply)) for apply, _ in steps]
        i = 0
        while time.monotonic() < until:
            started = time.perf_counter()
            connection.request("POST", "/v1/games:applyMove", bodies[i % len(bodies)])
            answer = connection.getresponse()
            answer.read()
            latencies.append(time.perf_counter() - started)
            assert answer.status == 200, answer.status
            i += 1
        connection.close()
    out.put(("player", door, latencies))


def _flooder(
    door: str, port: int, steps: Steps, start: float, until: float, polite: bool, out: Any
) -> None:
    """SuggestMove at STRONG back to back; what became of each. A refused call is sent
    again after the retry delay the answer gave if ``polite``, at once if not. The
    process lowers its priority: it stands for bots on other machines, and its own CPU
    must not pass for the server's."""
    os.nice(10)
    counts = {"answered": 0, "shed": 0, "other": 0}
    while time.monotonic() < start:
        time.sleep(0.01)
    i = 0
    if door == "grpc":
        import grpc

        channel, call = harness.raw_grpc(port, harness.SUGGEST_MOVE, LOCAL_POOL)
        while time.monotonic() < until:
            try:
                call(steps[i % len(steps)][1], timeout=30)
                counts["answered"] += 1
            except grpc.RpcError as error:
                shed = error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                counts["shed" if shed else "other"] += 1
                if shed and polite:
                    time.sleep(_retry_delay(error))
            i += 1
        channel.close()
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        bodies = [_rest_body(pb.SuggestMoveRequest.FromString(s)) for _, s in steps]
        while time.monotonic() < until:
            connection.request("POST", "/v1/games:suggestMove", bodies[i % len(bodies)])
            answer = connection.getresponse()
            answer.read()
            kind = {200: "answered", 429: "shed"}.get(answer.status, "other")
            counts[kind] += 1
            if kind == "shed" and polite:
                time.sleep(float(answer.getheader("Retry-After", "1")))
            i += 1
        connection.close()
    out.put(("flooder", door, counts))


def _retry_delay(error: Any) -> float:
    """The RetryInfo delay of a refused gRPC call (1 s if it has none)."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    status = rpc_status.from_call(error)
    for detail in status.details if status is not None else ():
        retry = error_details_pb2.RetryInfo()
        if detail.Unpack(retry):
            return float(retry.retry_delay.ToNanoseconds()) / 1e9
    return 1.0


def _phase(
    ports: dict[str, int],
    steps: Steps,
    players: int,
    flooders: int,
    seconds: float,
    polite: bool = True,
) -> tuple[dict[str, list[float]], dict[str, dict[str, int]]]:
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    start = time.monotonic() + 3.0  # time for every client process to start
    until = start + seconds
    processes = []
    for door, port in ports.items():
        for _ in range(players):
            processes.append(
                context.Process(target=_player_at, args=(door, port, steps, start, until, out))
            )
        for _ in range(flooders // 2):
            processes.append(
                context.Process(
                    target=_flooder, args=(door, port, steps, start, until, polite, out)
                )
            )
    for process in processes:
        process.start()
    latencies: dict[str, list[float]] = {door: [] for door in ports}
    floods: dict[str, dict[str, int]] = {
        door: {"answered": 0, "shed": 0, "other": 0} for door in ports
    }
    for _ in processes:
        kind, door, result = out.get(timeout=seconds + 120)
        if kind == "player":
            latencies[door] += result
        else:
            for key, count in result.items():
                floods[door][key] += count
    for process in processes:
        process.join(30)
    return latencies, floods


def _player_at(door: str, port: int, steps: Steps, start: float, until: float, out: Any) -> None:
    while time.monotonic() < start:
        time.sleep(0.01)
    _player(door, port, steps, until, out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="each phase")
    parser.add_argument("--rounds", type=int, default=2, help="idle and flood, alternated")
    parser.add_argument("--players", type=int, default=2, help="ApplyMove clients per door")
    parser.add_argument("--flooders", type=int, default=16, help="STRONG clients, both doors")
    parser.add_argument(
        "--impolite", action="store_true", help="flooders ignore the retry delay of a refusal"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    steps = _positions()
    load_before = harness.load_average()[0]
    # in this process's session (see the module docstring)
    with harness.serving("--log-level", "warning", stderr="devnull", new_session=False) as served:
        ports = served.ports
        idle_calls: dict[str, list[float]] = {door: [] for door in ports}
        flood_calls: dict[str, list[float]] = {door: [] for door in ports}
        floods = {door: {"answered": 0, "shed": 0, "other": 0} for door in ports}
        for _ in range(args.rounds):  # alternated, so that the machine's moods fall on both
            for door, values in _phase(ports, steps, args.players, 0, args.seconds)[0].items():
                idle_calls[door] += values
            latencies, counts = _phase(
                ports, steps, args.players, args.flooders, args.seconds, not args.impolite
            )
            for door, values in latencies.items():
                flood_calls[door] += values
                for key, count in counts[door].items():
                    floods[door][key] += count
        idle = {door: harness.percentiles(values) for door, values in idle_calls.items()}
        flood = {door: harness.percentiles(values) for door, values in flood_calls.items()}
    result: dict[str, Any] = {"load_average": [load_before, harness.load_average()[0]], "doors": {}}
    for door in ports:
        ratio = flood[door]["p99_ms"] / idle[door]["p99_ms"]
        met = ratio <= 3.0 and flood[door]["p99_ms"] < 50.0
        result["doors"][door] = {
            "idle": idle[door], "flood": flood[door], "p99_ratio": ratio,
            "flood_calls": floods[door], "target_met": met,
        }  # fmt: skip
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"ApplyMove with {args.players} players per door, alone and against "
        f"{args.flooders} STRONG flooders "
        f"({'retrying at once' if args.impolite else 'honouring Retry-After'}; "
        f"{args.rounds} x {args.seconds:g} s each; load average "
        f"{load_before:.1f} -> {result['load_average'][1]:.1f})"
    )
    print(f"{'door':<5} {'idle p50/p99 ms':>16} {'flood p50/p99 ms':>17} {'p99 x':>6}  "
          f"{'flood: answered / shed / other':>31}  target (p99 <= 3x idle, < 50 ms)")  # fmt: skip
    for door, row in result["doors"].items():
        i, f, c = row["idle"], row["flood"], row["flood_calls"]
        print(
            f"{door:<5} {i['p50_ms']:>7.1f} / {i['p99_ms']:<6.1f} {f['p50_ms']:>8.1f} / "
            f"{f['p99_ms']:<6.1f} {row['p99_ratio']:>6.2f}  "
            f"{c['answered']:>11} / {c['shed']:>7} / {c['other']:<7}  "
            f"{'met' if row['target_met'] else 'NOT met'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
