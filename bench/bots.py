#!/usr/bin/env python3
"""The CPU of a STRONG suggestion, per ruleset, at its default playouts.

In this process, ``RulesService().SuggestMove`` at level STRONG (no seed, no playouts:
the ruleset's default budget, ``bots.default_playouts``) is called on a spread of
mid-hand positions of every ruleset, default options, 4 players (or the most the
ruleset seats, when fewer): ``--hands`` seeded first hands (seeds ``bots/<ruleset>/<n>``)
are played through the service with seeded random legal moves, and of each hand the
states where the seat to act has two legal moves or more (a forced move is answered at
once: nothing is searched) are taken at a quarter, a half and three quarters of the way
through. Each position is timed once, with ``time.process_time`` (CPU time of this
process: one core): a second call of the same position would find what the first left
in the bots' caches, which a server answering other games does not. The rulesets take
turns, position by position, so that a change in the machine's load falls on all
alike, after one untimed call each (a hand of its own) that pays what a process pays
once. Reported per ruleset: the median and the 90th percentile (nearest rank) of its
positions' costs, the largest, the playouts, and the median's ratio to the baseline
measured in the same run: the median of the medians of every ruleset measured (the
catalogue's own budget: a ruleset's STRONG should cost about what the others' cost). The
target is a ratio of at most 2.0 (:data:`TARGET_RATIO`); measure the rulesets together,
since a ratio compares the rulesets of one run. The load average is printed at the start
and at the end (the machine may be shared: compare figures of one run, or run each side
several times, alternating). ``--playouts-for ID=N,...`` measures those rulesets at N
playouts instead of their default: how a budget is set by measurement.

Usage::

    python bench/bots.py [--hands 16] [--rulesets a,b] [--players N]
                         [--playouts-for ID=N,...] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import load_average, load_text
from domino_rules import bots, rules
from domino_rules.api import RulesService
from domino_rules.v1 import domino_rules_pb2 as pb

#: The target: a ruleset's median CPU per STRONG suggestion, at its default playouts, at
#: most this many times the baseline (the median of the rulesets' medians, same run).
TARGET_RATIO = 2.0
#: Players at the table; a ruleset that seats fewer is measured with its most.
PLAYERS = 4
#: Where in a hand's decisions the positions are taken (fractions of the way through).
POINTS = (0.25, 0.5, 0.75)


def table_size(ruleset: rules.Ruleset[Any, Any], players: int) -> int:
    """``players``, or the most the ruleset seats at its default options when fewer."""
    low, high = ruleset.player_range(ruleset.make_options({}))
    return int(max(low, min(players, high)))


def hand_positions(
    service: RulesService, ruleset_id: str, players: int, seed: str
) -> list[pb.SuggestMoveRequest]:
    """The STRONG requests of one seeded first hand, at :data:`POINTS` of its decisions."""
    state = service.NewGame(pb.NewGameRequest(ruleset=ruleset_id, players=players, seed=seed)).state
    chooser = random.Random(seed)
    decisions: list[bytes] = []
    while True:
        legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        if legal.status != pb.IN_PROGRESS:
            break
        if len(legal.moves) >= 2:
            decisions.append(state)
        move = legal.moves[chooser.randrange(len(legal.moves))]
        state = service.ApplyMove(pb.ApplyMoveRequest(state=state, move=move)).state
    picked = sorted({min(len(decisions) - 1, int(p * len(decisions))) for p in POINTS})
    return [
        pb.SuggestMoveRequest(state=decisions[i], level=pb.BotLevel.STRONG)
        for i in picked
        if decisions
    ]


def nearest_rank(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def measure(
    ruleset_ids: list[str], hands: int, players: int, budgets: dict[str, int] | None = None
) -> dict[str, Any]:
    """Each ruleset's STRONG cost at its default playouts, or at ``budgets[id]``."""
    budgets = budgets or {}
    service = RulesService()
    tables = {rid: table_size(rules.get(rid), players) for rid in ruleset_ids}
    positions: dict[str, list[pb.SuggestMoveRequest]] = {}
    for rid in ruleset_ids:
        positions[rid] = []
        for n in range(hands):
            positions[rid] += hand_positions(service, rid, tables[rid], f"bots/{rid}/{n}")
        if rid in budgets:
            for request in positions[rid]:
                request.playouts = budgets[rid]
        # once untimed, on a hand of its own: what a process pays once
        for request in hand_positions(service, rid, tables[rid], f"bots/{rid}/warm-up")[:1]:
            service.SuggestMove(request)
    times: dict[str, list[float]] = {rid: [] for rid in ruleset_ids}
    # the rulesets in turn: each one's first position, then each one's second, ...
    order = [
        (rid, positions[rid][k])
        for k in range(max(map(len, positions.values())))
        for rid in ruleset_ids
        if k < len(positions[rid])
    ]
    for rid, request in order:
        started = time.process_time()
        service.SuggestMove(request)
        times[rid].append((time.process_time() - started) * 1e3)
    out: dict[str, Any] = {}
    baseline = statistics.median(statistics.median(times[rid]) for rid in ruleset_ids)
    for rid in ruleset_ids:
        costs = times[rid]
        median = statistics.median(costs)
        out[rid] = {
            "players": tables[rid],
            "playouts": budgets.get(rid, bots.default_playouts(rules.get(rid))),
            "positions": len(costs),
            "median_ms": median,
            "p90_ms": nearest_rank(costs, 0.9),
            "max_ms": max(costs),
            "baseline_ms": baseline,
            "ratio": median / baseline,
            "passed": median <= TARGET_RATIO * baseline,
        }
    return out


