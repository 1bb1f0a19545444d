"""A short notation for tiles, moves and events, for people (the JSON form is the contract).

Tiles are ``high-low``: ``6-4``, ``0-0``, ``12-9``. A move is its kind in lower case,
then what the kind uses, in this order::

    play 6-4                 play 6-4 left          play 6-4 open 4
    play 12-9 train 3
    draw    pass    next-hand
    discard 3-1              pile 6-6
    capture 5-5 takes 6-4    capture-drawn 2-1 takes 3-0

with, in a record, its seat first: ``s2 play 6-4 left``. An event is its kind as the
contract spells it, then its fields as ``name=value`` in the order of the ``Event``
message (lists comma-separated, ``hidden`` alone)::

    PLAY seat=0 tile=6-4 end=LEFT
    DICE seat=1 dice=3,5
    HAND_OVER seats=2 scores=0,0,15,0

Every text parses back to the message it was written from (:func:`parse_move`,
:func:`parse_event`); a text that does not parse raises :class:`NotationError` naming
the word it could not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..v1 import domino_rules_pb2 as pb

__all__ = [
    "MAX_ITEMS",
    "NotationError",
    "event_text",
    "move_text",
    "parse_event",
    "parse_move",
    "parse_tile",
    "tile_text",
]

_TILE = re.compile(r"(\d{1,2})-(\d{1,2})\Z")
_SEAT = re.compile(r"s(\d{1,2})\Z")
_END = {"left": pb.LEFT, "right": pb.RIGHT, "up": pb.UP, "down": pb.DOWN}
_END_TEXT = {number: word for word, number in _END.items()}


#: The most values one list of an event may hold (its tiles, dice, seats or scores): far
#: more than any game makes, few enough that a crafted list is refused before it is read.
MAX_ITEMS = 256


class NotationError(ValueError):
    """A text that is not a tile, a move or an event of the notation."""


def tile_text(tile: pb.Tile) -> str:
    """``6-4`` (high first, as the message holds it)."""
    return f"{tile.high}-{tile.low}"


def parse_tile(text: str, message: pb.Tile | None = None) -> pb.Tile:
    """The tile ``high-low`` (into ``message`` when given); the halves as written."""
    found = _TILE.match(text)
    if found is None:
        raise NotationError(f"{_shown(text)} is not a tile: write it high-low, as 6-4")
    tile = message if message is not None else pb.Tile()
    tile.high, tile.low = int(found[1]), int(found[2])
    return tile


def _kind_word(name: str) -> str:
    return name.lower().replace("_", "-")


_MOVE_KINDS = {
    _kind_word(value.name): value.number
    for value in pb.MoveKind.DESCRIPTOR.values
    if value.number != pb.MOVE_KIND_UNSPECIFIED
}


def move_text(move: pb.Move, *, seat: bool = False) -> str:
    """The move in words: ``play 6-4 left``; ``s2 play 6-4 left`` with its ``seat``."""
    if move.kind in pb.MoveKind.values():
        words = [_kind_word(pb.MoveKind.Name(move.kind))]
    else:
        words = [f"kind-{move.kind}"]
    if move.HasField("tile"):
        words.append(tile_text(move.tile))
    if move.HasField("target"):
        words += ["takes", tile_text(move.target)]
    if move.end:
        words.append(_END_TEXT.get(move.end, f"end-{move.end}"))
    if move.HasField("open_pip"):
        words += ["open", str(move.open_pip)]
    if move.HasField("train"):
        words += ["train", str(move.train)]
    return " ".join([f"s{move.seat}", *words] if seat else words)


def parse_move(text: str, *, seat: int | None = None) -> pb.Move:
    """The move ``text`` writes. Its seat is the leading ``sN`` when there is one, else
    ``seat`` (a text with neither is refused)."""
    words = text.split()
    move = pb.Move()
    if words and (found := _SEAT.match(words[0])) is not None:
        move.seat = int(found[1])
        words = words[1:]
    elif seat is None:
        raise NotationError(f"{_shown(text)} names no seat: begin it with one, as s0")
    else:
        move.seat = seat
    if not words or words[0] not in _MOVE_KINDS:
        raise NotationError(
            f"{_shown(text)} is not a move: it begins with one of " + ", ".join(_MOVE_KINDS)
        )
    move.kind = _MOVE_KINDS[words[0]]  # type: ignore[assignment]
    rest = iter(words[1:])
    word = next(rest, None)
    if word is not None and _TILE.match(word):
        parse_tile(word, move.tile)
        word = next(rest, None)
    if word == "takes":
        parse_tile(_needed(rest, text, "a tile after takes"), move.target)
        word = next(rest, None)
    if word in _END:
        move.end = _END[word]
        word = next(rest, None)
    if word == "open":
        move.open_pip = _number(_needed(rest, text, "a pip after open"), text)
        word = next(rest, None)
    if word == "train":
        move.train = _number(_needed(rest, text, "a number after train"), text)
        word = next(rest, None)
    if word is not None:
        raise NotationError(f"{_shown(text)}: {_shown(word)} is not read there")
    return move


# ------------------------------------------------------------------ events

_EVENT = pb.Event.DESCRIPTOR
_EVENT_KINDS = {value.name: value.number for value in _EVENT.enum_types_by_name["Kind"].values}
_EVENT_KIND_NAMES = {number: name for name, number in _EVENT_KINDS.items()}
#: The fields written after the kind, in the message's order.
_EVENT_FIELDS = tuple(f for f in _EVENT.fields if f.name != "kind")


def event_text(event: pb.Event) -> str:
    """``PLAY seat=0 tile=6-4 end=LEFT``: the kind, then every field that is set."""
    words = [_EVENT_KIND_NAMES.get(event.kind, str(event.kind))]
    for field in _EVENT_FIELDS:
        name = field.name
        if field.is_repeated:
            values = getattr(event, name)
            if values:
                items = values if field.message_type is None else [tile_text(t) for t in values]
                words.append(f"{name}=" + ",".join(str(v) for v in items))
        elif field.has_presence and not event.HasField(name):
            continue
        elif field.message_type is not None:
            words.append(f"{name}={tile_text(getattr(event, name))}")
        elif field.enum_type is not None:
            number = getattr(event, name)
            if number:
                value = field.enum_type.values_by_number.get(number)
                words.append(f"{name}={value.name if value is not None else number}")
        elif field.type == field.TYPE_BOOL:
            if getattr(event, name):
                words.append(name)
        else:
            words.append(f"{name}={getattr(event, name)}")
    return " ".join(words)


def parse_event(text: str) -> pb.Event:
    """The event ``text`` writes (:func:`event_text`)."""
    words = text.split()
    if not words or words[0] not in _EVENT_KINDS:
        raise NotationError(f"{_shown(text)} is not an event: it begins with a kind, as PLAY")
    event = pb.Event(kind=_EVENT_KINDS[words[0]])  # type: ignore[arg-type]
    seen: set[str] = set()
    for word in words[1:]:
        name, equals, value = word.partition("=")
        field = _EVENT.fields_by_name.get(name)
        if field is None or field.name == "kind" or name in seen:
            raise NotationError(f"{_shown(text)}: {_shown(word)} is not a field of an event")
        seen.add(name)
        if field.type == field.TYPE_BOOL:
            if equals:
                raise NotationError(f"{_shown(text)}: write {name} alone, with no value")
            setattr(event, name, True)
        elif not equals or not value:
            raise NotationError(f"{_shown(text)}: {name} needs a value, as {name}=1")
        elif field.is_repeated:
            if value.count(",") >= MAX_ITEMS:
                raise NotationError(f"{name} holds more than {MAX_ITEMS} values")
            items = value.split(",")
            if field.message_type is not None:
                for item in items:
                    parse_tile(item, getattr(event, name).add())
            else:
                getattr(event, name).extend(_number(item, text) for item in items)
        elif field.message_type is not None:
            parse_tile(value, getattr(event, name))
        elif field.enum_type is not None:
            member = field.enum_type.values_by_name.get(value)
            if member is None or member.number == 0:
                raise NotationError(f"{_shown(text)}: {_shown(value)} is not a value of {name}")
            setattr(event, name, member.number)
        else:
            setattr(event, name, _number(value, text))
    return event


# ------------------------------------------------------------------ words


def _number(word: str, text: str) -> int:
    if not re.fullmatch(r"-?\d{1,10}", word) or not -(2**31) <= int(word) < 2**31:
        raise NotationError(f"{_shown(text)}: {_shown(word)} is not a number")
    return int(word)


def _needed(words: Iterable[str], text: str, what: str) -> str:
    word = next(iter(words), None)
    if word is None:
        raise NotationError(f"{_shown(text)} ends where {what} was expected")
    return word


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut short."""
    return repr(text if len(text) <= 60 else text[:57] + "...")
