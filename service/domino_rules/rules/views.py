"""What the framework shows: one seat's view of a match, and a match's score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .events import Event
from .match import HandResult, Status
from .moves import Move
from .tiles import Tile

__all__ = ["Score", "View"]


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
