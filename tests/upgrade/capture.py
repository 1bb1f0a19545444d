"""The upgrade corpus of a release: its tokens and records, for the next version to accept.

A version must accept the state tokens and the match records of the previous minor
version (``docs/VERSIONING.md``). Run this with the code of a release, right when it is
released and before anything changes, to keep what it wrote::

    python -m tests.upgrade.capture      # from the repository root, in the project's venv

It writes ``tests/upgrade/<version>/corpus.json.gz``: for every ruleset, with two sets of
options and player counts, tokens as the service made them (unsealed, and sealed with
the corpus's own test key) at four points of a match: its deal, mid-hand, between two
hands (``HAND_OVER``) and mid-hand in the second hand. With each point: the moves that
continue the match to its end (seeded choices among the legal moves) and the score the
release gave at the end. And match records, in their JSON and text forms: the
platform's record (``MOVER``) with its first state while the seed is secret, sealed and
unsealed; the same with the seed revealed and a take-back in it; and seat 0's record
(``SEAT``); each with the verdict the release gave it. ``tests/upgrade/test_corpus.py``
plays each match on with today's code and replays each record.

Everything here goes through the transport-free service and the proto messages only, so
the script runs with any release's code.
"""

from __future__ import annotations

import base64
import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

from google.protobuf import json_format

import domino_rules
from domino_rules import rules
from domino_rules.api import RulesService
from domino_rules.records import form
from domino_rules.state.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

HERE = Path(__file__).parent
#: The corpus's own sealing key: a test key, public, good for nothing else.
SEAL_KEYS = "corpus:Y29ycHVzLXRlc3Qta2V5LW9mLWRvbWluby1ydWxlcyE="
#: Options that make a match of several hands, where the defaults make one.
SEVERAL_HANDS: dict[str, dict[str, Any]] = {"tiu_u": {"hands": 2}}
#: A second set of options per ruleset (non-default values: other parts of the state).
OTHER_OPTIONS: dict[str, dict[str, Any]] = {
    "one_arm_joe": {"set_max_pip": 9, "lead_double_bonus": True, "target_score": 150},
    "tsair_deng": {"tile_set": "DOUBLE_SIX", "must_play_if_able": True, "hands": 2},
    "tiu_u": {"may_decline": True, "red_sixes": "ALL_SIXES", "hands": 2},
    "throw_up": {"rethrow_repeats": True, "hands_per_player": 1},
    "block": {"partnership": True, "draw": True, "target_score": 30},
    "dancing_dragons": {"must_play_if_able": False, "hands": 2, "target_score": 0},
}
MAX_MOVES = 5_000


def path_of(version: str) -> Path:
    return HERE / version / "corpus.json.gz"


def as_json(message: Any) -> dict[str, Any]:
    data: dict[str, Any] = json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    data.pop("state", None)
    return data


def move_json(move: pb.Move) -> dict[str, Any]:
    data: dict[str, Any] = json_format.MessageToDict(move, preserving_proto_field_name=True)
    return data


def services() -> tuple[RulesService, RulesService]:
    """An unsealed and a sealed service (the corpus's key)."""
    return RulesService(), RulesService(TokenCodec(KeyRing.parse(SEAL_KEYS)))


def options_message(ruleset_id: str, values: dict[str, Any]) -> pb.Options:
    return json_format.ParseDict({ruleset_id: values} if values else {}, pb.Options())


def continue_match(
    service: RulesService, token: bytes, chooser: random.Random
) -> tuple[list[pb.Move], pb.GetScoreResponse]:
    """The moves that play the match of ``token`` to its end, and its final score."""
    moves: list[pb.Move] = []
    for _ in range(MAX_MOVES):
        legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=token))
        if legal.status == pb.MATCH_OVER or not legal.moves:
            break
        move = chooser.choice(legal.moves)
        token = service.ApplyMove(pb.ApplyMoveRequest(state=token, move=move)).state
        moves.append(move)
    return moves, service.GetScore(pb.GetScoreRequest(state=token))


