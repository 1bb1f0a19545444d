"""The ruleset framework: moves, events, match scaffolding, views, scores and checks.

A ruleset implements a handful of *hand hooks* (deal a hand from a given tile order, its
legal moves, apply one legal move, is the hand over, score it, what a seat sees of the
table, what its hand states may hold). The framework owns everything that is the same in
every game:

* the generic checks of :meth:`Ruleset.apply`: a malformed move, game over, wrong seat,
  move not legal (legality has one home, :meth:`Ruleset.legal_moves`);
* the deal: the set in its canonical ascending order is shuffled with the documented
  generator (:mod:`.rng`, label ``deal/<hand>/<attempt>``) and handed to the ruleset's
  :meth:`Ruleset.deal_from`, which a test can call with an exact order;
* the match: hand numbers, ``HAND_OVER`` -> ``NEXT_HAND`` (seat 0 acts for it), totals,
  match end and winners (equal best totals share the win);
* options: typed, with defaults and ranges declared on the options dataclass;
* views: own hand, others' hand sizes, the stock, the seat's legal moves, the last
  move's events with other seats' secrets removed;
* :meth:`Ruleset.check_match`: the complete check of a state that came from outside
  (a client's token), before any rule runs on it.

States are frozen dataclasses: applying a move returns a new state and never changes
the one passed in. Every hand state has ``hands`` (one sorted tuple of tiles per seat),
``to_act`` and ``leader`` (:class:`HandState`).

Framework decisions that bound every match, whatever its options (no play reaches them
in practice, and they keep the work of a request bounded):

* a match ends after hand :data:`MAX_HANDS` (1 000, the longest match an option asks
  for: Tiu U's and Tsair Deng's ``hands``) at the latest; only a match played to a
  target score can reach it, through a long run of hands that score nothing or little;
* a move produces at most :data:`MAX_EVENTS` (1 000) events: a deal is tried
  :data:`MAX_DEAL_ATTEMPTS` (100) times at most and a throw of the dice repeated
  ``throw_up.MAX_THROWS`` (100) times at most (a run of 100 void deals or tied throws
  has a probability below 10**-60), so a move's events are at most 100 redeals and
  400 throws of three seats, and a few dozen others.
"""

from __future__ import annotations

import abc
import contextlib
import dataclasses
import enum
import functools
import itertools
import operator
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from . import rng
from .checks import (
    TypeCheck,
    check_length,
    check_range,
    check_seat,
    fail,
    is_sorted,
    require,
    shown,
    type_check,
    type_ok,
)
from .errors import (
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
    NotYourTurnError,
    OptionsError,
    PlayerCountError,
)
from .tiles import MAX_PIP, SetCodes, Tile, set_codes

__all__ = [
    "MAX_COUNT",
    "MAX_DEAL_ATTEMPTS",
    "MAX_EVENTS",
    "MAX_HANDS",
    "MAX_HAND_POINTS",
    "MAX_SEED_CHARS",
    "MAX_TOTAL",
    "End",
    "Event",
    "EventKind",
    "HandEnd",
    "HandResult",
    "HandState",
    "Match",
    "Move",
    "MoveKind",
    "OptionSpec",
    "Ruleset",
    "Score",
    "Status",
    "View",
    "build_match",
    "fields_of",
    "frozen_builder",
    "hand_result",
    "held_tiles",
    "made_of",
    "next_seat",
    "option",
    "replace_at",
]

#: A match ends after this hand at the latest (see the module docstring). It bounds a
#: token's history, and so the work of opening one (:meth:`Ruleset.max_hands`).
MAX_HANDS = 1_000
#: No event's ``count`` is larger than this (hand numbers, deal attempts).
MAX_COUNT = 100_000
#: At most this many events in one move (``last_events``; see the module docstring).
MAX_EVENTS = 1_000
#: Deals tried while a ruleset finds them void ([OAJ-3]).
MAX_DEAL_ATTEMPTS = 100
#: No count, points or settlement of one hand is larger than this.
MAX_HAND_POINTS = 10**6
#: No seat's match total or settlement is larger than this.
MAX_TOTAL = 10**8
#: A seed has 1 to this many characters (as ``NewGame`` accepts them).
MAX_SEED_CHARS = 128


class MoveKind(enum.Enum):
    """What a move does. Members are only ever appended (states store the position)."""

    PLAY = "PLAY"
    DRAW = "DRAW"
    PASS = "PASS"
    DISCARD = "DISCARD"
    CAPTURE = "CAPTURE"
    CAPTURE_DRAWN = "CAPTURE_DRAWN"
    PILE = "PILE"
    NEXT_HAND = "NEXT_HAND"


class End(enum.Enum):
    """An end of a two-ended line."""

    LEFT = "LEFT"
    RIGHT = "RIGHT"


class Status(enum.Enum):
    IN_PROGRESS = "IN_PROGRESS"
    HAND_OVER = "HAND_OVER"
    MATCH_OVER = "MATCH_OVER"


class HandEnd(enum.Enum):
    """How a hand ended. Members are only ever appended (states store the position)."""

    DOMINOED = "DOMINOED"  # a player laid their last tile
    BLOCKED = "BLOCKED"  # nobody can match the open end(s)
    IDLE_ROUNDS = "IDLE_ROUNDS"  # rounds in a row in which nobody laid a tile
    WOODPILE_EXHAUSTED = "WOODPILE_EXHAUSTED"  # the last tile was drawn and resolved
    ALL_TILES_PLACED = "ALL_TILES_PLACED"  # every tile was played or discarded


class EventKind(enum.Enum):
    """What happened inside a move. Members are only ever appended."""

    DEAL = "DEAL"  # a hand was dealt: count = tiles per seat
    REDEAL = "REDEAL"  # the deal was void and is dealt again
    PLAY = "PLAY"  # a tile was laid (tile, end, open_pip as the move said)
    AUTO_PLAY = "AUTO_PLAY"  # a tile was laid without a choice (drawn and played at once)
    DRAW = "DRAW"  # a tile was drawn into a hand (tile private to the drawer)
    BONUS_TURN = "BONUS_TURN"  # the seat plays again
    PASS = "PASS"  # the seat passed
    TURN_PASSED = "TURN_PASSED"  # the seat could do nothing more: the turn moves on
    DISCARD = "DISCARD"  # a tile laid face down (tile private to the discarder)
    CAPTURE = "CAPTURE"  # tile took target (tiles: every tile taken)
    PILE = "PILE"  # three identical tiles piled
    PAIR_LAID = "PAIR_LAID"  # a pair laid out into the catch at the deal
    REVEAL = "REVEAL"  # a tile drawn face up for all to see
    TO_LAKE = "TO_LAKE"  # a drawn tile joined the lake
    DICE = "DICE"  # a throw of the dice (seat, dice)
    LEADER = "LEADER"  # the seat leads this hand
    PEG = "PEG"  # points scored at once
    HAND_OVER = "HAND_OVER"  # seats = hand winners, scores = points per seat
    MATCH_OVER = "MATCH_OVER"  # seats = match winners, scores = totals
    NEXT_HAND = "NEXT_HAND"  # a new hand begins (count = hand number)
    CHOICE = "CHOICE"  # the seat must choose what the drawn tile captures


