"""The match: the whole game around the state of the hand in play, and what the
framework reads of every hand state."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .building import fields_of, frozen_builder, made_of
from .events import Event
from .tiles import Tile

__all__ = [
    "HandEnd",
    "HandResult",
    "HandState",
    "Match",
    "Status",
    "build_match",
    "hand_result",
    "held_tiles",
    "with_hand",
]


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
    TARGET_REACHED = "TARGET_REACHED"  # a side reached the match's target during the hand


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


#: ``Match(*fields)``, every field given in order (:func:`frozen_builder`).
build_match: Callable[..., Match[Any, Any]] = frozen_builder(Match)
#: ``HandResult(counts, points, winners, end, settlement)``, all given (:func:`frozen_builder`).
hand_result: Callable[..., HandResult] = frozen_builder(HandResult)

_match_of: Callable[[dict[str, Any]], Match[Any, Any]] = made_of(Match)


def with_hand(
    match: Match[Any, HandT],
    state: HandT,
    events: tuple[Any, ...] | None = None,
    *,
    history: tuple[HandResult, ...] | None = None,
    status: Any = None,
) -> Match[Any, HandT]:
    """``dataclasses.replace(match, hand_state=state)``, and ``last_events``, ``history``
    and ``status`` where given, built by :func:`made_of`: the match of every move.

    >>> import dataclasses
    >>> from domino_rules.rules import Status
    >>> match = Match(2, None, "seed", 1, "before")
    >>> with_hand(match, "after", status=Status.HAND_OVER) == dataclasses.replace(
    ...     match, hand_state="after", status=Status.HAND_OVER)
    True
    """
    fields = fields_of(match)
    fields["hand_state"] = state
    if events is not None:
        fields["last_events"] = events
    if history is not None:
        fields["history"] = history
    if status is not None:
        fields["status"] = status
    return _match_of(fields)


def held_tiles(state: HandState) -> tuple[Tile, ...]:
    """Every tile in every seat's hand (a piece of each ruleset's ``all_tiles``)."""
    return tuple([tile for tiles in state.hands for tile in tiles])