def report(result: dict[str, Any]) -> str:
    lines = [
        f"load average at start: {load_text(result['load_start'])}",
        "STRONG SuggestMove, default playouts (unless --playouts-for), CPU ms of one core,"
        " each position timed once",
        "",
        f"{'ruleset':<16}{'players':>8}{'playouts':>9}{'positions':>10}"
        f"{'median':>9}{'p90':>9}{'max':>9}{'ratio':>7}  verdict",
    ]
    for rid, row in result["rulesets"].items():
        verdict = "PASS" if row["passed"] else "FAIL"
        lines.append(
            f"{rid:<16}{row['players']:>8}{row['playouts']:>9}{row['positions']:>10}"
            f"{row['median_ms']:>9.2f}{row['p90_ms']:>9.2f}{row['max_ms']:>9.2f}"
            f"{row['ratio']:>7.2f}  {verdict}"
        )
    baseline = next(iter(result["rulesets"].values()))["baseline_ms"]
    lines += [
        "",
        f"ratio: the median over the baseline, {baseline:.2f} ms (the median of the medians);"
        f" target at most {TARGET_RATIO:.1f}",
        f"load average at end: {load_text(result['load_end'])}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=16, help="seeded hands per ruleset (16)")
    parser.add_argument("--rulesets", default="", help="comma-separated ids (every ruleset)")
    parser.add_argument("--players", type=int, default=PLAYERS, help="table size (4)")
    parser.add_argument(
        "--playouts-for",
        default="",
        help="ID=N,... : measure these rulesets at N playouts rather than their default",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    known = [r.id for r in rules.all_rulesets()]
    chosen = [r for r in args.rulesets.split(",") if r] or known
    unknown = sorted(set(chosen) - set(known))
    if unknown:
        parser.error(f"unknown rulesets {unknown}; the rulesets are {known}")
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    budgets: dict[str, int] = {}
    for item in filter(None, args.playouts_for.split(",")):
        rid, _, value = item.partition("=")
        if rid not in known or not value.isdigit() or int(value) < 1:
            parser.error(f"--playouts-for takes ID=N with a known id and N >= 1, not {item!r}")
        budgets[rid] = int(value)
    load_start = list(load_average())
    result = {
        "rulesets": measure(chosen, args.hands, args.players, budgets),
        "hands": args.hands,
        "load_start": load_start,
        "load_end": list(load_average()),
        "python": sys.version.split()[0],
    }
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
