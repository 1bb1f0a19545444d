"""Generate the OpenAPI 3.1 document of the REST door: ``python proto/openapi.py``.

Reads ``proto/domino_rules/v1/domino_rules.proto`` (compiled with ``-I proto``, comments
kept) and its ``google.api.http`` annotations, and writes
``service/domino_rules/web/openapi/openapi.json`` (or ``--out FILE``). A test regenerates it
into a temporary folder and fails when the committed document is stale.

The schemas follow the proto3 JSON mapping exactly as the gateway speaks it
(``json_format`` with ``preserving_proto_field_name`` and
``always_print_fields_with_no_presence``):

- field names as the proto writes them (``game_id``); requests may also use the
  lowerCamelCase JSON names (``gameId``), which the descriptions say;
- enums by value name; 64-bit integers as decimal strings; ``bytes`` as base64;
- a response prints every field without presence (scalars, enums, repeated fields, even
  when zero or empty), so those are ``required``; ``optional`` scalars, message fields and
  oneof members appear only when set;
- a oneof holds at most one member; ``Options``, a message made of one oneof, exactly one.

A message used in requests and in responses (``Move``, ``Tile``) has two schemas:
``Move`` as answers print it, and ``MoveInput``, whose fields may all be omitted (but
``Options`` and the messages it holds, which only requests held before: ``Options`` in
requests, ``OptionsOutput`` in answers, see :data:`REQUEST_NAMED`). What
the proto cannot say (which errors each RPC may answer, the chain of calls a game
follows) is in the tables below.
"""

from __future__ import annotations

import argparse
import itertools
import json
import pathlib
import re
import sys
import tempfile
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from google.api import annotations_pb2
from google.protobuf import descriptor_pb2
from google.rpc import code_pb2
from grpc_tools import protoc

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
SOURCE = "domino_rules/v1/domino_rules.proto"
SERVICE = "DominoRules"
OUTPUT = ROOT / "service" / "domino_rules" / "web" / "openapi" / "openapi.json"
#: The match record's message, and where its JSON Schema is written and served.
RECORD = "MatchRecord"
RECORD_SCHEMA_FILE = "match-record.schema.json"
RECORD_SCHEMA_PATH = "/schemas/match-record.json"

JSON = "application/json"
Schema = dict[str, Any]
F = descriptor_pb2.FieldDescriptorProto


# ---------------------------------------------------------------------------- errors


@dataclass(frozen=True)
class Reason:
    """An ``ErrorInfo.reason``: its gRPC code, its HTTP status and when it is answered."""

    name: str
    code: str  # a google.rpc.Code name
    http: int
    when: str


#: Every reason the REST door answers (README "Errors"; ``api/errors.py``).
REASONS: tuple[Reason, ...] = (
    Reason(
        "MALFORMED_REQUEST",
        "INVALID_ARGUMENT",
        400,
        "JSON or protobuf that does not parse or does not fit the request (an unknown "
        "field, a wrong type, a number out of range); a missing move or move kind; a move "
        "whose fields do not fit its kind; a tile with `high < low` or pips past 18",
    ),
    Reason("UNKNOWN_RULESET", "INVALID_ARGUMENT", 400, "no ruleset has that id"),
    Reason("BAD_OPTIONS", "INVALID_ARGUMENT", 400, "an option out of range or of another ruleset"),
    Reason(
        "BAD_PLAYER_COUNT",
        "INVALID_ARGUMENT",
        400,
        "too few or too many players for the ruleset and options",
    ),
    Reason(
        "BAD_SEED",
        "INVALID_ARGUMENT",
        400,
        "a seed that is empty, over 128 characters, or holds control characters",
    ),
    Reason("BAD_SEAT", "INVALID_ARGUMENT", 400, "a seat that is not at the table"),
    Reason(
        "BAD_STATE_TOKEN",
        "INVALID_ARGUMENT",
        400,
        "a token that is missing, garbled, truncated, tampered with, sealed with an unknown "
        "key, unsealed where seals are required, or over 64 KiB",
    ),
    Reason("NOT_YOUR_TURN", "FAILED_PRECONDITION", 400, "the move's seat is not the seat to act"),
    Reason(
        "ILLEGAL_MOVE",
        "FAILED_PRECONDITION",
        400,
        "the move is not one of the legal moves (the message names the kinds of move that "
        "are legal, never a tile of a hand)",
    ),
    Reason("GAME_OVER", "FAILED_PRECONDITION", 400, "the match is over"),
    Reason(
        "BAD_PLAYOUTS",
        "INVALID_ARGUMENT",
        400,
        "a `playouts` budget for `SuggestMove` below 1 or over the ruleset's `max_playouts`",
    ),
    Reason(
        "STALE_STATE",
        "ABORTED",
        409,
        "`expected_version` differs from the state's version (`metadata.version` holds it)",
    ),
    Reason(
        "OVERLOADED",
        "RESOURCE_EXHAUSTED",
        429,
        "`SuggestMove` or `Replay`: the bots, or the replays, are busy; try again after the "
        "`Retry-After` header's seconds (the `RetryInfo` detail says the same)",
    ),
    Reason(
        "DEADLINE_EXCEEDED",
        "DEADLINE_EXCEEDED",
        504,
        "`SuggestMove` or `Replay`: the deadline that the `x-request-timeout` header gave "
        "passed before the bot, or the replay, could answer (a replay's `metadata` says how "
        "far it got: `replayed` of `moves`)",
    ),
    Reason(
        "REQUEST_TIMEOUT", "DEADLINE_EXCEEDED", 408, "the request body was not received in time"
    ),
    Reason(
        "BAD_RECORD",
        "INVALID_ARGUMENT",
        400,
        "`Replay`: a record of another format, with neither `seed` nor `first_state`, whose "
        "`seat` does not fit its `viewpoint`, or past a record's shape (a list of over 256 "
        "values, nesting deeper than a record's, a text over 90,000 characters)",
    ),
    Reason(
        "RECORD_TOO_LARGE",
        "INVALID_ARGUMENT",
        400,
        "`Replay`: a record of more than 20,000 moves or 200,000 events",
    ),
    Reason("BAD_STEPS", "INVALID_ARGUMENT", 400, "`Replay`: a range of steps not in the record"),
    Reason("REQUEST_TOO_LARGE", "RESOURCE_EXHAUSTED", 413, "a request body over 1 MiB"),
    Reason("NOT_FOUND", "NOT_FOUND", 404, "no route has that path"),
    Reason(
        "SERVICE_UNKNOWN",
        "NOT_FOUND",
        404,
        "`/readyz?service=NAME`: gRPC health knows no service of that name",
    ),
    Reason(
        "METHOD_NOT_ALLOWED", "UNIMPLEMENTED", 405, "the path is served, but not with that method"
    ),
    Reason(
        "FORBIDDEN",
        "PERMISSION_DENIED",
        403,
        "a PROXY protocol header from an address not allowed to send one",
    ),
    Reason(
        "BOT_FAILED",
        "INTERNAL",
        500,
        "`SuggestMove`: the bot could not suggest a move for the state (no deal of the hidden "
        "tiles agrees with the seat's view, a search that went wrong): a bug, reported "
        "without details; no input should cause it",
    ),
    Reason(
        "INTERNAL", "INTERNAL", 500, "a bug, reported without details; no input should cause it"
    ),
)
REASON = {r.name: r for r in REASONS}

