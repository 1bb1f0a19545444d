#!/usr/bin/env python3
"""Match records: their sizes per ruleset, and what Replay costs per move through each door.

For every ruleset, ``--matches`` (10) seeded matches with default options at the smallest
table, every seat played by the GREEDY bot, are recorded as a platform records them
(viewpoint MOVER: each move with its events and the match points after it, and the
seed). The bench prints the bytes per move of the JSON form (compact), of the same
without the optional events and match points, and of the text form, and the longest
match seen (in moves).

Then ``serve`` runs (as users start it) and each door replays those records: server CPU
per replayed move, for a verification only (``to_step: 0``: one step answered) and for
every step answered (each with its view and every hand). The baseline, measured in the
same run on the same door, is the server CPU of one ``ApplyMove`` of the same matches: a
replay of n moves against the n ApplyMove calls that played them.

Usage::

    python bench/records.py [--matches 10] [--seconds 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import load_average, load_line, raw_grpc, rest_body, serving
from domino_rules import games, records
from domino_rules.api import RulesService
from domino_rules.state.codec import options_to_pb
from domino_rules.v1 import domino_rules_pb2 as pb

SERVICE = RulesService()


def record_of(ruleset_id: str, players: int, seed: str) -> tuple[pb.MatchRecord, list[bytes]]:
    """A GREEDY match with default options, recorded as a platform records it; and the
    token before each move."""
    ruleset = games.get(ruleset_id).ruleset
    options = options_to_pb(ruleset, ruleset.make_options({}))
    new = SERVICE.NewGame(
        pb.NewGameRequest(ruleset=ruleset_id, players=players, options=options, seed=seed)
    )
    record = pb.MatchRecord(
        format=records.FORMAT, ruleset=ruleset_id, players=players, options=options,
        game_id=new.game_id, seed_commitment=new.seed_commitment, viewpoint=pb.MatchRecord.MOVER,
    )  # fmt: skip
    record.deal.extend(new.events)
    state, before = new.state, []
    while True:
        move = SERVICE.SuggestMove(pb.SuggestMoveRequest(state=state, level=pb.GREEDY)).move
        answer = SERVICE.ApplyMove(pb.ApplyMoveRequest(state=state, move=move))
        before.append(state)
        state = answer.state
        score = SERVICE.GetScore(pb.GetScoreRequest(state=state))
        recorded = record.moves.add(move=move)
        recorded.events.extend(answer.events)
        recorded.match_points.extend(seat.match_points for seat in score.seats)
        if answer.status == pb.MATCH_OVER:
            record.seed = score.seed
            return record, before


def sizes(played: list[pb.MatchRecord]) -> dict[str, float]:
    moves = sum(len(r.moves) for r in played)
    full = sum(len(json.dumps(records.to_json(r), separators=(",", ":"))) for r in played)
    bare = 0
    for record in played:
        lean = pb.MatchRecord()
        lean.CopyFrom(record)
        lean.ClearField("deal")
        for recorded in lean.moves:
            recorded.ClearField("events")
            recorded.ClearField("match_points")
        bare += len(json.dumps(records.to_json(lean), separators=(",", ":")))
    text = sum(len(records.to_text(r).encode()) for r in played)
    return {
        "json_bytes_per_move": full / moves,
        "json_moves_only_bytes_per_move": bare / moves,
        "text_bytes_per_move": text / moves,
        "largest_record_json_bytes": max(
            len(json.dumps(records.to_json(r), separators=(",", ":"))) for r in played
        ),
        "longest_match_moves": max(len(r.moves) for r in played),
        "mean_match_moves": statistics.fmean(len(r.moves) for r in played),
    }


def door_costs(
    served: Any, door: str, played: list[pb.MatchRecord], tokens: list[list[bytes]], seconds: float
) -> dict[str, float]:
    """Server CPU µs per move of a replay (verification only, and every step answered)
    and per ApplyMove call, through ``door``."""
    from bench.harness import cpu_seconds

    pids = served.door_pids(door)
    moves = sum(len(r.moves) for r in played)
    verify = [pb.ReplayRequest(record=r, to_step=0) for r in played]
    every = [pb.ReplayRequest(record=r) for r in played]
    applies = [
        pb.ApplyMoveRequest(state=token, move=recorded.move)
        for record, before in zip(played, tokens, strict=True)
        for token, recorded in zip(before, record.moves, strict=True)
    ]
    if door == "grpc":
        channel, replay = raw_grpc(served.grpc_port, "/domino_rules.v1.DominoRules/Replay")
        _, apply = raw_grpc(served.grpc_port, "/domino_rules.v1.DominoRules/ApplyMove")

        def send(call: Any, message: Any) -> None:
            call(message.SerializeToString(), timeout=60)

        calls = {"replay": lambda m: send(replay, m), "apply": lambda m: send(apply, m)}
    else:
        import http.client

        connection = http.client.HTTPConnection("127.0.0.1", served.http_port, timeout=60)

        def post(path: str, message: Any) -> None:
            connection.request("POST", path, rest_body(message, proto_names=True),
                               {"Content-Type": "application/json"})  # fmt: skip
            response = connection.getresponse()
            response.read()
            assert response.status == 200, response.status

        calls = {
            "replay": lambda m: post("/v1/records:replay", m),
            "apply": lambda m: post("/v1/games:applyMove", m),
        }

    def cost(kind: str, messages: list[Any], per: int) -> float:
        """Server CPU µs per unit: rounds of ``messages`` for about ``seconds``."""
        for message in messages[:3]:
            calls[kind](message)  # warm
        rounds, before, start = 0, cpu_seconds(pids), time.monotonic()
        while rounds == 0 or time.monotonic() - start < seconds:
            for message in messages:
                calls[kind](message)
            rounds += 1
        return (cpu_seconds(pids) - before) / (rounds * per) * 1e6

    out = {
        "replay_verify_us_per_move": cost("replay", verify, moves),
        "replay_every_step_us_per_move": cost("replay", every, moves),
        "apply_move_us_per_call": cost("apply", applies, len(applies)),
    }
    out["verify_per_move_over_apply"] = (
        out["replay_verify_us_per_move"] / out["apply_move_us_per_call"]
    )
    out["every_step_per_move_over_apply"] = (
        out["replay_every_step_us_per_move"] / out["apply_move_us_per_call"]
    )
    if door == "grpc":
        channel.close()
    return out


def in_process(played: list[pb.MatchRecord]) -> dict[str, float]:
    moves = sum(len(r.moves) for r in played)
    start = time.process_time()
    for record in played:
        answer = SERVICE.Replay(pb.ReplayRequest(record=record, to_step=0))
        assert answer.verdict == pb.ReplayResponse.VALID
    return {"replay_verify_us_per_move": (time.process_time() - start) / moves * 1e6}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load_before = load_average()
    results: dict[str, dict[str, Any]] = {}
    played: dict[str, tuple[list[pb.MatchRecord], list[list[bytes]]]] = {}
    for game in games.all_games():
        players = game.ruleset.player_range(game.ruleset.make_options({}))[0]
        made = [record_of(game.id, players, f"bench-{game.id}-{n}") for n in range(args.matches)]
        played[game.id] = ([r for r, _ in made], [t for _, t in made])
        results[game.id] = {"players": players, **sizes(played[game.id][0])}
        results[game.id]["in_process"] = in_process(played[game.id][0])
    with serving(stderr="devnull") as served:
        for ruleset_id, (recorded, tokens) in played.items():
            for door in ("grpc", "rest"):
                results[ruleset_id][door] = door_costs(served, door, recorded, tokens, args.seconds)
    load = load_line(load_before, load_average())
    if args.json:
        print(json.dumps({"load": load, "rulesets": results}, indent=2))
        return 0
    print(load)
    width = max(len(name) for name in results)
    print(f"{'ruleset':<{width}} players  JSON B/move  moves-only B/move  text B/move  "
          "largest JSON B  longest match")  # fmt: skip
    for name, r in results.items():
        print(f"{name:<{width}} {r['players']:>7}  {r['json_bytes_per_move']:>11.0f}  "
              f"{r['json_moves_only_bytes_per_move']:>17.0f}  {r['text_bytes_per_move']:>11.0f}  "
              f"{r['largest_record_json_bytes']:>14}  {r['longest_match_moves']:>13}")  # fmt: skip
    print()
    print("server CPU per replayed move (µs), and over one ApplyMove call of the same door:")
    print(f"{'ruleset':<{width}} door  verify µs  every step µs  ApplyMove µs  verify/apply  "
          "every/apply")  # fmt: skip
    for name, r in results.items():
        print(f"{name:<{width}} local {r['in_process']['replay_verify_us_per_move']:>9.0f}")
        for door in ("grpc", "rest"):
            d = r[door]
            print(
                f"{name:<{width}} {door:<5} {d['replay_verify_us_per_move']:>9.0f}  "
                f"{d['replay_every_step_us_per_move']:>13.0f}  "
                f"{d['apply_move_us_per_call']:>12.0f}  {d['verify_per_move_over_apply']:>12.2f}  "
                f"{d['every_step_per_move_over_apply']:>11.2f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
