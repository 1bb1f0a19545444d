#!/usr/bin/env python3
"""The doors of ``domino-rules serve``, measured one way per mode.

- ``cpu``: the request path through each door, an ApplyMove against a trivial call of
  that door (server CPU per call and throughput);
- ``floor``: what an ApplyMove costs each door when the rules cost nothing (a canned
  answer), against what it costs with them, the cache of minted games off and on;
- ``servers``: throughput of one server process against two, on each door;
- ``workers``: how the REST door spreads keep-alive connections over its workers, and
  (``--slow-clients``) how it stands idle and stuck connections;
- ``grpc-flood``: the resident memory of a gRPC process through a flood of oversized
  calls.

Each mode's own help (``python bench/doors.py MODE --help``) and function below say
what it measures and prints. Figures only; no thresholds fail anything (machines are
noisy: compare ratios within one run). Linux only (``/proc``); traffic goes only to
127.0.0.1. Without a mode, ``cpu``.

Usage::

    python bench/doors.py cpu [--seconds 2] [--rounds 3] [--clients 1 8]
                              [--grpc-workers 1] [--http-workers 1] [--json]
    python bench/doors.py floor [--seconds 1.5] [--rounds 3] [--clients 1 8]
                                [--doors grpc rest] [--json]
    python bench/doors.py servers [--seconds 5] [--clients 8] [--rounds 3]
                                  [--python-clients] [--json]
    python bench/doors.py workers [--http-workers 2] [--connections 16] [--seconds 5]
    python bench/doors.py workers --slow-clients [--probes 50]
    python bench/doors.py grpc-flood [--calls 2000] [--at-once 500] [--kib 900]
                                     [--settle 5] [-- FLAGS...]
"""

from __future__ import annotations

import argparse
import base64
import collections
import contextlib
import http.client
import inspect
import json
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import grpc

from bench import harness
from bench.harness import Call
from domino_rules.api import RulesService
from domino_rules.serving.settings import Settings
from domino_rules.state.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc

#: Issue "Fast all the way": server CPU per ApplyMove at most this times the trivial call's.
CPU_RATIO_TARGET = 1.25
#: Throughput of ApplyMove at the most clients at least this times the trivial call's.
THROUGHPUT_TARGET = 0.8
#: Two processes of a door serve at least this times one.
SERVERS_TARGET = 1.6
DOORS = harness.DOORS


def _sealed_service() -> tuple[str, RulesService]:
    keys = KeyRing.generate("bench")
    return keys, RulesService(TokenCodec(KeyRing.parse(keys)))


# --------------------------------------------------------------------------- cpu


def cpu(args: argparse.Namespace) -> int:
    """The request path through each door: an ApplyMove against a trivial call.

    Starts ``domino-rules serve`` as users start it (ports 0, sealed tokens,
    ``--grpc-workers 1 --http-workers 1`` unless told otherwise), then, for each door and
    each client count (1 and 8 by default), runs interleaved rounds of:

    - the door's trivial call: gRPC ``grpc.health.v1.Health/Check``, REST ``GET /healthz``;
    - ``ApplyMove`` of every ruleset, on a token in the middle of a hand (the same legal
      move each time: the state is never advanced, so every call does the same work). The
      token was made by the bench, not by the server, so the server opens and checks it in
      full on every call: the *cold* path;
    - ``ApplyMove`` of every ruleset *played forward*, as a client plays: each call sends
      the token the last answer carried and the next move of a fixed line of play, from
      the same mid-hand state to the end of the hand, then the line starts again. A
      process keeps the games it sealed lately (``domino_rules.api.minted``), so such a
      token is not opened again; the first call of each pass (one in ``moves`` shown) is
      cold.

    For each it prints calls per second and the **server CPU per call**, read from the
    door's own processes' accounting (``/proc/<pid>/stat``, the door's processes and
    their children), so the load generator's cost does not count. The targets (issue
    "Fast all the way"): server CPU per ApplyMove ≤ 1.25x the trivial call's, and
    throughput at 8 clients ≥ 0.8x the trivial call's, on both doors. Also prints the
    resident memory of every server process and the load average before and after.
    """
    load_before = harness.load_average()
    keys, service = _sealed_service()
    requests = harness.mid_hand_requests(service)
    lines = harness.lines_of_play(service, requests)
    results: list[dict[str, Any]] = []
    memory: dict[str, list[float]] = {}
    with harness.serving(
        "--grpc-workers", args.grpc_workers, "--http-workers", args.http_workers,
        "--seal-keys", keys, "--require-sealed",
    ) as server:  # fmt: skip
        factories = {
            "grpc": harness.grpc_calls(server.grpc_port, requests, lines),
            "rest": harness.rest_calls(server.http_port, requests, lines),
        }
        for door, factory in factories.items():
            pids = server.door_pids(door)
            for n in args.clients:
                clients = [factory() for _ in range(n)]
                names = ["trivial", *requests, *(f"forward {r}" for r in lines)]
                for name in names:  # warm up every path once
                    harness.measure(clients, name, 0.2, pids)
                samples: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
                for name in harness.interleaved(names, args.rounds, rotate=False):
                    samples[name].append(harness.measure(clients, name, args.seconds, pids))
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
            memory[door] = [round(harness.rss_mib(pid), 1) for pid in server.door_pids(door)]
    load_after = harness.load_average()

    if args.json:
        print(
            json.dumps({"load": [load_before, load_after], "rss_mib": memory, "results": results})
        )
        return 0
    print(harness.load_line(load_before, load_after))
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