#: What reading a request body may answer, for every RPC with a body.
_BODY = ("MALFORMED_REQUEST", "REQUEST_TIMEOUT", "REQUEST_TOO_LARGE")
#: The reasons each RPC may answer.
RPC_REASONS: dict[str, tuple[str, ...]] = {
    "ListRulesets": ("MALFORMED_REQUEST",),  # a query parameter: the request has no fields
    "NewGame": (*_BODY, "UNKNOWN_RULESET", "BAD_OPTIONS", "BAD_PLAYER_COUNT", "BAD_SEED"),
    "GetLegalMoves": (*_BODY, "BAD_STATE_TOKEN", "BAD_SEAT"),
    "ApplyMove": (
        *_BODY,
        "BAD_STATE_TOKEN",
        "BAD_SEAT",
        "NOT_YOUR_TURN",
        "ILLEGAL_MOVE",
        "GAME_OVER",
        "STALE_STATE",
    ),
    "GetScore": (*_BODY, "BAD_STATE_TOKEN"),
    "GetView": (*_BODY, "BAD_STATE_TOKEN", "BAD_SEAT"),
    "SuggestMove": (
        *_BODY,
        "BAD_STATE_TOKEN",
        "BAD_SEAT",
        "BAD_SEED",
        "BAD_PLAYOUTS",
        "NOT_YOUR_TURN",
        "GAME_OVER",
        "OVERLOADED",
        "DEADLINE_EXCEEDED",
        "BOT_FAILED",
    ),
    "Replay": (
        *_BODY,
        "BAD_RECORD",
        "RECORD_TOO_LARGE",
        "BAD_STEPS",
        "BAD_SEAT",
        "BAD_STATE_TOKEN",
        "OVERLOADED",
        "DEADLINE_EXCEEDED",
    ),
}

#: Reasons a request that fits its schema may still be answered: what depends on the game
#: in the token, on the ruleset's rules, on the server's load or on the caller's own
#: deadline, which no JSON Schema can say. Every other reason is the schema's to prevent:
#: a request that fits the schema never gets it. Listed per operation as
#: ``x-refused-beyond-the-schema``.
BEYOND_SCHEMA: dict[str, str] = {
    "BAD_STATE_TOKEN": "a token that this service did not make, or not with these keys",
    "BAD_SEAT": "a seat past the table of the game in the token",
    "NOT_YOUR_TURN": "a seat that is not the one to act in the game in the token",
    "ILLEGAL_MOVE": "a move that the game in the token does not allow",
    "GAME_OVER": "the game in the token is over",
    "BAD_PLAYER_COUNT": "a player count the ruleset does not seat with these options "
    "(`ListRulesets` gives each range)",
    "BAD_OPTIONS": "options of another ruleset than the one named",
    # ApplyMove's only (see beyond_schema)
    "MALFORMED_REQUEST": "a move whose fields do not fit its kind (a `DRAW` with a tile, "
    "a `PLAY` without one), or a tile with `high < low`",
    "STALE_STATE": "an `expected_version` that is not the version of the game in the token",
    "OVERLOADED": "the bots, or the replays, are busy",
    "BAD_RECORD": "a record with neither `seed` nor `first_state`, a `seat` that does "
    "not fit its `viewpoint`, a list of over 256 values or a text over 90,000 characters",
    "RECORD_TOO_LARGE": "a record of more than 200,000 events in all",
    "BAD_STEPS": "a `from_step` past the record's last move, or a `to_step` before it",
    "DEADLINE_EXCEEDED": "the deadline of the request's own `x-request-timeout` passed",
}

#: Answers of the HTTP server itself, before any route runs (gunicorn's request parser
#: and the gateway's worker), with the reason each carries.
SERVER_ANSWERS: tuple[tuple[int, str, str], ...] = (
    (400, "MALFORMED_REQUEST", "the request is not valid HTTP (request line, header, chunk)"),
    (403, "FORBIDDEN", "a PROXY protocol header from an address not allowed to send one"),
    (404, "NOT_FOUND", "no route has that path"),
    (405, "METHOD_NOT_ALLOWED", "the path is served, but not with that method"),
    (408, "REQUEST_TIMEOUT", "the request was not received in time"),
    (413, "REQUEST_TOO_LARGE", "a request body over 1 MiB"),
    (414, "REQUEST_TOO_LARGE", "a request line that is too long"),
    (417, "MALFORMED_REQUEST", "an `Expect` header other than `100-continue`"),
    (431, "REQUEST_TOO_LARGE", "request headers too long or too many"),
    (501, "MALFORMED_REQUEST", "a transfer coding the server does not implement"),
    (500, "INTERNAL", "a bug, reported without details"),
)

# ------------------------------------------------------------------------ rulesets

#: The fields that hold a ruleset id. The ids are the field names of the ``Options``
#: oneof; a request must name one of them (an enum), an answer may name one added later.
RULESET_ID_FIELDS = ("NewGameRequest.ruleset", "GetViewResponse.ruleset", "RulesetInfo.id")

#: Request fields the service refuses to do without, though proto3 has no required
#: fields: omitted (or empty), the request is refused with the reason given.
REQUIRED_IN_REQUESTS: dict[str, dict[str, str]] = {
    "NewGameRequest": {"ruleset": "UNKNOWN_RULESET", "players": "BAD_PLAYER_COUNT"},
    "GetLegalMovesRequest": {"state": "BAD_STATE_TOKEN"},
    "ApplyMoveRequest": {"state": "BAD_STATE_TOKEN", "move": "MALFORMED_REQUEST"},
    "GetScoreRequest": {"state": "BAD_STATE_TOKEN"},
    "GetViewRequest": {"state": "BAD_STATE_TOKEN"},
    "SuggestMoveRequest": {"state": "BAD_STATE_TOKEN"},
    "ReplayRequest": {"record": "BAD_RECORD"},
    "Move": {"kind": "MALFORMED_REQUEST"},
}

