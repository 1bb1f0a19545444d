"""Bad input, through both doors: the documented code and reason, never a 500, and a
rejected request changes nothing."""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import grpc
import pytest
from google.rpc import code_pb2

from domino_rules import bots
from domino_rules.api.errors import BOT_FAILED_MESSAGE, from_bot_error
from domino_rules.v1 import domino_rules_pb2 as pb

from .doors import JSON, CallError, Door, GrpcDoor, RestDoor, b64
from .play import new_game, play_to_end

#: HTTP status of each gRPC code the service uses (grpc-gateway's mapping).
HTTP = {
    "INVALID_ARGUMENT": 400,
    "FAILED_PRECONDITION": 400,
    "ABORTED": 409,
    "RESOURCE_EXHAUSTED": 429,
}


def expect(door: Door, method: str, body: JSON, code: str, reason: str) -> CallError:
    with pytest.raises(CallError) as caught:
        door.call(method, body)
    error = caught.value
    assert (error.code, error.reason) == (code, reason), error.message
    assert error.message
    if isinstance(door, RestDoor):
        assert error.http_status == HTTP[code]
    return error


@pytest.fixture
def game(door: Door) -> JSON:
    return new_game(door, "one_arm_joe", 3, "errors")


def legal(door: Door, state: str) -> list[JSON]:
    moves: list[JSON] = door.call("GetLegalMoves", {"state": state})["moves"]
    return moves


# ------------------------------------------------------------------ NewGame


def test_unknown_ruleset(door: Door) -> None:
    error = expect(
        door, "NewGame", {"ruleset": "chess", "players": 2}, "INVALID_ARGUMENT", "UNKNOWN_RULESET"
    )
    assert "chess" in error.message and "one_arm_joe" in error.message
    expect(door, "NewGame", {"players": 2}, "INVALID_ARGUMENT", "UNKNOWN_RULESET")


@pytest.mark.parametrize(
    "options",
    [
        {"one_arm_joe": {"set_max_pip": 40}},
        {"one_arm_joe": {"set_max_pip": 5}},
        {"one_arm_joe": {"target_score": -1}},
        {"tiu_u": {"hands": 2}},
    ],
)
def test_bad_option_values(door: Door, options: dict[str, Any]) -> None:
    body = {"ruleset": "one_arm_joe", "players": 2, "options": options}
    expect(door, "NewGame", body, "INVALID_ARGUMENT", "BAD_OPTIONS")


def test_unknown_enum_number_is_a_bad_option(grpc_door: GrpcDoor) -> None:
    request = pb.NewGameRequest(ruleset="one_arm_joe", players=2)
    request.options.one_arm_joe.scoring = 7  # type: ignore[assignment]
    with pytest.raises(CallError) as caught:
        grpc_door.ask("NewGame", request)
    assert caught.value.reason == "BAD_OPTIONS"


@pytest.mark.parametrize("players", [0, 1, 10, -3])
def test_player_count_out_of_range(door: Door, players: int) -> None:
    error = expect(
        door,
        "NewGame",
        {"ruleset": "one_arm_joe", "players": players},
        "INVALID_ARGUMENT",
        "BAD_PLAYER_COUNT",
    )
    assert "2 to 9" in error.message


@pytest.mark.parametrize("seed", ["", "x" * 129, "tab\there"])
def test_bad_seed(door: Door, seed: str) -> None:
    expect(
        door,
        "NewGame",
        {"ruleset": "one_arm_joe", "players": 2, "seed": seed},
        "INVALID_ARGUMENT",
        "BAD_SEED",
    )


# ------------------------------------------------------------------ tokens


