"""In-process speed of the rules core: microseconds per move, and per state checked.

Measures, in this process, with CPU time (``time.process_time``) and the median of
interleaved rounds (each round measures every item once, in a rotating order, so that a
change in the machine's load falls on all of them alike):

* every ruleset, default options, 4 players (Throw-up: 3): complete random matches,
  each move being the legal moves, a seeded random choice among them and ``apply``;
  new matches are dealt as the old ones end, so each deal's cost is spread over its moves;
* the ``dominoes`` library (PyPI, version 6.1.0), its 4-player game (``Game.new()``),
  played the same way, against our 4-player One Arm Joe: the ratio of their time per
  move to ours, and whether it reaches the target (1.5 times faster);
* ``check_match`` of one mid-hand state per ruleset (4 players; Throw-up: 3), a fresh
  copy of the state each time (nothing computed for an earlier check is reused).

Both sides play through one playout loop (:data:`PLAYOUT`). It is compiled once for each
side with that side's own expressions for a new game, its legal moves, applying a move
and the end of a game, so that neither pays for an adapter call the other does not.

Usage (from the repository root, in the project's environment)::

    python bench/inprocess.py                      # 0.5 s per measurement, 5 rounds
    python bench/inprocess.py --seconds 1 --rounds 7
    python bench/inprocess.py --json > inprocess.json

The ``dominoes`` library is optional: without it the comparison is skipped and said so.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from domino_rules import rules
from domino_rules.rules import Match, Status

#: The target: the rules core at least this many times faster per move than the library.
TARGET = 1.5
LIBRARY = "dominoes"
LIBRARY_VERSION = "6.1.0"
#: Players at the table; a ruleset that seats fewer (Throw-up) is measured with its most.
PLAYERS = 4
MATCH_FIELDS = tuple(f.name for f in dataclasses.fields(Match))

#: The one playout loop: ``new``, ``over``, ``legal`` and ``apply`` are each side's
#: expressions (``apply`` a statement). Games are played until ``seconds`` of CPU time
#: have passed, game ``n`` with its own seed and its moves chosen by ``random.Random(n)``.
PLAYOUT = """
def playouts(seconds):
    moves = 0
    n = 0
    start = process_time()
    while True:
        choice = Random(n).choice
        game = {new}
        while not {over}:
            move = choice({legal})
            {apply}
            moves += 1
        n += 1
        spent = process_time() - start
        if spent >= seconds:
            return spent, moves, n
"""


def _compile(side: str, env: dict[str, Any], **parts: str) -> Callable[[float], Any]:
    """:data:`PLAYOUT` with ``parts`` filled in, compiled in ``env``."""
    source = PLAYOUT.format(**parts)
    namespace = {"process_time": time.process_time, "Random": random.Random, **env}
    exec(compile(source, f"<playouts of {side}>", "exec"), namespace)
    playouts: Callable[[float], Any] = namespace["playouts"]
    return playouts


def ruleset_playouts(ruleset_id: str) -> Callable[[float], Any]:
    ruleset = rules.get(ruleset_id)
    options = ruleset.make_options({})
    players = min(PLAYERS, ruleset.player_range(options)[1])
    env = {
        "new_match": ruleset.new_match,
        "legal_moves": ruleset.legal_moves,
        "apply": ruleset.apply,
        "options": options,
        "players": players,
        "label": f"bench/{ruleset_id}/",
        "MATCH_OVER": Status.MATCH_OVER,
    }
    return _compile(
        ruleset_id,
        env,
        new="new_match(options, players, label + str(n))",
        over="game.status is MATCH_OVER",
        legal="legal_moves(game)",
        apply="game = apply(game, move)[0]",
    )


def library_playouts(module: Any) -> Callable[[float], Any]:
    """The library's game: its deal shuffles with the global generator, seeded per game."""
    env = {"Game": module.Game, "seed": random.seed}
    return _compile(
        LIBRARY,
        env,
        new="(seed(n), Game.new())[1]",
        over="game.result is not None",
        legal="game.valid_moves",
        apply="game.make_move(*move)",
    )


def load_library() -> tuple[Any | None, str]:
    """The library, imported only now, or ``None`` and why."""
    try:
        module = importlib.import_module(LIBRARY)
    except ImportError:
        return None, (
            f"the {LIBRARY!r} library is not installed: no comparison "
            f"(pip install {LIBRARY}=={LIBRARY_VERSION}, or the project's bench extra)"
        )
    from importlib import metadata

    try:
        version = metadata.version(LIBRARY)
    except metadata.PackageNotFoundError:  # pragma: no cover - installed without metadata
        version = "unknown"
    note = "" if version == LIBRARY_VERSION else f" (the target was set with {LIBRARY_VERSION})"
    return module, f"{LIBRARY} {version}{note}"


