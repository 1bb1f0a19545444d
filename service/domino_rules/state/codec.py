"""The one module that knows both the rules core and the protobuf messages.

Two kinds of conversion live here:

* **Public messages** (``domino_rules.v1``): options, moves, events, views and scores.
  Core dataclasses map to messages *by field name*, so a ruleset's table dataclass and
  its ``*Table`` message only have to agree on names; ``None`` leaves a field unset.
* **The private state**: the envelope of a token's payload (:class:`Game`), packed by
  :mod:`domino_rules.state.packing` and checked by the rules' ``check_match`` on the way in.

Every game of the catalogue is checked against the contract when this module is imported
(:func:`check_contract`; the catalogue has installed them all by then, and the service
imports this module before it serves): a game whose options or view table have no
message, or whose dataclass has a field its message lacks, stops the import with a
:class:`ContractError` that names what to add to the proto.

Decoding a state never trusts its input: any mismatch raises :class:`StateDecodeError`.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import typing
import unicodedata
from collections.abc import Iterable
from typing import Any

from google.protobuf.message import Message

from .. import bots, games
from ..games.package import Drawing, GamePackage, PackageError
from ..rules import End, Event, Match, Move, MoveKind, Ruleset, Score, Status, Tile, View
from ..rules.errors import OptionsError
from ..rules.limits import MAX_SEED_CHARS
from ..v1 import domino_rules_pb2 as pb
from . import migrations, packing

__all__ = [
    "BOT_LEVELS",
    "MAX_PLAYOUTS",
    "NOT_IN_MESSAGES",
    "ContractError",
    "Game",
    "StateDecodeError",
    "bot_level_from_pb",
    "check_contract",
    "check_seed",
    "decode_game",
    "drawing_to_pb",
    "encode_game",
    "event_to_pb",
    "fill",
    "fill_events",
    "fill_tiles",
    "game_id_of",
    "move_from_pb",
    "move_to_pb",
    "options_from_pb",
    "options_to_pb",
    "ruleset_to_pb",
    "score_to_pb",
    "status_to_pb",
    "suggestion_to_pb",
    "tile_from_pb",
    "tile_to_pb",
    "view_to_pb",
]


class StateDecodeError(ValueError):
    """The serialized state does not describe a state of its ruleset."""


# =========================================================================== public


#: Core fields that deliberately have no message field (with the reason).
NOT_IN_MESSAGES: frozenset[tuple[str, str]] = frozenset(
    {
        # who may see an event's tiles: events are redacted with Event.for_seat first
        ("Event", "private_to"),
        # the ruleset's part of a view goes to the ruleset's own table message
        ("View", "table"),
        # hands of tiles: SeatHand messages, filled by view_to_pb
        ("View", "shown_hands"),
    }
)


class ContractError(PackageError):
    """A core dataclass has a field its message lacks, or a game has no message for its
    options or its view table: the proto and the core disagree."""


@functools.cache
def _field_map(message_type: Any, cls: type) -> tuple[tuple[str, Any], ...]:
    """``(field name, message field descriptor)`` for every field of ``cls`` that is
    copied into ``message_type``; a field with no message field is an error."""
    by_name = message_type.fields_by_name
    out = []
    for f in dataclasses.fields(cls):
        if (cls.__name__, f.name) in NOT_IN_MESSAGES:
            continue
        if f.name not in by_name:
            raise ContractError(
                f"{cls.__name__}.{f.name} has no field in {message_type.full_name}; "
                "add it to the proto or to codec.NOT_IN_MESSAGES"
            )
        out.append((f.name, by_name[f.name]))
    return tuple(out)


def fill(message: Message, value: Any) -> Message:
    """Copy a dataclass into ``message`` field by field (by name); ``None`` stays unset.

    Every field of the dataclass must have a message field of the same name (or be listed
    in :data:`NOT_IN_MESSAGES`), else :class:`ContractError`. The copy is a function
    compiled once per (message type, dataclass) pair (:func:`_filler`): messages are made
    on every request, and a loop over field descriptors costs several times more.
    """
    _filler(message.DESCRIPTOR, value.__class__)(message, value)
    return message


#: Message fields of this type are filled from a :class:`Tile` inline (its two fields).
_TILE_MESSAGE = pb.Tile.DESCRIPTOR.full_name


@functools.cache
def _filler(message_type: Any, cls: type) -> Any:
    """``fill_<cls>(message, value)``: :func:`fill` of one (message type, dataclass) pair,
    as straight-line code (each field read once; an enum through a dict of its members'
    numbers; a tile's two fields set in place; other nested dataclasses through
    :func:`fill`)."""
    lines = ["def fill_value(message, value):"]
    namespace: dict[str, Any] = {"fill": fill}
    for index, (name, desc) in enumerate(_field_map(message_type, cls)):
        lines.append(f"    v = value.{name}")
        if desc.enum_type is not None:
            numbers = {member.name: member.number for member in desc.enum_type.values}
            namespace[f"enum_{index}"] = _EnumNumbers(numbers)
            number = f"enum_{index}[{{x}}]"
        else:
            number = "{x}"
        tile = desc.message_type is not None and desc.message_type.full_name == _TILE_MESSAGE
        if desc.is_repeated:
            if tile:  # a Tile's two fields straight into the message made for it
                lines += ["    if v:", f"        add = message.{name}.add"]
                lines += ["        for x in v:", "            add(high=x.high, low=x.low)"]
            elif desc.message_type is not None:
                lines += ["    if v:", f"        add = message.{name}.add"]
                lines += ["        for x in v:", "            fill(add(), x)"]
            elif desc.enum_type is not None:
                mapped = number.format(x="x")
                lines += ["    if v:", f"        message.{name}.extend([{mapped} for x in v])"]
            else:
                lines += ["    if v:", f"        message.{name}.extend(v)"]
        elif tile:  # setting a field of the tile marks it present, even 0-0
            lines += ["    if v is not None:", f"        t = message.{name}"]
            lines += ["        t.high = v.high", "        t.low = v.low"]
        elif desc.message_type is not None:
            lines += ["    if v is not None:", f"        fill(message.{name}, v)"]
        else:
            lines += ["    if v is not None:", f"        message.{name} = {number.format(x='v')}"]
    lines.append("    return message")
    source = "\n".join(lines) + "\n"
    exec(compile(source, f"<fill {message_type.full_name} from {cls.__name__}>", "exec"), namespace)
    return namespace["fill_value"]


class _EnumNumbers(dict[Any, int]):
    """An enum member's number in a message enum, by the member's name; found once per
    member and then kept under the member itself."""

    def __init__(self, numbers: dict[str, int]) -> None:
        super().__init__()
        self.numbers = numbers

    def __missing__(self, member: Any) -> int:
        number = self.numbers[member.name]
        self[member] = number
        return number


def status_to_pb(status: Status) -> pb.Status:
    return _STATUS[status]


_STATUS: dict[Status, pb.Status] = {
    status: typing.cast(pb.Status, pb.Status.Value(status.name)) for status in Status
}


def tile_to_pb(tile: Tile) -> pb.Tile:
    return pb.Tile(high=tile.high, low=tile.low)


def tile_from_pb(message: pb.Tile, what: str) -> Tile:
    if not (0 <= message.low <= message.high <= 18):
        raise ValueError(
            f"{what} {{high: {message.high}, low: {message.low}}} is not a tile: "
            "pips run from 0 to 18 and high must be >= low"
        )
    return Tile(message.high, message.low)


def fill_tiles(field: Any, tiles: Iterable[Tile]) -> None:
    """Add ``tiles`` to a repeated ``Tile`` field."""
    add = field.add
    for tile in tiles:
        add(high=tile.high, low=tile.low)


def move_to_pb(move: Move) -> pb.Move:
    return fill(pb.Move(), move)  # type: ignore[return-value]


def move_from_pb(message: pb.Move) -> Move:
    """A core move from its message; ``ValueError`` when it is malformed.

    Kinds and ends are read through tables of their numbers, and tiles are the set's own
    objects (:meth:`Tile.from_code`): a move is decoded on every ApplyMove, and equal
    tiles that are the same object compare at once with the rules' own."""
    kind = _MOVE_KINDS.get(message.kind)
    if kind is None:
        if message.kind == pb.MOVE_KIND_UNSPECIFIED:
            raise ValueError("move.kind is required: one of " + ", ".join(k.name for k in MoveKind))
        raise ValueError(f"move.kind {message.kind} is not a known kind")
    end: End | None = None
    if message.end:
        end = _ENDS.get(message.end)
        if end is None:
            raise ValueError(f"move.end {message.end} is not LEFT or RIGHT")
    has = message.HasField
    return Move(
        message.seat,
        kind,
        _tile_of(message.tile, "move.tile") if has("tile") else None,
        _tile_of(message.target, "move.target") if has("target") else None,
        end,
        message.open_pip if has("open_pip") else None,
        message.train if has("train") else None,
    )


