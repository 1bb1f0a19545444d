"""The match: the whole game around the state of the hand in play, and what the
framework reads of every hand state."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from .events import Event
from .moves import Move
from .tiles import Tile

__all__ = ["HandEnd", "HandResult", "HandState", "Match", "Status"]


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
