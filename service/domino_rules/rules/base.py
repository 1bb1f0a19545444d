"""The ruleset framework: moves, events, match scaffolding, views and scores.

A ruleset implements a handful of *hand hooks* (deal a hand, the seat to act, its legal
moves, apply one legal move, is the hand over, score it, what a seat sees of the table).
The framework owns everything that is the same in every game:

* the generic checks of :meth:`Ruleset.apply`: game over, wrong seat, move not legal
  (legality has one home, :meth:`Ruleset.legal_moves`);
* the match: hand numbers, ``HAND_OVER`` -> ``NEXT_HAND`` (seat 0 acts for it), totals,
  match end and winners (equal best totals share the win);
* options: typed, with defaults and ranges declared on the options dataclass;
* views: own hand, others' hand sizes, the stock, the seat's legal moves, the last
  move's events with other seats' secrets removed.

States are frozen dataclasses: applying a move returns a new state and never changes
the one passed in.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from .errors import (
    GameOverError,
    IllegalMoveError,
    NotYourTurnError,
    OptionsError,
    PlayerCountError,
)
from .tiles import Tile

__all__ = [
    "End",
    "Event",
    "EventKind",
    "HandResult",
    "Match",
    "Move",
    "MoveKind",
    "OptionSpec",
    "Ruleset",
    "Score",
    "Status",
    "View",
    "next_seat",
    "option",
    "replace_at",
]


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


@dataclass(frozen=True, slots=True)
class Move:
    """A move: who, what, and the fields that kind needs.

    >>> str(Move(0, MoveKind.PLAY, Tile(6, 4), end=End.LEFT))
    '0 PLAY [6-4] LEFT'
    >>> Move.parse('0 PLAY [6-4] LEFT') == Move(0, MoveKind.PLAY, Tile(6, 4), end=End.LEFT)
    True
    """

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

    @classmethod
    def parse(cls, text: str) -> Move:
        """Inverse of ``str(move)``."""
        words = text.split()
        if len(words) < 2:
            raise ValueError(f"not a move: {text!r}")
        try:
            seat, kind = int(words[0]), MoveKind[words[1]]
            tile = target = end = open_pip = None
            for word in words[2:]:
                if word.startswith("x"):
                    target = Tile.parse(word[1:])
                elif word.startswith("open="):
                    open_pip = int(word[5:])
                elif word in End.__members__:
                    end = End[word]
                else:
                    tile = Tile.parse(word)
        except (KeyError, ValueError) as exc:
            raise ValueError(f"not a move: {text!r}") from exc
        return cls(seat, kind, tile, target, end, open_pip)


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class HandResult:
    """One finished hand: raw counts, points scored, winners, and per-hand settlement."""

    counts: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    settlement: tuple[int, ...] = ()


HandT = TypeVar("HandT")
OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True, slots=True)
class Match(Generic[OptionsT, HandT]):
    """The whole game: the match around the state of the current hand (a ruleset's value)."""

    players: int
    options: OptionsT
    seed: str
    hand_number: int
    hand_state: HandT
    history: tuple[HandResult, ...] = ()
    status: Status = Status.IN_PROGRESS
    last_events: tuple[Event, ...] = ()


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


# --------------------------------------------------------------------------- helpers

T = TypeVar("T")


def next_seat(seat: int, players: int) -> int:
    """The seat after ``seat`` in turn order (increasing seat numbers, wrapping around)."""
    return (seat + 1) % players


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with item ``index`` replaced by ``value`` (states are immutable tuples)."""
    return (*items[:index], value, *items[index + 1 :])


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


# --------------------------------------------------------------------------- rulesets


class Ruleset(Generic[OptionsT, HandT]):
    """Base of every ruleset. Subclasses set the class attributes and implement the hooks.

    Hooks see only states the framework has checked: ``hand_apply`` is given a move that
    is in ``hand_legal_moves``.
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

    # ---- hooks ----------------------------------------------------------------

    def max_players(self, options: OptionsT) -> int:
        raise NotImplementedError

    def check_options(self, options: OptionsT) -> None:
        """Checks across options; raise :class:`OptionsError`."""

    def deal(
        self, match: Match[OptionsT, Any], hand_number: int
    ) -> tuple[HandT, tuple[Event, ...]]:
        """Deal hand ``hand_number`` (1-based) of ``match`` (whose ``hand`` is the previous one,
        or ``None`` for the first)."""
        raise NotImplementedError

    def hand_to_act(self, hand: HandT) -> int:
        raise NotImplementedError

    def hand_legal_moves(self, hand: HandT, options: OptionsT) -> tuple[Move, ...]:
        raise NotImplementedError

    def hand_apply(
        self, match: Match[OptionsT, HandT], move: Move
    ) -> tuple[HandT, tuple[Event, ...]]:
        """Apply a legal move to ``match.hand_state``; the match gives the options, the seed (for
        dice thrown mid-hand) and the hand number."""
        raise NotImplementedError

    def hand_over(self, hand: HandT) -> bool:
        raise NotImplementedError

    def score_hand(self, match: Match[OptionsT, HandT]) -> HandResult:
        raise NotImplementedError

    def match_over(self, match: Match[OptionsT, HandT]) -> bool:
        """Called once the hand just scored is in ``match.history``."""
        raise NotImplementedError

    def hand_tiles(self, hand: HandT, seat: int) -> tuple[Tile, ...]:
        raise NotImplementedError

    def stock(self, hand: HandT) -> int:
        """Tiles left to draw (boneyard, woodpile)."""
        raise NotImplementedError

    def table(self, match: Match[OptionsT, HandT], seat: int | None) -> Any:
        """The ruleset's part of a view: the table as ``seat`` sees it."""
        raise NotImplementedError

    def all_tiles(self, hand: HandT) -> tuple[Tile, ...]:
        """Every tile of the set, wherever it lies (for conservation checks)."""
        raise NotImplementedError

    def full_set(self, options: OptionsT) -> tuple[Tile, ...]:
        raise NotImplementedError

    def running_points(self, hand: HandT, players: int) -> tuple[int, ...]:
        """Points scored so far in a hand still in progress (pegging)."""
        return (0,) * players

    def settlement(self, match: Match[OptionsT, HandT]) -> tuple[int, ...] | None:
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
        hints = typing.get_type_hints(self.options_type)
        checked: dict[str, Any] = {}
        for name, value in values.items():
            spec = specs[name]
            if spec.type == "bool":
                if not isinstance(value, bool):
                    raise OptionsError(f"option {name} must be true or false, not {value!r}")
            elif spec.type == "int":
                if isinstance(value, bool) or not isinstance(value, int):
                    raise OptionsError(f"option {name} must be an integer, not {value!r}")
                if (spec.minimum is not None and value < spec.minimum) or (
                    spec.maximum is not None and value > spec.maximum
                ):
                    raise OptionsError(
                        f"option {name} must be from {spec.minimum} to {spec.maximum}, "
                        f"not {value!r}"
                    )
            else:
                enum_type = hints[name]
                if isinstance(value, str) and value in enum_type.__members__:
                    value = enum_type[value]
                if not isinstance(value, enum_type):
                    raise OptionsError(
                        f"option {name} must be one of {list(spec.allowed)}, not {value!r}"
                    )
            checked[name] = value
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

    def new_match(self, options: OptionsT, players: int, seed: str) -> Match[OptionsT, HandT]:
        low, high = self.player_range(options)
        if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
            raise PlayerCountError(
                f"{self.name} takes {low} to {high} players with these options, not {players!r}"
            )
        blank: Match[OptionsT, Any] = Match(players, options, seed, 0, None)
        hand, events = self.deal(blank, 1)
        return Match(players, options, seed, 1, hand, last_events=events)

    def to_act(self, match: Match[OptionsT, HandT]) -> int | None:
        if match.status is Status.MATCH_OVER:
            return None
        if match.status is Status.HAND_OVER:
            return 0  # RULES: seat 0 applies NEXT_HAND
        return self.hand_to_act(match.hand_state)

    def legal_moves(self, match: Match[OptionsT, HandT]) -> tuple[Move, ...]:
        """The legal moves of the seat to act; empty once the match is over."""
        if match.status is Status.MATCH_OVER:
            return ()
        if match.status is Status.HAND_OVER:
            return (Move(0, MoveKind.NEXT_HAND),)
        return self.hand_legal_moves(match.hand_state, match.options)

    def is_legal(self, match: Match[OptionsT, HandT], move: Move) -> bool:
        return move in self.legal_moves(match)

    def apply(
        self, match: Match[OptionsT, HandT], move: Move
    ) -> tuple[Match[OptionsT, HandT], tuple[Event, ...]]:
        """Apply a move after the generic checks; returns the new match and its events."""
        if match.status is Status.MATCH_OVER:
            raise GameOverError(f"the match is over; no move is legal (got {move})")
        to_act = self.to_act(match)
        if move.seat != to_act:
            raise NotYourTurnError(f"seat {to_act} is to act, not seat {move.seat} (got {move})")
        legal = self.legal_moves(match)
        if move not in legal:
            raise IllegalMoveError(
                f"{move} is not legal; legal moves are: {', '.join(map(str, legal))}"
            )
        return self._apply(match, move)

    def _apply(
        self, match: Match[OptionsT, HandT], move: Move
    ) -> tuple[Match[OptionsT, HandT], tuple[Event, ...]]:
        """Apply a move known to be legal."""
        if move.kind is MoveKind.NEXT_HAND:
            number = match.hand_number + 1
            hand, dealt = self.deal(match, number)
            events = (Event(EventKind.NEXT_HAND, count=number), *dealt)
            new = dataclasses.replace(
                match,
                hand_number=number,
                hand_state=hand,
                status=Status.IN_PROGRESS,
                last_events=events,
            )
            return new, events
        hand, events = self.hand_apply(match, move)
        new = dataclasses.replace(match, hand_state=hand)
        if self.hand_over(hand):
            result = self.score_hand(new)
            new = dataclasses.replace(new, history=(*match.history, result))
            events += (Event(EventKind.HAND_OVER, seats=result.winners, scores=result.points),)
            if self.match_over(new):
                new = dataclasses.replace(new, status=Status.MATCH_OVER)
                events += (
                    Event(EventKind.MATCH_OVER, seats=self.winners(new), scores=self.totals(new)),
                )
            else:
                new = dataclasses.replace(new, status=Status.HAND_OVER)
        new = dataclasses.replace(new, last_events=events)
        return new, events

    # ---- scores and views -----------------------------------------------------

    def totals(self, match: Match[OptionsT, HandT]) -> tuple[int, ...]:
        totals = [0] * match.players
        for result in match.history:
            for seat, points in enumerate(result.points):
                totals[seat] += points
        if match.status is Status.IN_PROGRESS:
            for seat, points in enumerate(self.running_points(match.hand_state, match.players)):
                totals[seat] += points
        return tuple(totals)

    def winners(self, match: Match[OptionsT, HandT]) -> tuple[int, ...]:
        """Seats with the best match total (equal best share the win); empty until the end."""
        if match.status is not Status.MATCH_OVER:
            return ()
        totals = self.totals(match)
        best = min(totals) if self.low_wins else max(totals)
        return tuple(seat for seat, total in enumerate(totals) if total == best)

    def score(self, match: Match[OptionsT, HandT]) -> Score:
        if match.status is Status.IN_PROGRESS:
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

    def view(self, match: Match[OptionsT, HandT], seat: int | None) -> View:
        """What ``seat`` may see; ``None`` is a spectator, who sees only the public part."""
        to_act = self.to_act(match)
        hand = match.hand_state
        return View(
            seat=seat,
            status=match.status,
            to_act=to_act,
            hand_number=match.hand_number,
            hand=self.hand_tiles(hand, seat) if seat is not None else (),
            hand_sizes=tuple(len(self.hand_tiles(hand, s)) for s in range(match.players)),
            stock=self.stock(hand),
            legal_moves=self.legal_moves(match) if seat is not None and seat == to_act else (),
            events=tuple(e.for_seat(seat) for e in match.last_events),
            match_points=self.totals(match),
            table=self.table(match, seat),
        )
