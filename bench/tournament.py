#!/usr/bin/env python3
"""How strong the bots are, measured: seeded matches between levels, seats rotated.

For every ruleset (``--rulesets``, default every game installed) and every pairing (``--pairings``,
default ``GREEDY:RANDOM,STRONG:GREEDY``: a hero level against an opponent level), plays
``--matches`` 2-player matches (default 400; ``--quick`` 40), each to its end, with the
ruleset's default options (``--short`` plays the shortest matches instead, see
each game's ``GamePackage.shortest``). Matches come in pairs on the same deal: deal ``d`` (game seed
``tournament/<ruleset>/<d>``, which also fixes every later deal and throw) is played once
with the hero in seat 0 and once in seat 1, so that the luck of the deal falls on both
sides. The bots' own seeds are the match number; STRONG plays its default budget
(``bots.default_playouts``; ``--playouts`` to change it).

The table, one row per ruleset and pairing:

* ``hero win``: the hero's mean share of the win (1 for a win, 1/2 for a shared win,
  0 for a loss) with its 95% confidence interval, against the fair share 1/2. Intervals
  are normal approximations over the deals: the mean of a deal's two matches is one
  sample (the two seatings of a deal are not independent). ``z`` is the share's distance
  from 1/2 in standard errors and ``sig`` says ``yes`` when the interval excludes 1/2
  (``|z| > 1.96``);
* ``hero pts`` and ``opp pts``: the mean match points of each side with their 95%
  intervals, and ``diff`` the mean of the hero's points less the opponent's, paired by
  match (in Tsair Deng the fewest points win, so there a negative ``diff`` is good).

Then the time of a STRONG suggestion, per ruleset, measured apart from the matches above:
in this process, with no worker running, ``--timing-matches`` matches of STRONG against
GREEDY (seeds ``timing/<ruleset>/<n>``) are played and every STRONG suggestion that
searched (two legal moves or more; a forced move is answered at once) is timed with
``time.process_time`` (CPU time of this one process: one core). Reported: median, 99th
percentile (nearest rank), the largest, and how many. The load average is printed at the
start and at the end (the machine may be shared).

``--matches-for ID=N,...`` gives some rulesets more matches than ``--matches``; by
default each game gets its ``GamePackage.tournament_matches`` (Tiu U and Throw-up 4,000:
STRONG's edge over GREEDY there is a point or two of win share, which 400 matches cannot
tell from luck, see ``bench/README.md``). ``--jobs N`` plays the matches of the table in N
worker processes (default 2).
Progress goes to stderr, the tables to stdout.

Usage::

    python bench/tournament.py [--quick | --matches N] [--matches-for ID=N,...]
                               [--rulesets a,b] [--pairings H:O,...] [--short]
                               [--playouts N] [--jobs N] [--timing-matches N]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import load_average, load_text
from domino_rules import bots, games, rules
from domino_rules.bots import Level
from domino_rules.rules import Match, MoveKind, Ruleset, Status

RULESETS = tuple(game.id for game in games.all_games())
#: Matches per pairing where a game asks for more than ``--matches``' default.
MORE_MATCHES = {
    game.id: game.tournament_matches for game in games.all_games() if game.tournament_matches != 400
}
PLAYERS = 2
Z95 = 1.959964


@dataclass(frozen=True)
class Job:
    ruleset: str
    short: bool
    hero: str
    opponent: str
    number: int
    playouts: int | None


@dataclass(frozen=True)
class Result:
    share: float
    hero_points: int
    opponent_points: int


def options_of(ruleset: Ruleset[Any, Any], short: bool) -> Any:
    return ruleset.make_options(games.get(ruleset.id).shortest if short else {})


def play_match(
    ruleset: Ruleset[Any, Any],
    options: Any,
    seed: str,
    levels: dict[int, Level],
    bot_seed: str,
    playouts: int | None,
) -> tuple[Match[Any, Any], list[float]]:
    """One match, each seat at its level: the finished match, and the process time
    (seconds) of each STRONG suggestion asked of a seat with two legal moves or more."""
    times: list[float] = []
    match = ruleset.new_match(options, PLAYERS, seed)
    while match.status is not Status.MATCH_OVER:
        legal = ruleset.legal_moves(match)
        seat = ruleset.to_act(match)
        if legal[0].kind is MoveKind.NEXT_HAND or seat is None or len(legal) == 1:
            move = legal[0]  # NEXT_HAND, or a forced move
        else:
            view = ruleset.view(match, seat)
            level = levels[seat]
            started = time.process_time()
            move = bots.suggest(
                ruleset, options, PLAYERS, view, level, seed=bot_seed, playouts=playouts
            ).move
            if level is Level.STRONG:
                times.append(time.process_time() - started)
        match, _ = ruleset.apply(match, move)
    return match, times


def play(job: Job) -> Result:
    """One match of the table: deal ``number // 2``, the hero in seat ``number % 2``."""
    ruleset = rules.get(job.ruleset)
    options = options_of(ruleset, job.short)
    hero_seat = job.number % PLAYERS
    levels = {s: Level[job.opponent] for s in range(PLAYERS)}
    levels[hero_seat] = Level[job.hero]
    seed = f"tournament/{job.ruleset}/{job.number // 2}"
    match, _ = play_match(ruleset, options, seed, levels, str(job.number), job.playouts)
    winners = ruleset.winners(match)
    totals = ruleset.totals(match)
    share = 1 / len(winners) if hero_seat in winners else 0.0
    return Result(share, totals[hero_seat], totals[1 - hero_seat])


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, Z95 * statistics.stdev(values) / math.sqrt(len(values))


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def by_deal(values: Sequence[float]) -> list[float]:
    """The mean of each deal's matches (one per seat), the independent unit of the
    tournament: matches ``2d`` and ``2d + 1`` are played on deal ``d``."""
    return [statistics.fmean(values[i : i + PLAYERS]) for i in range(0, len(values), PLAYERS)]