def _label(name: str, lines: dict[str, harness.Line]) -> str:
    if name == "trivial":
        return name
    if name.startswith("forward "):
        ruleset_id = name.removeprefix("forward ")
        return f"ApplyMove {ruleset_id} fwd/{len(lines[ruleset_id][1])}"
    return f"ApplyMove {name} cold"


# --------------------------------------------------------------------------- floor

#: Issue "Fast all the way": server CPU per ApplyMove at most this times the same door's
#: canned ApplyMove (``floor`` mode), with the cache of minted games off and on.
CANNED_RATIO_TARGET = 1.5
#: The stretch goal of the same ratio.
CANNED_RATIO_STRETCH = 1.25
#: The servers of each door in the ``floor`` mode: ``canned`` answers ApplyMove from a
#: table; ``uncached`` and ``cached`` are the real service, without and with the cache of
#: the games a process minted (``DOMINO_RULES_MINTED_CACHE_BYTES``); ``trusted`` is
#: ``uncached`` with ``DOMINO_RULES_TRUST_SEALED=1`` (a sealed token is not checked again).
FLOOR_SERVERS = ("canned", "uncached", "trusted", "cached")
#: The servers whose ApplyMove is held to the target, and how the tables name them.
FLOOR_MEASURED = {"uncached": "cache off", "trusted": "trusted", "cached": "cache on"}


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


#: The CPUs a ``floor`` server runs on (``--pin``), as the bench tells it.
PIN_CPUS = "DOMINO_RULES_BENCH_CPUS"


def floor_server(door: str, answers: str, requests_file: str) -> int:
    """The server of one door (in this process), answering as ``answers`` says
    (``canned`` or ``rules``); its other settings come from the environment. Pinned to
    the CPUs of :data:`PIN_CPUS`, when set, before it starts anything: the processes it
    starts run there too."""
    cpus = os.environ.get(PIN_CPUS)
    if cpus:
        os.sched_setaffinity(0, {int(cpu) for cpu in cpus.split(",")})
    requests = [
        pb.ApplyMoveRequest.FromString(base64.b64decode(line))
        for line in Path(requests_file).read_text().split()
    ]
    return harness.serve_door(door, _settings_class(answers, requests))


@contextlib.contextmanager
def floor_started(
    door: str, server: str, requests_file: str, keys: str, cpus: set[int] | None = None
) -> Iterator[tuple[int, int]]:
    """A server of :func:`floor_server` in a child process, one of
    :data:`FLOOR_SERVERS`: its port and pid; on ``cpus`` only, when given."""
    env = {
        "DOMINO_RULES_SEAL_KEYS": keys,
        "DOMINO_RULES_REQUIRE_SEALED": "1",
        "DOMINO_RULES_GRPC_WORKERS": "1",
        "DOMINO_RULES_HTTP_WORKERS": "1",
    }
    if server in ("uncached", "trusted"):
        env["DOMINO_RULES_MINTED_CACHE_BYTES"] = "0"
    env["DOMINO_RULES_TRUST_SEALED"] = "1" if server == "trusted" else "0"
    answers = "canned" if server == "canned" else "rules"
    command = [sys.executable, __file__, "floor", "--serve", door, answers, requests_file]
    if cpus is not None:
        env[PIN_CPUS] = ",".join(map(str, sorted(cpus)))
    with harness.child_server(command, env, f"{server} {door}") as started:
        yield started


