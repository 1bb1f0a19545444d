"""Whole matches through both doors: the catalogue, play to MATCH_OVER, and parity."""

from __future__ import annotations

from typing import Any

import pytest

from domino_rules import rules

from ..cases import cases_for
from .doors import JSON, Door, GrpcDoor, RestDoor
from .play import DoorStep, new_game, play_to_end

RULESET_IDS = [r.id for r in rules.all_rulesets()]


def test_catalogue_lists_each_ruleset_with_typed_options(door: Door) -> None:
    answer = door.call("ListRulesets", {})
    by_id = {r["id"]: r for r in answer["rulesets"]}
    assert set(by_id) == set(RULESET_IDS)
    joe = by_id["one_arm_joe"]
    assert (joe["min_players"], joe["max_players"]) == (2, 9)
    options = {o["name"]: o for o in joe["options"]}
    assert options["set_max_pip"] == {
        "name": "set_max_pip",
        "type": "int",
        "default": "6",
        "min": 6,
        "max": 18,
        "allowed_values": [],
        "description": options["set_max_pip"]["description"],
    }
    assert options["scoring"]["type"] == "enum"
    assert options["scoring"]["allowed_values"] == ["OTHERS_TOTAL", "OTHERS_MINUS_OWN"]
    assert options["lead_double_bonus"]["default"] == "false"
    assert options["target_score"]["default"] == "100"
    for ruleset in answer["rulesets"]:
        assert ruleset["source"] and ruleset["name"] and ruleset["options"]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_full_match_plays_to_match_over(door: Door, ruleset_id: str) -> None:
    short = cases_for(ruleset_id).short
    seed = f"full-{ruleset_id}"
    game = new_game(door, ruleset_id, short.players, seed, short.options)
    assert game["status"] == "IN_PROGRESS" and game["version"] == 0
    assert len(game["seed_commitment"]) == 64
    last = play_to_end(door, game, seed)
    assert last["status"] == "MATCH_OVER" and "to_act" not in last
    assert any(e["kind"] == "MATCH_OVER" for e in last["events"])
    score = door.call("GetScore", {"state": last["state"]})
    assert score["status"] == "MATCH_OVER" and score["winners"]
    assert [s["seat"] for s in score["seats"]] == list(range(short.players))
    assert score["seed"] == seed  # revealed once the match is over
    totals = [s["match_points"] for s in score["seats"]]
    best = min(totals) if rules.get(ruleset_id).low_wins else max(totals)
    assert score["winners"] == [seat for seat, t in enumerate(totals) if t == best]


def test_one_arm_joe_view_shows_own_hand_only(door: Door) -> None:
    game = new_game(door, "one_arm_joe", 3, "views")
    leader = game["to_act"]
    view = door.call("GetView", {"state": game["state"], "seat": leader})
    assert len(view["hand"]) == 3 and view["hand_sizes"] == [3, 3, 3]
    assert view["stock"] == 28 - 9
    assert [m["kind"] for m in view["legal_moves"]] == ["PLAY"]
    assert view["one_arm_joe"] == {"line": [], "bonus_turn": False, "leader": leader}
    other = door.call("GetView", {"state": game["state"], "seat": (leader + 1) % 3})
    assert other["legal_moves"] == [] and other["hand"] != view["hand"]
    spectator = door.call("GetView", {"state": game["state"]})
    assert spectator["hand"] == [] and "seat" not in spectator
    after = door.call("ApplyMove", {"state": game["state"], "move": view["legal_moves"][0]})
    table = door.call("GetView", {"state": after["state"]})["one_arm_joe"]
    assert table["line"] == [view["legal_moves"][0]["tile"]]
    assert table["open_end"] == view["legal_moves"][0]["tile"]["high"]


def test_zero_pips_are_printed(rest_door: RestDoor) -> None:
    """[6-0] reads {"high": 6, "low": 0}: zero values are printed."""
    game = new_game(rest_door, "one_arm_joe", 9, "zeros")
    tiles = [
        tile
        for seat in range(9)
        for tile in rest_door.call("GetView", {"state": game["state"], "seat": seat})["hand"]
    ]
    # 27 of the 28 tiles are dealt, so at least six of the seven with a blank half
    assert sum(t.get("low") == 0 for t in tiles) >= 6
    assert all(set(t) == {"high", "low"} for t in tiles)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_same_seeded_match_through_both_doors_is_identical(
    grpc_door: GrpcDoor, rest_door: RestDoor, ruleset_id: str
) -> None:
    """The same seed and moves give identical states, views and scores through both doors."""
    short = cases_for(ruleset_id).short
    seed = f"parity-{ruleset_id}"

    def record(door: Door) -> list[Any]:
        game = new_game(door, ruleset_id, short.players, seed, short.options)
        seen: list[Any] = [game]

        def observe(step: DoorStep) -> None:
            state = step.answer["state"]
            views: list[JSON] = [
                door.call("GetView", {"state": state, "seat": s}) for s in range(short.players)
            ]
            views.append(door.call("GetView", {"state": state}))
            seen.append((step.answer, views, door.call("GetScore", {"state": state})))

        last = play_to_end(door, game, seed, observe=observe)
        assert last["status"] == "MATCH_OVER"
        return seen

    through_grpc, through_rest = record(grpc_door), record(rest_door)
    assert len(through_grpc) > 5
    assert through_grpc == through_rest