def summary(name: str, hero: str, opponent: str, results: Sequence[Result]) -> dict[str, Any]:
    """One row of the table (see the module docstring), as numbers."""
    share, share_ci = interval(by_deal([r.share for r in results]))
    fair = 1 / PLAYERS
    error = share_ci / Z95
    z = (share - fair) / error if error > 0 else (0.0 if share == fair else math.inf)
    hero_pts, hero_ci = interval(by_deal([r.hero_points for r in results]))
    opp_pts, opp_ci = interval(by_deal([r.opponent_points for r in results]))
    diff, diff_ci = interval(by_deal([r.hero_points - r.opponent_points for r in results]))
    return {
        "ruleset": name,
        "hero": hero,
        "opponent": opponent,
        "matches": len(results),
        "fair_share": fair,
        "hero_share": share,
        "hero_share_ci95": share_ci,
        "z": z,
        "significant": abs(share - fair) > share_ci,
        "hero_points": hero_pts,
        "hero_points_ci95": hero_ci,
        "opponent_points": opp_pts,
        "opponent_points_ci95": opp_ci,
        "points_diff": diff,
        "points_diff_ci95": diff_ci,
    }


ROW_HEADER = (
    f"{'ruleset':<16} {'hero:opp':<14} {'matches':>7} {'hero win ±95%':<15} "
    f"{'z':>6} {'sig':<4} {'hero pts ±95%':<15} {'opp pts ±95%':<15} {'diff ±95%':<14}"
)


def row(r: dict[str, Any]) -> str:
    share = f"{r['hero_share']:.3f} ± {r['hero_share_ci95']:.3f}"
    hero_pts = f"{r['hero_points']:.1f} ± {r['hero_points_ci95']:.1f}"
    opp_pts = f"{r['opponent_points']:.1f} ± {r['opponent_points_ci95']:.1f}"
    diff = f"{r['points_diff']:+.1f} ± {r['points_diff_ci95']:.1f}"
    return (
        f"{r['ruleset']:<16} {r['hero'] + ':' + r['opponent']:<14} {r['matches']:>7} "
        f"{share:<15} {r['z']:>6.1f} {'yes' if r['significant'] else 'no':<4} "
        f"{hero_pts:<15} {opp_pts:<15} {diff:<14}"
    )


def timing(name: str, short: bool, matches: int, playouts: int | None) -> dict[str, Any]:
    """The STRONG suggestion times of ``matches`` matches against GREEDY, in this
    process (see the module docstring), in milliseconds."""
    ruleset = rules.get(name)
    options = options_of(ruleset, short)
    times: list[float] = []
    for n in range(matches):
        levels = {n % PLAYERS: Level.STRONG, (n + 1) % PLAYERS: Level.GREEDY}
        _, spent = play_match(ruleset, options, f"timing/{name}/{n}", levels, str(n), playouts)
        times += spent
    ms = [t * 1000 for t in times]
    return {
        "ruleset": name,
        "matches": matches,
        "suggestions": len(ms),
        "median_ms": statistics.median(ms) if ms else None,
        "p99_ms": percentile(ms, 99) if ms else None,
        "max_ms": max(ms) if ms else None,
    }


TIMING_HEADER = f"{'ruleset':<16} {'median ms':>10} {'p99 ms':>8} {'max ms':>8} {'n':>7}"


