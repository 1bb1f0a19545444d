"""Bad input, through both doors: the documented code and reason, never a 500, and a
rejected request changes nothing."""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import grpc
import pytest

from domino_rules.v1 import domino_rules_pb2 as pb

from .doors import CallError, GrpcDoor, RestDoor
from .play import new_game, play_to_end

#: HTTP status of each gRPC code the service uses (grpc-gateway's mapping).
HTTP = {
    "INVALID_ARGUMENT": 400,
    "FAILED_PRECONDITION": 400,
    "ABORTED": 409,
    "RESOURCE_EXHAUSTED": 429,
}


def expect(door: Any, method: str, body: dict[str, Any], code: str, reason: str) -> CallError:
    with pytest.raises(CallError) as caught:
        door.call(method, body)
    error = caught.value
    assert (error.code, error.reason) == (code, reason), error.message
    assert error.message
    if isinstance(door, RestDoor):
        assert error.http_status == HTTP[code]
    return error


@pytest.fixture
def game(door: Any) -> dict[str, Any]:
    return new_game(door, "one_arm_joe", 3, "errors")


def legal(door: Any, state: str) -> list[dict[str, Any]]:
    return door.call("GetLegalMoves", {"state": state})["moves"]  # type: ignore[no-any-return]


# ------------------------------------------------------------------ NewGame


def test_unknown_ruleset(door: Any) -> None:
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
def test_bad_option_values(door: Any, options: dict[str, Any]) -> None:
    body = {"ruleset": "one_arm_joe", "players": 2, "options": options}
    expect(door, "NewGame", body, "INVALID_ARGUMENT", "BAD_OPTIONS")


def test_unknown_enum_number_is_a_bad_option(grpc_door: GrpcDoor) -> None:
    request = pb.NewGameRequest(ruleset="one_arm_joe", players=2)
    request.options.one_arm_joe.scoring = 7  # type: ignore[assignment]
    with pytest.raises(CallError) as caught:
        grpc_door.call_message("NewGame", request)
    assert caught.value.reason == "BAD_OPTIONS"


@pytest.mark.parametrize("players", [0, 1, 10, -3])
def test_player_count_out_of_range(door: Any, players: int) -> None:
    error = expect(
        door,
        "NewGame",
        {"ruleset": "one_arm_joe", "players": players},
        "INVALID_ARGUMENT",
        "BAD_PLAYER_COUNT",
    )
    assert "2 to 9" in error.message


@pytest.mark.parametrize("seed", ["", "x" * 129, "tab\there"])
def test_bad_seed(door: Any, seed: str) -> None:
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
    return base64.b64encode(bytes(raw)).decode()


@pytest.mark.parametrize("how", ["flip", "truncate", "header", "version", "noise", "empty"])
@pytest.mark.parametrize("method", ["GetLegalMoves", "ApplyMove", "GetScore", "GetView"])
def test_garbled_or_truncated_token(door: Any, game: dict[str, Any], how: str, method: str) -> None:
    body: dict[str, Any] = {"state": _mangle(game["state"], how)}
    if method == "ApplyMove":
        body["move"] = legal(door, game["state"])[0]
    expect(door, method, body, "INVALID_ARGUMENT", "BAD_STATE_TOKEN")