#: The longest state token, in base64 characters: 64 KiB of bytes.
MAX_TOKEN_CHARS = 4 * ((64 * 1024 + 2) // 3)
#: Seats and pips, as the rules bound them (a table seats at most ``MAX_PLAYERS``).
MAX_PIPS = 18


def _seed_pattern(longest: int) -> str:
    """A pattern of 1 to ``longest`` characters without the ones a seed may not hold: the control
    characters, Unicode category ``Cc`` as the server's Python classes them (U+0000 to
    U+001F and U+007F to U+009F), escaped as ECMA-262 and Python both read them."""
    ranges: list[tuple[int, int]] = []
    for point in range(0x10000):
        if unicodedata.category(chr(point)) == "Cc":
            if ranges and ranges[-1][1] == point - 1:
                ranges[-1] = (ranges[-1][0], point)
            else:
                ranges.append((point, point))
    spans = "".join(f"\\u{a:04x}" + (f"-\\u{b:04x}" if b > a else "") for a, b in ranges)
    return f"^[^{spans}]{{1,{longest}}}$"


def field_limits() -> dict[str, Schema]:
    """What the service accepts of each field beyond its proto type, from the rules
    themselves: ``"Message.field"`` -> keywords added to the field's schema (in requests,
    and in answers where they hold too)."""
    from domino_rules import (
        records,
        rules,  # the package beside this script, installed
    )
    from domino_rules.rules.limits import MAX_SEED_CHARS
    from domino_rules.state import codec

    rulesets = rules.all_rulesets()
    lowest = min(r.min_players for r in rulesets)
    most = rules.most_players()
    seat = {"minimum": 0, "maximum": most - 1}
    pip = {"minimum": 0, "maximum": MAX_PIPS}
    token = {"minLength": 1, "maxLength": MAX_TOKEN_CHARS}
    seed = {
        "minLength": 1,
        "maxLength": MAX_SEED_CHARS,
        "pattern": _seed_pattern(MAX_SEED_CHARS),
    }
    out: dict[str, Schema] = {
        "NewGameRequest.players": {"minimum": lowest, "maximum": most},
        "NewGameRequest.seed": seed,
        "SuggestMoveRequest.seed": seed,
        "SuggestMoveRequest.playouts": {"minimum": 1, "maximum": codec.MAX_PLAYOUTS},
        "Move.seat": seat,
        "Move.open_pip": pip,
        "Tile.high": pip,
        "Tile.low": pip,
    }
    for name in ("GetLegalMovesRequest", "GetViewRequest", "SuggestMoveRequest"):
        out[f"{name}.seat"] = seat
    for name in ("GetLegalMovesRequest", "ApplyMoveRequest", "GetScoreRequest"):
        out[f"{name}.state"] = token
    out["GetViewRequest.state"] = out["SuggestMoveRequest.state"] = token
    # a record's content is the replay's to judge (a verdict, not an error): only its
    # size and format are the schema's
    out["ReplayRequest.seat"] = seat
    out["ReplayRequest.from_step"] = {"minimum": 0, "maximum": records.MAX_MOVES}
    out["ReplayRequest.to_step"] = {"minimum": 0}
    out["MatchRecord.format"] = {"minimum": 0, "maximum": records.FORMAT}
    out["MatchRecord.first_state"] = token
    out["MatchRecord.moves"] = {"maxItems": records.MAX_MOVES}
    out["MatchRecord.deal"] = {"maxItems": records.MAX_EVENTS}
    for ruleset in rulesets:
        message = ruleset.options_type.__name__  # OneArmJoeOptions: the proto's name
        for spec in ruleset.option_specs():
            if spec.type == "int":
                out[f"{message}.{spec.name}"] = {"minimum": spec.minimum, "maximum": spec.maximum}
    return out


#: Enum values that the service neither answers nor accepts: omitted from the schema.
NEVER_SENT: dict[str, tuple[str, ...]] = {"MoveKind": ("MOVE_KIND_UNSPECIFIED",)}

# ----------------------------------------------------------------------------- links


@dataclass(frozen=True)
class Link:
    """A call that follows another on the same game. ``body`` is the next request, with
    ``$response.body#/...`` taken from the answer and ``$request.body#/...`` from the
    request just made; ``merge`` lets a test generator fill in the fields not given."""

    source: str
    name: str
    target: str
    body: dict[str, Any]
    merge: bool = False


_STATE = "$response.body#/state"
_SENT_STATE = "$request.body#/state"

#: The calls of a game: NewGame -> GetLegalMoves / GetView / SuggestMove -> ApplyMove ->
#: ... -> GetScore. Every link resolves in every answer it follows: ApplyMove follows
#: SuggestMove, whose answer always holds a legal move (a game with no move to make is
#: refused, not answered), never a list of moves that may be empty.
LINKS: tuple[Link, ...] = (
    Link("NewGame", "GetLegalMoves", "GetLegalMoves", {"state": _STATE}),
    Link("NewGame", "GetView", "GetView", {"state": _STATE}),
    Link("NewGame", "SuggestMove", "SuggestMove", {"state": _STATE}),
    Link("NewGame", "GetScore", "GetScore", {"state": _STATE}),
    Link("GetLegalMoves", "ApplyAnyMove", "ApplyMove", {"state": _SENT_STATE}, merge=True),
    Link("GetLegalMoves", "SuggestMove", "SuggestMove", {"state": _SENT_STATE}),
    Link(
        "SuggestMove",
        "ApplySuggestedMove",
        "ApplyMove",
        {
            "state": _SENT_STATE,
            "move": "$response.body#/move",
            "expected_version": "$response.body#/version",
        },
    ),
    Link("ApplyMove", "GetView", "GetView", {"state": _STATE}),
    Link("ApplyMove", "GetLegalMoves", "GetLegalMoves", {"state": _STATE}),
    Link("ApplyMove", "SuggestMove", "SuggestMove", {"state": _STATE}),
    Link("ApplyMove", "GetScore", "GetScore", {"state": _STATE}),
    Link("GetView", "SuggestMove", "SuggestMove", {"state": _SENT_STATE}),
    Link("GetView", "GetScore", "GetScore", {"state": _SENT_STATE}),
    Link("GetScore", "GetLegalMoves", "GetLegalMoves", {"state": _SENT_STATE}),
    Link(
        "NewGame",
        "ReplayTheDeal",
        "Replay",
        {
            "record": {
                "ruleset": "$request.body#/ruleset",
                "players": "$request.body#/players",
                "game_id": "$response.body#/game_id",
                "seed_commitment": "$response.body#/seed_commitment",
                "first_state": _STATE,
                "deal": "$response.body#/events",
            }
        },
    ),
    Link("Replay", "GetLegalMoves", "GetLegalMoves", {"state": _STATE}),
    Link("Replay", "GetView", "GetView", {"state": _STATE}),
)

# ----------------------------------------------------------------------- description

DESCRIPTION = """\
The authoritative rules of traditional domino games as a stateless service. Every game
travels in an opaque `state` token that the caller keeps and sends back; the service
keeps nothing. The same contract is served over gRPC (`domino_rules.v1.DominoRules`);
this document describes the REST door and is generated from the proto and its
`google.api.http` annotations.

**JSON** is the proto3 JSON mapping, with field names as the proto writes them
(`game_id`, `open_pip`); requests may also use the lowerCamelCase names (`gameId`,
`openPip`). Enums are their value names (`"PLAY"`), tokens are base64. Answers print
every field that has no presence even when it is zero or empty (`{"high": 6, "low": 0}`,
`"end": "END_UNSPECIFIED"`, `"hand": []`); `optional` fields, messages and oneof members
appear only when set. A request may omit any field its schema does not mark required
(proto3 has none; those marked are the ones the service refuses to do without). A legal
move from `GetLegalMoves` or `GetView`, sent back unchanged, is accepted.

**A game**: `NewGame` answers the first `state`; `GetLegalMoves` lists the moves of the
seat to act; `ApplyMove` answers the next `state`; `GetView` shows one seat what it may
see; `GetScore` scores. Send each answer's `state` back with the next move until
`status` is `MATCH_OVER`. The operations' `links` describe this chain.

**Errors** are a `google.rpc.Status` as grpc-gateway writes it,
`{"code", "message", "details": [{"@type", "reason", "domain", "metadata"}]}`, where
`code` is the `google.rpc.Code` number and `reason` says what went wrong. Each
operation lists the reasons it may answer. The HTTP server itself answers, in the same
body, before any operation runs:

{server_answers}

A refused request changes nothing: the token sent is still the game.
"""


# ------------------------------------------------------------------------ the proto


def descriptor_set(
    proto: pathlib.Path = PROTO, source: str = SOURCE
) -> descriptor_pb2.FileDescriptorSet:
    """``source`` and its imports, compiled with ``-I proto``, comments kept."""
    include = pathlib.Path(protoc.__file__).parent / "_proto"
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "descriptor_set.binpb"
        args = [
            "protoc",
            f"-I{proto}",
            f"-I{include}",
            f"--descriptor_set_out={out}",
            "--include_source_info",
            "--include_imports",
            source,
        ]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed")
        return descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())