def _floor_call(server: str, name: str) -> str:
    """The call a server of :data:`FLOOR_SERVERS` makes for ``name`` (``trivial`` or a
    ruleset id): the ``cached`` server's ApplyMove plays the ruleset's line forward."""
    return f"forward {name}" if server == "cached" and name != "trivial" else name


def _floor_label(server: str, name: str, lines: dict[str, harness.Line]) -> str:
    if name == "trivial":
        return name
    if server == "canned":
        return f"ApplyMove {name}"
    return _label(_floor_call(server, name), lines)


def floor(args: argparse.Namespace) -> int:
    """The floor of each door: what an ApplyMove costs the server when the rules cost
    nothing, and what it costs with them, with and without the cache of minted games.

    Target (issue "Fast all the way"): server CPU per ApplyMove at most 1.5x the same
    door's *canned* ApplyMove (1.25x the stretch), for every ruleset, at 1 and 8 clients,
    with the per-process cache of minted games off (as behind a balancer, where most
    consecutive moves of a game land on another replica) and on. The canned ApplyMove is
    the door's own cost of an ApplyMove-sized exchange (receive, parse, the handler, the
    request id, metrics and access line, the answer's encoding and sending) with no rules
    work; the rest is the rules' (open and check the token, apply the move, seal the new
    state).

    For each door it starts four servers built exactly as ``domino-rules serve`` builds
    its doors (:func:`domino_rules.doors.grpc_server.serve_process`,
    :func:`domino_rules.doors.gateway.run_gateway` under gunicorn with the gateway's worker;
    one process, sealed tokens, access lines at INFO to a pipe the bench reads), which
    differ only in their service:

    - ``canned``: ApplyMove answers from a table, made at start-up by the real service,
      of the answer to each of the bench's mid-hand requests: the same answer bytes, with
      no rules work;
    - ``uncached``: the real service with the cache of minted games off
      (``DOMINO_RULES_MINTED_CACHE_BYTES=0``); its ApplyMove is each ruleset's mid-hand
      request, whose token the bench sealed, so it is opened and checked in full every
      time (``cold``, as in the ``cpu`` mode);
    - ``trusted``: ``uncached`` with ``DOMINO_RULES_TRUST_SEALED=1``: the same cold
      token, opened (it is sealed with the service's key) but not checked again;
    - ``cached``: the real service with the default settings (the cache on); its
      ApplyMove plays each ruleset's hand on from the same mid-hand state, as a client
      plays a game that stays on one replica: each call sends the token the server
      answered the last one, which the server finds in its cache (``fwd/N``: a line of N
      moves to the hand's end, then again; the first call of each pass sends the bench's
      token, cold: one call in N).

    Then, per client count (1 and 8 by default), it runs interleaved rounds of the door's
    trivial call (gRPC health check, REST ``GET /healthz``) and of each ruleset's
    ApplyMove, each on the three servers one after the other, and prints for each server
    and call the calls per second and the server CPU per call, from the server process's
    own accounting (``/proc``, its children included), with its ratio to the trivial call
    *of the same server*.

    Then the target's table: per door, client count and ruleset, the server CPU per
    ApplyMove of the ``uncached``, ``trusted`` and ``cached`` servers over that of the
    ``canned`` server's ApplyMove of the ruleset's mid-hand request (same door, same
    client count; medians of the rounds), each marked ``<=1.25`` (the stretch met),
    ``<=1.5`` (the target met) or ``>1.5``, and per door and client count the worst of
    each with its ruleset, and the verdicts of the default settings (``uncached`` and
    ``cached``) and of ``--trust-sealed`` (``trusted`` and ``cached``). Then, per door
    and client count: the floor (worst ``canned`` ratio to the trivial call), what the
    issue's first target (server CPU per ApplyMove at most 1.25x the trivial call's)
    leaves for the rules in µs (``1.25 x trivial - canned``), and what the rules cost
    here (``uncached``, ``trusted`` and ``cached`` less ``canned``). Last, for
    comparison, the rules' cost in the bench's own process: an ApplyMove called back to
    back, every cache hot, and one called after other work has evicted the caches, as a
    server's own machinery does between two
    calls. ``--json`` gives all of it.

    With ``--pin`` the servers run on the machine's first CPU and the bench with its
    client threads on the others (Linux), so that the load generator does not share the
    server's core: what a server's CPU per call is when nothing else evicts its caches.
    """
    if args.serve:
        return floor_server(*args.serve)
    server_cpus: set[int] | None = None
    if args.pin:
        cpus = sorted(os.sched_getaffinity(0))
        if len(cpus) < 2:
            print("--pin needs two CPUs or more", file=sys.stderr)
            return 2
        server_cpus = {cpus[0]}
        os.sched_setaffinity(0, cpus[1:])  # this process and its client threads
    load_before = harness.load_average()
    keys, service = _sealed_service()
    requests = harness.mid_hand_requests(service)
    lines = harness.lines_of_play(service, requests)
    results: list[dict[str, Any]] = []
    with (
        tempfile.NamedTemporaryFile("w", suffix=".requests") as file,
        contextlib.ExitStack() as stack,
    ):
        file.write(
            "\n".join(base64.b64encode(r.SerializeToString()).decode() for r in requests.values())
        )
        file.flush()
        for door in args.doors:
            factory = harness.grpc_calls if door == "grpc" else harness.rest_calls
            servers: dict[str, tuple[Callable[[], dict[str, Call]], list[int]]] = {}
            for server in FLOOR_SERVERS:
                port, pid = stack.enter_context(
                    floor_started(door, server, file.name, keys, server_cpus)
                )
                played = lines if server == "cached" else None
                servers[server] = (factory(port, requests, played), harness.descendants([pid]))
            for n in args.clients:
                results += _floor_rounds(door, n, servers, [*requests], lines, args)
            stack.close()  # this door's servers stop before the next door's start
    in_process = rules_in_process(keys, requests, args.rounds)
    load_after = harness.load_average()
    ratios = _floor_ratios(results, lines)
    worst = _floor_worst(ratios)
    summary = _floor_summary(results)
    if args.json:
        print(
            json.dumps(
                {
                    "load": [load_before, load_after],
                    "targets": {
                        "canned_ratio": CANNED_RATIO_TARGET,
                        "canned_ratio_stretch": CANNED_RATIO_STRETCH,
                        "trivial_ratio": CPU_RATIO_TARGET,
                    },
                    "results": results,
                    "ratios": ratios,
                    "worst": worst,
                    "summary": summary,
                    "in_process": in_process,
                }
            )
        )
        return 0
    print(harness.load_line(load_before, load_after))
    _print_floor(results, ratios, worst, summary, in_process)
    return 0


