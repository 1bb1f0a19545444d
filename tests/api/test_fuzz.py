"""Generated requests: whatever a client sends, both doors answer with a clear error.

A seeded generator builds thousands of requests per door from valid ones (real tokens of
every ruleset at every stage, legal moves of this and other rulesets) and damages them:
wrong types, huge and negative numbers, floats, unicode including lone surrogates (in
keys and values), deep nesting, unknown fields, mutated, truncated and foreign tokens,
moves of other rulesets, raw bytes that are not JSON or not protobuf. Every answer must
be a success or a documented error (JSON `{code, message, details}` over REST, a status
with an ``ErrorInfo`` over gRPC), never a 5xx / INTERNAL, and never a logged traceback.
"""

from __future__ import annotations

import base64
import json
import logging
import random
import urllib.error
import urllib.request
from collections import Counter
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from domino_rules import rules
from domino_rules.doors import rest
from domino_rules.v1 import domino_rules_pb2 as pb

from .doors import GrpcDoor, RestDoor
from .play import new_game

#: Requests per door.
REQUESTS = 5000
#: Every reason the service documents.
REASONS = {
    "MALFORMED_REQUEST",
    "UNKNOWN_RULESET",
    "BAD_OPTIONS",
    "BAD_PLAYER_COUNT",
    "BAD_SEED",
    "BAD_SEAT",
    "BAD_STATE_TOKEN",
    "NOT_YOUR_TURN",
    "ILLEGAL_MOVE",
    "GAME_OVER",
    "STALE_STATE",
    "BAD_PLAYOUTS",
    "BAD_RECORD",
    "RECORD_TOO_LARGE",
    "BAD_STEPS",
    "REQUEST_TOO_LARGE",
    "NOT_FOUND",
    "METHOD_NOT_ALLOWED",
}
GRPC_CODES = {
    grpc.StatusCode.OK,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.ABORTED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
}
HTTP_STATUSES = {200, 400, 404, 405, 409, 413}
ROUTES = {name: (verb, path) for name, verb, path, _ in rest.routes()}
SERVICE = pb.DESCRIPTOR.services_by_name["DominoRules"]

NASTY_STRINGS = (
    "",
    "\ud800",
    "a\udfffb",
    "\x00",
    "\u202e\U0001f600",
    "one_arm_joe\x00",
    "ONE_ARM_JOE",
    "x" * 3000,
    "-1",
    "1e400",
    "AA==",
    "!!!not base64!!!",
    "true",
)
NASTY_NUMBERS = (-1, 0, 1, 2, 9, 64, 2**31, 2**32, 2**63, 2**64, -(2**63), 1.5, -0.0, 1e308)


