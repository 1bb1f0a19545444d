#!/usr/bin/env python3
"""Play one whole One Arm Joe match through the REST door, always taking the first legal
move, and print the final score.

    python3 clients/python/example_play.py http://127.0.0.1:8080
    python3 clients/python/example_play.py http://127.0.0.1:8080 --players 4 --target-score 40

Standard library only: it needs domino_rules_client.py beside it.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from domino_rules_client import DominoRulesClient, DominoRulesError

MAX_MOVES = 20_000


def play(client: DominoRulesClient, players: int, target_score: int, seed: str | None) -> dict:
    """Play to MATCH_OVER; returns the final GetScore answer."""
    options = {"target_score": target_score}
    game = client.new_game("one_arm_joe", players, options=options, seed=seed)
    state, version = game["state"], game["version"]
    print(
        f"game {game['game_id']}: {players} players, target {target_score}, "
        f"seed commitment {game['seed_commitment'][:16]}..."
    )
    for _ in range(MAX_MOVES):
        legal = client.legal_moves(state)
        if legal["status"] == "MATCH_OVER":
            break
        move = legal["moves"][0]
        answer = client.apply_move(state, move, expected_version=version)
        state, version = answer["state"], answer["version"]
        for event in answer["events"]:
            if event["kind"] == "HAND_OVER":
                print(
                    f"  hand over after move {version}: points {event['scores']}, "
                    f"hand winners {event['seats']}"
                )
    else:
        raise RuntimeError(f"the match did not end within {MAX_MOVES} moves")
    return client.score(state)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "url",
        nargs="?",
        default="http://127.0.0.1:8080",
        help="the REST base URL (default http://127.0.0.1:8080)",
    )
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--target-score", type=int, default=100)
    parser.add_argument("--seed", help="a fixed seed, for a repeatable match")
    args = parser.parse_args(argv)

    client = DominoRulesClient(args.url)
    try:
        score = play(client, args.players, args.target_score, args.seed)
    except DominoRulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1

    hands = len(score["hands"])
    print(
        f"MATCH_OVER after {score['version']} moves and {hands} hand{'s' if hands != 1 else ''} "
        f"(seed {score.get('seed', '?')!r})"
    )
    for seat in score["seats"]:
        print(f"  seat {seat['seat']}: {seat['match_points']} points")
    print(f"winners: {score['winners']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
