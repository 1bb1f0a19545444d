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
:data:`MAX_EVENTS`) and refuses one that cannot be replayed at all. Reading is bounded
before anything is built, as a token's opening is: :func:`check_json` walks a parsed
JSON object once, refusing it at the first list, nesting, text or count past the
record's limits, before any message is made of it; the text form counts its moves and
events as it reads them, and refuses an event's list past
:data:`~domino_rules.records.notation.MAX_ITEMS` before splitting it; :func:`parse`
refuses more than :data:`MAX_RECORD_BYTES`, bytes that are not UTF-8, and says what a
file is when it is not a record (empty, binary, a JSON value of another shape, a text
of another format or version, cut short).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

from google.protobuf import json_format

from ..v1 import domino_rules_pb2 as pb
from .notation import MAX_ITEMS, NotationError, event_text, move_text, parse_event, parse_move

__all__ = [
    "FORMAT",
    "MAX_EVENTS",
    "MAX_MOVES",
    "MAX_RECORD_BYTES",
    "RecordError",
    "RecordTooLarge",
    "check",
    "check_json",
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
#: The largest written record read (either form, with its events, indented): a record
#: of :data:`MAX_MOVES` moves with their events takes some 8 MiB of indented JSON.
MAX_RECORD_BYTES = 32 * 1024 * 1024
#: The deepest a record's JSON nests: record, moves, a move, its events, an event, its
#: tiles, a tile, a number.
MAX_DEPTH = 8
#: The longest text a record's JSON holds: a first state, a 64 KiB token in base64.
MAX_TEXT = 90_000

_PLAIN_WORD = re.compile(r"[A-Za-z0-9_.:-]+")
_HEADER = f"domino-rules match record {FORMAT}"
_OTHER_VERSION = re.compile(r"domino-rules match record (\S+)")
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
    """Refuse a record that is too large (moves, events, or any list of a move or an
    event past :data:`~domino_rules.records.notation.MAX_ITEMS`), of a format this
    service does not read, or that holds neither the seed nor the first state (nothing to
    deal it from)."""
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
    for number, recorded in enumerate(record.moves, 1):
        if len(recorded.match_points) > MAX_ITEMS:
            raise RecordError(
                f"move {number} holds {len(recorded.match_points)} match points: at most "
                f"{MAX_ITEMS}"
            )
        _check_events(recorded.events, f"move {number}")
    _check_events(record.deal, "the deal")
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


def _check_events(events: Any, where: str) -> None:
    for event in events:
        for name in _EVENT_LISTS:
            if len(getattr(event, name)) > MAX_ITEMS:
                raise RecordError(f"an event of {where} holds over {MAX_ITEMS} {name}")


_EVENT_LISTS = tuple(f.name for f in pb.Event.DESCRIPTOR.fields if f.is_repeated)


def check_json(value: Any) -> None:
    """Refuse a record's parsed JSON before a message is built from it: not an object,
    nested past :data:`MAX_DEPTH`, a list past its limit (:data:`MAX_MOVES` moves,
    :data:`MAX_EVENTS` events in all, :data:`~domino_rules.records.notation.MAX_ITEMS`
    for any other), or a text past :data:`MAX_TEXT`. One walk, stopped at the first
    excess, so a record crafted to be slow to build is refused in time linear in what
    was read."""
    if not isinstance(value, dict):
        raise RecordError(f"a record is a JSON object, not {_json_kind(value)}")
    events = 0
    stack: list[tuple[Any, str, int]] = [(value, "", 1)]
    while stack:
        item, key, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError(f"the record nests deeper than a record does (at {key!r})")
        if isinstance(item, dict):
            stack.extend((v, k, depth + 1) for k, v in item.items())
        elif isinstance(item, list):
            if key == "moves":
                if len(item) > MAX_MOVES:
                    raise RecordTooLarge(
                        f"the record holds {len(item)} moves: at most {MAX_MOVES} are replayed"
                    )
            elif key in ("events", "deal"):
                events += len(item)
                if events > MAX_EVENTS:
                    raise RecordTooLarge(
                        f"the record holds over {MAX_EVENTS} events: at most {MAX_EVENTS} "
                        "are replayed"
                    )
            elif len(item) > MAX_ITEMS:
                raise RecordError(f"{key} holds {len(item)} values: at most {MAX_ITEMS}")
            stack.extend((v, key, depth + 1) for v in item)
        elif isinstance(item, str) and len(item) > MAX_TEXT:
            raise RecordError(f"{key} is {len(item)} characters long: at most {MAX_TEXT}")


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return "a number"


# ------------------------------------------------------------------ JSON


def to_json(record: pb.MatchRecord) -> dict[str, Any]:
    """The JSON form: proto field names, default values left out."""
    result: dict[str, Any] = json_format.MessageToDict(record, preserving_proto_field_name=True)
    return result


def from_json(value: Any) -> pb.MatchRecord:
    """A record from its JSON form (a parsed object); :class:`RecordError` when it does not
    fit the message."""
    check_json(value)
    try:
        return json_format.ParseDict(value, pb.MatchRecord())
    except (json_format.ParseError, ValueError, TypeError, RecursionError) as exc:
        first = str(exc).split("\n", 1)[0]  # the parser goes on to list every field
        raise RecordError(f"not a match record: {first}") from None


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
    """A record from its text form; :class:`RecordError` names the line it cannot read.
    Moves and events are counted as they are read: a record past :data:`MAX_MOVES` or
    :data:`MAX_EVENTS` is refused at the line that passes the limit."""
    record = pb.MatchRecord(format=FORMAT)
    lines = text.split("\n")
    first = lines[0].strip(" \t\r\ufeff") if lines else ""
    if first != _HEADER:
        version = _OTHER_VERSION.fullmatch(first)
        if version is not None:
            raise RecordError(
                f"line 1: record format {version.group(1)} is not read here: this service "
                f"reads {FORMAT}"
            )
        raise RecordError(f"line 1: a record's text form begins with {_HEADER!r}")
    events = 0
    cut = not text.endswith("\n")
    for number, line in enumerate(lines[1:], 2):
        line = line.strip(" \t\r")
        if not line or line.startswith("#"):
            continue
        try:
            _read_line(record, line)
        except (NotationError, RecordError, ValueError) as exc:
            last = number == len(lines)
            hint = " (the file ends there, without a newline: is it cut short?)"
            raise RecordError(f"line {number}: {exc}{hint if last and cut else ''}") from None
        if len(record.moves) > MAX_MOVES:
            raise RecordTooLarge(f"line {number}: the record holds over {MAX_MOVES} moves")
        if record.moves and line[0].isdigit():
            events += len(record.moves[-1].events)
        elif line.startswith("deal"):
            events += len(record.deal)
        if events > MAX_EVENTS:
            raise RecordTooLarge(f"line {number}: the record holds over {MAX_EVENTS} events")
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
        record.deal.extend(parse_event(e) for e in _events(value))
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
    recorded.events.extend(parse_event(e) for e in _events(events))
    if points.count(" ") > 2 * MAX_ITEMS:
        raise RecordError(f"a move holds more than {MAX_ITEMS} match points")
    recorded.match_points.extend(int(p) for p in points.split())


def _events(text: str) -> list[str]:
    """The events of a line, at most :data:`MAX_EVENTS` of them."""
    if text.count(";") >= MAX_EVENTS:
        raise RecordTooLarge(f"a line holds over {MAX_EVENTS} events")
    return [e for e in text.split(";") if e.strip()]


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
    """A record from either form, told apart by its first character (``{``: JSON; a
    JSON value of another shape is named as such). :class:`RecordError` says what the
    data is when it is not a record: empty, too large, binary (not UTF-8 text), JSON of
    another shape, cut short, of another format, or the line it cannot read."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordTooLarge(
            f"{len(data)} bytes: a record is at most {MAX_RECORD_BYTES // 1024**2} MiB"
        )
    if isinstance(data, bytes):
        if b"\0" in data:
            raise RecordError("binary data, not a record (a record is JSON or text)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("binary data, not a record (it is not UTF-8 text)") from None
    else:
        text = data
    stripped = text.lstrip(" \t\r\n\ufeff")
    if not stripped:
        raise RecordError("empty: no record in it")
    if stripped[0] in '{["' or _JSON_WORD.match(stripped):
        try:
            value = json.loads(stripped)
        except RecursionError:
            raise RecordError("JSON nested deeper than a record is") from None
        except json.JSONDecodeError as exc:
            if stripped[0] not in "{[":
                return from_text(text)
            if exc.pos >= len(stripped.rstrip()) or exc.msg.startswith("Unterminated"):
                raise RecordError(
                    "the JSON ends before the record does: the file is cut short"
                ) from None
            raise RecordError(f"not JSON: {exc}") from None
        return from_json(value)
    return from_text(text)


_JSON_WORD = re.compile(r"(?:-?\d|true\b|false\b|null\b)")
