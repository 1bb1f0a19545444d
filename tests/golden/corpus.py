"""The golden corpus: what the service answered, move by move, for seeded random matches.

For every ruleset, matches over a grid of its options (the integer values its game
declares, ``golden_int_values``) are played through the transport-free service with moves
chosen by a seeded generator. Each step records, as proto3 JSON with the state tokens left
out (their format is private and may change): the legal moves, the move chosen,
``ApplyMove``'s answer, every seat's and a spectator's ``GetView``, and ``GetScore``.
:func:`replay` sends the same requests again and returns the answers, so a test can ask
that they are identical, byte for byte.

Record a new corpus only when the rules themselves change on purpose::

    python -m tests.golden.corpus      # from the repository root, in the project's venv
"""

from __future__ import annotations

import gzip
import itertools
import json
import random
import sys
from pathlib import Path
from typing import Any

from google.protobuf import json_format

from domino_rules import rules
from domino_rules.api import RulesService
from domino_rules.v1 import domino_rules_pb2 as pb

from ..cases import cases_for

HERE = Path(__file__).parent
#: Matches recorded per ruleset, spread over its option combinations.
MATCHES = 16
MAX_MOVES = 5_000


def path_of(ruleset_id: str) -> Path:
    return HERE / f"{ruleset_id}.json.gz"


def _json(message: Any) -> dict[str, Any]:
    data = json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    data.pop("state", None)
    return data


def option_grid(ruleset: rules.Ruleset[Any, Any]) -> list[dict[str, Any]]:
    """Every combination of the game's declared int values (``golden_int_values``), bools
    and enum values."""
    int_values = cases_for(ruleset.id).golden_int_values
    axes = []
    for spec in ruleset.option_specs():
        if spec.type == "int":
            values: tuple[Any, ...] = int_values.get(spec.name, (spec.default,))
        elif spec.type == "bool":
            values = (False, True)
        else:
            values = spec.allowed
        axes.append([(spec.name, v) for v in values])
    return [dict(c) for c in itertools.product(*axes)]


def _answers(service: RulesService, state: bytes, players: int) -> dict[str, Any]:
    views = [
        _json(service.GetView(pb.GetViewRequest(state=state, seat=seat))) for seat in range(players)
    ]
    views.append(_json(service.GetView(pb.GetViewRequest(state=state))))
    return {
        "legal": _json(service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))),
        "views": views,
        "score": _json(service.GetScore(pb.GetScoreRequest(state=state))),
    }


def play(
    service: RulesService, new_game: dict[str, Any], moves: list[dict[str, Any]] | None
) -> dict[str, Any]:
    """Play a match: the recorded ``moves`` if given, else seeded random legal moves.

    Returns the record: the request, every answer, and the moves.
    """
    request = json_format.ParseDict(new_game, pb.NewGameRequest())
    answer = service.NewGame(request)
    state, players = answer.state, new_game["players"]
    steps: list[dict[str, Any]] = [{"new_game": _json(answer), **_answers(service, state, players)}]
    chooser = random.Random(new_game["seed"])
    played: list[dict[str, Any]] = []
    for n in range(MAX_MOVES):
        legal = steps[-1]["legal"]["moves"]
        if moves is None:
            if not legal:
                break
            move = chooser.choice(legal)
        elif n < len(moves):
            move = moves[n]
        else:
            break
        played.append(move)
        applied = service.ApplyMove(
            pb.ApplyMoveRequest(state=state, move=json_format.ParseDict(move, pb.Move()))
        )
        state = applied.state
        steps.append({"apply": _json(applied), **_answers(service, state, players)})
    return {"new_game": new_game, "moves": played, "steps": steps}


def record(ruleset_id: str) -> list[dict[str, Any]]:
    ruleset = rules.get(ruleset_id)
    grid = option_grid(ruleset)
    service = RulesService()
    matches = []
    for n in range(MATCHES):
        options = grid[(n * 7) % len(grid)]
        low, high = ruleset.player_range(ruleset.make_options(options))
        players = low + n % (min(high, 5) - low + 1)
        new_game = {
            "ruleset": ruleset_id,
            "players": players,
            "seed": f"golden-{ruleset_id}-{n}",
            "options": {ruleset_id: options},
        }
        matches.append(play(service, json.loads(json.dumps(new_game)), None))
    return matches


def load(ruleset_id: str) -> list[dict[str, Any]]:
    with gzip.open(path_of(ruleset_id), "rt", encoding="utf-8") as f:
        data: list[dict[str, Any]] = json.load(f)
    return data


def main() -> int:
    for ruleset in rules.all_rulesets():
        matches = record(ruleset.id)
        text = json.dumps(matches, separators=(",", ":"), sort_keys=True)
        # mtime=0: the same corpus gives the same bytes
        path_of(ruleset.id).write_bytes(gzip.compress(text.encode(), mtime=0))
        moves = sum(len(m["moves"]) for m in matches)
        print(f"{ruleset.id}: {len(matches)} matches, {moves} moves", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
