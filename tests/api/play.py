"""Playing through a door: start a game, then seeded random legal moves to the end.

The door-level twin of :mod:`domino_rules.bots.playout`: the same loop, spoken in requests
(``GetLegalMoves``, then ``ApplyMove`` with ``expected_version``) to any door.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .doors import JSON, Door

__all__ = ["MAX_MOVES", "DoorStep", "new_game", "play_to_end"]

MAX_MOVES = 20_000


def new_game(
    door: Door,
    ruleset: str,
    players: int,
    seed: str | None,
    options: Mapping[str, Any] | None = None,
) -> JSON:
    """``NewGame``; options as RULES.md names them (``None`` seed: the server picks one)."""
    body: JSON = {"ruleset": ruleset, "players": players}
    if seed is not None:
        body["seed"] = seed
    if options:
        body["options"] = {ruleset: dict(options)}
    return door.call("NewGame", body)


@dataclass(frozen=True)
class DoorStep:
    """One applied move: the token before it, ``GetLegalMoves`` on that token, the move
    chosen, and ``ApplyMove``'s answer."""

    number: int  # 1 for the first move
    state: str
    legal: JSON
    move: JSON
    answer: JSON


def play_to_end(
    door: Door,
    game: JSON,
    chooser: random.Random | str,
    *,
    observe: Callable[[DoorStep], None] | None = None,
    max_moves: int = MAX_MOVES,
) -> JSON:
    """Apply random legal moves until ``MATCH_OVER``; return the last ``ApplyMove`` answer
    (``game`` itself if the match is already over). ``chooser`` may be a seed.

    Checks on the way that every answer carries the game id and the next version.
    """
    if not isinstance(chooser, random.Random):
        chooser = random.Random(chooser)
    state, version, answer = game["state"], game["version"], game
    number = 0
    while True:
        legal = door.call("GetLegalMoves", {"state": state})
        if legal["status"] == "MATCH_OVER":
            assert legal["moves"] == [] and "to_act" not in legal
            return answer
        assert legal["moves"], f"no legal move in a {legal['status']} state"
        number += 1
        assert number <= max_moves, f"the match did not end after {max_moves} moves"
        move = chooser.choice(legal["moves"])
        answer = door.call("ApplyMove", {"state": state, "move": move, "expected_version": version})
        assert answer["version"] == version + 1 and answer["game_id"] == game["game_id"]
        if observe is not None:
            observe(DoorStep(number, state, legal, move, answer))
        state, version = answer["state"], answer["version"]
