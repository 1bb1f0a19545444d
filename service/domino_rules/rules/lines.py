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

from dataclasses import dataclass
from itertools import pairwise

from .checks import fail, require
from .moves import End
from .tiles import Tile

__all__ = ["LaidTile", "check_chain", "ends", "fits", "lay"]


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


def lay(line: tuple[LaidTile, ...], tile: Tile, end: End | None) -> tuple[LaidTile, ...]:
    """``line`` with ``tile`` laid at ``end`` (``None``: the first tile, high half left).
    The tile must fit that end (:func:`fits`)."""
    if not line:
        return (LaidTile(tile, tile.high, tile.low),)
    if end is End.LEFT:
        showing = line[0].left
        other = tile.low if tile.high == showing else tile.high
        return (LaidTile(tile, other, showing), *line)
    showing = line[-1].right
    other = tile.low if tile.high == showing else tile.high
    return (*line, LaidTile(tile, showing, other))


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
