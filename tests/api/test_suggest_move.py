"""SuggestMove through both doors: a legal move for the seat to act, clear refusals, and a
bot that fails answered as the service's fault."""

from __future__ import annotations

import logging
import random
import re
import traceback
from collections.abc import Callable
from typing import Any

import pytest

from domino_rules import bots, rules
from domino_rules.api.errors import BOT_FAILED_MESSAGE, from_bot_error
from domino_rules.bots import engine
from domino_rules.bots.worlds import NoWorldError
from domino_rules.rules import Status

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


# ------------------------------------------------------------------ the bot fails


def _position_to_search(door: Door, seed: str) -> str:
    """A token whose seat to act has more than one legal move, so STRONG samples worlds."""
    state = new_game(door, "one_arm_joe", 3, seed)["state"]
    for _ in range(30):
        moves = door.call("GetLegalMoves", {"state": state})["moves"]
        if len(moves) > 1:
            return str(state)
        state = door.call("ApplyMove", {"state": state, "move": moves[0]})["state"]
    raise AssertionError("no position with a choice in 30 moves")


#: What a failing sampler says: as a real one might, it names tiles no client may see.
SECRET = "hidden tiles [6-6] [5-4] of seat 2"


def _no_world(*args: Any, **kwargs: Any) -> Any:
    raise NoWorldError(f"no deal of the {SECRET} agrees with the view")


def _broken(*args: Any, **kwargs: Any) -> Any:
    raise IndexError(f"a bug near the {SECRET}")


def _wrong_worlds(*args: Any, **kwargs: Any) -> Any:
    """A sampler whose worlds are of another position: the search notices (SearchError)."""
    joe = rules.get("one_arm_joe")
    match = joe.new_match(joe.make_options({}), 3, "another")
    return lambda rng: match


@pytest.mark.parametrize(
    ("sampler", "cause"),
    [(_no_world, "NoWorldError"), (_broken, "IndexError"), (_wrong_worlds, "SearchError")],
)
def test_a_bot_that_fails_is_a_fault_of_the_service(
    door: Door,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    sampler: Callable[..., Any],
    cause: str,
) -> None:
    """A bot that cannot suggest a move for the view of a game the rules made is a bug:
    INTERNAL / BOT_FAILED (HTTP 500), a message that tells nothing of the failure, and the
    cause logged with its traceback beside the call's request id."""
    state = _position_to_search(door, f"bot-fails-{cause}")
    monkeypatch.setattr(engine, "world_sampler", sampler)
    caplog.set_level(logging.INFO)
    error = _refused(door, {"state": state, "level": "STRONG", "playouts": 8})
    assert (error.code, error.reason) == ("INTERNAL", "BOT_FAILED")
    assert error.message == BOT_FAILED_MESSAGE
    assert SECRET not in error.message and "[" not in error.message
    if door.name == "rest":
        assert error.http_status == 500
    (logged,) = [r for r in caplog.records if r.exc_info and "SuggestMove" in r.getMessage()]
    assert logged.levelno == logging.ERROR
    trace = "".join(traceback.format_exception(*logged.exc_info))  # type: ignore[misc]
    assert cause in trace  # the log has it all, the client nothing
    assert (SECRET in trace) is (sampler is not _wrong_worlds)
    assert "SuggestMove failed, BOT_FAILED (request id " in logged.getMessage()
    request_id = re.search(r"request id (\S+)\)", logged.getMessage())
    assert request_id is not None
    (line,) = [
        r.getMessage()
        for r in caplog.records
        if r.name == "domino_rules.access" and f"request_id={request_id[1]}" in r.getMessage()
    ]
    assert f"door={door.name} rpc=SuggestMove status=INTERNAL reason=BOT_FAILED" in line
    # the levels that sample no world still answer, and so does STRONG once mended
    assert door.call("SuggestMove", {"state": state, "level": "GREEDY"})["move"]
    monkeypatch.undo()
    assert door.call("SuggestMove", {"state": state, "level": "STRONG", "playouts": 8})["move"]


def test_refusals_the_service_makes_first_are_the_bots_own_too(door: Door) -> None:
    """What the service checks before the bot runs (the budget, the seat to act, the
    match), the bot checks again, each with its own class: the error table maps each to
    the reason the service gives, so the two cannot disagree."""
    game = new_game(door, "one_arm_joe", 3, "suggest-both")
    budget = _refused(door, {"state": game["state"], "playouts": 0})
    seat = _refused(door, {"state": game["state"], "seat": (game["to_act"] + 1) % 3})
    assert from_bot_error(bots.PlayoutsError("x")).reason == budget.reason == "BAD_PLAYOUTS"
    assert from_bot_error(bots.NotToActError("x")).reason == seat.reason == "NOT_YOUR_TURN"
    assert from_bot_error(bots.MatchOverError("x")).reason == "GAME_OVER"
    assert from_bot_error(bots.UnknownLevelError("x")).reason == "MALFORMED_REQUEST"


def test_the_bot_raises_each_cause_as_its_own_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every refusal of :func:`bots.suggest` is a ``BotError`` (a ``ValueError``) of the
    class of its cause, as the error table reads them."""
    ruleset = rules.get("one_arm_joe")
    options = ruleset.make_options({"target_score": 0})
    match = ruleset.new_match(options, 2, "causes")
    chooser = random.Random(3)
    while len(ruleset.legal_moves(match)) < 2:
        match, _ = ruleset.apply(match, chooser.choice(ruleset.legal_moves(match)))
    seat = ruleset.to_act(match)
    view = ruleset.view(match, seat)
    strong = bots.Level.STRONG
    spectator = ruleset.view(match, None)
    causes: list[tuple[type[bots.BotError], tuple[Any, ...], dict[str, Any]]] = [
        (bots.UnknownLevelError, (ruleset, options, 2, view, "STRONG"), {}),
        (bots.PlayoutsError, (ruleset, options, 2, view, strong), {"playouts": 0}),
        (bots.BotArgumentError, (ruleset, options, 2, view, strong), {"seed": 7}),
        (bots.NotToActError, (ruleset, options, 2, spectator, strong), {}),
        (bots.MismatchError, (ruleset, options, 3, view, strong), {}),
    ]
    for cls, args, kwargs in causes:
        with pytest.raises(cls) as refused:
            bots.suggest(*args, **kwargs)
        assert type(refused.value) is cls and isinstance(refused.value, ValueError)
    while match.status is not Status.MATCH_OVER:
        match, _ = ruleset.apply(match, chooser.choice(ruleset.legal_moves(match)))
    with pytest.raises(bots.MatchOverError):
        bots.suggest(ruleset, options, 2, ruleset.view(match, 0), strong)
    monkeypatch.setattr(engine, "world_sampler", _no_world)
    with pytest.raises(bots.MismatchError) as refused:
        bots.suggest(ruleset, options, 2, view, strong, playouts=4)
    assert isinstance(refused.value.__cause__, NoWorldError)
