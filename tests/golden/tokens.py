"""Golden tokens: unsealed tokens of every ruleset, with the views they must give.

A token written by one release must still mean the same game in the next, or be
refused; never read as another game. ``tokens.json`` holds, per ruleset, tokens at
every stage (a fresh deal, mid-hand, a hand over, the match over) with the ``GetView``
answers (a seat and a spectator) they gave when written. :mod:`tests.test_token_format`
asks for the same answers from today's service.

Write new golden tokens only with a new token format::

    python -m tests.golden.tokens      # from the repository root, in the project's venv

or, for a new game, add its own and keep every other ruleset's as written::

    python -m tests.golden.tokens <ruleset id> ...
"""

from __future__ import annotations

import base64
import json
import random
import sys
from pathlib import Path
from typing import Any

from google.protobuf import json_format

from domino_rules import rules
from domino_rules.api import RulesService
from domino_rules.v1 import domino_rules_pb2 as pb

PATH = Path(__file__).parent / "tokens.json"


def view(service: RulesService, token: bytes, seat: int | None) -> dict[str, Any]:
    request = pb.GetViewRequest(state=token)
    if seat is not None:
        request.seat = seat
    return json_format.MessageToDict(
        service.GetView(request),
        preserving_proto_field_name=True,
        always_print_fields_with_no_presence=True,
    )


def record(ids: list[str] | None = None) -> dict[str, list[dict[str, Any]]]:
    """The golden tokens of the rulesets ``ids`` (every ruleset: ``None``)."""
    service = RulesService()
    out: dict[str, list[dict[str, Any]]] = {}
    for ruleset in rules.all_rulesets():
        if ids is not None and ruleset.id not in ids:
            continue
        low, _ = ruleset.player_range(ruleset.make_options({}))
        game = service.NewGame(
            pb.NewGameRequest(ruleset=ruleset.id, players=low, seed=f"golden-token-{ruleset.id}")
        )
        chooser = random.Random(ruleset.id)
        token, picked, moves = game.state, [game.state], 0
        while True:
            legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=token))
            if not legal.moves:
                break
            answer = service.ApplyMove(
                pb.ApplyMoveRequest(state=token, move=chooser.choice(legal.moves))
            )
            token, moves = answer.state, moves + 1
            if moves == 5 or answer.status != pb.IN_PROGRESS:
                picked.append(token)
        picked = picked[:3] + picked[-1:]  # fresh, mid-hand, first hand over, match over
        out[ruleset.id] = [
            {
                "token": base64.b64encode(t).decode(),
                "seat": 0,
                "view": view(service, t, 0),
                "spectator_view": view(service, t, None),
            }
            for t in picked
        ]
    return out


def main() -> int:
    ids = sys.argv[1:] or None
    written = json.loads(PATH.read_text(encoding="utf-8")) if ids else {}
    written.update(record(ids))
    PATH.write_text(json.dumps(written, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {PATH.name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
