"""SuggestMove through both doors: a legal move for the seat to act, clear refusals."""

from __future__ import annotations

from typing import Any

import pytest

from domino_rules import rules

from .doors import CallError, Door
from .play import new_game

RULESET_IDS = [r.id for r in rules.all_rulesets()]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
@pytest.mark.parametrize("level", ["RANDOM", "GREEDY", "STRONG"])
def test_the_suggestion_is_a_legal_move_the_service_accepts(
    door: Door, ruleset_id: str, level: str
) -> None:
    game = new_game(door, ruleset_id, 2, f"suggest-{ruleset_id}")
    body: dict[str, Any] = {"state": game["state"], "level": level, "seed": "s", "playouts": 24}
    answer = door.call("SuggestMove", body)
    legal = door.call("GetLegalMoves", {"state": game["state"]})["moves"]
    assert answer["move"] in legal
    assert answer["seat"] == game["to_act"] and answer["level"] == level
    assert answer["game_id"] == game["game_id"] and answer["version"] == 0
    if level == "STRONG":
        assert sorted(str(e["move"]) for e in answer["estimates"]) == sorted(map(str, legal))
        assert all(0 <= e["value"] <= 1 for e in answer["estimates"])
    else:
        assert answer["estimates"] == []
    # sent back unchanged, the suggested move is accepted
    applied = door.call("ApplyMove", {"state": game["state"], "move": answer["move"]})
    assert applied["version"] == 1
    # the same request gives the same suggestion
    assert door.call("SuggestMove", body)["move"] == answer["move"]


def _refused(door: Door, body: dict[str, Any]) -> CallError:
    with pytest.raises(CallError) as refused:
        door.call("SuggestMove", body)
    return refused.value


def test_suggestions_are_refused_clearly(door: Door) -> None:
    game = new_game(door, "one_arm_joe", 3, "suggest-refusals")
    state, to_act = game["state"], game["to_act"]
    other = (to_act + 1) % 3
    error = _refused(door, {"state": state, "seat": other})
    assert (error.code, error.reason) == ("FAILED_PRECONDITION", "NOT_YOUR_TURN")
    assert f"seat {to_act} is to act" in error.message
    assert _refused(door, {"state": state, "seat": 5}).reason == "BAD_SEAT"
    for playouts in (0, -1, 10**6):
        error = _refused(door, {"state": state, "playouts": playouts})
        assert (error.code, error.reason) == ("INVALID_ARGUMENT", "BAD_PLAYOUTS")
    assert _refused(door, {"state": state, "seed": ""}).reason == "BAD_SEED"
    assert _refused(door, {"state": "AAAA"}).reason == "BAD_STATE_TOKEN"
    # REST: a name that is no level; gRPC: a number that is no level
    unknown: str | int = "GENIUS" if door.name == "rest" else 9
    assert _refused(door, {"state": state, "level": unknown}).reason == "MALFORMED_REQUEST"


def test_no_suggestion_once_the_match_is_over(door: Door) -> None:
    game = new_game(door, "tiu_u", 2, "suggest-over")
    state = game["state"]
    while True:
        legal = door.call("GetLegalMoves", {"state": state})
        if legal["status"] == "MATCH_OVER":
            break
        move = door.call("SuggestMove", {"state": state, "level": "GREEDY"})["move"]
        state = door.call("ApplyMove", {"state": state, "move": move})["state"]
    error = _refused(door, {"state": state})
    assert (error.code, error.reason) == ("FAILED_PRECONDITION", "GAME_OVER")


def test_the_catalogue_lists_the_bot_levels(door: Door) -> None:
    for info in door.call("ListRulesets", {})["rulesets"]:
        levels = {b["level"]: b for b in info["bots"]}
        assert set(levels) == {"RANDOM", "GREEDY", "STRONG"}
        assert levels["STRONG"]["default_playouts"] >= 1
        assert levels["STRONG"]["max_playouts"] >= levels["STRONG"]["default_playouts"]


def test_strong_spends_the_budget_the_catalogue_gives(door: Door) -> None:
    """With no ``playouts``, STRONG spends its ruleset's ``default_playouts`` (every move
    gets at least one, so a little more when there are more moves than that)."""
    for info in door.call("ListRulesets", {})["rulesets"]:
        levels = {b["level"]: b for b in info["bots"]}
        budget = levels["STRONG"]["default_playouts"]
        players = info["min_players"]
        state = new_game(door, info["id"], players, "catalogue-budget")["state"]
        for _ in range(30):
            legal = door.call("GetLegalMoves", {"state": state})
            if len(legal["moves"]) > 1:
                break
            state = door.call("ApplyMove", {"state": state, "move": legal["moves"][0]})["state"]
        answer = door.call("SuggestMove", {"state": state, "level": "STRONG"})
        spent = sum(e.get("playouts", 0) for e in answer["estimates"])
        assert budget - len(legal["moves"]) <= spent <= max(budget, len(legal["moves"]))
