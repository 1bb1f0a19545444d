"""Sealed tokens through real servers: key rings, rotation, tampering, requiring seals."""

from __future__ import annotations

import base64
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from werkzeug.serving import make_server

from domino_rules.api import RulesService
from domino_rules.grpc_server import create_server
from domino_rules.rest import create_app
from domino_rules.tokens import KeyRing, TokenCodec

from .doors import CallError, GrpcDoor, RestDoor
from .play import new_game, play_to_end

OLD, NEW, OTHER = KeyRing.generate("k1"), KeyRing.generate("k2"), KeyRing.generate("x9")


def _service(keys: str | None, require_sealed: bool = False) -> RulesService:
    return RulesService(
        TokenCodec(KeyRing.parse(keys) if keys else None, require_sealed=require_sealed)
    )


@pytest.fixture(scope="module")
def doors() -> Iterator[dict[str, Any]]:
    """Named servers, each with both doors: old ring, rotated ring, new key only, other key,
    unsealed, and one that requires seals."""
    configs = {
        "old": (OLD, False),
        "rotated": (f"{NEW},{OLD}", False),
        "new_only": (NEW, False),
        "other": (OTHER, False),
        "unsealed": (None, False),
        "required": (f"{NEW},{OLD}", True),
    }
    out: dict[str, Any] = {}
    stops = []
    for name, (keys, required) in configs.items():
        service = _service(keys, required)
        server, port = create_server("127.0.0.1:0", service)
        server.start()
        http = make_server("127.0.0.1", 0, create_app(service=service), threaded=True)
        threading.Thread(target=http.serve_forever, daemon=True).start()
        out[name] = {"grpc": GrpcDoor(port), "rest": RestDoor(f"http://127.0.0.1:{http.port}")}
        stops.append((server, http))
    yield out
    for server, http in stops:
        server.stop(grace=None)
        http.shutdown()


@pytest.fixture(params=["grpc", "rest"])
def kind(request: pytest.FixtureRequest) -> str:
    return request.param  # type: ignore[no-any-return]


def _reason(door: Any, method: str, body: dict[str, Any]) -> CallError:
    with pytest.raises(CallError) as caught:
        door.call(method, body)
    assert caught.value.code == "INVALID_ARGUMENT"
    return caught.value


def test_sealed_match_plays_to_the_end(doors: dict[str, Any], kind: str) -> None:
    door = doors["old"][kind]
    game = new_game(door, "one_arm_joe", 3, "sealed", target_score=30)
    token = base64.b64decode(game["state"])
    assert token[1] == 2 and token[2:4] == b"k1"  # the key id travels in the header
    last = play_to_end(door, game, "sealed")
    assert door.call("GetScore", {"state": last["state"]})["status"] == "MATCH_OVER"


def test_rotation_keeps_games_in_flight(doors: dict[str, Any], kind: str) -> None:
    """A ring "k2,k1" opens tokens sealed with k1 and seals new ones with k2."""
    game = new_game(doors["old"][kind], "tiu_u", 2, "rotate")
    move = doors["old"][kind].call("GetLegalMoves", {"state": game["state"]})["moves"][0]
    answer = doors["rotated"][kind].call("ApplyMove", {"state": game["state"], "move": move})
    assert base64.b64decode(answer["state"])[2:4] == b"k2"
    doors["new_only"][kind].call("GetView", {"state": answer["state"]})
    error = _reason(doors["new_only"][kind], "GetView", {"state": game["state"]})
    assert error.reason == "BAD_STATE_TOKEN" and "unknown key 'k1'" in error.message


def test_unknown_key_tampering_and_truncation_are_refused(doors: dict[str, Any], kind: str) -> None:
    game = new_game(doors["old"][kind], "one_arm_joe", 2, "tamper")
    raw = base64.b64decode(game["state"])
    error = _reason(doors["other"][kind], "GetView", {"state": game["state"]})
    assert error.reason == "BAD_STATE_TOKEN" and "unknown key" in error.message
    for i in range(len(raw)):
        bad = bytearray(raw)
        bad[i] ^= 0x04
        error = _reason(
            doors["old"][kind], "GetView", {"state": base64.b64encode(bytes(bad)).decode()}
        )
        assert error.reason == "BAD_STATE_TOKEN", i
    for cut in (1, 3, 10, len(raw) - 1):
        error = _reason(
            doors["old"][kind], "GetView", {"state": base64.b64encode(raw[:cut]).decode()}
        )
        assert error.reason == "BAD_STATE_TOKEN" and "truncated" in error.message


def test_sealed_token_given_to_an_unsealed_service(doors: dict[str, Any], kind: str) -> None:
    game = new_game(doors["old"][kind], "one_arm_joe", 2, "no keys here")
    error = _reason(doors["unsealed"][kind], "GetView", {"state": game["state"]})
    assert "no keys" in error.message


def test_require_sealed_refuses_unsealed_tokens(doors: dict[str, Any], kind: str) -> None:
    game = new_game(doors["unsealed"][kind], "one_arm_joe", 2, "plain")
    error = _reason(doors["required"][kind], "GetView", {"state": game["state"]})
    assert error.reason == "BAD_STATE_TOKEN" and "unsealed" in error.message
    sealed = new_game(doors["required"][kind], "one_arm_joe", 2, "plain")
    assert (
        doors["required"][kind].call("GetView", {"state": sealed["state"]})["status"]
        == "IN_PROGRESS"
    )


def test_sealed_tokens_differ_each_time_but_the_game_does_not(doors: dict[str, Any]) -> None:
    """A fresh nonce per token; the same seed still gives the same game (views equal)."""
    door = doors["old"]["grpc"]
    a = new_game(door, "throw_up", 3, "same")
    b = new_game(door, "throw_up", 3, "same")
    assert a["state"] != b["state"] and a["game_id"] == b["game_id"]
    for seat in range(3):
        assert door.call("GetView", {"state": a["state"], "seat": seat}) == door.call(
            "GetView", {"state": b["state"], "seat": seat}
        )
