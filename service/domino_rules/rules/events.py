"""Events: what happened inside a move, with what only one seat may see."""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

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
        fields = self.__dict__.copy()
        fields.update(tile=None, target=None, tiles=(), open_pip=None, hidden=True)
        fields["private_to"] = None
        hidden = _new(Event)
        _set(hidden, "__dict__", fields)
        return hidden


_new = object.__new__
_set = object.__setattr__


def _dict_init(cls: type) -> Any:
    """An ``__init__`` for the frozen dataclass ``cls`` (no slots, no ``__post_init__``)
    that takes the same arguments, defaults included, and sets the instance dict at once
    instead of each field with its own ``object.__setattr__`` (about four times cheaper:
    events are made on every move)."""
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {"set": _set}
    params = []
    for f in fields:
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"default_{f.name}"] = f.default
            params.append(f"{f.name}=default_{f.name}")
    items = ", ".join(f"{f.name!r}: {f.name}" for f in fields)
    source = f"def __init__(self, {', '.join(params)}):\n    set(self, '__dict__', {{{items}}})\n"
    exec(compile(source, f"<__init__ of {cls.__name__}>", "exec"), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    own = cls.__dict__["__init__"]
    init.__doc__, init.__annotations__ = own.__doc__, own.__annotations__
    return init


#: The dataclass's own ``__init__`` (the tests check the fast one against it).
dataclass_init: Any = Event.__dict__["__init__"]
Event.__init__ = _dict_init(Event)  # type: ignore[method-assign]