class Generator:
    """Seeded requests: a valid one from the pool, then one to three kinds of damage."""

    def __init__(self, seed: str, pool: dict[str, list[dict[str, Any]]]) -> None:
        self.chooser = random.Random(seed)
        self.pool = pool

    def value(self, depth: int = 0) -> Any:
        c = self.chooser
        kind = c.randrange(9 if depth < 3 else 5)
        if kind == 0:
            return None
        if kind == 1:
            return c.choice((True, False))
        if kind == 2:
            return c.choice(NASTY_NUMBERS)
        if kind in (3, 4):
            return c.choice(NASTY_STRINGS)
        if kind == 5:
            return [self.value(depth + 1) for _ in range(c.randrange(4))]
        if kind == 6:
            return {c.choice((*NASTY_STRINGS, "seat", "kind", "tile")): self.value(depth + 1)}
        if kind == 7:
            nested: Any = 0
            for _ in range(c.choice((50, 500))):
                nested = [nested]
            return nested
        return self.pooled_move()

    def pooled_move(self) -> dict[str, Any]:
        """A copy of a legal move of some ruleset (damage must not reach the pool)."""
        move: dict[str, Any] = json.loads(json.dumps(self.chooser.choice(self.pool["moves"])))
        return move

    def token(self, token: str) -> Any:
        c = self.chooser
        try:
            raw = bytearray(base64.b64decode(token))
        except ValueError:  # already damaged into something that is not base64
            return token + c.choice(NASTY_STRINGS)
        if not raw:
            return token
        how = c.randrange(6)
        if how == 0:
            raw[c.randrange(len(raw))] ^= 1 << c.randrange(8)
        elif how == 1:
            raw = raw[: c.randrange(len(raw))]
        elif how == 2:
            raw = bytearray(c.randbytes(c.randrange(1, 300)))
        elif how == 3:
            return c.choice(self.pool["tokens"])  # another game's token: valid, so answered
        elif how == 4:
            raw[0] = c.randrange(256)  # the format byte
        else:
            return token[: c.randrange(len(token))] + c.choice("=!*-_ \n")
        return base64.b64encode(bytes(raw)).decode()

    def request(self) -> tuple[str, dict[str, Any]]:
        c = self.chooser
        method = c.choice(sorted(ROUTES))
        body = json.loads(json.dumps(c.choice(self.pool[method])))
        for _ in range(c.randint(1, 3)):
            self.damage(body)
        return method, body

    def damage(self, body: dict[str, Any]) -> None:
        c = self.chooser
        how = c.randrange(8)
        if how == 0 and body:
            body[c.choice(sorted(body))] = self.value()
        elif how == 1:
            body[c.choice((*NASTY_STRINGS, "seat", "move", "options", "camelCase"))] = self.value()
        elif how == 2 and body:
            del body[c.choice(sorted(body))]
        elif how == 3 and isinstance(body.get("state"), str):
            body["state"] = self.token(body["state"])
        elif how == 4 and isinstance(body.get("move"), dict) and body["move"]:
            move = body["move"]
            move[c.choice([*sorted(move), "tile", "target", "end", "open_pip"])] = self.value()
        elif how == 5 and isinstance(body.get("move"), dict):
            body["move"] = self.pooled_move()  # a move of any ruleset
        elif how == 6:
            ruleset = c.choice([r.id for r in rules.all_rulesets()])
            body["options"] = {ruleset: {c.choice((*NASTY_STRINGS, "hands")): self.value()}}
        else:
            body["expected_version"] = c.choice(NASTY_NUMBERS)


def _pool(door: Any) -> dict[str, list[dict[str, Any]]]:
    """Valid requests of every RPC: tokens of every ruleset, fresh, mid-hand and over."""
    pool: dict[str, list[dict[str, Any]]] = {name: [] for name in ROUTES}
    pool["tokens"], pool["moves"] = [], []
    chooser = random.Random("pool")
    pool["ListRulesets"].append({})
    for ruleset in rules.all_rulesets():
        low, _ = ruleset.player_range(ruleset.make_options({}))
        pool["NewGame"].append({"ruleset": ruleset.id, "players": low, "seed": "fuzz"})
        game = new_game(door, ruleset.id, low, f"fuzz-{ruleset.id}")
        state, version = game["state"], game["version"]
        record: dict[str, Any] = {
            "format": 1,
            "ruleset": ruleset.id,
            "players": low,
            "game_id": game["game_id"],
            "seed_commitment": game["seed_commitment"],
            "first_state": state,
            "moves": [],
        }
        for step in range(400):
            legal = door.call("GetLegalMoves", {"state": state})
            if step % 20 == 0 or not legal["moves"]:
                pool["tokens"].append(state)
                pool["GetView"].append({"state": state, "seat": step % low})
                pool["GetScore"].append({"state": state})
                pool["GetLegalMoves"].append({"state": state, "seat": 0})
                # a small budget: the fuzz is about the door, not the bot's strength
                pool["SuggestMove"].append({"state": state, "level": "RANDOM", "playouts": 2})
            if not legal["moves"]:
                break
            move = chooser.choice(legal["moves"])
            if step < 12:  # a record of the first moves, replayed from its first state
                record["moves"].append({"move": move})
                pool["Replay"].append({"record": json.loads(json.dumps(record))})
            pool["moves"].append(move)
            pool["ApplyMove"].append({"state": state, "move": move, "expected_version": version})
            answer = door.call("ApplyMove", {"state": state, "move": move})
            state, version = answer["state"], answer["version"]
    return pool


@pytest.fixture(scope="module")
def pool(rest_door: RestDoor) -> dict[str, list[dict[str, Any]]]:
    return _pool(rest_door)


def _no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad[:3]]


def _reason_of(details: list[dict[str, Any]]) -> str:
    return str(details[0].get("reason", "")) if details else ""


