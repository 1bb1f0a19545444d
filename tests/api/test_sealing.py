"""Sealed tokens through real servers: key rings, rotation, tampering, requiring seals."""

from __future__ import annotations

import base64

import pytest

from domino_rules.api import RulesService
from domino_rules.state.tokens import KeyRing, TokenCodec

from ..support.servers import Serve
from .doors import CallError, Door, GrpcDoor, RestDoor, b64
from .play import new_game, play_to_end

OLD, NEW, OTHER = KeyRing.generate("k1"), KeyRing.generate("k2"), KeyRing.generate("x9")

#: Named services: old ring, rotated ring, new key only, other key, unsealed, and one that
#: requires seals.
CONFIGS: dict[str, tuple[str | None, bool]] = {
    "old": (OLD, False),
    "rotated": (f"{NEW},{OLD}", False),
    "new_only": (NEW, False),
    "other": (OTHER, False),
    "unsealed": (None, False),
    "required": (f"{NEW},{OLD}", True),
}

Doors = dict[str, dict[str, Door]]


@pytest.fixture(scope="module")
def doors(serve: Serve) -> Doors:
    """Each named service behind both doors: ``doors[name]["grpc" | "rest"]``."""
    out: Doors = {}
    for name, (keys, required) in CONFIGS.items():
        ring = KeyRing.parse(keys) if keys else None
        servers = serve(RulesService(TokenCodec(ring, require_sealed=required)))
        out[name] = {"grpc": GrpcDoor(servers.grpc_port), "rest": RestDoor(servers.http_base)}
    return out


@pytest.fixture(params=["grpc", "rest"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _refused(door: Door, method: str, body: dict[str, str]) -> CallError:
    with pytest.raises(CallError) as caught:
        door.call(method, body)
    assert (caught.value.code, caught.value.reason) == ("INVALID_ARGUMENT", "BAD_STATE_TOKEN")
    return caught.value


def test_sealed_match_plays_to_the_end(doors: Doors, kind: str) -> None:
    door = doors["old"][kind]
    game = new_game(door, "one_arm_joe", 3, "sealed", {"target_score": 30})
    token = base64.b64decode(game["state"])
    assert token[1] == 2 and token[2:4] == b"k1"  # the key id travels in the header
    last = play_to_end(door, game, "sealed")
    assert door.call("GetScore", {"state": last["state"]})["status"] == "MATCH_OVER"


def test_rotation_keeps_games_in_flight(doors: Doors, kind: str) -> None:
    """A ring "k2,k1" opens tokens sealed with k1 and seals new ones with k2."""
    game = new_game(doors["old"][kind], "tiu_u", 2, "rotate")
    move = doors["old"][kind].call("GetLegalMoves", {"state": game["state"]})["moves"][0]
    answer = doors["rotated"][kind].call("ApplyMove", {"state": game["state"], "move": move})
    assert base64.b64decode(answer["state"])[2:4] == b"k2"
    doors["new_only"][kind].call("GetView", {"state": answer["state"]})
    error = _refused(doors["new_only"][kind], "GetView", {"state": game["state"]})
    assert "unknown key 'k1'" in error.message


@pytest.mark.parametrize("service", ["old", "unsealed"])
def test_every_changed_byte_and_every_truncation_is_refused(
    doors: Doors, kind: str, service: str
) -> None:
    """Sealed (AES-GCM) or not (checksum), a token with any one byte changed, or cut
    anywhere, is ``BAD_STATE_TOKEN``, never another game."""
    door = doors[service][kind]
    game = new_game(door, "one_arm_joe", 2, "tamper")
    raw = base64.b64decode(game["state"])
    for i in range(len(raw)):
        bad = bytearray(raw)
        bad[i] ^= 0x04
        _refused(door, "GetView", {"state": b64(bytes(bad))})
    for cut in range(1, len(raw)):
        _refused(door, "GetView", {"state": b64(raw[:cut])})
    for cut in (1, 3, 10, len(raw) - 1):
        assert "truncated" in _refused(door, "GetView", {"state": b64(raw[:cut])}).message


def test_a_token_sealed_with_an_unknown_key_is_refused(doors: Doors, kind: str) -> None:
    game = new_game(doors["old"][kind], "one_arm_joe", 2, "tamper")
    error = _refused(doors["other"][kind], "GetView", {"state": game["state"]})
    assert "unknown key" in error.message


def test_sealed_token_given_to_an_unsealed_service(doors: Doors, kind: str) -> None:
    game = new_game(doors["old"][kind], "one_arm_joe", 2, "no keys here")
    error = _refused(doors["unsealed"][kind], "GetView", {"state": game["state"]})
    assert "no keys" in error.message


def test_require_sealed_refuses_unsealed_tokens(doors: Doors, kind: str) -> None:
    game = new_game(doors["unsealed"][kind], "one_arm_joe", 2, "plain")
    error = _refused(doors["required"][kind], "GetView", {"state": game["state"]})
    assert "unsealed" in error.message
    sealed = new_game(doors["required"][kind], "one_arm_joe", 2, "plain")
    assert (
        doors["required"][kind].call("GetView", {"state": sealed["state"]})["status"]
        == "IN_PROGRESS"
    )


def test_sealed_tokens_differ_each_time_but_the_game_does_not(doors: Doors) -> None:
    """A fresh nonce per token; the same seed still gives the same game (views equal)."""
    door = doors["old"]["grpc"]
    a = new_game(door, "throw_up", 3, "same")
    b = new_game(door, "throw_up", 3, "same")
    assert a["state"] != b["state"] and a["game_id"] == b["game_id"]
    for seat in range(3):
        assert door.call("GetView", {"state": a["state"], "seat": seat}) == door.call(
            "GetView", {"state": b["state"], "seat": seat}
        )
