"""Events: what happened inside a move, with what only one seat may see."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from .building import dict_init, fields_of, made_of
from .moves import End
from .tiles import Tile

__all__ = ["Event", "EventKind"]


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
    ENGINE = "ENGINE"  # the hand's engine (tile; seat = who placed it, unset when set aside)
    MARKER_UP = "MARKER_UP"  # the seat's train turned public
    MARKER_DOWN = "MARKER_DOWN"  # the seat's train turned private again


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
    #: The train or arm of a ``PLAY`` (Mexican Train, Chicken Foot).
    train: int | None = None

    def for_seat(self, seat: int | None) -> Event:
        """The event as ``seat`` (``None``: a spectator) may see it."""
        if self.private_to is None or self.private_to == seat:
            return self
        fields = fields_of(self)
        fields.update(tile=None, target=None, tiles=(), open_pip=None, hidden=True)
        fields["private_to"] = None
        return _event_of(fields)


_event_of = made_of(Event)
#: The dataclass's own ``__init__`` (the tests check the fast one against it).
dataclass_init: Any = vars(Event)["__init__"]
Event.__init__ = dict_init(Event)  # type: ignore[method-assign]