def _comment(text: str) -> str:
    lines = [line[1:] if line.startswith(" ") else line for line in text.strip("\n").split("\n")]
    return "\n".join(lines).strip()


class Contract:
    """The messages, enums and RPCs of one proto file, with their comments."""

    def __init__(self, file: descriptor_pb2.FileDescriptorProto) -> None:
        self.file = file
        self.package = file.package
        self.comments: dict[tuple[int, ...], str] = {}
        for location in file.source_code_info.location:
            text = location.leading_comments or location.trailing_comments
            if text.strip():
                self.comments[tuple(location.path)] = _comment(text)
        #: proto full name (".pkg.Outer.Inner") -> (schema name, descriptor, source path)
        self.messages: dict[str, tuple[str, descriptor_pb2.DescriptorProto, tuple[int, ...]]] = {}
        self.enums: dict[str, tuple[str, descriptor_pb2.EnumDescriptorProto, tuple[int, ...]]] = {}
        self._walk(file.message_type, file.enum_type, "", (4,), (5,))
        options = self.messages[f".{self.package}.Options"][1]
        #: The ruleset ids: the names of the ``Options`` oneof's fields.
        self.ruleset_ids = [f.name for f in options.field]

    def _walk(
        self,
        messages: Iterable[descriptor_pb2.DescriptorProto],
        enums: Iterable[descriptor_pb2.EnumDescriptorProto],
        prefix: str,
        message_path: tuple[int, ...],
        enum_path: tuple[int, ...],
    ) -> None:
        for i, enum in enumerate(enums):
            name = prefix + enum.name
            self.enums[f".{self.package}.{name}"] = (name, enum, (*enum_path, i))
        for i, message in enumerate(messages):
            name = prefix + message.name
            path = (*message_path, i)
            if message.options.map_entry:
                continue
            self.messages[f".{self.package}.{name}"] = (name, message, path)
            self._walk(message.nested_type, message.enum_type, name + ".", (*path, 3), (*path, 4))

    def service(self, name: str) -> descriptor_pb2.ServiceDescriptorProto:
        for service in self.file.service:
            if service.name == name:
                return service
        raise LookupError(f"no service {name} in {self.file.name}")

    def comment(self, *path: int) -> str:
        return self.comments.get(path, "")

    def message(self, full_name: str) -> descriptor_pb2.DescriptorProto:
        return self.messages[full_name][1]

    def map_entry(self, field: F) -> descriptor_pb2.DescriptorProto | None:
        """The entry message of a map field, or ``None``."""
        if field.type != F.TYPE_MESSAGE or field.label != F.LABEL_REPEATED:
            return None
        outer, _, inner = field.type_name.rpartition(".")
        parent = self.messages.get(outer)
        if parent is None:
            return None
        for nested in parent[1].nested_type:
            if nested.name == inner and nested.options.map_entry:
                return nested
        return None


def _has_presence(message: descriptor_pb2.DescriptorProto, field: F) -> bool:
    """Whether proto3 JSON prints the field only when it is set."""
    if field.label == F.LABEL_REPEATED:
        return False
    return field.type == F.TYPE_MESSAGE or field.HasField("oneof_index")


def _real_oneofs(message: descriptor_pb2.DescriptorProto) -> list[tuple[str, list[str]]]:
    """The message's oneofs, not those that ``optional`` makes: (name, member fields)."""
    out = []
    for index, oneof in enumerate(message.oneof_decl):
        members = [
            f.name
            for f in message.field
            if f.HasField("oneof_index") and f.oneof_index == index and not f.proto3_optional
        ]
        if members:
            out.append((oneof.name, members))
    return out