def matches() -> list[tuple[str, int, dict[str, Any]]]:
    out = []
    for ruleset in rules.all_rulesets():
        values = SEVERAL_HANDS.get(ruleset.id, {})
        low, high = ruleset.player_range(ruleset.make_options(values))
        out.append((ruleset.id, low, values))
        other = OTHER_OPTIONS.get(ruleset.id, {})
        low, high = ruleset.player_range(ruleset.make_options(other))
        out.append((ruleset.id, min(high, 4), other))
    return out


def tokens(ruleset_id: str, players: int, values: dict[str, Any]) -> list[dict[str, Any]]:
    """The tokens of one match at four points, each with the match's continuation."""
    unsealed, sealed = services()
    seed = f"upgrade-{ruleset_id}-{players}-{len(values)}"
    request = pb.NewGameRequest(
        ruleset=ruleset_id, players=players, options=options_message(ruleset_id, values), seed=seed
    )
    states = (unsealed.NewGame(request).state, sealed.NewGame(request).state)
    chooser = random.Random(seed)
    points: dict[str, tuple[bytes, bytes, int, int]] = {
        "deal": (states[0], states[1], 0, pb.IN_PROGRESS)
    }
    hand_moves = 0
    for version in range(1, MAX_MOVES):
        legal = unsealed.GetLegalMoves(pb.GetLegalMovesRequest(state=states[0]))
        if legal.status == pb.MATCH_OVER or "mid_hand_2" in points:
            break
        move = chooser.choice(legal.moves)
        answers = [
            service.ApplyMove(pb.ApplyMoveRequest(state=state, move=move))
            for service, state in zip((unsealed, sealed), states, strict=True)
        ]
        assert as_json(answers[0]) == as_json(answers[1])
        states = (answers[0].state, answers[1].state)
        status: int = answers[0].status
        hand_moves = 0 if move.kind == pb.NEXT_HAND else hand_moves + 1
        point = (states[0], states[1], version, status)
        if status == pb.HAND_OVER and "between_hands" not in points:
            points["between_hands"] = point
        elif status == pb.IN_PROGRESS and hand_moves == 5:
            points.setdefault("mid_hand" if "between_hands" not in points else "mid_hand_2", point)
    assert {"deal", "mid_hand", "between_hands", "mid_hand_2"} <= set(points), (ruleset_id, points)
    out = []
    for stage, (plain, sealed_token, version, status) in points.items():
        moves, score = continue_match(unsealed, plain, random.Random(f"{seed}/{stage}"))
        _, sealed_score = continue_match(sealed, sealed_token, random.Random(f"{seed}/{stage}"))
        assert as_json(score) == as_json(sealed_score)
        out.append(
            {
                "ruleset": ruleset_id,
                "players": players,
                "options": values,
                "stage": stage,
                "version": version,
                "status": pb.Status.Name(status),
                "unsealed": base64.b64encode(plain).decode(),
                "sealed": base64.b64encode(sealed_token).decode(),
                "view": as_json(unsealed.GetView(pb.GetViewRequest(state=plain, seat=0))),
                "continuation": {
                    "chooser": f"{seed}/{stage}",
                    "moves": [move_json(m) for m in moves],
                    "score": as_json(score),
                },
            }
        )
    return out


