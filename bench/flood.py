"""Floods of heavy calls against the players: ApplyMove latency with and without them, per door.

Starts ``domino-rules serve`` as users run it (ports 0 on 127.0.0.1, default workers and
rooms). On each door, ``--players`` client processes call ApplyMove back to back (a
mid-hand state of every ruleset and a legal move, cycled) and time each call; alone for
``--seconds`` (idle), then while ``--flooders`` more processes, half on each door, loop
a heavy call (the flood); the two phases alternate ``--rounds`` times and each phase's
calls are pooled. Two floods, each against its own idle phases (``--flood``):

- ``suggest``: SuggestMove at STRONG;
- ``replay``: Replay of the largest record the limits accept: a valid Block record for
  four players (``target_score`` 100000, random legal moves, every move's events, the
  seed), as many moves as fit in one request of the default limit (1 MiB) as the REST
  door's JSON; the gRPC door gets the same record as protobuf.

The flooders wait the retry delay of a refusal before they call again, as a client
should; with ``--impolite`` they call again at once. They run at nice +10: they stand
for clients on other machines, whose CPU is not the server's. For that nice to mean
anything, serve runs in this script's session: Linux groups the processes of a session
(autogroup) and shares the CPU evenly between groups whatever their nice, so clients in
a session of their own would take half the cores from the server, as no remote client
can.

Prints, per flood and door: ApplyMove p50/p99 idle, and p50/p99/max in the flood, the
ratio of the p99s, the moves played in each phase, what became of the flood's calls
(answered, shed, other) and how long an answered one took. Then what a refused Replay
costs the serving process (server CPU per refusal): a serve of one process per door with
``--replay-capacity 1 --replay-queue 0``, its room kept full by a replay in flight on
each door, is sent ``--refusals`` replays of the same record per door.

Targets (issues "fleet-ready" and "every heavy call admitted"): in each flood, each
door's ApplyMove p99 at most 3x its idle p99 and under 50 ms; a refused Replay under
5 ms of server CPU.

    python bench/flood.py [--flood both|suggest|replay] [--seconds 8] [--rounds 2]
                          [--players 2] [--flooders 16] [--refusals 200] [--impolite]
                          [--record FILE] [--json]

Making the record takes a minute; ``--record FILE`` keeps it for the next run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from google.protobuf import json_format

from bench import harness
from domino_rules import records, rules
from domino_rules.api import RulesService
from domino_rules.v1 import domino_rules_pb2 as pb

#: (ApplyMoveRequest, heavy request) serialized, per position
Steps = list[tuple[bytes, bytes]]
#: Each client process's channel its own connection.
LOCAL_POOL = [("grpc.use_local_subchannel_pool", 1)]
REPLAY = "/domino_rules.v1.DominoRules/Replay"
#: Each flood's gRPC method and REST path.
FLOODS = {
    "suggest": (harness.SUGGEST_MOVE, "/v1/games:suggestMove", "STRONG SuggestMove"),
    "replay": (REPLAY, "/v1/records:replay", "Replay"),
}
#: The request size limit serve keeps by default.
LIMIT = 1024 * 1024
#: Room left under the limit (the REST request's own bytes).
MARGIN = 512


def _positions(service: RulesService) -> list[pb.ApplyMoveRequest]:
    """A mid-hand ApplyMove of every ruleset (a few moves in, so the hands are not the
    deal's)."""
    out = []
    for ruleset in rules.all_rulesets():
        low, high = ruleset.player_range(ruleset.make_options({}))
        players = min(max(3, low), high)  # three at the table, where the game seats them
        out.append(harness.mid_hand_request(service, ruleset.id, players, "fl", moves=4))
    return out


def largest_record(service: RulesService, limit: int = LIMIT) -> pb.MatchRecord:
    """A valid Block record for four players, with every move's events and the seed, as
    long as one REST request of ``limit`` bytes holds (or the limits' most moves)."""
    options = pb.Options(block=pb.BlockOptions(target_score=100_000))
    seed = "flood"
    new = service.NewGame(pb.NewGameRequest(ruleset="block", players=4, options=options, seed=seed))
    record = pb.MatchRecord(
        format=records.FORMAT, ruleset="block", players=4, options=options,
        game_id=new.game_id, seed_commitment=new.seed_commitment, seed=seed,
        viewpoint=pb.MatchRecord.MOVER,
    )  # fmt: skip
    record.deal.extend(new.events)
    size = len(_replay_body(record))
    choose = random.Random(seed)
    state = new.state
    while size < limit - MARGIN and len(record.moves) < records.MAX_MOVES:
        legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        if legal.status == pb.MATCH_OVER:
            break
        move = choose.choice(list(legal.moves))
        answer = service.ApplyMove(pb.ApplyMoveRequest(state=state, move=move))
        state = answer.state
        recorded = record.moves.add(move=move)
        recorded.events.extend(answer.events)
        written = json_format.MessageToDict(recorded, preserving_proto_field_name=True)
        size += len(json.dumps(written, separators=(",", ":"))) + 1
    while len(_replay_body(record)) > limit - MARGIN:
        del record.moves[-max(1, len(record.moves) // 200) :]
    return record


def _replay_body(record: pb.MatchRecord) -> bytes:
    return json.dumps({"record": records.to_json(record)}, separators=(",", ":")).encode()


def _rest_body(message: Any) -> bytes:
    return harness.rest_body(message, proto_names=True)


def _player(door: str, port: int, steps: Steps, go: Any, times: Any, out: Any) -> None:
    """ApplyMove back to back through the phase; the latency of each, in seconds."""
    latencies: list[float] = []
    if door == "grpc":
        channel, call = harness.raw_grpc(port, harness.APPLY_MOVE, LOCAL_POOL)
        requests = [apply for apply, _ in steps]
        call(requests[0], timeout=60)  # connected before the phase starts
        _start, until = _ready(out, go, times)
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
        _start, until = _ready(out, go, times)  # connected at the first call (idle: closed)
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
    flood: str, door: str, port: int, heavy: list[bytes], go: Any, times: Any,
    polite: bool, out: Any,
) -> None:  # fmt: skip
    """The flood's heavy call back to back; what became of each, and how long the
    answered ones took. A refused call is sent again after the retry delay the answer
    gave if ``polite``, at once if not. The process lowers its priority: it stands for
    clients on other machines, and its own CPU must not pass for the server's."""
    os.nice(10)
    counts: dict[str, Any] = {"answered": 0, "shed": 0, "other": 0, "seconds": []}
    method, path, _ = FLOODS[flood]
    i = 0
    if door == "grpc":
        import grpc

        channel, call = harness.raw_grpc(port, method, LOCAL_POOL)
        grpc.channel_ready_future(channel).result(timeout=60)
        _start, until = _ready(out, go, times)
        while time.monotonic() < until:
            started = time.perf_counter()
            try:
                call(heavy[i % len(heavy)], timeout=60)  # as the attacker: no deadline
                counts["answered"] += 1
                counts["seconds"].append(time.perf_counter() - started)
            except grpc.RpcError as error:
                shed = error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                counts["shed" if shed else "other"] += 1
                if shed and polite:
                    time.sleep(_retry_delay(error))
            i += 1
        channel.close()
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        _start, until = _ready(out, go, times)
        while time.monotonic() < until:
            started = time.perf_counter()
            try:
                connection.request("POST", path, heavy[i % len(heavy)])
                answer = connection.getresponse()
                answer.read()
            except (OSError, http.client.HTTPException):  # the server closed: another
                counts["other"] += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                i += 1
                continue
            kind = {200: "answered", 429: "shed"}.get(answer.status, "other")
            counts[kind] += 1
            if kind == "answered":
                counts["seconds"].append(time.perf_counter() - started)
            if kind == "shed" and polite:
                time.sleep(float(answer.getheader("Retry-After", "1")))
            if answer.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
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


def _no_flood() -> dict[str, Any]:
    return {"answered": 0, "shed": 0, "other": 0, "seconds": []}


def _phase(
    ports: dict[str, int],
    steps: Steps,
    heavy: dict[str, list[bytes]],
    flood: str,
    players: int,
    flooders: int,
    seconds: float,
    polite: bool = True,
) -> tuple[dict[str, list[float]], dict[str, dict[str, Any]]]:
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    go = context.Event()
    times = context.Array("d", 2)
    processes = []
    for door, port in ports.items():
        for _ in range(players):
            processes.append(
                context.Process(target=_player, args=(door, port, steps, go, times, out))
            )
        for _ in range(flooders // 2):
            args = (flood, door, port, heavy[door], go, times, polite, out)
            processes.append(context.Process(target=_flooder, args=args))
    for process in processes:
        process.start()
    for _ in processes:  # every client process started, whatever the machine's load
        out.get(timeout=300)
    times[0] = time.monotonic() + 0.5
    times[1] = times[0] + seconds
    go.set()
    latencies: dict[str, list[float]] = {door: [] for door in ports}
    floods = {door: _no_flood() for door in ports}
    for _ in processes:
        kind, door, result = out.get(timeout=seconds + 180)
        if kind == "player":
            latencies[door] += result
        else:
            for key, count in result.items():
                floods[door][key] += count
    for process in processes:
        process.join(30)
    return latencies, floods


def _ready(out: Any, go: Any, times: Any) -> tuple[float, float]:
    """Tell the bench this process is ready, and wait for the phase's start; its start
    and end (``time.monotonic()``)."""
    out.put(("ready", "", None))
    go.wait()
    start, until = times[0], times[1]
    while time.monotonic() < start:
        time.sleep(0.01)
    return start, until


def _flood_run(
    ports: dict[str, int], steps: Steps, heavy: dict[str, list[bytes]], flood: str,
    args: argparse.Namespace,
) -> dict[str, Any]:  # fmt: skip
    """Idle and flood phases alternated; each door's figures."""
    idle_calls: dict[str, list[float]] = {door: [] for door in ports}
    flood_calls: dict[str, list[float]] = {door: [] for door in ports}
    floods = {door: _no_flood() for door in ports}
    for _ in range(args.rounds):  # alternated, so that the machine's moods fall on both
        for door, values in _phase(ports, steps, heavy, flood, args.players, 0, args.seconds)[
            0
        ].items():
            idle_calls[door] += values
        latencies, counts = _phase(
            ports, steps, heavy, flood, args.players, args.flooders, args.seconds,
            not args.impolite,
        )  # fmt: skip
        for door, values in latencies.items():
            flood_calls[door] += values
            for key, count in counts[door].items():
                floods[door][key] += count
    doors = {}
    for door in ports:
        idle = harness.percentiles(idle_calls[door])
        during = harness.percentiles(flood_calls[door])
        during["max_ms"] = max(flood_calls[door], default=float("nan")) * 1e3
        ratio = during["p99_ms"] / idle["p99_ms"]
        answered = floods[door].pop("seconds")
        floods[door]["answered_median_s"] = statistics.median(answered) if answered else None
        doors[door] = {
            "idle": idle, "flood": during, "p99_ratio": ratio, "flood_calls": floods[door],
            "target_met": ratio <= 3.0 and during["p99_ms"] < 50.0,
        }  # fmt: skip
    return doors


# ------------------------------------------------------------------ refusals


def _serving_pids(served: harness.Served, door: str) -> list[int]:
    """The processes that serve a door's calls: the gRPC processes, or the gunicorn
    workers (not the processes the rooms run their work in)."""
    if door == "grpc":
        return served.door_processes("grpc")
    pids = []
    for gateway in served.door_processes("rest"):
        for pid in harness.children(gateway):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                    words = cmdline.read()
            except OSError:
                continue
            if b"multiprocessing" not in words and b"spawn_main" not in words:
                pids.append(pid)
    return pids


def _send(door: str, port: int, body: bytes, timeout: float = 120) -> str:
    """One Replay; ``"answered"``, ``"shed"`` or ``"other"``."""
    if door == "grpc":
        import grpc

        channel, call = harness.raw_grpc(port, REPLAY, LOCAL_POOL)
        try:
            call(body, timeout=timeout)
            return "answered"
        except grpc.RpcError as error:
            return "shed" if error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED else "other"
        finally:
            channel.close()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("POST", "/v1/records:replay", body)
        answer = connection.getresponse()
        answer.read()
        return {200: "answered", 429: "shed"}.get(answer.status, "other")
    finally:
        connection.close()


def _refusal_cost(heavy: dict[str, list[bytes]], count: int) -> dict[str, Any]:
    """Server CPU per refused Replay, per door (see the module docstring)."""
    flags = (
        "--log-level", "warning", "--grpc-workers", "1", "--http-workers", "1",
        "--replay-capacity", "1", "--replay-queue", "0",
    )  # fmt: skip
    out: dict[str, Any] = {}
    try:
        served_context = harness.serving(*flags, stderr="devnull", new_session=False)
        served = served_context.__enter__()
    except RuntimeError as exc:
        return {"error": f"serve would not start with a room for replays: {exc}"[:200]}
    try:
        for door, port in served.ports.items():
            body = heavy[door][0]
            stop = threading.Event()

            def hold(
                door: str = door, port: int = port, body: bytes = body,
                stop: threading.Event = stop,
            ) -> None:  # fmt: skip
                while not stop.is_set():  # one replay in flight: the room is full
                    _send(door, port, body)

            holder = threading.Thread(target=hold, daemon=True)
            holder.start()
            time.sleep(1.0)
            pids = _serving_pids(served, door)
            refused = other = 0
            before = harness.cpu_seconds(pids)
            if door == "grpc":
                import grpc

                channel, call = harness.raw_grpc(port, REPLAY, LOCAL_POOL)
                for _ in range(count):
                    try:
                        call(body, timeout=120)
                        other += 1
                    except grpc.RpcError as error:
                        if error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                            refused += 1
                        else:
                            other += 1
                channel.close()
            else:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                for _ in range(count):
                    connection.request("POST", "/v1/records:replay", body)
                    answer = connection.getresponse()
                    answer.read()
                    if answer.status == 429:
                        refused += 1
                    else:
                        other += 1
                connection.close()
            spent = harness.cpu_seconds(pids) - before
            stop.set()
            holder.join(180)
            out[door] = {
                "refused": refused,
                "other": other,
                "cpu_ms_per_refusal": spent * 1e3 / refused if refused else None,
            }
    finally:
        served_context.__exit__(None, None, None)
    return out


# ------------------------------------------------------------------ main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flood", choices=("both", "suggest", "replay"), default="both")
    parser.add_argument("--seconds", type=float, default=8.0, help="each phase")
    parser.add_argument("--rounds", type=int, default=2, help="idle and flood, alternated")
    parser.add_argument("--players", type=int, default=2, help="ApplyMove clients per door")
    parser.add_argument("--flooders", type=int, default=16, help="heavy clients, both doors")
    parser.add_argument("--refusals", type=int, default=200, help="refused Replays per door")
    parser.add_argument(
        "--impolite", action="store_true", help="flooders ignore the retry delay of a refusal"
    )
    parser.add_argument(
        "--record",
        help="a file for Replay's record (protobuf): read if it exists, else made and written",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    service = RulesService()
    floods = ("suggest", "replay") if args.flood == "both" else (args.flood,)
    positions = _positions(service)
    steps: Steps = [(apply.SerializeToString(), b"") for apply in positions]
    heavy: dict[str, dict[str, list[bytes]]] = {}
    if "suggest" in floods:
        suggests = [
            pb.SuggestMoveRequest(state=apply.state, level=pb.BotLevel.STRONG)
            for apply in positions
        ]
        heavy["suggest"] = {
            "grpc": [m.SerializeToString() for m in suggests],
            "rest": [_rest_body(m) for m in suggests],
        }
    record: pb.MatchRecord | None = None
    if "replay" in floods:
        if args.record and os.path.exists(args.record):
            with open(args.record, "rb") as file:
                record = pb.MatchRecord.FromString(file.read())
        else:
            record = largest_record(service)
            if args.record:
                with open(args.record, "wb") as file:
                    file.write(record.SerializeToString())
        heavy["replay"] = {
            "grpc": [pb.ReplayRequest(record=record).SerializeToString()],
            "rest": [_replay_body(record)],
        }
    load_before = harness.load_average()[0]
    result: dict[str, Any] = {"floods": {}}
    if record is not None:
        result["record"] = {
            "moves": len(record.moves),
            "rest_bytes": len(heavy["replay"]["rest"][0]),
            "grpc_bytes": len(heavy["replay"]["grpc"][0]),
        }
    # in this process's session (see the module docstring)
    with harness.serving("--log-level", "warning", stderr="devnull", new_session=False) as served:
        for flood in floods:
            result["floods"][flood] = _flood_run(served.ports, steps, heavy[flood], flood, args)
    if "replay" in floods:
        result["refusal"] = _refusal_cost(heavy["replay"], args.refusals)
    result["load_average"] = [load_before, harness.load_average()[0]]
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    _print(result, args)
    return 0


def _print(result: dict[str, Any], args: argparse.Namespace) -> None:
    phase = args.rounds * args.seconds
    print(
        f"ApplyMove with {args.players} players per door, alone and against {args.flooders} "
        f"flooders ({'retrying at once' if args.impolite else 'honouring Retry-After'}; "
        f"{args.rounds} x {args.seconds:g} s each phase; load average "
        f"{result['load_average'][0]:.1f} -> {result['load_average'][1]:.1f})"
    )
    if "record" in result:
        r = result["record"]
        print(
            f"Replay's record: Block, 4 players, {r['moves']} moves with their events: "
            f"{r['rest_bytes']:,} bytes as REST JSON, {r['grpc_bytes']:,} as protobuf"
        )
    for flood, doors in result["floods"].items():
        print()
        print(f"flood of {FLOODS[flood][2]}")
        print(
            f"| door | ApplyMove idle p50 / p99 | during the flood p50 / p99 / max | "
            f"moves played in {phase:g} s | flood calls answered / shed / other "
            f"(answered in, median) | target (p99 <= 3x idle, < 50 ms) |"
        )
        print("|---|---|---|---|---|---|")
        for door, row in doors.items():
            i, f, c = row["idle"], row["flood"], row["flood_calls"]
            took = c["answered_median_s"]
            print(
                f"| {'gRPC' if door == 'grpc' else 'REST'} | {i['p50_ms']:.1f} / "
                f"{i['p99_ms']:.1f} ms | {f['p50_ms']:.1f} / {f['p99_ms']:.1f} / "
                f"{f['max_ms']:.0f} ms (p99 x{row['p99_ratio']:.2f}) | "
                f"{i['calls']:,} -> {f['calls']:,} | {c['answered']:,} / {c['shed']:,} / "
                f"{c['other']:,} ({'-' if took is None else f'{took:.2f} s'}) | "
                f"{'met' if row['target_met'] else 'NOT met'} |"
            )
    refusal = result.get("refusal")
    if refusal is not None:
        print()
        if "error" in refusal:
            print(f"a refused Replay's server CPU: not measured ({refusal['error']})")
            return
        for door, row in refusal.items():
            cost = row["cpu_ms_per_refusal"]
            shown = "no call was refused" if cost is None else f"{cost:.2f} ms of server CPU"
            met = cost is not None and cost < 5.0
            print(
                f"a refused Replay on {door}: {shown} ({row['refused']} refused, "
                f"{row['other']} not); target < 5 ms: {'met' if met else 'NOT met'}"
            )


if __name__ == "__main__":
    sys.exit(main())