# --------------------------------------------------------------------------- schemas

_INT32 = {"type": "integer", "format": "int32", "minimum": -(2**31), "maximum": 2**31 - 1}
_UINT32 = {"type": "integer", "minimum": 0, "maximum": 2**32 - 1}
_INT64 = {"type": "string", "format": "int64", "pattern": r"^-?[0-9]+$"}
_UINT64 = {"type": "string", "format": "uint64", "pattern": r"^[0-9]+$"}
_FLOAT = {
    "oneOf": [
        {"type": "number"},
        {"type": "string", "enum": ["NaN", "Infinity", "-Infinity"]},
    ]
}
_BASE64 = {
    "type": "string",
    "contentEncoding": "base64",
    # base64 or base64url, padded or not: groups of 4, then 2 or 3 characters
    "pattern": r"^(?:[A-Za-z0-9+/_-]{4})*(?:[A-Za-z0-9+/_-]{2}={0,2}|[A-Za-z0-9+/_-]{3}=?)?$",
}
_SCALARS: dict[int, Schema] = {
    F.TYPE_INT32: _INT32,
    F.TYPE_SINT32: _INT32,
    F.TYPE_SFIXED32: _INT32,
    F.TYPE_UINT32: _UINT32,
    F.TYPE_FIXED32: _UINT32,
    F.TYPE_INT64: _INT64,
    F.TYPE_SINT64: _INT64,
    F.TYPE_SFIXED64: _INT64,
    F.TYPE_UINT64: _UINT64,
    F.TYPE_FIXED64: _UINT64,
    F.TYPE_BOOL: {"type": "boolean"},
    F.TYPE_STRING: {"type": "string"},
    F.TYPE_BYTES: _BASE64,
    F.TYPE_DOUBLE: _FLOAT,
    F.TYPE_FLOAT: _FLOAT,
}


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: Schema) -> Schema:
    """``schema`` or ``null``."""
    if isinstance(schema.get("type"), str):
        out = {**schema, "type": [schema["type"], "null"]}
        if "enum" in schema:
            out["enum"] = [*schema["enum"], None]
        return out
    if list(schema) == ["anyOf"]:
        return {"anyOf": [*schema["anyOf"], {"type": "null"}]}
    return {"anyOf": [schema, {"type": "null"}]}


class Schemas:
    """The component schemas of the messages reachable from the RPCs."""

    def __init__(self, contract: Contract, limits: dict[str, Schema] | None = None) -> None:
        self.contract = contract
        self.limits = limits or {}
        self.inputs: set[str] = set()  # messages reachable from a request
        self.outputs: set[str] = set()  # messages reachable from an answer
        #: messages whose request form keeps the plain name (see :data:`REQUEST_NAMED`)
        self.request_named: set[str] = set()
        self.enums: set[str] = set()

    def reach(self, full_name: str, into: set[str]) -> None:
        if full_name in into:
            return
        into.add(full_name)
        for field in self.contract.message(full_name).field:
            entry = self.contract.map_entry(field)
            fields = list(entry.field) if entry is not None else [field]
            for f in fields:
                if f.type == F.TYPE_MESSAGE:
                    self.reach(f.type_name, into)
                elif f.type == F.TYPE_ENUM:
                    self.enums.add(f.type_name)

    def name(self, full_name: str, *, output: bool) -> str:
        """The schema name: ``Move`` as answers print it, ``MoveInput`` in requests when
        answers hold ``Move`` too."""
        base = self.contract.messages[full_name][0]
        if full_name in self.request_named:
            return base + "Output" if output else base
        if not output and full_name in self.outputs:
            return base + "Input"
        return base

    def field_schema(self, field: F, *, output: bool) -> Schema:
        entry = self.contract.map_entry(field)
        if entry is not None:
            value = entry.field[1]  # keys are JSON object keys: strings
            return {"type": "object", "additionalProperties": self._single(value, output=output)}
        schema = self._single(field, output=output)
        if field.label == F.LABEL_REPEATED:
            return {"type": "array", "items": schema}
        return schema

    def _single(self, field: F, *, output: bool) -> Schema:
        if field.type == F.TYPE_MESSAGE:
            return _ref(self.name(field.type_name, output=output))
        if field.type == F.TYPE_ENUM:
            name, enum, _ = self.contract.enums[field.type_name]
            if output:
                return _ref(name)
            # proto3 JSON: a request may give an enum value by its number
            never = NEVER_SENT.get(name, ())
            numbers = [v.number for v in enum.value if v.name not in never]
            return {"anyOf": [_ref(name), {"type": "integer", "enum": numbers}]}
        return dict(_SCALARS[field.type])

    def message_schema(self, full_name: str, *, output: bool) -> Schema:
        name, message, path = self.contract.messages[full_name]
        properties: dict[str, Schema] = {}
        required: list[str] = []
        for i, field in enumerate(message.field):
            schema = self.field_schema(field, output=output)
            limits = self.limits.get(f"{name}.{field.name}")
            if limits and "type" in schema:
                schema = {**schema, **limits}
            if not output and name == "ApplyMoveRequest" and field.name == "move":
                # a legal move goes back as it came: the answers' Move, or one written by hand
                schema = {"anyOf": [_ref(self.name(field.type_name, output=True)), schema]}
            notes = []
            if f"{name}.{field.name}" in RULESET_ID_FIELDS:
                ids = self.contract.ruleset_ids
                schema = {**schema, "examples": ids} if output else {**schema, "enum": ids}
                notes.append("A ruleset id, as `ListRulesets` lists them.")
            comment = self.contract.comment(*path, 2, i)
            if comment:
                notes.append(comment)
            if field.proto3_optional:
                notes.append("Optional: " + ("absent when unset." if output else "may be omitted."))
            needed = REQUIRED_IN_REQUESTS.get(name, {}).get(field.name)
            if not output and needed:
                notes.append(f"Required: omitted, the request is refused (`{needed}`).")
                required.append(field.name)
            if not output and field.json_name != field.name:
                notes.append(f"Also accepted as `{field.json_name}`.")
            if not output and field.type == F.TYPE_ENUM:
                notes.append("A value may also be given by its number.")
            if not output and not needed:
                # proto3 JSON: null is the field's default, as if it were omitted (a
                # repeated field's too: empty)
                schema = _nullable(schema)
                notes.append("`null` is taken as omitted.")
            if notes:
                schema = {**schema, "description": " ".join(notes)}
            properties[field.name] = schema
            if output and not _has_presence(message, field):
                required.append(field.name)
        out: Schema = {"type": "object"}
        comment = self.contract.comment(*path)
        oneofs = _real_oneofs(message)
        notes = [comment] if comment else []
        for oneof, members in oneofs:
            names = ", ".join(f"`{m}`" for m in members)
            notes.append(f"At most one of {names} (oneof `{oneof}`).")
            if len(oneofs) == 1 and len(members) == len(message.field) and not output:
                notes.append("`{}`, or every member `null`: as if the field were omitted.")
            # in requests, a member given as null counts as omitted (proto3 JSON)
            given = {} if output else {"not": {"type": "null"}}
            pairs = [
                {"required": list(p), "properties": {m: given for m in p}}
                if given
                else {"required": list(p)}
                for p in itertools.combinations(members, 2)
            ]
            if pairs:
                out.setdefault("allOf", []).append({"not": {"anyOf": pairs}})
        if notes:
            out["description"] = "\n\n".join(notes)
        out["properties"] = properties
        if required:
            out["required"] = required
        out["additionalProperties"] = False
        return out

    def enum_schema(self, full_name: str) -> Schema:
        _, enum, path = self.contract.enums[full_name]
        lines = []
        comment = self.contract.comment(*path)
        if comment:
            lines.append(comment + "\n")
        for i, value in enumerate(enum.value):
            note = self.contract.comment(*path, 2, i)
            lines.append(f"- `{value.name}`" + (f": {note}" if note else ""))
        never = NEVER_SENT.get(self.contract.enums[full_name][0], ())
        if never:
            lines.append(
                "\n" + ", ".join(f"`{v}`" for v in never) + " is neither answered nor accepted."
            )
        return {
            "type": "string",
            "description": "\n".join(lines),
            "enum": [v.name for v in enum.value if v.name not in never],
        }

    def components(self) -> dict[str, Schema]:
        out: dict[str, Schema] = {}
        for full_name in self.contract.messages:  # in proto order
            if full_name in self.outputs:
                out[self.name(full_name, output=True)] = self.message_schema(full_name, output=True)
            if full_name in self.inputs:
                out[self.name(full_name, output=False)] = self.message_schema(
                    full_name, output=False
                )
        for full_name in self.contract.enums:
            if full_name in self.enums:
                out[self.contract.enums[full_name][0]] = self.enum_schema(full_name)
        return out