def _mangle(state: str, how: str) -> str:
    raw = bytearray(base64.b64decode(state))
    if how == "flip":
        raw[len(raw) // 2] ^= 0x01
    elif how == "truncate":
        raw = raw[: len(raw) - 5]
    elif how == "header":
        raw = raw[:1]
    elif how == "version":
        raw[0] = 99
    elif how == "noise":
        raw = bytearray(random.Random(1).randbytes(len(raw)))
    elif how == "empty":
        raw = bytearray()
    return b64(bytes(raw))


@pytest.mark.parametrize("how", ["flip", "truncate", "header", "version", "noise", "empty"])
@pytest.mark.parametrize("method", ["GetLegalMoves", "ApplyMove", "GetScore", "GetView"])
def test_garbled_or_truncated_token(door: Door, game: JSON, how: str, method: str) -> None:
    body: JSON = {"state": _mangle(game["state"], how)}
    if method == "ApplyMove":
        body["move"] = legal(door, game["state"])[0]
    expect(door, method, body, "INVALID_ARGUMENT", "BAD_STATE_TOKEN")


# ------------------------------------------------------------------ moves


def test_move_out_of_turn(door: Door, game: JSON) -> None:
    move = dict(legal(door, game["state"])[0])
    move["seat"] = (move["seat"] + 1) % 3
    expect(
        door,
        "ApplyMove",
        {"state": game["state"], "move": move},
        "FAILED_PRECONDITION",
        "NOT_YOUR_TURN",
    )


def test_illegal_move(door: Door, game: JSON) -> None:
    """Refused, with a message that names the move but no tile the seat holds: messages
    end up in logs and in front of other people."""
    seat = game["to_act"]
    view = door.call("GetView", {"state": game["state"], "seat": seat})
    others = [t for t in view["hand"] if t != view["legal_moves"][0]["tile"]]
    for move in (
        {"seat": seat, "kind": "PLAY", "tile": others[0]},  # not the highest double
        {"seat": seat, "kind": "DRAW"},  # must lead
        {"seat": seat, "kind": "PLAY", "tile": {"high": 18, "low": 18}},  # not in this set
        {**view["legal_moves"][0], "end": "LEFT"},  # a field PLAY has not
    ):
        error = expect(
            door,
            "ApplyMove",
            {"state": game["state"], "move": move},
            "FAILED_PRECONDITION",
            "ILLEGAL_MOVE",
        )
        named = move.get("tile")
        held = [f"[{t['high']}-{t['low']}]" for t in view["hand"] if t != named]
        assert not [tile for tile in held if tile in error.message], error.message


@pytest.mark.parametrize(
    "move",
    [
        None,
        {"seat": 0},
        {"seat": 0, "kind": "PLAY", "tile": {"high": 2, "low": 5}},
        {"seat": 0, "kind": "PLAY", "tile": {"high": 19, "low": 1}},
    ],
)
def test_malformed_move(door: Door, game: JSON, move: Any) -> None:
    body: JSON = {"state": game["state"]}
    if move is not None:
        body["move"] = move
    expect(door, "ApplyMove", body, "INVALID_ARGUMENT", "MALFORMED_REQUEST")


def test_seat_not_at_the_table(door: Door, game: JSON) -> None:
    expect(door, "GetView", {"state": game["state"], "seat": 3}, "INVALID_ARGUMENT", "BAD_SEAT")
    expect(
        door, "GetLegalMoves", {"state": game["state"], "seat": -1}, "INVALID_ARGUMENT", "BAD_SEAT"
    )
    move = {**legal(door, game["state"])[0], "seat": 7}
    expect(
        door, "ApplyMove", {"state": game["state"], "move": move}, "INVALID_ARGUMENT", "BAD_SEAT"
    )


def test_move_after_the_match_is_over(door: Door) -> None:
    game = new_game(door, "one_arm_joe", 2, "over", {"target_score": 0})
    last = play_to_end(door, game, "over")
    expect(
        door,
        "ApplyMove",
        {"state": last["state"], "move": {"seat": 0, "kind": "NEXT_HAND"}},
        "FAILED_PRECONDITION",
        "GAME_OVER",
    )
    expect(
        door,
        "ApplyMove",
        {"state": last["state"], "move": {"seat": 1, "kind": "PASS"}},
        "FAILED_PRECONDITION",
        "GAME_OVER",
    )


def test_wrong_expected_version(door: Door, game: JSON) -> None:
    move = legal(door, game["state"])[0]
    error = expect(
        door,
        "ApplyMove",
        {"state": game["state"], "move": move, "expected_version": 3},
        "ABORTED",
        "STALE_STATE",
    )
    assert "version 0" in error.message
    after = door.call("ApplyMove", {"state": game["state"], "move": move, "expected_version": 0})
    expect(
        door,
        "ApplyMove",
        {"state": after["state"], "move": legal(door, after["state"])[0], "expected_version": 0},
        "ABORTED",
        "STALE_STATE",
    )


def test_a_rejected_move_changes_nothing(door: Door, game: JSON) -> None:
    move = legal(door, game["state"])[0]
    clean = door.call("ApplyMove", {"state": game["state"], "move": move})
    for bad, reason in (
        ({**move, "seat": (move["seat"] + 1) % 3}, "NOT_YOUR_TURN"),
        ({"seat": move["seat"], "kind": "DRAW"}, "ILLEGAL_MOVE"),  # the leader must lead
    ):
        body = {"state": game["state"], "move": bad}
        expect(door, "ApplyMove", body, "FAILED_PRECONDITION", reason)
    again = door.call("ApplyMove", {"state": game["state"], "move": move})
    assert again == clean


# ------------------------------------------------------------------ one door only


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (b"{not json", "not JSON"),
        (b"[1, 2]", "JSON object"),
        (b'{"ruleset": "one_arm_joe", "players": "two"}', "players"),
        (b'{"ruleset": "one_arm_joe", "players": 2, "colour": "red"}', "colour"),
        (
            b'{"ruleset": "one_arm_joe", "players": 2, '
            b'"options": {"one_arm_joe": {"scoring": "MOST"}}}',
            "MOST",
        ),
        (b'{"ruleset": "one_arm_joe", "players": 2.5}', "players"),
        (b"\xff\xfe", ""),
    ],
)
def test_rest_malformed_json(rest_door: RestDoor, body: bytes, fragment: str) -> None:
    status, answer, _ = rest_door.raw(
        "POST", "/v1/games", body, {"Content-Type": "application/json"}
    )
    assert status == 400
    assert answer["details"][0]["reason"] == "MALFORMED_REQUEST"
    assert fragment in answer["message"]