def _rest_call(base: str, verb: str, path: str, data: bytes | None) -> tuple[int, bytes]:
    request = urllib.request.Request(base + path, data=data, method=verb)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.mark.slow
def test_rest_answers_every_generated_request(
    rest_door: RestDoor, pool: dict[str, list[dict[str, Any]]], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    generator = Generator("rest", pool)
    statuses: Counter[int] = Counter()
    reasons: Counter[str] = Counter()
    for n in range(REQUESTS):
        method, body = generator.request()
        verb, path = ROUTES[method]
        if n % 50 == 0:
            verb = "GET" if verb == "POST" else "POST"  # the wrong verb
        if n % 23 == 0:
            data = generator.chooser.randbytes(generator.chooser.randrange(1, 200))
        elif n % 29 == 0:
            depth = generator.chooser.choice((1000, 100_000))
            data = b'{"move": ' + b"[" * depth + b"]" * depth + b"}"  # deeper than any parser
        else:
            data = json.dumps(body).encode()  # lone surrogates travel as \ud800 escapes
        status, raw = _rest_call(rest_door.base, verb, path, None if verb == "GET" else data)
        statuses[status] += 1
        assert status in HTTP_STATUSES, (method, status, raw[:300])
        answer = json.loads(raw)
        if status != 200:
            assert set(answer) == {"code", "message", "details"}, answer
            reasons[_reason_of(answer["details"])] += 1
            assert _reason_of(answer["details"]) in REASONS, answer
    _no_tracebacks(caplog)
    assert statuses[200] > REQUESTS // 50 and statuses[400] > REQUESTS // 2, statuses
    assert len(reasons) >= 8, reasons


def _mutated_bytes(generator: Generator, data: bytes) -> bytes:
    c = generator.chooser
    raw = bytearray(data)
    how = c.randrange(4)
    if how == 0 and raw:
        raw[c.randrange(len(raw))] = c.randrange(256)
    elif how == 1:
        raw = raw[: c.randrange(len(raw) + 1)]
    elif how == 2:
        raw[c.randrange(len(raw) + 1) : 0] = c.randbytes(c.randrange(1, 12))
    else:
        raw = bytearray(c.randbytes(c.randrange(0, 64)))
    return bytes(raw)


@pytest.mark.slow
def test_grpc_answers_every_generated_request(
    grpc_door: GrpcDoor, pool: dict[str, list[dict[str, Any]]], caplog: pytest.LogCaptureFixture
) -> None:
    from google.protobuf import json_format

    caplog.set_level(logging.WARNING)
    generator = Generator("grpc", pool)
    codes: Counter[str] = Counter()
    raw_calls: dict[str, grpc.UnaryUnaryMultiCallable[bytes, bytes]] = {
        m.name: grpc_door.channel.unary_unary(f"/{SERVICE.full_name}/{m.name}")
        for m in SERVICE.methods
    }
    sent_raw = 0
    for _ in range(REQUESTS):
        method, body = generator.request()
        request = getattr(pb, SERVICE.methods_by_name[method].input_type.name)()
        try:
            json_format.ParseDict(body, request)
            data = request.SerializeToString()
            if generator.chooser.random() < 0.3:
                data = _mutated_bytes(generator, data)
                sent_raw += 1
        except (json_format.ParseError, ValueError, TypeError, RecursionError, SystemError):
            # not expressible as the message: send damaged bytes of a valid request
            valid = getattr(pb, SERVICE.methods_by_name[method].input_type.name)()
            json_format.ParseDict(generator.chooser.choice(pool[method]), valid)
            data = _mutated_bytes(generator, valid.SerializeToString())
            sent_raw += 1
        try:
            raw_calls[method](data, timeout=30)
            codes["OK"] += 1
        except grpc.RpcError as error:
            code = error.code()
            codes[code.name] += 1
            assert code in GRPC_CODES, (method, code, error.details())
            status = rpc_status.from_call(error)
            assert status is not None, (method, code)
            info = error_details_pb2.ErrorInfo()
            assert status.details and status.details[0].Unpack(info)
            assert info.reason in REASONS, (method, info.reason)
    _no_tracebacks(caplog)
    assert codes["OK"] > REQUESTS // 50 and codes["INVALID_ARGUMENT"] > REQUESTS // 3, codes
    assert sent_raw > REQUESTS // 5