# ----------------------------------------------------------------------- the errors


def error_schemas() -> dict[str, Schema]:
    """``google.rpc.Status`` with its ``ErrorInfo``, and the reasons."""
    return {
        "google.rpc.Status": {
            "type": "object",
            "description": "An error, as grpc-gateway writes a `google.rpc.Status`.",
            "properties": {
                "code": {
                    "type": "integer",
                    "description": "The `google.rpc.Code` number (3 INVALID_ARGUMENT, "
                    "9 FAILED_PRECONDITION, 10 ABORTED, ...).",
                },
                "message": {"type": "string", "description": "What went wrong, for people."},
                "details": {
                    "type": "array",
                    "description": "The `ErrorInfo` first; then, where the caller should "
                    "try again later (`OVERLOADED`), a `RetryInfo`.",
                    "prefixItems": [_ref("google.rpc.ErrorInfo")],
                    "items": {
                        "oneOf": [_ref("google.rpc.ErrorInfo"), _ref("google.rpc.RetryInfo")]
                    },
                    "minItems": 1,
                    "maxItems": 2,
                },
            },
            "required": ["code", "message", "details"],
            "additionalProperties": False,
        },
        "google.rpc.ErrorInfo": {
            "type": "object",
            "description": "Why the request failed, for programs.",
            "properties": {
                "@type": {"const": "type.googleapis.com/google.rpc.ErrorInfo"},
                "reason": _ref("ErrorReason"),
                "domain": {"const": "domino-rules"},
                "metadata": {
                    "type": "object",
                    "additionalProperties": {"type": "string"},
                    "description": "Facts about the error (`STALE_STATE`: the state's "
                    "`version`); usually empty.",
                },
            },
            "required": ["@type", "reason", "domain", "metadata"],
            "additionalProperties": False,
        },
        "google.rpc.RetryInfo": {
            "type": "object",
            "description": "When to try again.",
            "properties": {
                "@type": {"const": "type.googleapis.com/google.rpc.RetryInfo"},
                "retry_delay": {
                    "type": "string",
                    "pattern": "^[0-9]+(\\.[0-9]{1,9})?s$",
                    "description": "A `google.protobuf.Duration` in seconds, as proto3 JSON "
                    'writes it: `"1.500s"`.',
                },
            },
            "required": ["@type", "retry_delay"],
            "additionalProperties": False,
        },
        "ErrorReason": {
            "type": "string",
            "description": "\n".join(
                f"- `{r.name}` ({r.code}, HTTP {r.http}): {r.when}" for r in REASONS
            ),
            "enum": [r.name for r in REASONS],
        },
    }


def _error_response(reasons: Sequence[Reason], beyond: Sequence[str] = ()) -> Schema:
    codes = sorted({getattr(code_pb2, r.code) for r in reasons})
    lines = "\n".join(f"- `{r.name}` ({r.code}): {r.when}" for r in reasons)
    description = f"Refused, with one of these reasons:\n\n{lines}"
    if beyond := [r.name for r in reasons if r.name in beyond]:
        names = "; ".join(f"`{name}`: {BEYOND_SCHEMA[name]}" for name in beyond)
        description += f"\n\nA request that fits the schema may still be refused with {names}."
        if len(beyond) < len(reasons):
            description += " The other reasons answer only requests that do not fit it."
    response: Schema = {
        "description": description,
        "content": {
            JSON: {
                "schema": {
                    "allOf": [
                        _ref("google.rpc.Status"),
                        {
                            "properties": {
                                "code": {"enum": codes},
                                "details": {
                                    "items": {
                                        "properties": {
                                            "reason": {"enum": [r.name for r in reasons]}
                                        }
                                    }
                                },
                            }
                        },
                    ]
                }
            }
        },
    }
    if "OVERLOADED" in {r.name for r in reasons}:
        response["headers"] = {
            "Retry-After": {
                "description": "Whole seconds to wait before trying again (at least 1).",
                "required": True,
                "schema": {"type": "string", "pattern": "^[1-9][0-9]*$"},
            }
        }
    return response


def error_responses(reasons: Iterable[str], beyond: Sequence[str] = ()) -> dict[str, Schema]:
    by_status: dict[int, list[Reason]] = {}
    for name in reasons:
        reason = REASON[name]
        by_status.setdefault(reason.http, []).append(reason)
    return {str(status): _error_response(by_status[status], beyond) for status in sorted(by_status)}


