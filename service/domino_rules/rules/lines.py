"""A line with two open ends, as Western games lay it: the tiles left to right, each with
the pips it shows to its left and to its right.

The first tile lies with its high half to the left (``[THR-5]``, ``[BLK-5]``); a later
tile is laid at one end, the half that matches that end's number against it, its other
half becoming the end's number. A double lies in line and leaves the end's number as it
was.

>>> line = lay((), Tile(5, 3), None)
>>> line = lay(line, Tile(3, 1), End.RIGHT)
>>> line = lay(line, Tile(6, 5), End.LEFT)
>>> [(laid.left, laid.right) for laid in line], ends(line)
([(6, 5), (5, 3), (3, 1)], (6, 1))
>>> [[end.name for end in fits(tile, line)] for tile in (Tile(6, 6), Tile(6, 1), Tile(4, 2))]
[['LEFT'], ['LEFT', 'RIGHT'], []]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import pairwise

from .checks import fail, require
from .events import Event, EventKind
from .moves import End, Move, MoveKind
from .tiles import Tile, double_n

__all__ = [
    "END_ORDER",
    "LaidTile",
    "blocked",
    "check_chain",
    "ends",
    "ends_after",
    "fits",
    "lay",
    "play_event",
    "play_move",
    "play_table",
    "plays_at_ends",
]


@dataclass(frozen=True, slots=True)
class LaidTile:
    """A tile of the line and the pips it shows to its left and to its right."""

    tile: Tile
    left: int
    right: int


def ends(line: tuple[LaidTile, ...]) -> tuple[int | None, int | None]:
    """The numbers showing at the left and the right end; ``(None, None)`` before the
    first tile."""
    if not line:
        return None, None
    return line[0].left, line[-1].right


def fits(tile: Tile, line: tuple[LaidTile, ...]) -> tuple[End, ...]:
    """The ends ``tile`` may be laid at (both when both ends show a number it has, even
    the same number); every tile fits an empty line, which takes no end: ``()`` there."""
    left, right = ends(line)
    if left is None:
        return ()
    out = []
    if left in (tile.high, tile.low):
        out.append(End.LEFT)
    if right in (tile.high, tile.low):
        out.append(End.RIGHT)
    return tuple(out)


def plays_at_ends(seat: int, tiles: tuple[Tile, ...], line: tuple[LaidTile, ...]) -> list[Move]:
    """``Move(seat, PLAY, tile, end=end)`` for each of ``tiles`` in order, at each end it
    fits (:func:`fits`, the left end first), on a line that has started. The moves are
    made once per seat, tile and end and then shared (they are immutable values): legal
    moves are listed on every request."""
    table = _plays_at(seat)
    left, right = 1 << line[0].left, 1 << line[-1].right
    out = []
    for tile in tiles:
        halves = tile.halves
        if halves & left:
            out.append(table[tile.code][0])
        if halves & right:
            out.append(table[tile.code][1])
    return out


def blocked(hands: tuple[tuple[Tile, ...], ...], line: tuple[LaidTile, ...]) -> bool:
    """No tile of ``hands`` fits either end of ``line`` (a line that has started): what
    :func:`fits` says of every tile, at once."""
    ends_bits = 1 << line[0].left | 1 << line[-1].right
    for hand in hands:
        for tile in hand:
            if tile.halves & ends_bits:
                return False
    return True


def play_event(seat: int, tile: Tile, end: End | None) -> tuple[Event, ...]:
    """``(Event(PLAY, seat=seat, tile=tile, end=end),)``, made once and then shared (any
    end, a spinner's ``UP`` and ``DOWN`` too)."""
    return _play_events(seat)[tile.code][_END_INDEX[end]]


def play_table(seat: int) -> tuple[tuple[Move, ...], ...]:
    """Every play of ``seat``, made once: per tile code, one move per end in the order of
    :data:`END_ORDER` (a game that lists many plays indexes it without hashing an end)."""
    return _plays_at(seat)


def play_move(seat: int, tile: Tile, end: End | None) -> Move:
    """``Move(seat, PLAY, tile, end=end)`` at any end (``None``: a lead), made once and
    then shared."""
    return _plays_at(seat)[tile.code][_END_INDEX[end]]


_TILES = double_n(18)
_END_INDEX = {End.LEFT: 0, End.RIGHT: 1, None: 2, End.UP: 3, End.DOWN: 4}
#: The ends of :func:`play_table`'s moves, in order (``None``: a lead).
END_ORDER: tuple[End | None, ...] = tuple(_END_INDEX)


@functools.cache
def _plays_at(seat: int) -> tuple[tuple[Move, ...], ...]:
    """Per tile code: the plays of ``seat`` at each end, by :data:`_END_INDEX` (the
    lead's place, ``None``, holds a lead: a play without an end)."""
    return tuple(
        tuple(Move(seat, MoveKind.PLAY, tile, end=end) for end in _END_INDEX) for tile in _TILES
    )


@functools.cache
def _play_events(seat: int) -> tuple[tuple[tuple[Event, ...], ...], ...]:
    """Per tile code, per end (left, right, none, up, down): the events of ``seat``'s
    play."""
    return tuple(
        tuple((Event(EventKind.PLAY, seat=seat, tile=tile, end=end),) for end in _END_INDEX)
        for tile in _TILES
    )


def lay(line: tuple[LaidTile, ...], tile: Tile, end: End | None) -> tuple[LaidTile, ...]:
    """``line`` with ``tile`` laid at ``end`` (``None``: the first tile, high half left).
    The tile must fit that end (:func:`fits`)."""
    if not line:
        return (LaidTile(tile, tile.high, tile.low),)
    if end is End.LEFT:
        showing = line[0].left
        return (LaidTile(tile, _other_half(tile, showing), showing), *line)
    showing = line[-1].right
    return (*line, LaidTile(tile, showing, _other_half(tile, showing)))


def ends_after(line: tuple[LaidTile, ...], tile: Tile, end: End | None) -> tuple[int, int]:
    """The numbers the ends of ``line`` show once ``tile`` is laid at ``end``:
    ``ends(lay(line, tile, end))``, without the new line.

    >>> line = lay((), Tile(5, 3), None)
    >>> ends_after(line, Tile(6, 5), End.LEFT), ends_after((), Tile(4, 2), None)
    ((6, 3), (4, 2))
    """
    if not line:
        return tile.high, tile.low
    if end is End.LEFT:
        return _other_half(tile, line[0].left), line[-1].right
    return line[0].left, _other_half(tile, line[-1].right)


def _other_half(tile: Tile, showing: int) -> int:
    """The half of ``tile`` left showing once its half ``showing`` is laid against an end
    that shows it (a double shows the same number on)."""
    return tile.low if tile.high == showing else tile.high


def check_chain(line: tuple[LaidTile, ...]) -> None:
    """Raise :class:`~.errors.InvalidStateError` unless every laid tile shows its own two
    halves and touching ends match (the line's length is the caller's to bound first)."""
    for laid in line:
        tile, left, right = laid.tile, laid.left, laid.right
        halves = (left, right) if left <= right else (right, left)
        require(halves == (tile.low, tile.high), "a laid tile shows wrong halves")
    for a, b in pairwise(line):
        if a.right != b.left:
            fail("touching ends of the line do not match")
