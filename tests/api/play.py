"""Playing whole matches through a door."""

from __future__ import annotations

import random
from typing import Any

MAX_MOVES = 20_000


def new_game(door: Any, ruleset: str, players: int, seed: str, **options: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"ruleset": ruleset, "players": players, "seed": seed}
    if options:
        body["options"] = {ruleset: options}
    return door.call("NewGame", body)  # type: ignore[no-any-return]


def play_to_end(
    door: Any, game: dict[str, Any], seed: str, *, observe: Any = None
) -> dict[str, Any]:
    """Apply random legal moves (seeded) until MATCH_OVER; returns the last ApplyMove answer."""
    chooser = random.Random(seed)
    state, version, answer = game["state"], game["version"], game
    for _ in range(MAX_MOVES):
        legal = door.call("GetLegalMoves", {"state": state})
        if legal["status"] == "MATCH_OVER":
            assert legal["moves"] == [] and "to_act" not in legal
            return answer
        move = chooser.choice(legal["moves"])
        answer = door.call("ApplyMove", {"state": state, "move": move, "expected_version": version})
        assert answer["version"] == version + 1 and answer["game_id"] == game["game_id"]
        state, version = answer["state"], answer["version"]
        if observe is not None:
            observe(state)
    raise AssertionError("the match did not end")
