"""Moves: what a seat does, typed and flat, with a short text form that parses back."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from .errors import (
    InvalidMoveError,
)
from .tiles import MAX_PIP, Tile

__all__ = ["MAX_TRAIN", "End", "Move", "MoveKind"]

#: The largest train or arm number a move may name (Chicken Foot's arms are the most:
#: six centre arms and three toes a foot, one foot for each double of a double-18 set).
MAX_TRAIN = 255


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
    """An end of a two-ended line, and the two more ends a spinner opens (All Fives'
    ``[A5-7]``). Members are only ever appended (states store the position)."""

    LEFT = "LEFT"
    RIGHT = "RIGHT"
    UP = "UP"
    DOWN = "DOWN"


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
    #: The train (Mexican Train: a seat's number, the Mexican train one past the last
    #: seat) or arm (Chicken Foot) a ``PLAY`` goes on.
    train: int | None = None

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
        if self.train is not None:
            parts.append(f"train={self.train}")
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
        if self.train is not None:
            parts.append(f"train={_code(self.train)}")
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
                return "the end must be an End: LEFT, RIGHT, UP or DOWN"
        if self.open_pip is not None:
            if self.kind is not MoveKind.PLAY:
                return f"{kind} takes no open_pip"
            if type(self.open_pip) is not int or not 0 <= self.open_pip <= MAX_PIP:
                return f"open_pip must be a pip from 0 to {MAX_PIP}"
        if self.train is not None:
            if self.kind is not MoveKind.PLAY:
                return f"{kind} takes no train"
            if type(self.train) is not int or not 0 <= self.train <= MAX_TRAIN:
                return f"train must be a number from 0 to {MAX_TRAIN}"
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
    if word.startswith("train="):
        return "train", int(word[6:])
    if word in End.__members__:
        return "end", End[word]
    return "tile", Tile.parse(word)