def _floor_rounds(
    door: str,
    n: int,
    servers: dict[str, tuple[Callable[[], dict[str, Call]], list[int]]],
    ruleset_ids: list[str],
    lines: dict[str, harness.Line],
    args: argparse.Namespace,
) -> list[dict[str, Any]]:
    """The rows of one door at ``n`` clients: interleaved rounds of the trivial call and
    of each ruleset's ApplyMove, each on every server in turn."""
    clients = {server: [make() for _ in range(n)] for server, (make, _) in servers.items()}
    names = ["trivial", *ruleset_ids]
    for server, (_, pids) in servers.items():
        for name in names:  # warm up every path once
            harness.measure(clients[server], _floor_call(server, name), 0.2, pids)
    samples: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for name in harness.interleaved(names, args.rounds, rotate=False):
        for server, (_, pids) in servers.items():
            call = _floor_call(server, name)
            sample = harness.measure(clients[server], call, args.seconds, pids)
            samples.setdefault((server, name), []).append(sample)
    rows = []
    for server in servers:
        trivial_cpu = statistics.median(s[1] for s in samples[server, "trivial"])
        for name in names:
            rate = statistics.median(s[0] for s in samples[server, name])
            cpu = statistics.median(s[1] for s in samples[server, name])
            rows.append(
                {
                    "door": door,
                    "clients": n,
                    "server": server,
                    "ruleset": None if name == "trivial" else name,
                    "call": _floor_label(server, name, lines),
                    "calls_per_s": round(rate, 1),
                    "server_cpu_us": round(cpu, 1),
                    "cpu_ratio": round(cpu / trivial_cpu, 3),
                }
            )
    return rows


def _mark(ratio: float) -> str:
    """Where a ratio to the canned ApplyMove stands against the target and the stretch."""
    if ratio <= CANNED_RATIO_STRETCH:
        return f"<={CANNED_RATIO_STRETCH:g}"
    if ratio <= CANNED_RATIO_TARGET:
        return f"<={CANNED_RATIO_TARGET:g}"
    return f">{CANNED_RATIO_TARGET:g}"