def timing_row(t: dict[str, Any]) -> str:
    if not t["suggestions"]:
        return f"{t['ruleset']:<16} {'-':>10}"
    return (
        f"{t['ruleset']:<16} {t['median_ms']:>10.1f} {t['p99_ms']:>8.1f} "
        f"{t['max_ms']:>8.1f} {t['suggestions']:>7}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=400, help="matches per pairing")
    parser.add_argument(
        "--matches-for",
        default=",".join(f"{name}={n}" for name, n in MORE_MATCHES.items()),
        help="matches per pairing for some rulesets, overriding --matches: ID=N,ID=N "
        "(default %(default)s; '' for none)",
    )
    parser.add_argument("--quick", action="store_true", help="40 matches, 4 timing matches")
    parser.add_argument("--rulesets", default=",".join(RULESETS), help="comma-separated ids")
    parser.add_argument("--pairings", default="GREEDY:RANDOM,STRONG:GREEDY")
    parser.add_argument("--short", action="store_true", help="the shortest matches")
    parser.add_argument("--playouts", type=int, default=None, help="STRONG's budget")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--timing-matches", type=int, default=None, help="default 20")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args(argv)
    timed = args.timing_matches if args.timing_matches is not None else 4 if args.quick else 20
    names = [name.strip() for name in args.rulesets.split(",") if name.strip()]
    unknown = [name for name in names if name not in RULESETS]
    if unknown:
        parser.error(f"unknown rulesets {unknown}; known: {', '.join(RULESETS)}")
    counts = dict.fromkeys(names, 40 if args.quick else args.matches)
    for item in filter(None, args.matches_for.split(",")):
        name, _, number = item.partition("=")
        if name not in RULESETS or not number.isdigit():
            parser.error(f"--matches-for takes ID=N items, not {item!r}")
        if name in counts and not args.quick:
            counts[name] = int(number)
    if any(n < 2 or n % 2 for n in counts.values()):
        parser.error("matches must be an even number of at least 2 (deals are played twice)")
    pairings = [tuple(p.split(":")) for p in args.pairings.split(",")]
    if any(len(p) != 2 or not set(p) <= set(Level.__members__) for p in pairings):
        parser.error(f"pairings are HERO:OPPONENT with levels {list(Level.__members__)}")

    def out(line: str = "") -> None:
        if not args.json:
            print(line, flush=True)

    result: dict[str, Any] = {
        "players": PLAYERS,
        "jobs": args.jobs,
        "playouts": {
            name: args.playouts
            if args.playouts is not None
            else bots.default_playouts(rules.get(name))
            for name in names
        },
        "options": {name: repr(options_of(rules.get(name), args.short)) for name in names},
        "load_average_start": load_average(),
        "rows": [],
        "timing": [],
    }
    out(
        f"# {PLAYERS} players, each deal played twice with the seats swapped; {args.jobs} worker(s)"
    )
    for name in names:
        out(
            f"# {name}: {counts[name]} matches per pairing; STRONG "
            f"{result['playouts'][name]} playouts; {result['options'][name]}"
        )
    out(f"# load average at the start: {load_text(result['load_average_start'])}")
    out(ROW_HEADER)
    out("-" * len(ROW_HEADER))
    context = multiprocessing.get_context("fork")
    with context.Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for name in names:
            for hero, opponent in pairings:
                jobs = [
                    Job(name, args.short, hero, opponent, n, args.playouts)
                    for n in range(counts[name])
                ]
                started = time.monotonic()
                results = list(pool.imap(play, jobs, chunksize=2))
                print(
                    f"  {name} {hero}:{opponent} done in {time.monotonic() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
                result["rows"].append(summary(name, hero, opponent, results))
                out(row(result["rows"][-1]))
    result["load_average_after_matches"] = load_average()
    out(f"# load average after the matches: {load_text(result['load_average_after_matches'])}")
    out()
    out(
        "# STRONG suggestion time (ms of CPU, one process, no worker running), "
        f"{timed} matches against GREEDY per ruleset"
    )
    out(TIMING_HEADER)
    out("-" * len(TIMING_HEADER))
    for name in names:
        started = time.monotonic()
        result["timing"].append(timing(name, args.short, timed, args.playouts))
        print(f"  {name} timing done in {time.monotonic() - started:.0f} s", file=sys.stderr)
        out(timing_row(result["timing"][-1]))
    result["load_average_end"] = load_average()
    out(f"# load average at the end: {load_text(result['load_average_end'])}")
    if args.json:
        print(json.dumps(result, indent=2))
    return 0


class _Serial:
    """A stand-in for a pool: the matches one after another in this process."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, function: Any, items: Sequence[Job], chunksize: int = 1) -> Any:
        return map(function, items)


if __name__ == "__main__":
    sys.exit(main())
