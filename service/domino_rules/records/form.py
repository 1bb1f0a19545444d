"""A match record's two written forms, and the limits every record keeps.

The **JSON form** is the contract: the proto3 JSON of ``MatchRecord`` with the proto's
field names, fields at their default left out (``docs/records.md``; the JSON Schema is
served at ``/schemas/match-record.json``). The **text form** says the same, one line per
move, for diffs and bug reports::

    domino-rules match record 1
    ruleset throw_up
    players 3
    options {"throw_up": {"hands_per_player": 1}}
    game_id 5c0e...
    seed_commitment 9f86...
    seed "table 7, 2026-11-26"
    viewpoint MOVER
    deal DEAL count=7
    1. s0 play 6-4 left | PLAY seat=0 tile=6-4 end=LEFT; TURN_PASSED seat=0 | 0 0 0
    2. s1 draw | DRAW seat=1 hidden | 0 0 0

A move's line is its number, the move (:mod:`.notation`), then, when recorded, its events
(separated by ``;``) and every seat's match points, each part after a ``|``; a take-back
is ``undo N`` in place of the move. A header
line is a field name and its value (``seed`` as a JSON string, ``first_state`` in base64,
``options`` as one line of JSON); a field at its default has no line. Both forms read
back to the same message: JSON -> text -> JSON changes nothing.

:func:`check` bounds a record before any of it is replayed (:data:`MAX_MOVES`,
:data:`MAX_EVENTS`) and refuses one that cannot be replayed at all.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

from google.protobuf import json_format

from ..v1 import domino_rules_pb2 as pb
from .notation import NotationError, event_text, move_text, parse_event, parse_move

__all__ = [
    "FORMAT",
    "MAX_EVENTS",
    "MAX_MOVES",
    "RecordError",
    "RecordTooLarge",
    "check",
    "from_json",
    "from_text",
    "parse",
    "to_json",
    "to_text",
]

#: The record format this service writes and reads.
FORMAT = 1
#: The most moves a record may hold. The longest match the default options allow holds
#: a few hundred; a longer one (many hands asked for) is replayed in parts by its tokens.
MAX_MOVES = 20_000
#: The most events a record may hold, over its deal and all its moves.
MAX_EVENTS = 200_000

_PLAIN_WORD = re.compile(r"[A-Za-z0-9_.:-]+")
_HEADER = f"domino-rules match record {FORMAT}"
_VIEWPOINTS = pb.MatchRecord.Viewpoint
_VIEWPOINT_NAMES = tuple(
    v.name for v in pb.MatchRecord.DESCRIPTOR.enum_types_by_name["Viewpoint"].values if v.number
)


class RecordError(ValueError):
    """A record that cannot be read or replayed as it is (not a divergence: that is a
    record that replays, up to a step)."""


class RecordTooLarge(RecordError):
    """A record over :data:`MAX_MOVES` moves or :data:`MAX_EVENTS` events."""


def check(record: pb.MatchRecord) -> None:
    """Refuse a record that is too large, of a format this service does not read, or
    that holds neither the seed nor the first state (nothing to deal it from)."""
    if record.format not in (0, FORMAT):
        raise RecordError(
            f"record format {record.format} is not read here: this service reads {FORMAT}"
        )
    if len(record.moves) > MAX_MOVES:
        raise RecordTooLarge(
            f"the record holds {len(record.moves)} moves: at most {MAX_MOVES} are replayed"
        )
    events = len(record.deal) + sum(len(m.events) for m in record.moves)
    if events > MAX_EVENTS:
        raise RecordTooLarge(f"the record holds {events} events: at most {MAX_EVENTS} are replayed")
    viewpoint = record.viewpoint
    if viewpoint not in _VIEWPOINTS.values():
        raise RecordError(f"viewpoint {viewpoint} is not one of {', '.join(_VIEWPOINT_NAMES)}")
    if viewpoint == pb.MatchRecord.SEAT and not record.HasField("seat"):
        raise RecordError("a SEAT record names its seat")
    if viewpoint != pb.MatchRecord.SEAT and record.HasField("seat"):
        raise RecordError("seat is only for a record of viewpoint SEAT")
    if not record.HasField("seed") and not record.HasField("first_state"):
        raise RecordError(
            "the record holds neither the seed nor the first state: add the seed once the "
            "match is over (GetScore reveals it), or the first state token (NewGame's)"
        )


# ------------------------------------------------------------------ JSON


def to_json(record: pb.MatchRecord) -> dict[str, Any]:
    """The JSON form: proto field names, default values left out."""
    result: dict[str, Any] = json_format.MessageToDict(record, preserving_proto_field_name=True)
    return result


def from_json(value: Any) -> pb.MatchRecord:
    """A record from its JSON form (a parsed object); :class:`RecordError` when it does not
    fit the message."""
    if not isinstance(value, dict):
        raise RecordError("a record is a JSON object")
    try:
        return json_format.ParseDict(value, pb.MatchRecord())
    except json_format.ParseError as exc:
        raise RecordError(f"not a match record: {exc}") from None


# ------------------------------------------------------------------ text


def to_text(record: pb.MatchRecord) -> str:
    """The text form (the module docstring); it ends with a newline."""
    lines = [_HEADER]
    if record.ruleset:
        lines.append(f"ruleset {_word(record.ruleset)}")
    if record.players:
        lines.append(f"players {record.players}")
    if record.HasField("options"):
        options = json_format.MessageToDict(record.options, preserving_proto_field_name=True)
        lines.append("options " + json.dumps(options, separators=(", ", ": ")))
    if record.game_id:
        lines.append(f"game_id {_word(record.game_id)}")
    if record.seed_commitment:
        lines.append(f"seed_commitment {_word(record.seed_commitment)}")
    if record.HasField("seed"):
        lines.append("seed " + json.dumps(record.seed))
    if record.HasField("first_state"):
        lines.append("first_state " + base64.b64encode(record.first_state).decode())
    if record.viewpoint:
        lines.append(f"viewpoint {_VIEWPOINTS.Name(record.viewpoint)}")
    if record.HasField("seat"):
        lines.append(f"seat {record.seat}")
    if record.deal:
        lines.append("deal " + "; ".join(event_text(e) for e in record.deal))
    for number, recorded in enumerate(record.moves, 1):
        if recorded.undo:
            written = f"undo {recorded.undo}"
            if recorded.HasField("move"):  # not a take-back's: kept, for the replay to refuse
                written += f" {move_text(recorded.move, seat=True)}"
        else:
            written = move_text(recorded.move, seat=True)
        parts = [f"{number}. {written}"]
        if recorded.events or recorded.match_points:
            parts.append("; ".join(event_text(e) for e in recorded.events))
        if recorded.match_points:
            parts.append(" ".join(str(p) for p in recorded.match_points))
        lines.append(" | ".join(parts).rstrip())
    return "\n".join(lines) + "\n"


def from_text(text: str) -> pb.MatchRecord:
    """A record from its text form; :class:`RecordError` names the line it cannot read."""
    record = pb.MatchRecord(format=FORMAT)
    lines = text.split("\n")
    if not lines or lines[0].strip() != _HEADER:
        raise RecordError(f"line 1: a record's text form begins with {_HEADER!r}")
    for number, line in enumerate(lines[1:], 2):
        line = line.strip(" \t\r")
        if not line or line.startswith("#"):
            continue
        try:
            _read_line(record, line)
        except (NotationError, RecordError, ValueError) as exc:
            raise RecordError(f"line {number}: {exc}") from None
    return record


def _read_line(record: pb.MatchRecord, line: str) -> None:
    word, _, value = line.partition(" ")
    if word.endswith(".") and word[:-1].isdigit():
        _read_move(record, value)
    elif word in ("ruleset", "game_id", "seed_commitment"):
        setattr(record, word, _read_word(value))
    elif word == "players" or word == "seat":
        setattr(record, word, int(value))
    elif word == "options":
        try:
            json_format.ParseDict(json.loads(value), record.options)
        except (json.JSONDecodeError, json_format.ParseError) as exc:
            raise RecordError(f"options are not the JSON of Options: {exc}") from None
    elif word == "seed":
        record.seed = _read_string(value, "the seed")
    elif word == "first_state":
        try:
            record.first_state = base64.b64decode(value, validate=True)
        except binascii.Error:
            raise RecordError("first_state is written in base64") from None
    elif word == "viewpoint":
        if value not in _VIEWPOINT_NAMES:
            raise RecordError(f"viewpoint is one of {', '.join(_VIEWPOINT_NAMES)}")
        record.viewpoint = _VIEWPOINTS.Value(value)  # type: ignore[assignment]
    elif word == "deal":
        record.deal.extend(parse_event(e) for e in value.split(";") if e.strip())
    else:
        raise RecordError(f"{word!r} is not a field of a record, nor a move's number")


def _read_move(record: pb.MatchRecord, text: str) -> None:
    move, _, rest = text.partition("|")
    events, _, points = rest.partition("|")
    recorded = record.moves.add()
    words = move.split()
    if words and words[0] == "undo":
        if len(words) < 2 or not words[1].isdigit():
            raise RecordError("a take-back is written undo N, N the moves it takes back")
        recorded.undo = int(words[1])
        if len(words) > 2:
            recorded.move.CopyFrom(parse_move(" ".join(words[2:])))
    else:
        recorded.move.CopyFrom(parse_move(move))
    recorded.events.extend(parse_event(e) for e in events.split(";") if e.strip())
    recorded.match_points.extend(int(p) for p in points.split())


def _word(value: str) -> str:
    """A header value as written: bare when it is one plain word, else a JSON string."""
    return value if _PLAIN_WORD.fullmatch(value) else json.dumps(value)


def _read_word(value: str) -> str:
    return _read_string(value, "a quoted value") if value.startswith('"') else value


def _read_string(value: str, what: str) -> str:
    try:
        text = json.loads(value)
    except json.JSONDecodeError:
        text = None
    if not isinstance(text, str):
        raise RecordError(f"{what} is written as a JSON string")
    return text


# ------------------------------------------------------------------ either


def parse(data: str | bytes) -> pb.MatchRecord:
    """A record from either form, told apart by its first character (``{``: JSON)."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if text.lstrip().startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from None
        return from_json(value)
    return from_text(text)