def mid_hand(ruleset_id: str, seed: str = "bench/mid-hand") -> tuple[Any, Match[Any, Any]]:
    """A state halfway through the first hand of a seeded random match."""
    ruleset = rules.get(ruleset_id)
    options = ruleset.make_options({})
    players = min(PLAYERS, ruleset.player_range(options)[1])

    def play(limit: int) -> tuple[Match[Any, Any], int]:
        chooser = random.Random(seed)
        match = ruleset.new_match(options, players, seed)
        moves = 0
        while match.status is Status.IN_PROGRESS and moves != limit:
            match, _ = ruleset.apply(match, chooser.choice(ruleset.legal_moves(match)))
            moves += 1
        return match, moves

    _, length = play(-1)
    return ruleset, play(length // 2)[0]


def check_timer(ruleset_id: str) -> Callable[[float], Any]:
    ruleset, match = mid_hand(ruleset_id)
    values = [getattr(match, name) for name in MATCH_FIELDS]
    check = ruleset.check_match

    def checks(seconds: float) -> tuple[float, int]:
        spent, states = 0.0, 0
        while spent < seconds:
            fresh = [Match(*values) for _ in range(500)]  # as decoded: nothing cached yet
            start = time.process_time()
            for state in fresh:
                check(state)
            spent += time.process_time() - start
            states += len(fresh)
        return spent, states

    return checks


def measure(seconds: float, rounds: int) -> dict[str, Any]:
    library, library_note = load_library()
    ruleset_ids = [r.id for r in rules.all_rulesets()]
    items: dict[str, Callable[[float], Any]] = {
        f"move/{rid}": ruleset_playouts(rid) for rid in ruleset_ids
    }
    if library is not None:
        items[f"move/{LIBRARY}"] = library_playouts(library)
    items.update({f"check/{rid}": check_timer(rid) for rid in ruleset_ids})
    for run in items.values():  # warm up: caches filled, code specialized
        run(min(seconds, 0.1))
    runs: dict[str, list[float]] = {name: [] for name in items}
    names = list(items)
    for round_number in range(rounds):
        shift = round_number % len(names)
        for name in names[shift:] + names[:shift]:
            spent, count, *_ = items[name](seconds)
            runs[name].append(spent / count * 1e6)
            print(f"  round {round_number + 1}: {name} {runs[name][-1]:.2f} us", file=sys.stderr)
    median = {name: statistics.median(values) for name, values in runs.items()}
    result: dict[str, Any] = {
        "library": library_note,
        "us_per_move": {rid: median[f"move/{rid}"] for rid in ruleset_ids},
        "us_per_check": {rid: median[f"check/{rid}"] for rid in ruleset_ids},
        "runs": runs,
    }
    if library is not None:
        ours, theirs = median["move/one_arm_joe"], median[f"move/{LIBRARY}"]
        ratio = theirs / ours
        result["comparison"] = {
            "library_us_per_move": theirs,
            "one_arm_joe_us_per_move": ours,
            "ratio": ratio,
            "target": TARGET,
            "passed": ratio >= TARGET,
        }
    return result


def report(result: dict[str, Any]) -> str:
    lines = [
        f"load average at start: {_load(result['load_start'])}",
        f"CPU time, median of {result['rounds']} interleaved rounds of {result['seconds']} s each",
        "",
        "microseconds per move (legal moves + choice + apply; deals spread over their moves)",
    ]
    for rid, us in result["us_per_move"].items():
        lines.append(f"  {rid:<14} {us:8.2f}")
    lines.append("")
    comparison = result.get("comparison")
    if comparison is None:
        lines.append(f"comparison skipped: {result['library']}")
    else:
        verdict = "PASS" if comparison["passed"] else "FAIL"
        lines += [
            f"{result['library']}, 4-player game: {comparison['library_us_per_move']:.2f} us/move",
            f"One Arm Joe, 4 players:          {comparison['one_arm_joe_us_per_move']:.2f} us/move",
            f"ratio {comparison['ratio']:.2f}x (target >= {TARGET}x): {verdict}",
        ]
    lines += ["", "microseconds per check_match of a mid-hand state (fresh object each time)"]
    for rid, us in result["us_per_check"].items():
        lines.append(f"  {rid:<14} {us:8.2f}")
    lines += ["", f"load average at end: {_load(result['load_end'])}"]
    return "\n".join(lines)


def _load(values: list[float]) -> str:
    return " ".join(f"{v:.2f}" for v in values)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=0.5, help="CPU seconds per measurement (0.5)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")
    load_start = list(os.getloadavg())
    result = measure(args.seconds, args.rounds)
    result.update(
        seconds=args.seconds,
        rounds=args.rounds,
        load_start=load_start,
        load_end=list(os.getloadavg()),
        python=sys.version.split()[0],
    )
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