def test_every_single_byte_flip_is_refused(door: Any, game: dict[str, Any]) -> None:
    raw = base64.b64decode(game["state"])
    for i in range(0, len(raw), max(1, len(raw) // 40)):
        bad = bytearray(raw)
        bad[i] ^= 0x40
        expect(
            door,
            "GetView",
            {"state": base64.b64encode(bytes(bad)).decode()},
            "INVALID_ARGUMENT",
            "BAD_STATE_TOKEN",
        )


# ------------------------------------------------------------------ moves


def test_move_out_of_turn(door: Any, game: dict[str, Any]) -> None:
    move = dict(legal(door, game["state"])[0])
    move["seat"] = (move["seat"] + 1) % 3
    expect(
        door,
        "ApplyMove",
        {"state": game["state"], "move": move},
        "FAILED_PRECONDITION",
        "NOT_YOUR_TURN",
    )


def test_illegal_move(door: Any, game: dict[str, Any]) -> None:
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
        assert "legal moves are" in error.message


@pytest.mark.parametrize(
    "move",
    [
        None,
        {"seat": 0},
        {"seat": 0, "kind": "PLAY", "tile": {"high": 2, "low": 5}},
        {"seat": 0, "kind": "PLAY", "tile": {"high": 19, "low": 1}},
    ],
)
def test_malformed_move(door: Any, game: dict[str, Any], move: Any) -> None:
    body: dict[str, Any] = {"state": game["state"]}
    if move is not None:
        body["move"] = move
    expect(door, "ApplyMove", body, "INVALID_ARGUMENT", "MALFORMED_REQUEST")


def test_seat_not_at_the_table(door: Any, game: dict[str, Any]) -> None:
    expect(door, "GetView", {"state": game["state"], "seat": 3}, "INVALID_ARGUMENT", "BAD_SEAT")
    expect(
        door, "GetLegalMoves", {"state": game["state"], "seat": -1}, "INVALID_ARGUMENT", "BAD_SEAT"
    )
    move = {**legal(door, game["state"])[0], "seat": 7}
    expect(
        door, "ApplyMove", {"state": game["state"], "move": move}, "INVALID_ARGUMENT", "BAD_SEAT"
    )


def test_move_after_the_match_is_over(door: Any) -> None:
    game = new_game(door, "one_arm_joe", 2, "over", target_score=0)
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


def test_wrong_expected_version(door: Any, game: dict[str, Any]) -> None:
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


def test_a_rejected_move_changes_nothing(door: Any, game: dict[str, Any]) -> None:
    move = legal(door, game["state"])[0]
    clean = door.call("ApplyMove", {"state": game["state"], "move": move})
    for bad in ({**move, "seat": (move["seat"] + 1) % 3}, {**move, "kind": "DRAW"}):
        with pytest.raises(CallError):
            door.call("ApplyMove", {"state": game["state"], "move": bad})
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
        call = grpc_door.channel.unary_unary(f"/domino_rules.v1.DominoRules/{method}")
        with pytest.raises(grpc.RpcError) as caught:
            call(b"\x0a\xff\xff\xff\xff", timeout=10)
        assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT


def test_grpc_request_too_large(grpc_door: GrpcDoor) -> None:
    with pytest.raises(CallError) as caught:
        grpc_door.call_message("GetView", pb.GetViewRequest(state=b"x" * (2 * 1024 * 1024)))
    assert caught.value.code == "RESOURCE_EXHAUSTED"


def test_rest_never_answers_500_to_mutated_requests(rest_door: RestDoor) -> None:
    """Random damage to valid requests gets 4xx answers, never a 500."""
    game = new_game(rest_door, "one_arm_joe", 3, "fuzz")
    move = legal(rest_door, game["state"])[0]
    base = {"state": game["state"], "move": move, "expected_version": 0}
    chooser = random.Random(5)
    statuses = set()
    for _ in range(300):
        body = json.loads(json.dumps(base))
        choice = chooser.randrange(6)
        if choice == 0:
            raw = bytearray(base64.b64decode(body["state"]))
            raw[chooser.randrange(len(raw))] = chooser.randrange(256)
            body["state"] = base64.b64encode(bytes(raw)).decode()
        elif choice == 1:
            body["move"]["tile"] = {"high": chooser.randint(-3, 25), "low": chooser.randint(-3, 25)}
        elif choice == 2:
            body["move"]["kind"] = chooser.choice(
                ["PLAY", "DRAW", "PASS", "PILE", "NEXT_HAND", 0, 99, "X"]
            )
        elif choice == 3:
            body["move"]["seat"] = chooser.randint(-5, 10)
        elif choice == 4:
            del body[chooser.choice(list(body))]
        else:
            body["move"]["open_pip"] = chooser.choice([0, 1, -1, 2**31, "x", None])
        status, answer, _ = rest_door.raw("POST", "/v1/games:applyMove", json.dumps(body).encode())
        statuses.add(status)
        assert status in (200, 400, 409), answer
        if status != 200:
            assert answer["details"][0]["reason"]
    assert 400 in statuses