def beyond_schema(rpc: str) -> list[str]:
    """The reasons with which ``rpc`` may refuse a request that fits its schema."""
    reasons = [r for r in RPC_REASONS[rpc] if r in BEYOND_SCHEMA]
    return [r for r in reasons if r != "MALFORMED_REQUEST" or rpc == "ApplyMove"]


#: The header that gives a call a deadline (REST's counterpart of a gRPC deadline).
TIMEOUT_HEADER: Schema = {
    "name": "x-request-timeout",
    "in": "header",
    "required": False,
    "description": "A deadline for the call: seconds from its arrival, a decimal number "
    "above 0 and at most 86400 (a day). When it passes before the bot has answered, the "
    "call is answered 504 `DEADLINE_EXCEEDED`; a value that is not such a number is refused "
    "with 400 `MALFORMED_REQUEST`.",
    "schema": {"type": "number", "exclusiveMinimum": 0, "maximum": 86400},
}


# -------------------------------------------------------------------------- document


def _body_examples(contract: Contract) -> dict[str, Schema]:
    """One ``NewGame`` request per ruleset: the ids are the ``Options`` oneof's fields."""
    options = contract.message(f".{contract.package}.Options")
    return {
        field.name: {
            "summary": f"A two-player match of `{field.name}` with default options",
            "value": {"ruleset": field.name, "players": 2, "seed": "example"},
        }
        for field in options.field
    }


def _health(operation_id: str, summary: str, ready: bool) -> Schema:
    serving = {
        "type": "object",
        "properties": {"status": {"type": "string", "enum": ["SERVING", "NOT_SERVING"]}},
        "required": ["status"],
        "additionalProperties": False,
    }
    responses: dict[str, Schema] = {
        "200": {"description": '`{"status": "SERVING"}`', "content": {JSON: {"schema": serving}}}
    }
    operation: Schema = {"operationId": operation_id, "tags": ["Health"], "summary": summary}
    if ready:
        responses["503"] = {
            "description": '`{"status": "NOT_SERVING"}`: the server has begun to stop, or '
            "its gRPC door does not answer `SERVING`.",
            "content": {JSON: {"schema": serving}},
        }
        responses["404"] = _error_response([REASON["SERVICE_UNKNOWN"]])
        operation["parameters"] = [
            {
                "name": "service",
                "in": "query",
                "required": False,
                "description": "The service whose readiness to tell, as gRPC health names "
                'it: `""` (the server) or `domino_rules.v1.DominoRules`. Omitted: the '
                "server.",
                "schema": {"type": "string", "enum": ["", "domino_rules.v1.DominoRules"]},
            }
        ]
    operation["responses"] = responses
    return {"get": operation}