#: Kinds whose move names a tile, and those that also name a target.
_TILE_KINDS = frozenset(
    {MoveKind.PLAY, MoveKind.DISCARD, MoveKind.CAPTURE, MoveKind.CAPTURE_DRAWN, MoveKind.PILE}
)
_TARGET_KINDS = frozenset({MoveKind.CAPTURE, MoveKind.CAPTURE_DRAWN})


def _code(value: object) -> str:
    """``value`` as Python source: enum members by qualified name."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    return repr(value)


@dataclass(frozen=True, slots=True)
class Move:
    """A move: who, what, and the fields that kind needs.

    Its text form parses back, and its ``repr`` is code that rebuilds it:

    >>> move = Move(0, MoveKind.PLAY, Tile(6, 4), end=End.LEFT)
    >>> str(move)
    '0 PLAY [6-4] LEFT'
    >>> Move.parse('0 PLAY [6-4] LEFT') == move
    True
    >>> move
    Move(0, MoveKind.PLAY, Tile(6, 4), end=End.LEFT)
    >>> eval(repr(move)) == move
    True
    >>> Move(1, MoveKind.CAPTURE, Tile(4, 2), target=Tile(5, 1))
    Move(1, MoveKind.CAPTURE, Tile(4, 2), target=Tile(5, 1))

    A move is *well formed* (:meth:`check`) when its fields fit its kind; a malformed
    move raises :class:`InvalidMoveError`, whatever the state:

    >>> Move(0, MoveKind.DRAW, Tile(6, 4)).check()
    Traceback (most recent call last):
    ...
    domino_rules.rules.errors.InvalidMoveError: Move(0, MoveKind.DRAW, Tile(6, 4)) is malformed: DRAW takes no tile
    """  # noqa: E501

    seat: int
    kind: MoveKind
    tile: Tile | None = None
    target: Tile | None = None
    end: End | None = None
    open_pip: int | None = None

    def __str__(self) -> str:
        parts = [str(self.seat), self.kind.value]
        if self.tile is not None:
            parts.append(str(self.tile))
        if self.target is not None:
            parts.append("x" + str(self.target))
        if self.end is not None:
            parts.append(self.end.value)
        if self.open_pip is not None:
            parts.append(f"open={self.open_pip}")
        return " ".join(parts)

    def __repr__(self) -> str:
        parts = [_code(self.seat), _code(self.kind)]
        if self.tile is not None:
            parts.append(_code(self.tile))
        if self.target is not None:
            parts.append(f"target={_code(self.target)}")
        if self.end is not None:
            parts.append(f"end={_code(self.end)}")
        if self.open_pip is not None:
            parts.append(f"open_pip={_code(self.open_pip)}")
        return f"Move({', '.join(parts)})"

    def check(self) -> None:
        """Raise :class:`InvalidMoveError` unless the fields fit the kind.

        ``PLAY``, ``DISCARD``, ``PILE`` name a tile; ``CAPTURE`` and ``CAPTURE_DRAWN`` a
        tile and a target; ``DRAW``, ``PASS``, ``NEXT_HAND`` neither. Only ``PLAY`` may
        carry an ``end`` or an ``open_pip`` (a pip, 0 to 18). A seat is never negative.
        Whether a field is needed *now* (an ``end`` on a line that has started, say) is
        a matter of legality, not of form.
        """
        problem = self._problem()
        if problem is not None:
            raise InvalidMoveError(f"{self!r} is malformed: {problem}")

    def _problem(self) -> str | None:
        if type(self.seat) is not int:
            return "the seat must be an integer"
        if self.seat < 0:
            return "a seat is never negative"
        if not isinstance(self.kind, MoveKind):
            return "the kind must be a MoveKind"
        kind = self.kind.value
        for name, value, needed in (
            ("tile", self.tile, self.kind in _TILE_KINDS),
            ("target", self.target, self.kind in _TARGET_KINDS),
        ):
            if value is None and needed:
                return f"{kind} needs a {name}"
            if value is not None and not needed:
                return f"{kind} takes no {name}"
            if value is not None and type(value) is not Tile:
                return f"the {name} must be a Tile"
        if self.end is not None:
            if self.kind is not MoveKind.PLAY:
                return f"{kind} takes no end"
            if not isinstance(self.end, End):
                return "the end must be End.LEFT or End.RIGHT"
        if self.open_pip is not None:
            if self.kind is not MoveKind.PLAY:
                return f"{kind} takes no open_pip"
            if type(self.open_pip) is not int or not 0 <= self.open_pip <= MAX_PIP:
                return f"open_pip must be a pip from 0 to {MAX_PIP}"
        return None

    @classmethod
    def parse(cls, text: str) -> Move:
        """Inverse of ``str(move)``; :class:`InvalidMoveError` for text that is not a
        well-formed move.

        >>> Move.parse("2 CAPTURE [4-2] x[5-1]")
        Move(2, MoveKind.CAPTURE, Tile(4, 2), target=Tile(5, 1))
        >>> Move.parse("0 DRAW [6-4]")
        Traceback (most recent call last):
        ...
        domino_rules.rules.errors.InvalidMoveError: Move(0, MoveKind.DRAW, Tile(6, 4)) is malformed: DRAW takes no tile
        """  # noqa: E501
        words = text.split()
        try:
            if len(words) < 2:
                raise ValueError("a move has a seat and a kind")
            seat, kind = int(words[0]), MoveKind[words[1]]
            fields: dict[str, Any] = {}
            for word in words[2:]:
                name, value = _parse_field(word)
                if name in fields:
                    raise ValueError(f"two values for {name}")
                fields[name] = value
        except (KeyError, ValueError) as exc:
            raise InvalidMoveError(f"not a move: {text!r}") from exc
        move = cls(seat, kind, **fields)
        move.check()
        return move


def _parse_field(word: str) -> tuple[str, Any]:
    if word.startswith("x"):
        return "target", Tile.parse(word[1:])
    if word.startswith("open="):
        return "open_pip", int(word[5:])
    if word in End.__members__:
        return "end", End[word]
    return "tile", Tile.parse(word)


@dataclass(frozen=True)
class Event:
    """Something that happened inside a move.

    ``private_to`` names the only seat that may see the event's tiles (a tile drawn into
    a hand, a face-down discard); every other seat gets the event with its tiles removed
    and ``hidden`` set.
    """

    kind: EventKind
    seat: int | None = None
    tile: Tile | None = None
    target: Tile | None = None
    end: End | None = None
    open_pip: int | None = None
    dice: tuple[int, ...] = ()
    tiles: tuple[Tile, ...] = ()
    count: int | None = None
    points: int | None = None
    seats: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    hidden: bool = False
    private_to: int | None = None

    def for_seat(self, seat: int | None) -> Event:
        """The event as ``seat`` (``None``: a spectator) may see it."""
        if self.private_to is None or self.private_to == seat:
            return self
        return dataclasses.replace(
            self, tile=None, target=None, tiles=(), open_pip=None, hidden=True, private_to=None
        )


@dataclass(frozen=True)
class HandResult:
    """One finished hand: raw counts, points scored, winners, how it ended, and the
    per-hand settlement (where the ruleset settles hand by hand)."""

    counts: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    end: HandEnd
    settlement: tuple[int, ...] = ()


HandT = TypeVar("HandT")
OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True)
class Match(Generic[OptionsT, HandT]):
    """The whole game: the match around the state of the current hand (a ruleset's value).

    A match is an immutable value: equality, hashing and ``repr`` are those of its fields.
    Besides them, its instance dict may hold the legal moves a ruleset computed for it
    (:meth:`Ruleset.legal_moves`), so that :meth:`Ruleset.apply` on the same match object
    does not compute them again; a copy or a pickle leaves that cache behind.
    """

    players: int
    options: OptionsT
    seed: str
    hand_number: int
    hand_state: HandT
    history: tuple[HandResult, ...] = ()
    status: Status = Status.IN_PROGRESS
    last_events: tuple[Event, ...] = ()

    #: The legal moves computed for this match, ``(ruleset, moves)``: set in the instance
    #: dict by :meth:`Ruleset.legal_moves`; not a field.
    _legal_moves: ClassVar[tuple[object, tuple[Move, ...]] | None] = None

    def __getstate__(self) -> dict[str, Any]:
        return {name: value for name, value in self.__dict__.items() if name != _LEGAL}


#: The key of a match's cached legal moves in its instance dict.
_LEGAL = "_legal_moves"


class HandState(Protocol):
    """What the framework reads of every ruleset's hand state."""

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's hand, sorted."""
        ...

    @property
    def to_act(self) -> int: ...

    @property
    def leader(self) -> int: ...


StateT = TypeVar("StateT", bound=HandState)


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (``None``: a spectator) may see."""

    seat: int | None
    status: Status
    to_act: int | None
    hand_number: int
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    stock: int
    legal_moves: tuple[Move, ...]
    events: tuple[Event, ...]
    match_points: tuple[int, ...]
    table: Any


@dataclass(frozen=True, slots=True)
class Score:
    status: Status
    hand_points: tuple[int, ...]
    match_points: tuple[int, ...]
    hands: tuple[HandResult, ...]
    winners: tuple[int, ...]
    settlement: tuple[int, ...] | None


#: The only legal move of a hand that is over (RULES: seat 0 applies NEXT_HAND).
_NEXT_HAND_MOVES = (Move(0, MoveKind.NEXT_HAND),)
# Members the framework reads on every move, as module constants: reading a member off its
# Enum class is a slow lookup (the metaclass defines __getattr__).
_NEXT_HAND = MoveKind.NEXT_HAND
_IN_PROGRESS, _HAND_OVER, _MATCH_OVER = Status.IN_PROGRESS, Status.HAND_OVER, Status.MATCH_OVER

# --------------------------------------------------------------------------- helpers

T = TypeVar("T")


_new = object.__new__
_set_dict = object.__setattr__


def frozen_builder(cls: type[T]) -> Callable[..., T]:
    """A fast positional constructor of the frozen dataclass ``cls``.

    ``build(*values)`` equals ``cls(*values)`` with every field given, in field order.
    A frozen dataclass's ``__init__`` sets each field with its own
    ``object.__setattr__`` call; the builder sets the instance dict at once, which makes
    it about three times cheaper. The rules build a hand state and a match on every
    move. Only for classes without slots and without ``__post_init__`` (whose instances
    keep their fields in their dict, and whose ``__init__`` does nothing else).

    >>> build = frozen_builder(Match)
    >>> match = build(2, None, "seed", 1, None, (), Status.IN_PROGRESS, ())
    >>> match == Match(2, None, "seed", 1, None)
    True
    """
    if "__slots__" in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has slots or a __post_init__: use its constructor")
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    items = ", ".join(f"{name!r}: {name}" for name in names)
    source = (
        f"def build({', '.join(names)}):\n"
        f"    obj = new(cls)\n"
        f"    set_dict(obj, '__dict__', {{{items}}})\n"
        f"    return obj\n"
    )
    namespace: dict[str, Any] = {"new": _new, "set_dict": _set_dict, "cls": cls}
    exec(compile(source, f"<builder of {cls.__name__}>", "exec"), namespace)
    build: Callable[..., T] = namespace["build"]
    return build


def next_seat(seat: int, players: int) -> int:
    """The seat after ``seat`` in turn order (increasing seat numbers, wrapping around)."""
    return (seat + 1) % players


def fields_of(value: Any) -> dict[str, Any]:
    """A new dict of the fields of ``value``, a frozen dataclass without slots, to change
    and pass to :func:`made_of`: a copy that changes a few fields costs less than
    building every field again. (A match's dict may also hold its legal moves, which are
    no field: drop them.)"""
    fields: dict[str, Any] = value.__dict__.copy()
    return fields


def made_of(cls: type[T]) -> Callable[[dict[str, Any]], T]:
    """``make(fields)``: the instance of the frozen dataclass ``cls`` (without slots or
    ``__post_init__``) whose fields are ``fields``, a dict no one else holds, with exactly
    its fields. No ``__init__`` runs, as with :func:`frozen_builder`.

    >>> match = Match(2, None, "seed", 1, None)
    >>> fields = fields_of(match)
    >>> fields["hand_number"] = 2
    >>> made_of(Match)(fields) == dataclasses.replace(match, hand_number=2)
    True
    """
    set_dict = cls.__dict__["__dict__"].__set__  # the instance dict, set at once

    def make(fields: dict[str, Any]) -> T:
        obj = _new(cls)
        set_dict(obj, fields)
        return obj

    return make


#: ``Match(*fields)``, every field given in order (:func:`frozen_builder`).
build_match: Callable[..., Match[Any, Any]] = frozen_builder(Match)
#: ``HandResult(counts, points, winners, end, settlement)``, all given (:func:`frozen_builder`).
hand_result: Callable[..., HandResult] = frozen_builder(HandResult)


_make_match = made_of(Match)
_make_event = made_of(Event)
# The fields of hand results, read over a whole history at once (``map``).
_COUNTS = operator.attrgetter("counts")
_POINTS = operator.attrgetter("points")
_WINNERS = operator.attrgetter("winners")
_END = operator.attrgetter("end")
_SETTLEMENT = operator.attrgetter("settlement")


@functools.lru_cache(maxsize=1024)
def _event_of(
    kind: EventKind, count: int | None, seats: tuple[int, ...], scores: tuple[int, ...]
) -> Event:
    """``Event(kind, count=count, seats=seats, scores=scores)``: a copy of the fields of a
    blank event with these changed (:func:`fields_of`), cheaper than the constructor; the
    events of a hand's end and of a new hand recur, and are made once while they do."""
    fields = fields_of(_BLANK_EVENT)
    fields["kind"] = kind
    fields["count"] = count
    fields["seats"] = seats
    fields["scores"] = scores
    return _make_event(fields)


_BLANK_EVENT = Event(EventKind.DEAL)
_NEXT_HAND_EVENT, _HAND_OVER_EVENT, _MATCH_OVER_EVENT = (
    EventKind.NEXT_HAND,
    EventKind.HAND_OVER,
    EventKind.MATCH_OVER,
)


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with item ``index`` replaced by ``value`` (states are immutable tuples)."""
    return (*items[:index], value, *items[index + 1 :])


def held_tiles(state: HandState) -> tuple[Tile, ...]:
    """Every tile in every seat's hand (a piece of each ruleset's ``all_tiles``)."""
    return tuple([tile for tiles in state.hands for tile in tiles])


# --------------------------------------------------------------------------- options


def option(
    default: Any, doc: str, *, minimum: int | None = None, maximum: int | None = None
) -> Any:
    """A field of an options dataclass, with what ``ListRulesets`` says of it."""
    return field(default=default, metadata={"doc": doc, "min": minimum, "max": maximum})


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    type: str  # "int", "bool" or "enum"
    default: Any
    doc: str
    allowed: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    @property
    def default_text(self) -> str:
        if isinstance(self.default, bool):
            return "true" if self.default else "false"
        if isinstance(self.default, enum.Enum):
            return self.default.name
        return str(self.default)


@functools.cache
def _option_specs(options_type: type) -> tuple[OptionSpec, ...]:
    hints = typing.get_type_hints(options_type)
    specs = []
    for f in dataclasses.fields(options_type):
        kind = hints[f.name]
        meta = f.metadata
        if kind is bool:
            specs.append(OptionSpec(f.name, "bool", f.default, meta["doc"], ("false", "true")))
        elif kind is int:
            specs.append(
                OptionSpec(f.name, "int", f.default, meta["doc"], (), meta["min"], meta["max"])
            )
        elif isinstance(kind, type) and issubclass(kind, enum.Enum):
            specs.append(
                OptionSpec(f.name, "enum", f.default, meta["doc"], tuple(kind.__members__))
            )
        else:  # pragma: no cover - a ruleset author's mistake, caught by the registry tests
            raise TypeError(f"option {f.name} of {options_type.__name__}: unsupported type {kind}")
    return tuple(specs)


@functools.cache
def _option_hints(options_type: type) -> dict[str, Any]:
    return typing.get_type_hints(options_type)


def _checked_option(spec: OptionSpec, enum_type: Any, value: Any, *, by_name: bool) -> Any:
    """``value`` for option ``spec``, or :class:`OptionsError`; enum members may be given
    by name when ``by_name``."""
    name = spec.name
    if spec.type == "bool":
        if type(value) is not bool:
            raise OptionsError(f"option {name} must be true or false, not {value!r}")
    elif spec.type == "int":
        if type(value) is not int:
            raise OptionsError(f"option {name} must be an integer, not {value!r}")
        if (spec.minimum is not None and value < spec.minimum) or (
            spec.maximum is not None and value > spec.maximum
        ):
            raise OptionsError(
                f"option {name} must be from {spec.minimum} to {spec.maximum}, not {shown(value)}"
            )
    else:
        if by_name and isinstance(value, str) and value in enum_type.__members__:
            value = enum_type[value]
        if type(value) is not enum_type:
            raise OptionsError(f"option {name} must be one of {list(spec.allowed)}, not {value!r}")
    return value


# --------------------------------------------------------------------------- rulesets


class Ruleset(abc.ABC, Generic[OptionsT, StateT]):
    """Base of every ruleset. Subclasses set the class attributes and implement the
    abstract hooks; the other hooks have defaults that fit most games.

    Hooks see only states the framework has checked: ``hand_apply`` is given a move that
    is in ``hand_legal_moves``, and a state from outside has passed :meth:`check_match`.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    source: ClassVar[str]
    description: ClassVar[str]
    options_type: ClassVar[type]
    hand_state_type: ClassVar[type]
    min_players: ClassVar[int] = 2
    #: True where the fewest match points win (Tsair Deng).
    low_wins: ClassVar[bool] = False
    #: How this ruleset's hands can end (``HandResult.end``).
    hand_ends: ClassVar[frozenset[HandEnd]]
    #: True where every hand carries its own settlement (``HandResult.settlement``).
    settles_hands: ClassVar[bool] = False

    # ---- hooks every ruleset implements ---------------------------------------

    @abc.abstractmethod
    def full_set(self, options: OptionsT) -> tuple[Tile, ...]:
        """The tiles of the game, in canonical ascending order (the order the deal shuffles)."""

    @abc.abstractmethod
    def max_players(self, options: OptionsT) -> int: ...

    @abc.abstractmethod
    def deal_from(
        self, match: Match[OptionsT, Any], hand_number: int, order: tuple[Tile, ...]
    ) -> tuple[StateT, tuple[Event, ...]]:
        """Deal hand ``hand_number`` (1-based) from ``order``, the whole set in the order a
        shuffle left it; ``match.hand_state`` is the previous hand's state (``None`` for
        the first). :meth:`deal` shuffles; a test passes an exact order instead."""

    @abc.abstractmethod
    def hand_legal_moves(self, state: StateT, options: OptionsT) -> tuple[Move, ...]: ...

    @abc.abstractmethod
    def hand_apply(
        self, match: Match[OptionsT, StateT], move: Move
    ) -> tuple[StateT, tuple[Event, ...]]:
        """Apply a legal move to ``match.hand_state``; the match gives the options, the seed
        (for dice thrown mid-hand) and the hand number."""

    @abc.abstractmethod
    def hand_over(self, state: StateT) -> bool: ...

    @abc.abstractmethod
    def score_hand(self, match: Match[OptionsT, StateT]) -> HandResult:
        """The result of the hand just over (``match.history`` holds the hands before it)."""

    @abc.abstractmethod
    def match_over(self, match: Match[OptionsT, StateT]) -> bool:
        """Called once the hand just scored is in ``match.history``."""

    @abc.abstractmethod
    def stock(self, state: StateT) -> int:
        """Tiles left to draw (boneyard, woodpile)."""

    @abc.abstractmethod
    def table(self, match: Match[OptionsT, StateT], seat: int | None) -> Any:
        """The ruleset's part of a view: the table as ``seat`` sees it."""

    @abc.abstractmethod
    def all_tiles(self, state: StateT) -> tuple[Tile, ...]:
        """Every tile of the set, wherever it lies (for conservation checks)."""

    @abc.abstractmethod
    def check_hand_state(self, match: Match[OptionsT, StateT]) -> None:
        """Raise :class:`InvalidStateError` unless ``match.hand_state`` is one that play can
        reach, as far as the rules rely on it (see :meth:`check_match`).

        Called by :meth:`check_match` once every field has its declared type, the options,
        the players and the rest of the match are valid, ``hands`` holds one sorted hand per
        seat, no larger than the set, and ``to_act`` and ``leader`` are seats. It must bound
        the size of every other tuple before :meth:`all_tiles` is called on the state."""

    # ---- hooks with defaults --------------------------------------------------

    def hand_step(
        self, match: Match[OptionsT, StateT], move: Move
    ) -> tuple[StateT, tuple[Event, ...], bool]:
        """:meth:`hand_apply`, and :meth:`hand_over` of the state it returns: the step of
        every move but ``NEXT_HAND``. A ruleset that knows, as it applies a move, whether
        the move ended the hand may answer both at once (a fast path: it must agree with
        the two hooks)."""
        state, events = self.hand_apply(match, move)
        return state, events, self.hand_over(state)

    def check_options(self, options: OptionsT) -> None:
        """Checks across options; raise :class:`OptionsError`."""

    def max_hands(self, options: OptionsT, players: int) -> int:
        """The most hands a match of these options and players can have: it ends with
        this hand at the latest (:data:`MAX_HANDS` unless the options say fewer). A
        token's history is bounded by it before it is read, so ``options`` and
        ``players`` may still be unchecked: only arithmetic on them, no exception."""
        return MAX_HANDS

    def void_deal(self, match: Match[OptionsT, Any], order: tuple[Tile, ...]) -> bool:
        """True when a deal from ``order`` is void and is dealt again (event ``REDEAL``)."""
        return False

    def hand_to_act(self, state: StateT) -> int:
        return state.to_act

    def hand_tiles(self, state: StateT, seat: int) -> tuple[Tile, ...]:
        return state.hands[seat]

    def running_points(self, state: StateT, players: int) -> tuple[int, ...]:
        """Points scored so far in a hand still in progress (pegging)."""
        return (0,) * players

    def settlement(self, match: Match[OptionsT, StateT]) -> tuple[int, ...] | None:
        """Each seat's net payment, where the ruleset settles; ``None`` otherwise."""
        return None

    # ---- options --------------------------------------------------------------

    @classmethod
    def option_specs(cls) -> tuple[OptionSpec, ...]:
        return _option_specs(cls.options_type)

    def make_options(self, values: Mapping[str, Any] | None = None) -> OptionsT:
        """Options from ``{name: value}``; omitted names take their defaults.

        Enum values may be given as members or by name.
        """
        values = dict(values or {})
        specs = {s.name: s for s in self.option_specs()}
        unknown = sorted(set(values) - set(specs))
        if unknown:
            raise OptionsError(f"{self.id} has no option {unknown[0]!r}; it has {sorted(specs)}")
        hints = _option_hints(self.options_type)
        checked = {
            name: _checked_option(specs[name], hints[name], value, by_name=True)
            for name, value in values.items()
        }
        options = typing.cast(OptionsT, self.options_type(**checked))
        self.check_options(options)
        return options

    @property
    def players_text(self) -> str:
        """How many players, in words (``ListRulesets``)."""
        return f"{self.min_players} to {self.max_players(self.make_options({}))} players"

    def player_range(self, options: OptionsT) -> tuple[int, int]:
        return self.min_players, self.max_players(options)

    # ---- the match ------------------------------------------------------------

    def new_match(self, options: OptionsT, players: int, seed: str) -> Match[OptionsT, StateT]:
        low, high = self.player_range(options)
        if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
            raise PlayerCountError(
                f"{self.name} takes {low} to {high} players with these options, not {players!r}"
            )
        blank: Match[OptionsT, Any] = build_match(
            players, options, seed, 0, None, (), _IN_PROGRESS, ()
        )
        state, events = self.deal(blank, 1)
        return build_match(players, options, seed, 1, state, (), _IN_PROGRESS, events)

    def deal(
        self, match: Match[OptionsT, Any], hand_number: int
    ) -> tuple[StateT, tuple[Event, ...]]:
        """Deal hand ``hand_number``: the set in canonical order (:meth:`full_set`) is
        shuffled with label ``deal/<hand>/<attempt>`` (:func:`.rng.shuffled`) and dealt by
        :meth:`deal_from`. Attempt 0 is the deal, unless :meth:`void_deal` finds it void:
        then attempt 1, 2, ..., each void deal reported by a ``REDEAL`` event (count =
        attempts so far), placed after the ``DEAL`` event."""
        tiles = self.full_set(match.options)
        redeals: list[Event] = []
        for attempt in range(MAX_DEAL_ATTEMPTS):
            order = rng.shuffled(match.seed, f"deal/{hand_number}/{attempt}", tiles)
            if not self.void_deal(match, order):
                state, events = self.deal_from(match, hand_number, order)
                if not redeals:
                    return state, events
                return state, (*events[:1], *redeals, *events[1:])
            redeals.append(Event(EventKind.REDEAL, count=attempt + 1))
        raise RuntimeError("every deal was void")  # pragma: no cover - probability ~ 0

    def ends_match(self, match: Match[OptionsT, StateT]) -> bool:
        """Is the match over once the hand just scored is in ``match.history``: the
        ruleset's :meth:`match_over`, or hand :data:`MAX_HANDS` reached."""
        return match.hand_number >= MAX_HANDS or self.match_over(match)

    def to_act(self, match: Match[OptionsT, StateT]) -> int | None:
        if match.status is _MATCH_OVER:
            return None
        if match.status is _HAND_OVER:
            return 0  # RULES: seat 0 applies NEXT_HAND
        return self.hand_to_act(match.hand_state)

    def legal_moves(self, match: Match[OptionsT, StateT]) -> tuple[Move, ...]:
        """The legal moves of the seat to act; empty once the match is over.

        They are computed once per match object: the match keeps them (see
        :class:`Match`), for this ruleset only.
        """
        cached = match._legal_moves
        if cached is not None and cached[0] is self:
            return cached[1]
        status = match.status
        legal: tuple[Move, ...]
        if status is _IN_PROGRESS:
            legal = self.hand_legal_moves(match.hand_state, match.options)
        elif status is _HAND_OVER:
            legal = _NEXT_HAND_MOVES
        else:
            legal = ()
        match.__dict__[_LEGAL] = (self, legal)
        return legal

    def is_legal(self, match: Match[OptionsT, StateT], move: Move) -> bool:
        return move in self.legal_moves(match)

    def apply(
        self, match: Match[OptionsT, StateT], move: Move
    ) -> tuple[Match[OptionsT, StateT], tuple[Event, ...]]:
        """Apply a move after the generic checks; returns the new match and its events.

        The checks, in order: the move is well formed (:class:`InvalidMoveError`), the match
        is not over (:class:`GameOverError`), the move's seat is to act
        (:class:`NotYourTurnError`), the move is legal (:class:`IllegalMoveError`). The
        messages name the move and public facts only (the kinds of the legal moves, never
        their tiles).

        A playout that takes its move from :meth:`legal_moves` of the same match object
        passes every check at once: the move *is* one of the legal moves this ruleset
        computed and the match keeps (each of them well formed, of the seat to act, in a
        match not over), so nothing is computed twice. Any other move, equal or not, goes
        through the checks in order.
        """
        cached = match._legal_moves
        if cached is not None and cached[0] is self:
            for legal_move in cached[1]:
                if legal_move is move:
                    if move.kind is _NEXT_HAND:
                        return self._apply(match, move)
                    # _apply's common case, without a call more
                    state, events, over = self.hand_step(match, move)
                    if over:
                        return self._hand_ended(match, state, events)
                    fields = match.__dict__.copy()  # fields_of(match)
                    del fields[_LEGAL]  # a cache of the old match, not a field
                    fields["hand_state"] = state
                    fields["last_events"] = events
                    return _make_match(fields), events
        move.check()
        if match.status is _MATCH_OVER:
            raise GameOverError(f"the match is over; no move is legal (got {move})")
        to_act = self.to_act(match)
        if move.seat != to_act:
            raise NotYourTurnError(f"seat {to_act} is to act, not seat {move.seat} (got {move})")
        legal = self.legal_moves(match)
        if move not in legal:
            kinds = " or ".join(dict.fromkeys(m.kind.value for m in legal))
            raise IllegalMoveError(
                f"{move} is not legal: seat {to_act}'s legal moves are {kinds} moves"
            )
        return self._apply(match, move)

    def _apply(
        self, match: Match[OptionsT, StateT], move: Move
    ) -> tuple[Match[OptionsT, StateT], tuple[Event, ...]]:
        """Apply a move known to be legal: the unchecked fast path behind :meth:`apply`.

        The new match is built as ``dataclasses.replace`` would build it, only cheaper
        (:func:`fields_of`, :func:`made_of`, :data:`build_match`).
        """
        if move.kind is _NEXT_HAND:
            players, options, seed = match.players, match.options, match.seed
            number = match.hand_number + 1
            state, dealt = self.deal(match, number)
            events = (_event_of(_NEXT_HAND_EVENT, number, (), ()), *dealt)
            new = build_match(
                players, options, seed, number, state, match.history, _IN_PROGRESS, events
            )
            return new, events
        state, events, over = self.hand_step(match, move)
        if over:
            return self._hand_ended(match, state, events)
        fields = match.__dict__.copy()  # fields_of(match)
        fields.pop(_LEGAL, None)  # a cache of the old match, not a field
        fields["hand_state"] = state
        fields["last_events"] = events
        return _make_match(fields), events

    def _hand_ended(
        self, match: Match[OptionsT, StateT], state: StateT, events: tuple[Event, ...]
    ) -> tuple[Match[OptionsT, StateT], tuple[Event, ...]]:
        """The match after a move that ended the hand (``state``, ``events``): the hand is
        scored, then the match may be over."""
        fields = match.__dict__.copy()  # fields_of(match)
        fields.pop(_LEGAL, None)  # a cache of the old match, not a field
        fields["hand_state"] = state
        result = self.score_hand(_make_match(fields.copy()))
        fields["history"] = (*match.history, result)
        new = _make_match(fields.copy())
        events += (_event_of(_HAND_OVER_EVENT, None, result.winners, result.points),)
        if self.ends_match(new):
            fields["status"] = _MATCH_OVER
            new = _make_match(fields.copy())
            events += (_event_of(_MATCH_OVER_EVENT, None, self.winners(new), self.totals(new)),)
        else:
            fields["status"] = _HAND_OVER
        fields["last_events"] = events
        return _make_match(fields), events

    # ---- scores and views -----------------------------------------------------

    def totals(self, match: Match[OptionsT, StateT]) -> tuple[int, ...]:
        players = match.players
        history = match.history
        # by columns: one sum per seat over all the hands (a history has up to 1,000)
        totals = (
            list(map(sum, zip(*map(_POINTS, history), strict=True))) if history else [0] * players
        )
        if match.status is _IN_PROGRESS:
            running = self.running_points(match.hand_state, players)
            if any(running):  # points pegged in this hand (none in most games)
                for seat, value in enumerate(running):
                    totals[seat] += value
        return tuple(totals)

    def winners(self, match: Match[OptionsT, StateT]) -> tuple[int, ...]:
        """Seats with the best match total (equal best share the win); empty until the end."""
        if match.status is not _MATCH_OVER:
            return ()
        totals = self.totals(match)
        best = min(totals) if self.low_wins else max(totals)
        return tuple(seat for seat, total in enumerate(totals) if total == best)

    def score(self, match: Match[OptionsT, StateT]) -> Score:
        if match.status is _IN_PROGRESS:
            hand_points = self.running_points(match.hand_state, match.players)
        else:
            hand_points = match.history[-1].points
        return Score(
            status=match.status,
            hand_points=hand_points,
            match_points=self.totals(match),
            hands=match.history,
            winners=self.winners(match),
            settlement=self.settlement(match),
        )

    def view(self, match: Match[OptionsT, StateT], seat: int | None) -> View:
        """What ``seat`` may see; ``None`` is a spectator, who sees only the public part."""
        to_act = self.to_act(match)
        state = match.hand_state
        return View(
            seat=seat,
            status=match.status,
            to_act=to_act,
            hand_number=match.hand_number,
            hand=self.hand_tiles(state, seat) if seat is not None else (),
            hand_sizes=tuple(len(self.hand_tiles(state, s)) for s in range(match.players)),
            stock=self.stock(state),
            legal_moves=self.legal_moves(match) if seat is not None and seat == to_act else (),
            events=tuple(e.for_seat(seat) for e in match.last_events),
            match_points=self.totals(match),
            table=self.table(match, seat),
        )

    # ---- the check of a state from outside --------------------------------------

    def check_match(self, match: Match[Any, Any], *, typed: bool = False) -> None:
        """Raise :class:`InvalidStateError` unless ``match`` is a state of this ruleset that
        play can reach, as far as any rule relies on it.

        ``typed``: the caller vouches that every field has its declared type all the way
        down, so the walk over the types is skipped. Only for a match just built by this
        ruleset's unpacker (:func:`domino_rules.packing.unpack`), which makes every value
        of its declared type by construction (the tests check it on every kind of state);
        every other check runs.

        A state decoded from a client's token may be forged: any field can hold any value.
        This checks everything before a rule runs, so that afterwards ``legal_moves``,
        ``view`` (of a seat at the table or a spectator), ``score`` and ``apply`` raise
        nothing but :class:`RulesError`, and their work is bounded by the ruleset's own
        sizes. It is cheap (no sorting, one pass over the tiles) and never re-derives a deal
        from the seed. In order:

        * every field has its declared type, all the way down;
        * the options pass the same checks as in :meth:`make_options`; the number of
          players is in the ruleset's range for them; the seed has 1 to
          :data:`MAX_SEED_CHARS` characters and is valid Unicode text;
        * ``hand_number`` is 1 to :meth:`max_hands` (at most :data:`MAX_HANDS`);
          ``history`` holds the hands before the current one (``IN_PROGRESS``) or up to
          and including it (``HAND_OVER``, ``MATCH_OVER``); each result has one count,
          point and (where the ruleset settles hand by hand) settlement per seat, within
          :data:`MAX_HAND_POINTS` (counts and points never negative), winners in
          ascending seat order, an ``end`` the ruleset uses; match totals and
          settlements are within :data:`MAX_TOTAL`;
        * ``last_events``: at most :data:`MAX_EVENTS`, each with seats at the table, tiles
          of the set, pips of the set, dice of 1 to 6 (at most 3), and bounded numbers;
        * the hand state: one sorted hand per seat, no larger than the set; ``to_act`` and
          ``leader`` are seats; then the ruleset's own :meth:`check_hand_state`; then all
          its tiles together are exactly one copy of the set;
        * the status fits the hand: ``IN_PROGRESS`` exactly when the hand is not over, the
          last result is the score of the finished hand, ``MATCH_OVER`` exactly when the
          match ends with it, and a hand in progress follows one that did not end the
          match; a hand in progress has a legal move.
        """
        if not typed:
            self._check_match_types(match)
        options, players = match.options, match.players
        if not self._options_in_range(options):
            try:
                hints = _option_hints(self.options_type)
                for spec in self.option_specs():
                    _checked_option(
                        spec, hints[spec.name], getattr(options, spec.name), by_name=False
                    )
            except OptionsError as exc:
                raise InvalidStateError(f"the options are not valid: {exc}") from None
        try:
            self.check_options(options)
        except OptionsError as exc:
            raise InvalidStateError(f"the options are not valid: {exc}") from None
        low, high = self.player_range(options)
        if not low <= players <= high:
            check_range(players, low, high, "players")
        seed = match.seed
        if not 1 <= len(seed) <= MAX_SEED_CHARS:
            check_range(len(seed), 1, MAX_SEED_CHARS, "the length of the seed")
        try:
            seed.encode("utf-8")
        except UnicodeError:
            fail("the seed is not valid Unicode text")
        number, status, history = match.hand_number, match.status, match.history
        if not 1 <= number <= MAX_HANDS:
            check_range(number, 1, MAX_HANDS, "hand_number")
        last = min(self.max_hands(options, players), MAX_HANDS)
        if number > last:
            check_range(number, 1, last, "hand_number")
        over = status is not _IN_PROGRESS
        if len(history) != number - (0 if over else 1):
            fail(f"{len(history)} hands in the history do not fit hand {number} ({status.value})")
        self._check_history(history, players)
        full = self.full_set(options)
        codes = set_codes(full)
        self._check_events(match, codes)
        self._check_hand_state_shape(match, len(full))
        self.check_hand_state(match)
        # all the tiles together are exactly one copy of the set
        if sorted([tile.code for tile in self.all_tiles(match.hand_state)]) != list(codes.codes):
            fail("the tiles are not exactly one copy of the set")
        self._check_status(match)

    def _options_in_range(self, options: Any) -> bool:
        """Every int option within its range (the option types are checked already):
        ``False`` sends :meth:`check_match` to the checks of :meth:`make_options`."""
        for name, low, high in _int_option_ranges(self.options_type):
            value = getattr(options, name)
            if (low is not None and value < low) or (high is not None and value > high):
                return False
        return True

    def _check_match_types(self, match: Match[Any, Any]) -> None:
        if type(match) is not Match:
            fail(f"a match must be a Match, not a {type(match).__name__}")
        for name, limit in (("history", MAX_HANDS), ("last_events", MAX_EVENTS)):
            items = getattr(match, name)
            if type(items) is tuple and len(items) > limit:  # bounded before a deeper look
                check_length(items, 0, limit, name)
        if _match_type_ok(self.options_type, self.hand_state_type)(match):
            return
        # some field is not of its type: find the first, for the message
        for name, check in _match_checks(self.options_type, self.hand_state_type):
            check(getattr(match, name), name)
        raise AssertionError("type_ok and type_check disagree")  # pragma: no cover

    def _check_history(self, history: tuple[HandResult, ...], players: int) -> None:
        if not self._history_ok(history, players):
            self._explain_history(history, players)

    def _explain_history(self, history: tuple[HandResult, ...], players: int) -> None:
        """The checks of the history hand by hand, in order: raise the error of the first
        that fails (:meth:`_history_ok` found one); pass a history that fails none."""
        totals = [0] * players
        nets = [0] * players
        settled = players if self.settles_hands else 0
        hand_ends = self.hand_ends
        for number, result in enumerate(history, start=1):
            counts, points, settlement = result.counts, result.points, result.settlement
            for name, values, size, low in (
                ("counts", counts, players, 0),
                ("points", points, players, 0),
                ("settlement", settlement, settled, -MAX_HAND_POINTS),
            ):
                if len(values) != size:
                    check_length(values, size, size, f"the result of hand {number}: {name}")
                if values and (min(values) < low or max(values) > MAX_HAND_POINTS):
                    for value in values:
                        check_range(
                            value,
                            low,
                            MAX_HAND_POINTS,
                            f"the result of hand {number}: one of its {name}",
                        )
            winners = result.winners
            if not 1 <= len(winners) <= players:
                check_length(winners, 1, players, f"the result of hand {number}: winners")
            if min(winners) < 0 or max(winners) >= players:
                for seat in winners:
                    check_seat(seat, players, f"the result of hand {number}: a winner")
            last = -1
            for seat in winners:
                if seat <= last:
                    fail(
                        f"the result of hand {number}: "
                        "winners are not distinct seats in ascending order"
                    )
                last = seat
            if result.end not in hand_ends:
                fail(f"the result of hand {number}: {self.name} has no end {result.end}")
            for seat in range(players):
                totals[seat] += points[seat]
            if settled:
                for seat in range(players):
                    nets[seat] += settlement[seat]
        for seat in range(players):
            if not 0 <= totals[seat] <= MAX_TOTAL:
                check_range(totals[seat], 0, MAX_TOTAL, f"seat {seat}'s match total")
            if not -MAX_TOTAL <= nets[seat] <= MAX_TOTAL:
                check_range(nets[seat], -MAX_TOTAL, MAX_TOTAL, f"seat {seat}'s settlement")

    def _history_ok(self, history: tuple[HandResult, ...], players: int) -> bool:
        """True exactly when :meth:`_explain_history` raises nothing: the same checks by
        columns, each a builtin over all the hands at once (a history has up to 1,000
        hands, and a loop per hand and seat cost more than the rest of a decode; the
        tests check that the two agree). ``False`` sends to the loop for the message."""
        if not history:
            return True
        size = {players}
        counts = list(map(_COUNTS, history))
        points = list(map(_POINTS, history))
        settlements = list(map(_SETTLEMENT, history))
        if set(map(len, counts)) != size or set(map(len, points)) != size:
            return False
        if set(map(len, settlements)) != (size if self.settles_hands else {0}):
            return False
        # (points are often the counts themselves: then the counts' check is theirs)
        ranges = [(counts, 0)] if points == counts else [(counts, 0), (points, 0)]
        if self.settles_hands:
            ranges.append((settlements, -MAX_HAND_POINTS))
        for column, low in ranges:
            if low == 0:
                # bytes() takes numbers from 0 to 255 only: the range check of the usual
                # small numbers in one pass in C; anything else is checked by min and max
                with contextlib.suppress(ValueError):
                    bytes(itertools.chain.from_iterable(column))
                    continue
            values = list(itertools.chain.from_iterable(column))  # min of each tuple: slower
            if min(values) < low or max(values) > MAX_HAND_POINTS:
                return False
        # every end one the ruleset uses, counted by identity (an enum's hash is Python
        # code, a set of a thousand ends costs more than this)
        ends = list(map(_END, history))
        if sum(map(ends.count, self.hand_ends)) != len(ends):
            return False
        for winners in set(map(_WINNERS, history)):  # a few distinct tuples of seats
            if not 1 <= len(winners) <= players or not 0 <= winners[0] <= winners[-1] < players:
                return False
            if any(a >= b for a, b in itertools.pairwise(winners)):
                return False
        if not all(0 <= total <= MAX_TOTAL for total in map(sum, zip(*points, strict=True))):
            return False
        return not self.settles_hands or all(
            -MAX_TOTAL <= net <= MAX_TOTAL for net in map(sum, zip(*settlements, strict=True))
        )

    def _check_events(self, match: Match[Any, Any], codes: SetCodes) -> None:
        events, players = match.last_events, match.players
        in_set, size, top = codes.distinct, len(codes.codes), codes.top
        if len(events) > MAX_EVENTS:
            check_length(events, 0, MAX_EVENTS, "last_events")
        for event in events:
            seat, private_to, open_pip = event.seat, event.private_to, event.open_pip
            tile, target, tiles = event.tile, event.target, event.tiles
            dice, count, points = event.dice, event.count, event.points
            seats, scores = event.seats, event.scores
            if (
                (seat is not None and not 0 <= seat < players)
                or (private_to is not None and not 0 <= private_to < players)
                or (tile is not None and tile.code not in in_set)
                or (target is not None and target.code not in in_set)
                or len(tiles) > size
                or (open_pip is not None and not 0 <= open_pip <= top)
                or len(dice) > 3
                or (dice and (min(dice) < 1 or max(dice) > 6))
                or (count is not None and not 0 <= count <= MAX_COUNT)
                or (points is not None and not -MAX_HAND_POINTS <= points <= MAX_HAND_POINTS)
                or len(seats) > players
                or (seats and (min(seats) < 0 or max(seats) >= players))
                or len(scores) > players
                or (scores and (min(scores) < -MAX_TOTAL or max(scores) > MAX_TOTAL))
                or event.hidden
            ):
                self._explain_event(event, players, codes)
            for t in tiles:
                if t.code not in in_set:
                    self._explain_event(event, players, codes)

    def _explain_event(self, event: Event, players: int, codes: SetCodes) -> None:
        """Raise the error of the first check ``event`` fails (see :meth:`check_match`)."""
        in_set, size, top = codes.distinct, len(codes.codes), codes.top
        what = f"a {event.kind.value} event"
        for seat in (event.seat, event.private_to):
            if seat is not None:
                check_seat(seat, players, f"{what}: seat")
        tiles = (event.tile, event.target, *event.tiles)
        require(
            all(tile is None or tile.code in in_set for tile in tiles),
            f"{what} names a tile that is not in the set",
        )
        check_length(event.tiles, 0, size, f"{what}: tiles")
        if event.open_pip is not None:
            check_range(event.open_pip, 0, top, f"{what}: open_pip")
        check_length(event.dice, 0, 3, f"{what}: dice")
        for die in event.dice:
            check_range(die, 1, 6, f"{what}: a die")
        if event.count is not None:
            check_range(event.count, 0, MAX_COUNT, f"{what}: count")
        if event.points is not None:
            check_range(event.points, -MAX_HAND_POINTS, MAX_HAND_POINTS, f"{what}: points")
        check_length(event.seats, 0, players, f"{what}: seats")
        for seat in event.seats:
            check_seat(seat, players, f"{what}: one of its seats")
        check_length(event.scores, 0, players, f"{what}: scores")
        for score in event.scores:
            check_range(score, -MAX_TOTAL, MAX_TOTAL, f"{what}: one of its scores")
        require(not event.hidden, f"{what} is a redacted copy; a state keeps the original")
        raise AssertionError("an event refused by no check")  # pragma: no cover

    def _check_hand_state_shape(self, match: Match[Any, Any], size: int) -> None:
        state, players = match.hand_state, match.players
        hands = state.hands
        if len(hands) != players:
            check_length(hands, players, players, "hands")
        for seat, tiles in enumerate(hands):
            if len(tiles) > size:
                check_length(tiles, 0, size, f"seat {seat}'s hand")
            if not is_sorted(tiles):
                fail(f"seat {seat}'s hand is not in ascending order")
        if not 0 <= state.to_act < players:
            check_seat(state.to_act, players, "to_act")
        if not 0 <= state.leader < players:
            check_seat(state.leader, players, "leader")

    def _check_status(self, match: Match[Any, Any]) -> None:
        status, state = match.status, match.hand_state
        if status is _IN_PROGRESS:
            require(not self.hand_over(state), "the hand is over, but the status is IN_PROGRESS")
            if match.hand_number > 1:
                before = match.__dict__.copy()  # fields_of(match)
                before.pop(_LEGAL, None)
                before["hand_number"] = match.hand_number - 1
                before["status"] = _HAND_OVER
                ended = self.ends_match(_make_match(before))
                require(not ended, "a hand is played after the match ended")
            require(bool(self.legal_moves(match)), "nobody has a legal move")
            return
        require(self.hand_over(state), f"the hand is not over, but the status is {status.value}")
        earlier = match.__dict__.copy()  # fields_of(match)
        earlier.pop(_LEGAL, None)
        earlier["history"] = match.history[:-1]
        require(
            self.score_hand(_make_match(earlier)) == match.history[-1],
            "the last result is not the score of the finished hand",
        )
        ends = self.ends_match(match)
        require(ends == (status is _MATCH_OVER), f"the match end does not fit {status.value}")


