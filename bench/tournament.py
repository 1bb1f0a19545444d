#!/usr/bin/env python3
"""How strong the bots are, measured: seeded matches between levels, seats rotated.

For every ruleset (``--rulesets``, default all four) and every pairing (``--pairings``,
default ``GREEDY:RANDOM,STRONG:GREEDY``: a hero level against an opponent level), plays
``--matches`` 2-player matches (default 400; ``--quick`` is 40). Matches come in pairs on
the same deal: deal ``d`` (game seed ``tournament/<ruleset>/<d>``) is played once with the
hero in seat 0 and once in seat 1, so that the luck of the deal falls on both sides. The
bots' own seeds are the match number. Matches are short, so that hundreds are
affordable: the options with a single hand where the ruleset allows it:

* One Arm Joe ``target_score: 0`` (one hand), Tsair Deng ``hands: 1`` (Chinese set),
  Tiu U ``hands: 1``; Throw-up ``hands_per_player: 1`` (two hands, one led by each seat:
  the fewest a Throw-up match has).

Reported per ruleset and pairing:

* ``hero win``: the hero's mean share of the win (1 for a win, 1/2 for a shared win,
  0 for a loss) with its 95% confidence interval, against the fair share 1/2; ``sig``
  is ``yes`` when the interval excludes the fair share. Intervals are normal
  approximations over the deals (the mean of a deal's two matches is one sample: the
  two seatings of a deal are not independent);
* ``hero pts``/``opp pts``: the mean match points of each side with their 95% intervals,
  and ``diff`` the mean of the hero's points less the opponent's, paired by match (in
  Tsair Deng the fewest points win, so there a negative ``diff`` is good);
* for a STRONG hero, the process time of each STRONG suggestion that searched (two or
  more legal moves; a forced move is returned at once): median and 99th percentile
  (nearest rank), in milliseconds, on one core (``time.process_time`` in the process
  that plays the match).

``--jobs N`` plays matches in N worker processes (the times stay per suggestion and per
process). Progress goes to stderr, the table to stdout.

Usage::

    python bench/tournament.py [--quick | --matches N] [--rulesets a,b] [--pairings H:O,...]
                               [--playouts N] [--jobs N]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domino_rules import bots, rules
from domino_rules.bots import Level
from domino_rules.rules import MoveKind, Status

#: The short match of each ruleset (see the module docstring).
SHORT: dict[str, dict[str, Any]] = {
    "one_arm_joe": {"target_score": 0},
    "tsair_deng": {"hands": 1},
    "tiu_u": {"hands": 1},
    "throw_up": {"hands_per_player": 1},
}
PLAYERS = 2
Z95 = 1.959964


@dataclass(frozen=True)
class Job:
    ruleset: str
    hero: str
    opponent: str
    number: int
    playouts: int


@dataclass(frozen=True)
class Result:
    share: float
    hero_points: int
    opponent_points: int
    strong_ms: tuple[float, ...]


def play(job: Job) -> Result:
    """One match: deal ``number // 2``, the hero in seat ``number % 2``."""
    ruleset = rules.get(job.ruleset)
    options = ruleset.make_options(SHORT[job.ruleset])
    hero_seat = job.number % PLAYERS
    levels = {s: Level[job.opponent] for s in range(PLAYERS)}
    levels[hero_seat] = Level[job.hero]
    match = ruleset.new_match(options, PLAYERS, f"tournament/{job.ruleset}/{job.number // 2}")
    times: list[float] = []
    while match.status is not Status.MATCH_OVER:
        legal = ruleset.legal_moves(match)
        if legal[0].kind is MoveKind.NEXT_HAND:
            move = legal[0]
        else:
            seat = ruleset.to_act(match)
            assert seat is not None
            view = ruleset.view(match, seat)
            level = levels[seat]
            start = time.process_time()
            move = bots.suggest(
                ruleset,
                options,
                PLAYERS,
                view,
                level,
                seed=str(job.number),
                playouts=job.playouts,
            ).move
            if level is Level.STRONG and len(legal) > 1:
                times.append((time.process_time() - start) * 1000)
        match, _ = ruleset.apply(match, move)
    winners = ruleset.winners(match)
    totals = ruleset.totals(match)
    share = 1 / len(winners) if hero_seat in winners else 0.0
    return Result(share, totals[hero_seat], totals[1 - hero_seat], tuple(times))


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=400, help="matches per pairing")
    parser.add_argument("--quick", action="store_true", help="40 matches per pairing")
    parser.add_argument("--rulesets", default=",".join(SHORT), help="comma-separated ids")
    parser.add_argument("--pairings", default="GREEDY:RANDOM,STRONG:GREEDY")
    parser.add_argument("--playouts", type=int, default=bots.DEFAULT_PLAYOUTS)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)
    matches = 40 if args.quick else args.matches
    if matches < 2 or matches % 2:
        parser.error("--matches must be an even number of at least 2 (deals are played twice)")
    names = [name.strip() for name in args.rulesets.split(",") if name.strip()]
    unknown = [name for name in names if name not in SHORT]
    if unknown:
        parser.error(f"unknown rulesets {unknown}; known: {', '.join(SHORT)}")
    pairings = [tuple(p.split(":")) for p in args.pairings.split(",")]
    if any(len(p) != 2 or not set(p) <= set(Level.__members__) for p in pairings):
        parser.error(f"pairings are HERO:OPPONENT with levels {list(Level.__members__)}")
    print(
        f"# {matches} matches per pairing, {PLAYERS} players, seats rotated; "
        f"STRONG budget {args.playouts} playouts; load average "
        + " ".join(f"{x:.2f}" for x in os.getloadavg()),
        flush=True,
    )
    header = (
        f"{'ruleset':<12} {'hero:opp':<15} {'hero win (fair 0.50)':<22} {'sig':<4} "
        f"{'hero pts':<16} {'opp pts':<16} {'diff':<16} {'STRONG ms median/p99 (n)'}"
    )
    print(header)
    print("-" * len(header), flush=True)
    context = multiprocessing.get_context("fork")
    with context.Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for name in names:
            for hero, opponent in pairings:
                jobs = [Job(name, hero, opponent, n, args.playouts) for n in range(matches)]
                started = time.monotonic()
                results = list(pool.imap(play, jobs))
                print(
                    f"  {name} {hero}:{opponent} done in {time.monotonic() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
                print(_row(name, hero, opponent, results), flush=True)
    return 0


def by_deal(values: Sequence[float]) -> list[float]:
    """The mean of each deal's matches (one per seat), the independent unit of the
    tournament: matches ``2d`` and ``2d + 1`` are played on deal ``d``."""
    return [statistics.fmean(values[i : i + PLAYERS]) for i in range(0, len(values), PLAYERS)]


def _row(name: str, hero: str, opponent: str, results: list[Result]) -> str:
    share, share_ci = interval(by_deal([r.share for r in results]))
    fair = 1 / PLAYERS
    significant = "yes" if abs(share - fair) > share_ci else "no"
    hero_pts, hero_ci = interval(by_deal([r.hero_points for r in results]))
    opp_pts, opp_ci = interval(by_deal([r.opponent_points for r in results]))
    diff, diff_ci = interval(by_deal([r.hero_points - r.opponent_points for r in results]))
    times = [t for r in results for t in r.strong_ms]
    timing = (
        f"{statistics.median(times):.1f} / {percentile(times, 99):.1f} ({len(times)})"
        if times
        else "-"
    )
    return (
        f"{name:<12} {hero + ':' + opponent:<15} "
        f"{f'{share:.3f} ± {share_ci:.3f}':<22} {significant:<4} "
        f"{f'{hero_pts:.1f} ± {hero_ci:.1f}':<16} {f'{opp_pts:.1f} ± {opp_ci:.1f}':<16} "
        f"{f'{diff:+.1f} ± {diff_ci:.1f}':<16} {timing}"
    )


class _Serial:
    """A stand-in for a pool: the matches one after another in this process."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, function: Any, items: Sequence[Job]) -> Any:
        return map(function, items)


if __name__ == "__main__":
    sys.exit(main())