def _floor_ratios(
    results: list[dict[str, Any]], lines: dict[str, harness.Line]
) -> list[dict[str, Any]]:
    """Per door, client count and ruleset: server CPU per ApplyMove of the ``uncached``,
    ``trusted`` and ``cached`` servers against the ``canned`` server's (same door and
    clients)."""
    cpu = {
        (r["door"], r["clients"], r["server"], r["ruleset"]): r["server_cpu_us"]
        for r in results
        if r["ruleset"] is not None
    }
    out = []
    for door, n, server, ruleset_id in cpu:
        if server != "canned":
            continue
        canned = cpu[door, n, "canned", ruleset_id]
        row = {
            "door": door,
            "clients": n,
            "ruleset": ruleset_id,
            "line_moves": len(lines[ruleset_id][1]),
            "canned_us": canned,
        }
        for measured in FLOOR_MEASURED:
            us = cpu[door, n, measured, ruleset_id]
            row[f"{measured}_us"] = us
            row[f"{measured}_ratio"] = round(us / canned, 3)
        out.append(row)
    return out


def _floor_worst(ratios: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per door and client count: the worst ratio of each server to the canned one, its
    ruleset, and whether every ratio of the default settings (``uncached`` and
    ``cached``) meets the target and the stretch, and of ``trusted`` and ``cached``."""
    out = []
    for door, n in dict.fromkeys((r["door"], r["clients"]) for r in ratios):
        rows = [r for r in ratios if r["door"] == door and r["clients"] == n]
        row: dict[str, Any] = {"door": door, "clients": n}
        for server in FLOOR_MEASURED:
            top = max(rows, key=lambda r: float(r[f"{server}_ratio"]))
            row[f"{server}_ratio"] = top[f"{server}_ratio"]
            row[f"{server}_ruleset"] = top["ruleset"]
        highest = max(row["uncached_ratio"], row["cached_ratio"])
        row["target_met"] = highest <= CANNED_RATIO_TARGET
        row["stretch_met"] = highest <= CANNED_RATIO_STRETCH
        trusting = max(row["trusted_ratio"], row["cached_ratio"])
        row["target_met_trusted"] = trusting <= CANNED_RATIO_TARGET
        row["stretch_met_trusted"] = trusting <= CANNED_RATIO_STRETCH
        out.append(row)
    return out


def _print_floor(
    results: list[dict[str, Any]],
    ratios: list[dict[str, Any]],
    worst: list[dict[str, Any]],
    summary: list[dict[str, Any]],
    in_process: dict[str, tuple[float, float]],
) -> None:
    print(f"{'door':5} {'clients':>7} {'server':8} {'call':31} {'calls/s':>9} "
          f"{'server µs':>10} {'cpu x':>7}")  # fmt: skip
    for r in results:
        print(
            f"{r['door']:5} {r['clients']:>7} {r['server']:8} {r['call']:31} "
            f"{r['calls_per_s']:>9.0f} {r['server_cpu_us']:>10.0f} {r['cpu_ratio']:>7.2f}"
        )
    print()
    print(
        f"ApplyMove over the door's canned ApplyMove (same clients, the ruleset's mid-hand "
        f"request): target <= {CANNED_RATIO_TARGET:g}x, stretch <= {CANNED_RATIO_STRETCH:g}x"
    )
    heads = "".join(f" {label + ' µs':>13} {'x':>6} {'':6}" for label in FLOOR_MEASURED.values())
    print(f"{'door':5} {'clients':>7} {'ruleset':16} {'canned µs':>10}" + heads)
    for r in ratios:
        print(
            f"{r['door']:5} {r['clients']:>7} {r['ruleset']:16} {r['canned_us']:>10.0f}"
            + "".join(
                f" {r[f'{server}_us']:>13.0f} {r[f'{server}_ratio']:>6.2f} "
                f"{_mark(r[f'{server}_ratio']):6}"
                for server in FLOOR_MEASURED
            )
        )
    for w in worst:
        verdicts = {
            settings: (
                "PASS" if w[f"target_met{suffix}"] else "FAIL",
                "PASS" if w[f"stretch_met{suffix}"] else "FAIL",
            )
            for settings, suffix in (("default settings", ""), ("trusted", "_trusted"))
        }
        print(
            f"{w['door']} at {w['clients']} client(s): worst "
            + ", ".join(
                f"{w[f'{server}_ratio']:.2f}x {label} ({w[f'{server}_ruleset']})"
                for server, label in FLOOR_MEASURED.items()
            )
            + "; "
            + "; ".join(
                f"{settings} (with cache on): target <= {CANNED_RATIO_TARGET:g}x {target}, "
                f"stretch <= {CANNED_RATIO_STRETCH:g}x {stretch}"
                for settings, (target, stretch) in verdicts.items()
            )
        )
    print()
    for s in summary:
        print(
            f"{s['door']} at {s['clients']} client(s): floor {s['floor_ratio']:.2f}x the trivial "
            f"call; the {CPU_RATIO_TARGET}x target leaves {s['budget_us']:.0f} µs for the rules, "
            f"which cost {s['rules_us_min']:.0f}-{s['rules_us_max']:.0f} µs here cache off, "
            f"{s['trusted_us_min']:.0f}-{s['trusted_us_max']:.0f} µs trusted, "
            f"{s['cached_us_min']:.0f}-{s['cached_us_max']:.0f} µs cache on"
        )
    print("the rules in this process (CPU µs per ApplyMove, cold token):")
    for ruleset_id, (hot, evicted) in in_process.items():
        print(f"  {ruleset_id:16} hot {hot:6.0f}   after other work {evicted:6.0f}")


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


def _floor_summary(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per door and client count: the floor, the rules' budget under the trivial call's
    target, and the rules' cost with the cache off and on."""
    out = []
    keys = sorted(
        {(r["door"], r["clients"]) for r in results}, key=lambda k: (DOORS.index(k[0]), k[1])
    )
    for door, n in keys:
        rows = {
            (r["server"], r["ruleset"]): r
            for r in results
            if r["door"] == door and r["clients"] == n
        }
        ruleset_ids = [rid for server, rid in rows if server == "canned" and rid is not None]
        trivial = rows["canned", None]["server_cpu_us"]
        canned = {rid: rows["canned", rid]["server_cpu_us"] for rid in ruleset_ids}
        costs = {
            server: [rows[server, rid]["server_cpu_us"] - canned[rid] for rid in ruleset_ids]
            for server in FLOOR_MEASURED
        }
        out.append(
            {
                "door": door,
                "clients": n,
                "floor_ratio": max(rows["canned", rid]["cpu_ratio"] for rid in ruleset_ids),
                "budget_us": round(CPU_RATIO_TARGET * trivial - max(canned.values()), 1),
                "rules_us_min": round(min(costs["uncached"]), 1),
                "rules_us_max": round(max(costs["uncached"]), 1),
                "trusted_us_min": round(min(costs["trusted"]), 1),
                "trusted_us_max": round(max(costs["trusted"]), 1),
                "cached_us_min": round(min(costs["cached"]), 1),
                "cached_us_max": round(max(costs["cached"]), 1),
            }
        )
    return out


# --------------------------------------------------------------------------- servers


def servers(args: argparse.Namespace) -> int:
    """Every core used: throughput of one server process against two, on each door.

    Starts ``domino-rules serve`` twice per door: with one process for the door
    (``--grpc-workers 1`` or ``--http-workers 1``) and with two, and drives it with
    ``--clients`` (8) clients, each sending ``ApplyMove`` on a One Arm Joe token in the
    middle of a hand, back to back (one call in flight per client), for ``--seconds``.
    Prints calls per second for each arrangement and the ratio two/one (target ≥ 1.6 at
    8 clients: issue "Fast all the way"), with the load average and each server
    process's resident memory.

    The load generator shares the machine's cores with the servers, so it must cost them
    little. By default it is ``h2load`` (nghttp2's load generator, in C; Debian's
    ``nghttp2-client``): each client is one connection (HTTP/2 for gRPC, with the
    request's gRPC frame as the body; HTTP/1.1 keep-alive for REST), after a second of
    warm-up; every answer must be a success with the answer's full size, or the bench
    stops. Without ``h2load`` (or with ``--python-clients``) the clients are Python
    processes (gRPC sending and keeping raw bytes, REST one keep-alive connection each),
    which take a large share of the cores from the servers: the ratio then understates
    what a second core gives. On a machine with fewer than two cores the ratio says
    nothing.
    """
    generator = "h2load" if harness.h2load_installed() and not args.python_clients else "python"
    load_before = harness.load_average()
    keys, service = _sealed_service()
    message = harness.mid_hand_requests(service)["one_arm_joe"]
    request = message.SerializeToString()
    answer = service.ApplyMove(message).SerializeToString()
    results: dict[str, dict[int, float]] = {"grpc": {}, "rest": {}}
    memory: dict[str, list[float]] = {}
    for door, flag in (("grpc", "--grpc-workers"), ("rest", "--http-workers")):
        for processes in (1, 2):
            other = "--http-workers" if door == "grpc" else "--grpc-workers"
            with harness.serving(flag, str(processes), other, "1", "--seal-keys", keys) as server:
                port = server.ports[door]
                if generator == "h2load":
                    rates = [
                        harness.h2load_rate(door, port, message, answer, args.clients, args.seconds)
                        for _ in range(args.rounds)
                    ]
                else:
                    rates = [
                        harness.process_rate(door, port, request, args.clients, args.seconds)
                        for _ in range(args.rounds)
                    ]
                results[door][processes] = statistics.median(rates)
                pids = server.door_pids(door)
                memory[f"{door} x{processes}"] = [round(harness.rss_mib(p), 1) for p in pids]
    load_after = harness.load_average()

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
    print(f"{harness.load_line(load_before, load_after)}; "
          f"{report['cores']} cores; {args.clients} {clients}")  # fmt: skip
    for door, by in results.items():
        ratio = by[2] / by[1]
        verdict = "PASS" if ratio >= SERVERS_TARGET else "FAIL"
        print(
            f"{door}: one process {by[1]:.0f} calls/s, two {by[2]:.0f} calls/s: "
            f"{ratio:.2f}x (target >= {SERVERS_TARGET}): {verdict}"
        )
    for name, sizes in memory.items():
        print(f"{name} processes RSS MiB: {', '.join(map(str, sizes))}")
    return 0


# --------------------------------------------------------------------------- workers

NEW_GAME = json.dumps({"ruleset": "one_arm_joe", "players": 3, "seed": "bench"}).encode()


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


def workers(args: argparse.Namespace) -> int:
    """How the REST door spreads load over its workers, and how it stands slow clients.

    Starts ``domino-rules serve`` (``--grpc-workers 1 --http-workers N``), then, by
    default:

    - **balance**: opens ``--connections`` keep-alive connections (16), each driven by its
      own thread sending ``POST /v1/games`` back to back for ``--seconds`` (5), and prints
      how many requests each gunicorn worker served. The worker holding each connection
      is found from ``/proc`` (the server side of the connection is a socket that only
      that worker has open), so the server needs no instrumentation.

    With ``--slow-clients``:

    - **slow clients**: opens 200 idle connections, 8 that send half a request head and 8
      that send a head and part of a body, then times ``--probes`` requests (50) from
      fresh connections and prints the worst and median latency, then how long the
      server took to close the idle and the stuck connections.

    Every loop is bounded in count and time.
    """
    flags = ("--grpc-workers", "1", "--http-workers", str(args.http_workers))
    with harness.serving(*flags, stderr="devnull") as server:
        if args.slow_clients:
            _slow_clients(args, server.http_port)
        else:
            _balance(args, server)
    return 0


def _balance(args: argparse.Namespace, server: harness.Served) -> None:
    port = server.http_port
    stop = time.monotonic() + args.seconds
    counts: dict[int, int] = {}
    connections = [
        http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(args.connections)
    ]
    for connection in connections:
        connection.connect()
    time.sleep(0.3)  # let the workers accept them all
    client_ports = [c.sock.getsockname()[1] for c in connections]
    gunicorn = sorted(p for door in server.door_processes("rest") for p in harness.children(door))
    holder = owners(port, client_ports, gunicorn)

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
    per_worker: dict[int, list[int]] = {pid: [0, 0] for pid in gunicorn}
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


def _slow_clients(args: argparse.Namespace, port: int) -> None:
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


# --------------------------------------------------------------------------- grpc-flood


def grpc_flood(args: argparse.Namespace) -> int:
    """Memory of a gRPC process of ``domino-rules serve`` through a flood of large calls.

    Starts ``domino-rules serve --grpc-workers 1 --http-workers 1`` (extra flags after
    ``--`` are passed on, e.g. ``--grpc-max-calls 100000`` to see the flood without the
    limit), reads the resident memory (``VmRSS``) of its gRPC process, then sends
    ``--calls`` (2,000) ``GetLegalMoves`` calls whose state token is ``--kib`` (900) KiB,
    ``--at-once`` (500) at a time on one channel. Each is refused (``BAD_STATE_TOKEN``: a
    token is at most 64 KiB), or refused at once with ``RESOURCE_EXHAUSTED`` past the
    concurrent-call limit. Prints the answers by status code and the memory before, at
    the peak (sampled every 10 ms), right after, and ``--settle`` (5) seconds after the
    flood.
    """
    flags = ("--grpc-workers", "1", "--http-workers", "1", *args.flags)
    with harness.serving(*flags, stderr="devnull") as server:
        (pid,) = server.door_processes("grpc")
        before = harness.rss_mib(pid)
        peak = before
        sampling = True

        def sample() -> None:  # every 10 ms while the flood lasts
            nonlocal peak
            while sampling:
                peak = max(peak, harness.rss_mib(pid))
                time.sleep(0.01)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        request = pb.GetLegalMovesRequest(state=os.urandom(args.kib * 1024))
        codes: collections.Counter[str] = collections.Counter()
        started = time.monotonic()
        with grpc.insecure_channel(
            f"127.0.0.1:{server.grpc_port}",
            options=[("grpc.max_send_message_length", 64 * 1024 * 1024)],
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
        after = harness.rss_mib(pid)
        time.sleep(args.settle)
        settled = harness.rss_mib(pid)
    print(
        f"{args.calls} calls of {args.kib} KiB, {args.at_once} at a time, "
        f"in {elapsed:.1f} s; serve flags: {' '.join(args.flags) or '(defaults)'}"
    )
    print("answers: " + ", ".join(f"{code} {count}" for code, count in sorted(codes.items())))
    print(
        f"gRPC process RSS: {before:.0f} MiB before, {peak:.0f} MiB at the peak, "
        f"{after:.0f} MiB right after, {settled:.0f} MiB {args.settle:g} s later"
    )
    return 0


# --------------------------------------------------------------------------- main

MODES: dict[str, Callable[[argparse.Namespace], int]] = {
    "cpu": cpu,
    "floor": floor,
    "servers": servers,
    "workers": workers,
    "grpc-flood": grpc_flood,
}


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        epilog="Each mode's options: python bench/doors.py MODE --help",
    )
    modes = top.add_subparsers(dest="mode", metavar="MODE", required=True)

    def mode(name: str) -> argparse.ArgumentParser:
        doc = inspect.cleandoc(MODES[name].__doc__ or "")
        summary, _, details = doc.partition("\n\n")
        return modes.add_parser(
            name,
            help=summary,
            description=f"{summary}\n\n{details}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    one = mode("cpu")
    one.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    one.add_argument("--rounds", type=int, default=3, help="interleaved rounds (medians)")
    one.add_argument("--clients", type=int, nargs="+", default=[1, 8])
    one.add_argument("--grpc-workers", default="1")
    one.add_argument("--http-workers", default="1")
    one.add_argument("--json", action="store_true", help="print JSON instead of a table")

    one = mode("floor")
    one.add_argument("--seconds", type=float, default=1.5, help="per measurement")
    one.add_argument("--rounds", type=int, default=3, help="interleaved rounds (medians)")
    one.add_argument("--clients", type=int, nargs="+", default=[1, 8])
    one.add_argument("--doors", nargs="+", choices=DOORS, default=list(DOORS))
    one.add_argument("--json", action="store_true", help="print JSON instead of a table")
    one.add_argument(
        "--pin",
        action="store_true",
        help="servers on the first CPU only, this bench (its clients) on the others",
    )
    one.add_argument(
        "--serve", nargs=3, metavar=("DOOR", "ANSWERS", "FILE"), help=argparse.SUPPRESS
    )

    one = mode("servers")
    one.add_argument("--seconds", type=float, default=5.0)
    one.add_argument("--clients", type=int, default=8)
    one.add_argument("--rounds", type=int, default=3, help="rounds per arrangement (medians)")
    one.add_argument(
        "--python-clients",
        action="store_true",
        help="load from Python client processes, even if h2load is installed",
    )
    one.add_argument("--json", action="store_true")

    one = mode("workers")
    one.add_argument("--http-workers", type=int, default=2)
    one.add_argument("--connections", type=int, default=16)
    one.add_argument("--seconds", type=float, default=5.0)
    one.add_argument("--slow-clients", action="store_true")
    one.add_argument("--probes", type=int, default=50)

    one = mode("grpc-flood")
    one.add_argument("--calls", type=int, default=2000)
    one.add_argument("--at-once", type=int, default=500)
    one.add_argument("--kib", type=int, default=900)
    one.add_argument("--settle", type=float, default=5.0)
    one.add_argument("flags", nargs="*", help="more flags for serve (after --)")
    return top


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = ["cpu", *argv]  # without a mode, the request path
    args = parser().parse_args(argv)
    return MODES[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
