"""Play whole matches against bots and print each hand and the final score.

Seat 0 takes the first of its legal moves; every other seat asks
``suggest_move``. Either way the move goes back to ``apply_move`` unchanged::

    python -m domino_rules_client.example http://127.0.0.1:8080
    python -m domino_rules_client.example http://127.0.0.1:8080 --ruleset all --level STRONG
    python -m domino_rules_client.example --grpc 127.0.0.1:50051 --ruleset one_arm_joe --players 3
    python -m domino_rules_client.example --options '{"one_arm_joe": {"target_score": 40}}'
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

from ._base import BaseClient
from .errors import DominoRulesError
from .rest import DominoRulesClient
from .types import BotLevel, GetScoreResponse, Move

__all__ = ["main", "play"]

#: No match of any ruleset takes this many moves: a guard against a loop.
MAX_MOVES = 20_000


def play(
    client: BaseClient,
    ruleset: str,
    players: int,
    *,
    options: Mapping[str, Any] | None = None,
    seed: str | None = None,
    level: BotLevel = "GREEDY",
    out: Any = sys.stdout,
) -> GetScoreResponse:
    """Play one match to ``MATCH_OVER``; the final ``get_score`` answer."""
    game = client.new_game(ruleset, players, options=options, seed=seed)
    state, version = game["state"], game["version"]
    print(f"{ruleset}: game {game['game_id']}, {players} players", file=out)
    for _ in range(MAX_MOVES):
        legal = client.get_legal_moves(state)
        if legal["status"] == "MATCH_OVER":
            break
        seat = legal["to_act"]
        move: Move = (
            legal["moves"][0]
            if seat == 0
            else client.suggest_move(state, seat=seat, level=level)["move"]
        )
        answer = client.apply_move(state, move, expected_version=version)
        state, version = answer["state"], answer["version"]
        for event in answer["events"]:
            if event["kind"] == "HAND_OVER":
                print(
                    f"  hand over after move {version}: points {event['scores']}, "
                    f"winners {event['seats']}",
                    file=out,
                )
    else:
        raise RuntimeError(f"the match did not end within {MAX_MOVES} moves")
    return client.get_score(state)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m domino_rules_client.example", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("url", nargs="?", default="http://127.0.0.1:8080", help="the REST base URL")
    parser.add_argument("--grpc", metavar="HOST:PORT", help="call the gRPC door instead")
    parser.add_argument("--ruleset", default="one_arm_joe", help="a ruleset id, or 'all'")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--level", default="GREEDY", choices=["RANDOM", "GREEDY", "STRONG"])
    parser.add_argument("--seed", help="a fixed seed, for a repeatable match")
    parser.add_argument(
        "--options",
        default="{}",
        help='options per ruleset, as JSON: {"one_arm_joe": {"target_score": 40}}',
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per call")
    args = parser.parse_args(argv)
    options = json.loads(args.options)

    client: BaseClient
    if args.grpc:
        from .grpc_client import DominoRulesGrpcClient

        client = DominoRulesGrpcClient(args.grpc, timeout=args.timeout)
    else:
        client = DominoRulesClient(args.url, timeout=args.timeout)
    try:
        rulesets = (
            [r["id"] for r in client.list_rulesets()] if args.ruleset == "all" else [args.ruleset]
        )
        for ruleset in rulesets:
            score = play(
                client,
                ruleset,
                args.players,
                options=options.get(ruleset),
                seed=args.seed,
                level=args.level,
            )
            hands = len(score["hands"])
            print(
                f"{ruleset}: {score['status']} after {score['version']} moves and "
                f"{hands} hand{'s' if hands != 1 else ''} (seed {score.get('seed', '?')!r})"
            )
            for seat in score["seats"]:
                print(f"  seat {seat['seat']}: {seat['match_points']} points")
            print(f"  winners: {score['winners']}")
    except DominoRulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
