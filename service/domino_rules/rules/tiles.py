"""Tiles, the sets the games use, and red pips.

A tile is an unordered pair of pip counts, written high end first: ``[6-4]``.
Identical tiles are interchangeable values, so a hand is just a sorted tuple.

>>> Tile.parse("[4-6]")
Tile(6, 4)
>>> eval(repr(Tile(6, 4))) == Tile(6, 4)
True
>>> str(Tile(6, 4)), Tile(6, 4).pips
('[6-4]', 10)
>>> len(double_n(6)), len(chinese_set()), len(double_six_without_blank()), len(two_chinese_sets())
(28, 32, 27, 64)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "CIVIL",
    "MAX_PIP",
    "MILITARY",
    "SUPREME_PAIR",
    "Tile",
    "chinese_set",
    "double_n",
    "double_six_without_blank",
    "hand_pips",
    "red_pips",
    "remove_tile",
    "two_chinese_sets",
]

#: The largest pip count of any set the service deals (double-eighteen).
MAX_PIP = 18

_TEXT = re.compile(r"^\s*\[?\s*(\d{1,2})\s*[-:|]\s*(\d{1,2})\s*\]?\s*$")


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """A domino, ``high >= low``; construct with either order through :meth:`of`."""

    high: int
    low: int

    def __post_init__(self) -> None:
        if not (0 <= self.low <= self.high <= MAX_PIP):
            raise ValueError(f"not a tile: Tile({self.high!r}, {self.low!r})")

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b`` in either order."""
        return cls(a, b) if a >= b else cls(b, a)

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``"[6-4]"``, ``"6-4"``, ``"4:6"`` or ``"6|4"``."""
        m = _TEXT.match(text)
        if not m:
            raise ValueError(f"not a tile: {text!r}")
        return cls.of(int(m.group(1)), int(m.group(2)))

    @classmethod
    def from_code(cls, code: int) -> Tile:
        """Inverse of :attr:`code`."""
        if not 0 <= code < _CODES:
            raise ValueError(f"not a tile code: {code!r}")
        return _BY_CODE[code]

    @property
    def code(self) -> int:
        """A dense index, ``high * (high + 1) / 2 + low``: one byte for every tile."""
        return self.high * (self.high + 1) // 2 + self.low

    @property
    def pips(self) -> int:
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    def has(self, pip: int) -> bool:
        return self.high == pip or self.low == pip

    def other(self, pip: int) -> int:
        """The half left open when this tile is matched on ``pip``."""
        if self.high == pip:
            return self.low
        if self.low == pip:
            return self.high
        raise ValueError(f"{self} has no half {pip}")

    def __str__(self) -> str:
        return f"[{self.high}-{self.low}]"

    def __repr__(self) -> str:
        """Code that rebuilds the tile."""
        return f"Tile({self.high}, {self.low})"


_CODES = (MAX_PIP + 1) * (MAX_PIP + 2) // 2
_BY_CODE = tuple(Tile(high, low) for high in range(MAX_PIP + 1) for low in range(high + 1))


@functools.cache
def double_n(n: int) -> tuple[Tile, ...]:
    """The Western double-N set, ``(N+1)(N+2)/2`` tiles in ascending order."""
    if not 0 <= n <= MAX_PIP:
        raise ValueError(f"no double-{n} set")
    return tuple(Tile(high, low) for high in range(n + 1) for low in range(high + 1))


@functools.cache
def double_six_without_blank() -> tuple[Tile, ...]:
    """Double-six less ``[0-0]``: 27 tiles ([THR-1])."""
    return double_n(6)[1:]


#: Civil tiles come twice in a Chinese set; military tiles once.
CIVIL = tuple(
    Tile.parse(t)
    for t in ["6-6", "1-1", "4-4", "3-1", "5-5", "3-3", "2-2", "6-5", "6-4", "6-1", "5-1"]
)
MILITARY = tuple(
    Tile.parse(t) for t in ["6-3", "5-4", "6-2", "5-3", "5-2", "4-3", "4-1", "3-2", "4-2", "2-1"]
)
#: ``[4-2]`` and ``[2-1]``, Gee Joon.
SUPREME_PAIR = (Tile(4, 2), Tile(2, 1))


@functools.cache
def chinese_set() -> tuple[Tile, ...]:
    """The 32-tile Chinese set, ascending, duplicates adjacent."""
    return tuple(sorted(CIVIL * 2 + MILITARY))


@functools.cache
def two_chinese_sets() -> tuple[Tile, ...]:
    """Two Chinese sets, 64 tiles ([TU-1])."""
    return tuple(sorted(chinese_set() * 2))


def red_pips(tile: Tile, *, all_sixes: bool = False) -> int:
    """Red pips on a Chinese tile: every 1 and 4 is red; ``[6-6]``'s sixes are half red.

    With ``all_sixes`` (Culin) every 6 is half red.

    >>> red_pips(Tile(6, 6)), red_pips(Tile(4, 1)), red_pips(Tile(6, 1))
    (6, 5, 1)
    >>> red_pips(Tile(6, 1), all_sixes=True)
    4
    """
    count = 0
    for half in (tile.high, tile.low):
        if half in (1, 4):
            count += half
        elif half == 6 and (all_sixes or tile.is_double):
            count += 3
    return count


def hand_pips(tiles: Iterable[Tile]) -> int:
    return sum(t.pips for t in tiles)


def remove_tile(tiles: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """``tiles`` less one copy of ``tile``; ``ValueError`` when there is none."""
    i = tiles.index(tile)
    return tiles[:i] + tiles[i + 1 :]
