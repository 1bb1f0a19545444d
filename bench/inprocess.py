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

With ``--instructions``, the same comparison is also made in instructions per move, as
valgrind's callgrind counts them (each side plays a fixed number of games in a process
of its own, twice, and the two counts are subtracted, so start-up and first-game costs
cancel out; ``PYTHONHASHSEED=0``). Unlike CPU time, the count is the same on every run of
the same code whatever else the machine does, so it tells a small change from noise;
what it does not count is time lost to cache misses, so the two ratios can differ.

Both sides play through one playout loop (:data:`PLAYOUT`). It is compiled once for each
side with that side's own expressions for a new game, its legal moves, applying a move
and the end of a game, so that neither pays for an adapter call the other does not.

Usage (from the repository root, in the project's environment)::

    python bench/inprocess.py                      # 0.5 s per measurement, 5 rounds
    python bench/inprocess.py --seconds 1 --rounds 7
    python bench/inprocess.py --instructions      # also count instructions (valgrind)
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
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import interleaved, load_average, load_text
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
#: have passed (or ``games`` games), game ``n`` with its own seed and its moves chosen by
#: ``random.Random(n)``.
PLAYOUT = """
def playouts(seconds, games=-1):
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
        if spent >= seconds or n == games:
            return spent, moves, n
"""


def _compile(side: str, env: dict[str, Any], **parts: str) -> Callable[..., Any]:
    """:data:`PLAYOUT` with ``parts`` filled in, compiled in ``env``."""
    source = PLAYOUT.format(**parts)
    namespace = {"process_time": time.process_time, "Random": random.Random, **env}
    exec(compile(source, f"<playouts of {side}>", "exec"), namespace)
    playouts: Callable[..., Any] = namespace["playouts"]
    return playouts


def ruleset_playouts(ruleset_id: str) -> Callable[..., Any]:
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


def library_playouts(module: Any) -> Callable[..., Any]:
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


def check_timer(ruleset_id: str) -> Callable[..., Any]:
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
    items: dict[str, Callable[..., Any]] = {
        f"move/{rid}": ruleset_playouts(rid) for rid in ruleset_ids
    }
    if library is not None:
        items[f"move/{LIBRARY}"] = library_playouts(library)
    items.update({f"check/{rid}": check_timer(rid) for rid in ruleset_ids})
    for run in items.values():  # warm up: caches filled, code specialized
        run(min(seconds, 0.1))
    runs: dict[str, list[float]] = {name: [] for name in items}
    names = list(items)
    for i, name in enumerate(interleaved(names, rounds)):  # in a rotating order
        spent, count, *_ = items[name](seconds)
        runs[name].append(spent / count * 1e6)
        print(f"  round {i // len(names) + 1}: {name} {runs[name][-1]:.2f} us", file=sys.stderr)
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


#: Games each side plays under callgrind (``--instructions``): the counts of the first
#: and of the second are subtracted, so start-up and first-game costs cancel out.
INSTRUCTION_GAMES = {"one_arm_joe": (10, 70), LIBRARY: (30, 230)}


def play_games(side: str, games: int) -> int:
    """Play ``games`` games of ``side`` (``one_arm_joe`` or the library) through the
    playout loop; the moves played."""
    if side == LIBRARY:
        library, note = load_library()
        if library is None:
            raise SystemExit(note)
        run = library_playouts(library)
    else:
        run = ruleset_playouts(side)
    if games == 0:
        return 0
    _spent, moves, _games = run(float("inf"), games)
    return int(moves)


def _instructions(side: str, games: int) -> tuple[int, int]:
    """Instructions executed (valgrind's callgrind) by a process that plays ``games``
    games of ``side``, and the moves it played."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, __file__, "--play", side, str(games),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # the same hashes, so the same count
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    if collected is None:
        raise RuntimeError(f"callgrind printed no count: {done.stderr[-500:]}")
    return int(collected.group(1)), int(done.stdout.split()[-1])


def instruction_comparison() -> dict[str, Any]:
    """Instructions per move of 4-player One Arm Joe and of the library's game, counted
    by callgrind: the same on every run of the same code, whatever the machine's load."""
    if shutil.which("valgrind") is None:
        return {"skipped": "valgrind is not installed"}
    library, note = load_library()
    if library is None:
        return {"skipped": note}
    per_move = {}
    for side, (first, second) in INSTRUCTION_GAMES.items():
        count_1, moves_1 = _instructions(side, first)
        count_2, moves_2 = _instructions(side, second)
        per_move[side] = (count_2 - count_1) / (moves_2 - moves_1)
    ratio = per_move[LIBRARY] / per_move["one_arm_joe"]
    return {
        "library_per_move": per_move[LIBRARY],
        "one_arm_joe_per_move": per_move["one_arm_joe"],
        "ratio": ratio,
        "passed": ratio >= TARGET,
    }


def report(result: dict[str, Any]) -> str:
    lines = [
        f"load average at start: {load_text(result['load_start'])}",
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
    counted = result.get("instructions")
    if counted is not None and "skipped" in counted:
        lines.append(f"instruction counts skipped: {counted['skipped']}")
    elif counted is not None:
        verdict = "PASS" if counted["passed"] else "FAIL"
        lines += [
            f"instructions per move (callgrind): {LIBRARY} {counted['library_per_move']:,.0f}, "
            f"One Arm Joe {counted['one_arm_joe_per_move']:,.0f}: "
            f"ratio {counted['ratio']:.2f}x (target >= {TARGET}x): {verdict}",
        ]
    lines += ["", "microseconds per check_match of a mid-hand state (fresh object each time)"]
    for rid, us in result["us_per_check"].items():
        lines.append(f"  {rid:<14} {us:8.2f}")
    lines += ["", f"load average at end: {load_text(result['load_end'])}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=0.5, help="CPU seconds per measurement (0.5)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count instructions per move with valgrind (about a minute more)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--play", nargs=2, metavar=("SIDE", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:
        print(play_games(args.play[0], int(args.play[1])))
        return 0
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")
    load_start = list(load_average())
    result = measure(args.seconds, args.rounds)
    if args.instructions:
        result["instructions"] = instruction_comparison()
    result.update(
        seconds=args.seconds,
        rounds=args.rounds,
        load_start=load_start,
        load_end=list(load_average()),
        python=sys.version.split()[0],
    )
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