def test_rest_token_that_is_not_base64(rest_door: RestDoor) -> None:
    status, answer, _ = rest_door.raw("POST", "/v1/games:view", b'{"state": "!!not base64!!"}')
    assert status == 400 and answer["code"] == 3


def test_rest_unknown_route_and_method(rest_door: RestDoor) -> None:
    status, answer, _ = rest_door.raw("GET", "/v1/nothing", None)
    assert status == 404 and answer["details"][0]["reason"] == "NOT_FOUND"
    status, answer, _ = rest_door.raw("GET", "/v1/games", None)
    assert status == 405 and answer["code"] == 12


def test_rest_request_too_large(rest_door: RestDoor) -> None:
    body = json.dumps({"state": "A" * (2 * 1024 * 1024)}).encode()
    status, answer, _ = rest_door.raw("POST", "/v1/games:view", body)
    assert status == 413 and answer["details"][0]["reason"] == "REQUEST_TOO_LARGE"


def test_grpc_malformed_protobuf(grpc_door: GrpcDoor) -> None:
    for method in ("NewGame", "ApplyMove", "GetView"):
        call: grpc.UnaryUnaryMultiCallable[bytes, bytes] = grpc_door.channel.unary_unary(
            f"/domino_rules.v1.DominoRules/{method}"
        )
        with pytest.raises(grpc.RpcError) as caught:
            call(b"\x0a\xff\xff\xff\xff", timeout=10)
        assert isinstance(caught.value, grpc.Call)
        assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT


def test_grpc_request_too_large(grpc_door: GrpcDoor) -> None:
    with pytest.raises(CallError) as caught:
        grpc_door.ask("GetView", pb.GetViewRequest(state=b"x" * (2 * 1024 * 1024)))
    assert caught.value.code == "RESOURCE_EXHAUSTED"


# ------------------------------------------------------------------ SuggestMove's bot


@pytest.mark.parametrize(
    ("error", "code", "reason"),
    [
        (bots.PlayoutsError("playouts must be from 1 to 2000"), "INVALID_ARGUMENT", "BAD_PLAYOUTS"),
        (bots.UnknownLevelError("unknown level 'GENIUS'"), "INVALID_ARGUMENT", "MALFORMED_REQUEST"),
        (bots.BotArgumentError("the seed must be text"), "INVALID_ARGUMENT", "MALFORMED_REQUEST"),
        (bots.MatchOverError("the match is over"), "FAILED_PRECONDITION", "GAME_OVER"),
        (bots.NotToActError("not of seat 1"), "FAILED_PRECONDITION", "NOT_YOUR_TURN"),
        (bots.MismatchError("no deal of [6-6] [5-4] agrees"), "INTERNAL", "BOT_FAILED"),
        (bots.SearchError("a world of [6-6] [5-4] differs"), "INTERNAL", "BOT_FAILED"),
        (bots.BotError("a cause no table names"), "INTERNAL", "BOT_FAILED"),
        (IndexError("a bug near [6-6]"), "INTERNAL", "BOT_FAILED"),
    ],
)
def test_each_cause_of_a_bot_error_has_its_reason(error: Exception, code: str, reason: str) -> None:
    """The one table of SuggestMove's bot errors (``api/errors.py``): what a request can
    cause keeps the bot's message; anything else is the service's fault, told nothing of
    the failure (it may name tiles no client may see)."""
    answer = from_bot_error(error)
    assert (code_pb2.Code.Name(answer.code), answer.reason) == (code, reason)
    if code == "INTERNAL":
        assert answer.message == BOT_FAILED_MESSAGE and "[" not in answer.message
    else:
        assert answer.message == str(error)