#: A move's kind and end by their numbers in the messages (names shared with the core).
_MOVE_KINDS: dict[int, MoveKind] = {pb.MoveKind.Value(kind.name): kind for kind in MoveKind}
_ENDS: dict[int, End] = {pb.End.Value(end.name): end for end in End}


def _tile_of(message: pb.Tile, what: str) -> Tile:
    """:func:`tile_from_pb`, the set's own tile object."""
    high, low = message.high, message.low
    if 0 <= low <= high <= 18:
        return Tile.from_code(high * (high + 1) // 2 + low)
    return tile_from_pb(message, what)  # the error


def event_to_pb(event: Event) -> pb.Event:
    # private_to has no field: callers redact with Event.for_seat first
    return fill(pb.Event(), event)  # type: ignore[return-value]


def fill_events(field: Any, events: Iterable[Event], seat: int | None) -> None:
    """Add ``events``, as ``seat`` (``None``: a spectator) may see them, to a repeated
    ``Event`` field, each filled in place (no message made and then copied in)."""
    add = field.add
    for event in events:
        fill(add(), event.for_seat(seat))


def options_from_pb(ruleset: Ruleset[Any, Any], options: pb.Options) -> Any:
    """The ruleset's options from the request's ``options`` (omitted: all defaults)."""
    which = options.WhichOneof("ruleset")
    if which is None:
        return ruleset.make_options({})
    if which != ruleset.id:
        raise OptionsError(f"options are for {which!r}, but the ruleset is {ruleset.id!r}")
    message = getattr(options, which)
    values: dict[str, Any] = {}
    for spec in ruleset.option_specs():
        desc = message.DESCRIPTOR.fields_by_name[spec.name]
        if desc.has_presence:
            if message.HasField(spec.name):
                values[spec.name] = getattr(message, spec.name)
        elif desc.enum_type is not None:
            number = getattr(message, spec.name)
            if number != 0:  # 0 is *_UNSPECIFIED: take the default
                value = desc.enum_type.values_by_number.get(number)
                values[spec.name] = value.name if value is not None else number
    return ruleset.make_options(values)


def options_to_pb(ruleset: Ruleset[Any, Any], options: Any) -> pb.Options:
    """The request's ``options`` that make ``options`` (every option written out)."""
    result = pb.Options()
    message = getattr(result, ruleset.id, None)
    if message is None:  # a game with no options message has no options
        return result
    message.SetInParent()
    for spec in ruleset.option_specs():
        value = getattr(options, spec.name)
        setattr(message, spec.name, value.name if spec.type == "enum" else value)
    return result


def game_id_of(ruleset: Ruleset[Any, Any], players: int, options: Any, seed: str) -> str:
    """A match's id: it names its ruleset, players, options and seed (24 hex digits)."""
    text = f"{ruleset.id}\x00{players}\x00{options!r}\x00{seed}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def check_seed(seed: str) -> str:
    """``seed`` if it is one a match may be dealt from, else ``ValueError`` saying why."""
    if not 1 <= len(seed) <= MAX_SEED_CHARS:
        raise ValueError(f"seed must be 1 to {MAX_SEED_CHARS} characters, not {len(seed)}")
    if any(unicodedata.category(c) == "Cc" for c in seed):
        raise ValueError("seed must not contain control characters")
    return seed


def ruleset_to_pb(ruleset: Ruleset[Any, Any]) -> pb.RulesetInfo:
    game = games.get(ruleset.id)
    default_options = ruleset.make_options({})
    low, high = ruleset.player_range(default_options)
    info = pb.RulesetInfo(
        id=ruleset.id,
        name=ruleset.name,
        min_players=low,
        max_players=high,
        players=ruleset.players_text,
        source=ruleset.source,
        description=ruleset.description,
        low_wins=ruleset.low_wins,
        drawing=drawing_to_pb(game.drawing),
    )
    for spec in ruleset.option_specs():
        option = info.options.add(
            name=spec.name,
            type=spec.type,
            default=spec.default_text,
            allowed_values=spec.allowed,
            description=spec.doc,
        )
        if spec.minimum is not None:
            option.min = spec.minimum
        if spec.maximum is not None:
            option.max = spec.maximum
    for profile in ruleset.profiles:
        info.profiles.add(
            id=profile.id,
            name=profile.name,
            description=profile.description,
            options=options_to_pb(ruleset, ruleset.make_options(profile.options)),
        )
    for level, text in BOT_LEVELS.items():
        if level is bots.Level.GREEDY:
            text = f"{text}: {game.bot.greedy_text}"
        info.bots.add(
            level=pb.BotLevel.Value(level.name),
            description=text,
            default_playouts=bots.default_playouts(ruleset) if level is bots.Level.STRONG else 0,
            max_playouts=MAX_PLAYOUTS if level is bots.Level.STRONG else 0,
        )
    return info


def drawing_to_pb(drawing: Drawing) -> pb.Drawing:
    """How a client draws a game (:class:`~domino_rules.games.package.Drawing`)."""
    message = pb.Drawing(
        layout=None if drawing.layout.value == "NONE" else drawing.layout.value,
        open_field=drawing.open_field,
        count_label=drawing.count_label,
        faces=drawing.faces.value,
    )
    for fact in drawing.seat_facts:
        message.seat_facts.add(field=fact.field, label=fact.label)
    for kind, label in drawing.move_labels:
        message.move_labels.add(kind=pb.MoveKind.Value(kind.name), label=label)
    for when in drawing.faces_when:
        message.faces_when.add(option=when.option, value=when.value, faces=when.faces.value)
    return message


#: What each bot level does, as the catalogue says it (each game's bot, in its package,
#: documents its sampling and its GREEDY heuristic).
BOT_LEVELS = {
    bots.Level.RANDOM: "a uniform legal move",
    bots.Level.GREEDY: "the ruleset's heuristic, one move deep",
    bots.Level.STRONG: "Monte Carlo search: each candidate move played out on worlds "
    "dealt at random consistently with what the seat sees; the move with the best "
    "expected share of the win",
}
#: The largest STRONG budget a request may ask for: it bounds the work of one request.
MAX_PLAYOUTS = min(bots.MAX_PLAYOUTS, 2_000)


def bot_level_from_pb(level: int) -> Any:
    """The bot level of a request; UNSPECIFIED is STRONG; ``ValueError`` for a number
    that is no level."""
    if level == pb.BOT_LEVEL_UNSPECIFIED:
        return bots.Level.STRONG
    try:
        return bots.Level[pb.BotLevel.Name(level)]
    except (ValueError, KeyError):
        raise ValueError(f"level {level} is not RANDOM, GREEDY or STRONG") from None


def suggestion_to_pb(suggestion: Any) -> pb.SuggestMoveResponse:
    message = pb.SuggestMoveResponse(move=move_to_pb(suggestion.move))
    for estimate in suggestion.estimates:
        message.estimates.add(
            move=move_to_pb(estimate.move), value=estimate.value, playouts=estimate.playouts
        )
    return message


def view_to_pb(ruleset_id: str, view: View) -> pb.GetViewResponse:
    message = pb.GetViewResponse(ruleset=ruleset_id)
    for hand in view.shown_hands:
        fill_tiles(message.shown_hands.add().tiles, hand)
    if view.table is None:  # a game whose views have only the parts every game has
        fill(message, view)
        return message
    fill(message, dataclasses.replace(view, table=None))
    fill(getattr(message, ruleset_id), view.table)
    if not message.HasField(ruleset_id):
        getattr(message, ruleset_id).SetInParent()
    return message


_PROTO = "proto/domino_rules/v1/domino_rules.proto"


def check_contract(game: GamePackage) -> None:
    """Raise :class:`ContractError`, naming what the proto lacks, unless ``game``'s options
    and view table have their messages, field for field (run on every installed game when
    this module is imported)."""
    ruleset, name = game.ruleset, game.ruleset.id
    specs = ruleset.option_specs()
    options = pb.Options.DESCRIPTOR.fields_by_name.get(name)
    if specs and options is None:
        raise ContractError(
            f"{name} has options but no message for them: add a field named {name!r} of "
            f"its own options message to the oneof of Options in {_PROTO}"
        )
    if options is not None:
        if options.message_type is None:
            raise ContractError(f"Options.{name} in {_PROTO} is not a message")
        missing = [s.name for s in specs if s.name not in options.message_type.fields_by_name]
        if missing:
            raise ContractError(
                f"{name}: {options.message_type.full_name} has no field for the options "
                f"{missing}: add them in {_PROTO}"
            )
    table = ruleset.table_type
    view = pb.GetViewResponse.DESCRIPTOR.fields_by_name.get(name)
    if table is not None:
        if view is None or view.message_type is None:
            raise ContractError(
                f"{name} has a view table ({table.__name__}) but no message for it: add a "
                f"field named {name!r} of its own table message to the oneof table of "
                f"GetViewResponse in {_PROTO}"
            )
        _field_map(view.message_type, table)
    elif view is not None:
        raise ContractError(
            f"GetViewResponse.{name} in {_PROTO} has no table: set {type(ruleset).__name__}"
            ".table_type"
        )


# every game installed, checked once: one without its messages fails the start of the service
for _game in games.all_games():
    check_contract(_game)


def score_to_pb(score: Score) -> pb.GetScoreResponse:
    message = pb.GetScoreResponse(status=status_to_pb(score.status), winners=score.winners)
    for seat, (hand, total) in enumerate(zip(score.hand_points, score.match_points, strict=True)):
        seat_score = message.seats.add(seat=seat, hand_points=hand, match_points=total)
        if score.settlement is not None:
            seat_score.net = score.settlement[seat]
    reasons = score.reasons
    for number, result in enumerate(score.hands, start=1):
        message.hands.add(
            hand=number,
            counts=result.counts,
            points=result.points,
            winners=result.winners,
            settlement=result.settlement,
            end=pb.HandEnd.Value(result.end.name),
            reason=reasons[number - 1] if number <= len(reasons) else "",
        )
    return message


# =========================================================================== private

#: The most moves a game may hold: a token's version counts them (uint32 on the wire).
MAX_VERSION = 2**31 - 1


@dataclasses.dataclass(frozen=True, slots=True)
class Game:
    """A decoded token: the ruleset, the match, and the envelope around it."""

    ruleset: Ruleset[Any, Any]
    match: Match[Any, Any]
    game_id: str
    version: int


def encode_game(game: Game) -> bytes:
    """The private state of a game, packed (the payload a token seals)."""
    try:
        return packing.pack(game.ruleset, game.match, game.game_id, game.version)
    except packing.PackError as exc:
        raise StateDecodeError(str(exc)) from None


def decode_game(payload: bytes, *, trusted: bool = False, events: bool = True) -> Game:
    """A game from a token's payload, checked completely before any rule may run, unless
    ``trusted``: the payload came sealed with this service's key, so this service's rules
    made it (see ``RulesService.decode``). Without ``events``, the last move's events are
    left unread (:func:`~domino_rules.state.packing.unpack`): the game has none.

    Raises :class:`StateDecodeError` for bytes that are not a state of this service's
    layout, and the rules' :class:`~domino_rules.rules.errors.RulesError` for a state no
    game could reach.
    """
    try:
        # another version's layout is read as today's where a migration reads it
        packed = packing.unpack(migrations.migrate(payload), events=events)
    except packing.PackError as exc:
        raise StateDecodeError(str(exc)) from None
    if packed.version > MAX_VERSION:
        raise StateDecodeError(f"version {packed.version} is out of range")
    if not trusted:
        # the unpacker builds every value of its declared type: the type walk is not needed
        packed.ruleset.check_match(packed.match, typed=True)
    return Game(packed.ruleset, packed.match, packed.game_id, packed.version)
