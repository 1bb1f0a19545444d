"""What the framework shows: one seat's view of a match, and a match's score."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from .events import Event
from .match import HandResult, Status
from .moves import Move
from .tiles import Tile

__all__ = ["HandReasons", "Score", "View"]


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
    #: Once the hand is over: every seat's tiles left in hand, turned up to count.
    shown_hands: tuple[tuple[Tile, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Score:
    status: Status
    hand_points: tuple[int, ...]
    match_points: tuple[int, ...]
    hands: tuple[HandResult, ...]
    winners: tuple[int, ...]
    settlement: tuple[int, ...] | None
    #: How each hand of ``hands`` was decided, in words (:meth:`Ruleset.explain_hand`),
    #: made when first read (:class:`HandReasons`).
    reasons: Sequence[str] = ()


class HandReasons(Sequence[str]):
    """The reasons of a score's hands, made by ``make`` when first read and then kept.

    A score is also read for its points alone, move after move (a replay checks a
    record's match points at every step): that reading does not pay for the words. It
    is a sequence of strings like the tuple it makes, and equal to it.

    >>> reasons = HandReasons(lambda: ("Blocked: seat 1 wins the hand.",))
    >>> len(reasons), reasons[0], reasons == ("Blocked: seat 1 wins the hand.",)
    (1, 'Blocked: seat 1 wins the hand.', True)
    """

    __slots__ = ("_made", "_make")

    def __init__(self, make: Callable[[], tuple[str, ...]]) -> None:
        self._make = make
        self._made: tuple[str, ...] | None = None

    def _reasons(self) -> tuple[str, ...]:
        made = self._made
        if made is None:
            made = self._made = self._make()
        return made

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        return self._reasons()[index]

    def __len__(self) -> int:
        return len(self._reasons())

    def __iter__(self) -> Iterator[str]:
        return iter(self._reasons())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HandReasons):
            other = other._reasons()
        return self._reasons() == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._reasons())

    def __repr__(self) -> str:
        return repr(self._reasons())