@functools.cache
def _match_type_ok(options_type: type, hand_state_type: type) -> Callable[[Any], bool]:
    """:func:`.checks.type_ok` of a ``Match`` of one ruleset, all fields at once."""
    hints = dict(typing.get_type_hints(Match))
    hints["options"] = options_type
    hints["hand_state"] = hand_state_type
    checks = [(f.name, type_ok(hints[f.name])) for f in dataclasses.fields(Match)]
    players, options, seed, number, hand, history, status, events = (ok for _, ok in checks)

    def ok(match: Any) -> bool:
        return (
            players(match.players)
            and options(match.options)
            and seed(match.seed)
            and number(match.hand_number)
            and hand(match.hand_state)
            and history(match.history)
            and status(match.status)
            and events(match.last_events)
        )

    assert [name for name, _ in checks] == [
        "players",
        "options",
        "seed",
        "hand_number",
        "hand_state",
        "history",
        "status",
        "last_events",
    ]
    return ok


@functools.cache
def _int_option_ranges(options_type: type) -> tuple[tuple[str, int | None, int | None], ...]:
    """``(name, minimum, maximum)`` of each int option."""
    return tuple(
        (spec.name, spec.minimum, spec.maximum)
        for spec in _option_specs(options_type)
        if spec.type == "int"
    )


@functools.cache
def _match_checks(options_type: type, hand_state_type: type) -> tuple[tuple[str, TypeCheck], ...]:
    """The type check of each field of a ``Match`` of one ruleset."""
    hints = dict(typing.get_type_hints(Match))
    hints["options"] = options_type
    hints["hand_state"] = hand_state_type
    return tuple((f.name, type_check(hints[f.name])) for f in dataclasses.fields(Match))