def build(fds: descriptor_pb2.FileDescriptorSet, source: str = SOURCE) -> dict[str, Any]:
    """The OpenAPI document of ``source``'s service, from its descriptor set."""
    file = next(f for f in fds.file if f.name == source)
    contract = Contract(file)
    service = contract.service(SERVICE)
    service_index = list(file.service).index(service)
    schemas = Schemas(contract, field_limits())
    for method in service.method:
        schemas.reach(method.input_type, schemas.inputs)
        schemas.reach(method.output_type, schemas.outputs)
    for name in REQUEST_NAMED:
        schemas.reach(f".{contract.package}.{name}", schemas.request_named)

    fields = {
        f"{name}.{field.name}"
        for name, message, _ in contract.messages.values()
        for field in message.field
    }
    named = {
        *RULESET_ID_FIELDS,
        *(f"{m}.{f}" for m, fs in REQUIRED_IN_REQUESTS.items() for f in fs),
    }
    if missing := named - fields:
        raise SystemExit(f"the tables name fields the proto lacks: {missing}")
    rpcs = {m.name: m for m in service.method}
    unknown = (set(RPC_REASONS) ^ set(rpcs)) | {
        name for link in LINKS for name in (link.source, link.target) if name not in rpcs
    }
    if unknown:
        raise SystemExit(f"the tables name RPCs the service lacks (or miss some): {unknown}")

    links: dict[str, dict[str, Schema]] = {}
    for link in LINKS:
        links.setdefault(link.source, {})[link.name] = {
            "operationId": link.target,
            "requestBody": link.body,
            "description": f"{link.target} on the game that {link.source} answered"
            + (", the other fields of the request of your choosing." if link.merge else "."),
            # whether a test generator may add fields to the body
            "x-schemathesis": {"merge_body": link.merge},
        }

    paths: dict[str, dict[str, Schema]] = {}
    for index, method in enumerate(service.method):
        rule = method.options.Extensions[annotations_pb2.http]
        verb = rule.WhichOneof("pattern")
        if verb not in {"get", "post", "put", "patch", "delete"}:
            raise SystemExit(f"{method.name}: no google.api.http rule this generator knows")
        path = getattr(rule, verb)
        comment = contract.comment(6, service_index, 2, index)
        ok: Schema = {
            "description": f"`{contract.messages[method.output_type][0]}`",
            "content": {JSON: {"schema": _ref(schemas.name(method.output_type, output=True))}},
        }
        if method.name in links:
            ok["links"] = links[method.name]
        operation: Schema = {
            "operationId": method.name,
            "tags": [service.name],
            "summary": comment.split("\n")[0],
            "description": f"{comment}\n\ngRPC: `{contract.package}.{service.name}/{method.name}`.",
        }
        request_schema = _ref(schemas.name(method.input_type, output=False))
        if rule.body == "*":
            media: Schema = {"schema": request_schema}
            if method.name == "NewGame":
                media["examples"] = _body_examples(contract)
            operation["requestBody"] = {
                "required": True,
                "description": f"`{contract.messages[method.input_type][0]}` as proto3 JSON.",
                "content": {JSON: media},
            }
        elif rule.body or contract.message(method.input_type).field:
            raise SystemExit(f'{method.name}: only `body: "*"` or a request without fields')
        if method.name == "SuggestMove":
            operation["parameters"] = [TIMEOUT_HEADER]
        if method.name == "Replay":
            # the record's own JSON Schema, for tools that store and check records
            operation["x-json-schema"] = {"MatchRecord": RECORD_SCHEMA_PATH}
        beyond = beyond_schema(method.name)
        operation["responses"] = {
            "200": ok,
            **error_responses(RPC_REASONS[method.name], beyond),
        }
        operation["x-refused-beyond-the-schema"] = beyond
        paths.setdefault(path, {})[verb] = operation
    paths["/healthz"] = _health("Healthz", "Liveness: the process answers.", ready=False)
    paths["/readyz"] = _health(
        "Readyz", "Readiness: 503 once the server has begun to stop.", ready=True
    )

    server_answers = "\n".join(
        f"- {status} (`{reason}`): {when}" for status, reason, when in SERVER_ANSWERS
    )
    components: dict[str, Any] = {
        "schemas": {**in_records(schemas.components()), **error_schemas()},
        "responses": {
            f"Server{status}": {
                "description": f"`{reason}`: {when}",
                "content": {JSON: {"schema": _ref("google.rpc.Status")}},
            }
            for status, reason, when in SERVER_ANSWERS
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": f"{contract.package}.{service.name}",
            "version": contract.package.rpartition(".")[2],
            "summary": "Domino rules: traditional domino games as a stateless service.",
            "description": DESCRIPTION.replace("{server_answers}", server_answers),
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "servers": [{"url": "/"}],
        "tags": [
            {"name": service.name, "description": contract.comment(12) or service.name},
            {"name": "Health", "description": "Probes for load balancers and orchestrators."},
        ],
        "paths": paths,
        "components": components,
    }


#: Messages only a record holds: loosened where they are, not copied.
_RECORD_ONLY = frozenset({"RecordedMove"})
#: Messages that only requests held until answers came to hold them too (``Options``, in
#: ``ListRulesets``' profiles), with every message they hold: a minor version renames no
#: schema, so the form requests send keeps the plain name (``Options``,
#: ``BlockOptions``) and the form answers print is ``<name>Output``.
REQUEST_NAMED = ("Options",)
#: Keywords that bound a value's content: a record's content is the replay's to judge.
_CONTENT_LIMITS = ("minimum", "maximum", "enum", "required")


def in_records(components: dict[str, Schema]) -> dict[str, Schema]:
    """``components``, where the messages a match record holds (its moves, events, tiles,
    options) have copies of their own, named ``...InRecord``, that bound no value's
    content: a move of a seat past the table, a pip past 18, an option out of range or
    an enum number without a name is a record's content, judged by the replay (a
    ``DIVERGED`` verdict that says where and why), not a request refused. The record's
    own fields keep their bounds (its format, its size, its first state)."""
    prefix = "#/components/schemas/"
    copies: dict[str, str] = {}

    def loosen(schema: Any, *, top: bool = False) -> Any:
        if isinstance(schema, list):
            return [loosen(item) for item in schema]
        if not isinstance(schema, dict):
            return schema
        kind = schema.get("type")
        integer = kind == "integer" or (isinstance(kind, list) and "integer" in kind)
        out: Schema = {}
        for key, value in schema.items():
            if key == "$ref" and value.startswith(prefix):
                out[key] = prefix + copy(value[len(prefix) :])
            elif key in _CONTENT_LIMITS and not top and integer:
                # any int32: an enum's number without a name, a seat past any table
                out.setdefault("minimum", _INT32["minimum"])
                out.setdefault("maximum", _INT32["maximum"])
            elif key == "required" and not top and kind == "object":
                continue  # a field the service refuses to do without (a oneof's pairs stay)
            elif key == "properties" and not top and kind == "object":
                # a field no longer required may be null, taken as omitted, as any other
                wanted = set(schema.get("required", ()))
                out[key] = {
                    name: _null_allowed(loosen(field)) if name in wanted else loosen(field)
                    for name, field in value.items()
                }
            elif key == "description" and isinstance(value, str):
                out[key] = re.sub(
                    r"Required: omitted, the request is refused \(`\w+`\)\. ?", "", value
                )
            else:
                out[key] = loosen(value)
        return out

    def copy(name: str) -> str:
        schema = components[name]
        if schema.get("type") != "object":
            return name  # an enum's names: kept (its numbers are loosened where used)
        if name in _RECORD_ONLY:
            if name not in copies:
                copies[name] = name
                components[name] = loosen(schema)
            return name
        if name not in copies:
            copies[name] = name.removesuffix("Input") + "InRecord"
            components[copies[name]] = loosen(schema)
        return copies[name]

    record = components[RECORD]
    properties = record["properties"]
    for field in ("options", "deal", "moves"):
        properties[field] = loosen(properties[field])
    return components


def _null_allowed(schema: Schema) -> Schema:
    """``schema``, with ``null`` allowed too (taken as omitted)."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return {**schema, "type": [kind, "null"]}
    if isinstance(kind, list):
        return schema if "null" in kind else {**schema, "type": [*kind, "null"]}
    if "anyOf" in schema:
        options = schema["anyOf"]
        if any(option.get("type") == "null" for option in options):
            return schema
        return {**schema, "anyOf": [*options, {"type": "null"}]}
    rest = {k: v for k, v in schema.items() if k not in ("description",)}
    out: Schema = {"anyOf": [rest, {"type": "null"}]}
    if "description" in schema:
        out["description"] = schema["description"]
    return out


def record_schema(document: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema (2020-12) of a match record's JSON form: the document's
    ``MatchRecord`` with every schema it refers to under ``$defs``."""
    components = document["components"]["schemas"]
    prefix = "#/components/schemas/"
    wanted, queue = [], [RECORD]
    while queue:
        name = queue.pop()
        if name in wanted:
            continue
        wanted.append(name)
        queue += [ref[len(prefix) :] for ref in _refs(components[name]) if ref.startswith(prefix)]

    def local(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                k: (v.replace(prefix, "#/$defs/") if k == "$ref" else local(v))
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [local(v) for v in value]
        return value

    root = local(components[RECORD])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": RECORD_SCHEMA_PATH,
        "title": "A domino-rules match record, format 1",
        **root,
        "$defs": {name: local(components[name]) for name in sorted(wanted) if name != RECORD},
    }


def _refs(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "$ref" and isinstance(v, str):
                yield v
            else:
                yield from _refs(v)
    elif isinstance(value, list):
        for v in value:
            yield from _refs(v)


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def generate(out: pathlib.Path = OUTPUT) -> pathlib.Path:
    """Write the document to ``out``, and the record's JSON Schema beside it
    (``match-record.schema.json``); returns ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    document = build(descriptor_set())
    out.write_text(render(document), encoding="utf-8")
    schema = out.with_name(RECORD_SCHEMA_FILE)
    schema.write_text(render(record_schema(document)), encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=OUTPUT)
    args = parser.parse_args(argv)
    path = generate(args.out)
    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
