"""The match: the whole game around the state of the hand in play, and what the
framework reads of every hand state."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from .events import Event
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
    """

    players: int
    options: OptionsT
    seed: str
    hand_number: int
    hand_state: HandT
    history: tuple[HandResult, ...] = ()
    status: Status = Status.IN_PROGRESS
    last_events: tuple[Event, ...] = ()


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
