#!/usr/bin/env python3
"""Sizes of sealed state tokens: over 50-hand matches at each ruleset's largest table, and
in the middle of 4-player One Arm Joe hands.

For every ruleset, ``--matches`` (5) seeded random matches with the options and table of
:data:`LONG_MATCHES` (One Arm Joe: double-six, 9 players, a target no one reaches in 50
hands), each played for 50 hands (or to its end); every state is
sealed under a fresh AES-256-GCM key with a server-chosen seed, as ``serve`` issues it,
and the bench prints the largest token, the largest in the first and the fiftieth hand,
and the mean bytes a finished hand adds. Then every state before each move of
``--hands`` (50) first hands of 4-player One Arm Joe (default options): the median and
the largest. The targets (issue "Fast all the way"): at most 1 KiB at every point of a
50-hand match, at most 400 B mid-hand for 4-player One Arm Joe. Figures only.

Usage::

    python bench/tokens.py [--matches 5] [--hands 50] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import load_average, load_line
from domino_rules import games, rules
from domino_rules.api import RulesService
from domino_rules.api.service import new_seed
from domino_rules.bots.playout import Step, hand_over, play_out
from domino_rules.state.codec import Game
from domino_rules.state.tokens import KeyRing, TokenCodec

LONG_TARGET = 1024
MID_HAND_TARGET = 400
GAME_ID = "ab" * 12  # as long as a real game id
#: Each ruleset's options and table for a long match: its largest table, and options
#: that let the match last 50 hands (``GamePackage.long_match``).
LONG_MATCHES: dict[str, tuple[dict[str, Any], int]] = {
    game.id: (dict(game.long_match(50)[0]), game.long_match(50)[1]) for game in games.all_games()
}


def after_fifty_hands(match: rules.Match[Any, Any]) -> bool:
    return match.hand_number > 50 or match.status is rules.Status.MATCH_OVER


def sizes_of_a_match(
    service: RulesService, ruleset_id: str, n: int, by_hand: dict[int, list[int]]
) -> list[int]:
    """Play match ``n`` of ``ruleset_id`` at its largest table for 50 hands, adding every
    sealed token's size to ``by_hand``; the sizes after each finished hand."""
    ruleset = rules.get(ruleset_id)
    options, players = LONG_MATCHES[ruleset_id]
    match = ruleset.new_match(ruleset.make_options(options), players, new_seed())
    finished: list[int] = []

    def measure(step: Step) -> None:
        size = len(service.encode(Game(ruleset, step.after, GAME_ID, step.number)))
        by_hand.setdefault(step.after.hand_number, []).append(size)
        if step.after.status is not rules.Status.IN_PROGRESS:
            finished.append(size)

    chooser = random.Random(f"{ruleset_id}/{n}")
    play_out(ruleset, match, chooser, until=after_fifty_hands, observe=measure)
    return finished


def long_matches(service: RulesService, matches: int) -> list[dict[str, Any]]:
    rows = []
    for ruleset_id, (options, players) in sorted(LONG_MATCHES.items()):
        by_hand: dict[int, list[int]] = {}
        ends = [sizes_of_a_match(service, ruleset_id, n, by_hand) for n in range(matches)]
        growth = [(sizes[-1] - sizes[0]) / (len(sizes) - 1) for sizes in ends if len(sizes) > 1]
        largest = max(max(sizes) for sizes in by_hand.values())
        rows.append(
            {
                "ruleset": ruleset_id,
                "players": players,
                "options": options,
                "hands": max(by_hand),
                "largest_first_hand": max(by_hand[1]),
                "largest_hand_50": max(by_hand.get(50, by_hand[max(by_hand)])),
                "largest": largest,
                "bytes_per_hand": round(statistics.mean(growth), 1) if growth else None,
                "target": LONG_TARGET,
                "met": largest <= LONG_TARGET,
            }
        )
    return rows


def mid_hand(service: RulesService, hands: int) -> dict[str, Any]:
    ruleset = rules.get("one_arm_joe")
    chooser = random.Random("mid-hand")
    sizes: list[int] = []

    def measure(step: Step) -> None:
        sizes.append(len(service.encode(Game(ruleset, step.before, GAME_ID, step.number))))

    for _ in range(hands):
        match = ruleset.new_match(ruleset.make_options({}), 4, new_seed())
        play_out(ruleset, match, chooser, until=hand_over, observe=measure)
    largest = max(sizes)
    return {
        "ruleset": "one_arm_joe",
        "players": 4,
        "states": len(sizes),
        "median": statistics.median(sizes),
        "largest": largest,
        "target": MID_HAND_TARGET,
        "met": largest <= MID_HAND_TARGET,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=5, help="50-hand matches per ruleset")
    parser.add_argument("--hands", type=int, default=50, help="mid-hand: One Arm Joe hands")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    load_before = load_average()
    service = RulesService(TokenCodec(KeyRing.parse(KeyRing.generate("bench"))))
    rows = long_matches(service, args.matches)
    middle = mid_hand(service, args.hands)
    load_after = load_average()
    if args.json:
        print(json.dumps({"long": rows, "mid_hand": middle, "load": [load_before, load_after]}))
        return 0
    print(load_line(load_before, load_after))
    print("sealed tokens over 50-hand matches at the largest table (bytes)")
    print(f"{'ruleset':16} {'table':>5} {'hands':>5} {'hand 1':>7} {'hand 50':>7} {'largest':>7}"
          f" {'B/hand':>6}  target")  # fmt: skip
    for row in rows:
        verdict = "PASS" if row["met"] else "FAIL"
        print(
            f"{row['ruleset']:16} {row['players']:>5} {row['hands']:>5}"
            f" {row['largest_first_hand']:>7} {row['largest_hand_50']:>7} {row['largest']:>7}"
            f" {row['bytes_per_hand'] or 0:>6}  <= {LONG_TARGET}: {verdict}"
        )
    verdict = "PASS" if middle["met"] else "FAIL"
    print(
        f"mid-hand 4-player One Arm Joe, {middle['states']} states: median {middle['median']} B,"
        f" largest {middle['largest']} B (target <= {MID_HAND_TARGET}): {verdict}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