def records(ruleset_id: str, players: int, values: dict[str, Any]) -> list[dict[str, Any]]:
    """The records of one match, each with the verdict this release gave it."""
    unsealed, sealed = services()
    seed = f"record-{ruleset_id}-{players}-{len(values)}"
    options = options_message(ruleset_id, values)
    request = pb.NewGameRequest(ruleset=ruleset_id, players=players, options=options, seed=seed)
    games = [unsealed.NewGame(request), sealed.NewGame(request)]

    def header(viewpoint: int, game: pb.NewGameResponse) -> pb.MatchRecord:
        record = pb.MatchRecord(
            format=1,
            ruleset=ruleset_id,
            players=players,
            options=options,
            game_id=game.game_id,
            seed_commitment=game.seed_commitment,
            viewpoint=viewpoint,  # type: ignore[arg-type]
        )
        return record

    mover = header(pb.MatchRecord.MOVER, games[0])
    mover.first_state = games[0].state
    mover.deal.extend(games[0].events)
    sealed_mover = header(pb.MatchRecord.MOVER, games[1])
    sealed_mover.first_state = games[1].state
    undone = header(pb.MatchRecord.MOVER, games[0])
    seat = header(pb.MatchRecord.SEAT, games[0])
    seat.seat = 0
    seat.deal.extend(unsealed.GetView(pb.GetViewRequest(state=games[0].state, seat=0)).events)

    chooser = random.Random(seed)
    history = [games[0].state]
    state, sealed_state = games[0].state, games[1].state
    for step in range(MAX_MOVES):
        legal = unsealed.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        if legal.status == pb.MATCH_OVER or not legal.moves:
            break
        move = chooser.choice(legal.moves)
        if step == 6:
            # a take-back of one move, in the record that has one: the match goes back
            # and plays on from there (the other records do not see this move)
            taken = unsealed.ApplyMove(pb.ApplyMoveRequest(state=state, move=move))
            undone.moves.add(move=move).events.extend(taken.events)
            undone.moves.add(undo=1)
        answer = unsealed.ApplyMove(pb.ApplyMoveRequest(state=state, move=move))
        sealed_answer = sealed.ApplyMove(pb.ApplyMoveRequest(state=sealed_state, move=move))
        state, sealed_state = answer.state, sealed_answer.state
        history.append(state)
        points = [s.match_points for s in unsealed.GetScore(pb.GetScoreRequest(state=state)).seats]
        for record in (mover, sealed_mover, undone):
            recorded = record.moves.add(move=move)
            recorded.events.extend(answer.events)
            recorded.match_points.extend(points)
        view = unsealed.GetView(pb.GetViewRequest(state=state, seat=0))
        seen = seat.moves.add(move=move)
        seen.events.extend(answer.events if move.seat == 0 else view.events)
        seen.match_points.extend(points)
    score = unsealed.GetScore(pb.GetScoreRequest(state=state))
    assert score.HasField("seed"), ruleset_id
    undone.seed = seat.seed = score.seed

    out = []
    for name, record, service in (
        ("mover_first_state", mover, unsealed),
        ("mover_sealed_first_state", sealed_mover, sealed),
        ("mover_seed_undo", undone, unsealed),
        ("seat_0", seat, unsealed),
    ):
        replayed = service.Replay(pb.ReplayRequest(record=record, from_step=0, to_step=0))
        out.append(
            {
                "ruleset": ruleset_id,
                "players": players,
                "name": name,
                "sealed": service is sealed,
                "record": form.to_json(record),
                "text": form.to_text(record),
                "verdict": pb.ReplayResponse.Verdict.Name(replayed.verdict),
                "divergence": (
                    as_json(replayed.divergence) if replayed.HasField("divergence") else None
                ),
            }
        )
    return out


def capture() -> dict[str, Any]:
    corpus: dict[str, Any] = {
        "release": domino_rules.__version__,
        "seal_keys": SEAL_KEYS,
        "tokens": [],
        "records": [],
    }
    for ruleset_id, players, values in matches():
        corpus["tokens"] += tokens(ruleset_id, players, values)
        corpus["records"] += records(ruleset_id, players, values)
    return corpus


def main() -> int:
    corpus = capture()
    path = path_of(corpus["release"])
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(corpus, indent=None, sort_keys=True, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode(), mtime=0))
    print(
        f"wrote {path.relative_to(HERE.parent.parent)}: {len(corpus['tokens'])} tokens, "
        f"{len(corpus['records'])} records",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
