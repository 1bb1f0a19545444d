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
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING

__all__ = [
    "CIVIL",
    "MAX_PIP",
    "MILITARY",
    "SUPREME_PAIR",
    "SetCodes",
    "Tile",
    "chinese_set",
    "distinct",
    "double_n",
    "double_six_without_blank",
    "hand_pips",
    "insert_tile",
    "red_pips",
    "remove_tile",
    "set_codes",
    "sorted_tiles",
    "tile_code",
    "tile_index",
    "two_chinese_sets",
]

#: The largest pip count of any set the service deals (double-eighteen).
MAX_PIP = 18

_set = object.__setattr__  # the class is frozen: __post_init__ sets its slots directly

_TEXT = re.compile(r"^\s*\[?\s*(\d{1,2})\s*[-:|]\s*(\d{1,2})\s*\]?\s*$")


@dataclass(frozen=True, order=True)
class Tile:
    """A domino, ``high >= low``; construct with either order through :meth:`of`.

    Besides its two fields a tile carries, computed once when it is made, the values the
    rules read on every move: ``code`` (a dense index, ``high * (high + 1) / 2 + low``: one
    byte for every tile, ascending in the order of tiles; inverse :meth:`from_code`),
    ``pips`` (``high + low``), ``is_double`` and ``halves`` (a bit set of its two pip
    counts, ``1 << high | 1 << low``: ``tile.halves & 1 << pip`` is ``tile.has(pip)``).

    >>> Tile(6, 4).code, Tile(6, 4).pips, Tile(6, 6).is_double, bin(Tile(6, 4).halves)
    (25, 10, True, '0b1010000')
    """

    __slots__ = ("code", "halves", "high", "is_double", "low", "pips")

    high: int
    low: int

    def __post_init__(self) -> None:
        high, low = self.high, self.low
        if not (0 <= low <= high <= MAX_PIP):
            raise ValueError(f"not a tile: Tile({high!r}, {low!r})")
        _set(self, "code", high * (high + 1) // 2 + low)
        _set(self, "pips", high + low)
        _set(self, "is_double", high == low)
        _set(self, "halves", 1 << high | 1 << low)

    if TYPE_CHECKING:  # set by __post_init__: slots, not fields (no runtime effect)
        code: int = field(init=False)
        pips: int = field(init=False)
        is_double: bool = field(init=False)
        halves: int = field(init=False)

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        """Copies and pickles are rebuilt through the constructor (the class is frozen)."""
        return Tile, (self.high, self.low)

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b`` in either order: the set's own object
        (as :meth:`from_code` gives it), made once, for two whole numbers of a tile.

        >>> Tile.of(4, 6) is Tile.of(6, 4) is Tile.from_code(Tile(6, 4).code)
        True
        """
        high, low = (a, b) if a >= b else (b, a)
        if cls is Tile and type(high) is int and type(low) is int and 0 <= low <= high <= MAX_PIP:
            return _BY_CODE[high * (high + 1) // 2 + low]
        return cls(high, low)  # checks and refuses what is not a tile

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
    return _registered(_BY_CODE[: (n + 1) * (n + 2) // 2])  # double-n: the lowest codes


@functools.cache
def double_six_without_blank() -> tuple[Tile, ...]:
    """Double-six less ``[0-0]``: 27 tiles ([THR-1])."""
    return _registered(double_n(6)[1:])


#: Civil tiles come twice in a Chinese set; military tiles once.
CIVIL = tuple(
    _BY_CODE[Tile.parse(t).code]
    for t in ["6-6", "1-1", "4-4", "3-1", "5-5", "3-3", "2-2", "6-5", "6-4", "6-1", "5-1"]
)
MILITARY = tuple(
    _BY_CODE[Tile.parse(t).code]
    for t in ["6-3", "5-4", "6-2", "5-3", "5-2", "4-3", "4-1", "3-2", "4-2", "2-1"]
)
#: ``[4-2]`` and ``[2-1]``, Gee Joon.
SUPREME_PAIR = (_BY_CODE[Tile(4, 2).code], _BY_CODE[Tile(2, 1).code])


@functools.cache
def chinese_set() -> tuple[Tile, ...]:
    """The 32-tile Chinese set, ascending, duplicates adjacent."""
    return _registered(sorted_tiles(CIVIL * 2 + MILITARY))


@functools.cache
def two_chinese_sets() -> tuple[Tile, ...]:
    """Two Chinese sets, 64 tiles ([TU-1])."""
    return _registered(sorted_tiles(chinese_set() * 2))


@dataclass(frozen=True)
class SetCodes:
    """What the checks of a state need to know of a set of tiles, computed once per set:
    the codes of its tiles, ascending (with repeats), the distinct codes, and the highest
    pip."""

    codes: tuple[int, ...]
    distinct: frozenset[int]
    top: int


def set_codes(tiles: tuple[Tile, ...]) -> SetCodes:
    """:class:`SetCodes` of ``tiles``, a set in ascending order. The sets this module makes
    (:func:`double_n` and the others) are remembered with it, each computed once.

    >>> set_codes(double_n(1))
    SetCodes(codes=(0, 1, 2), distinct=frozenset({0, 1, 2}), top=1)
    """
    known = _SET_CODES.get(id(tiles))
    if known is not None and known[0] is tiles:
        return known[1]
    return _codes_of(tiles)


def _codes_of(tiles: tuple[Tile, ...]) -> SetCodes:
    codes = tuple(sorted([tile.code for tile in tiles]))
    top = Tile.from_code(codes[-1]).high if codes else 0
    return SetCodes(codes, frozenset(codes), top)


#: The sets made here, by the identity of the tuple (kept alive here): ``(set, codes)``.
_SET_CODES: dict[int, tuple[tuple[Tile, ...], SetCodes]] = {}


def _registered(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """``tiles``, a set made here (once: the makers are cached), registered for
    :func:`set_codes`."""
    _SET_CODES[id(tiles)] = (tiles, _codes_of(tiles))
    return tiles


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


#: A tile's code, as a key function: tiles sort by code exactly as they compare.
tile_code = attrgetter("code")


def sorted_tiles(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    """``tuple(sorted(tiles))``, sorted on the codes (no tile comparison is called).

    >>> sorted_tiles([Tile(6, 4), Tile(1, 0), Tile(5, 5)])
    (Tile(1, 0), Tile(5, 5), Tile(6, 4))
    """
    if type(tiles) is tuple and len(tiles) == 3:
        # three tiles (a One Arm Joe hand, sorted at every deal): three comparisons
        a, b, c = tiles
        if a.code > b.code:
            a, b = b, a
        if b.code > c.code:
            b, c = c, b
            if a.code > b.code:
                a, b = b, a
        return (a, b, c)
    return tuple(sorted(tiles, key=tile_code))


def distinct(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """``tuple(sorted(set(tiles)))``: one of each tile, ascending. A hand is sorted, so
    this is one pass over it; unsorted ``tiles`` take the general way.

    >>> distinct((Tile(1, 1), Tile(1, 1), Tile(6, 4)))
    (Tile(1, 1), Tile(6, 4))
    """
    out: list[Tile] = []
    last = -1
    for tile in tiles:
        code = tile.code
        if code > last:
            out.append(tile)
            last = code
        elif code < last:
            return sorted_tiles(set(tiles))
    return tuple(out)


def tile_index(tiles: tuple[Tile, ...], tile: Tile) -> int:
    """``tiles.index(tile)``, comparing codes; ``ValueError`` when ``tile`` is not there."""
    code = tile.code
    for i, held in enumerate(tiles):
        if held.code == code:
            return i
    raise ValueError(f"{tile} is not in the tiles")


def insert_tile(tiles: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """Sorted ``tiles`` with ``tile`` added in its place: ``sorted_tiles((*tiles, tile))``."""
    code = tile.code
    for i, held in enumerate(tiles):
        if held.code > code:
            return (*tiles[:i], tile, *tiles[i:])
    return (*tiles, tile)


def remove_tile(tiles: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """``tiles`` less one copy of ``tile``; ``ValueError`` when there is none
    (:func:`tile_index`'s search, inline: a tile leaves a hand on almost every move)."""
    code = tile.code
    for i, held in enumerate(tiles):
        if held.code == code:
            return tiles[:i] + tiles[i + 1 :]
    raise ValueError(f"{tile} is not in the tiles")
