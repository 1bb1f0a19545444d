"""The deal, written out again from the documentation only, for re-dealing a finished match.

The generator and the canonical set orders are written here from
``domino_rules.rules.rng``'s module docstring and each game's docstring; nothing of the
service's own generator or deal code is imported. Each game's re-dealer
(:data:`~domino_rules.games.testing.Redealer`, in its module ``testing``) deals every hand
of a recorded match again with these, and compares.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from .testing import TileTuple

__all__ = [
    "CHINESE",
    "DOUBLE_SIX_SET",
    "DOUBLE_SIX_WITHOUT_BLANK",
    "TWO_CHINESE",
    "Stream",
    "as_tuples",
    "double_n",
    "shuffled",
    "throw",
    "tiles",
]

T = TypeVar("T")

# ------------------------------------------------------------------ the generator, again


class Stream:
    """``SHA-256(seed ‖ 0x00 ‖ label ‖ 0x00 ‖ counter)`` blocks, counter 8 bytes big-endian."""

    def __init__(self, seed: str, label: str) -> None:
        self.prefix = seed.encode("utf-8") + b"\x00" + label.encode("utf-8") + b"\x00"
        self.counter = 0
        self.pending = bytearray()

    def take(self, n: int) -> bytes:
        while len(self.pending) < n:
            self.pending += hashlib.sha256(self.prefix + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
        out = bytes(self.pending[:n])
        del self.pending[:n]
        return out

    def below(self, n: int) -> int:
        """Uniform in ``[0, n)``: 4 bytes big-endian, rejected when ``>= 2**32 - 2**32 % n``."""
        span = 2**32
        while True:
            x = int.from_bytes(self.take(4), "big")
            if x < span - span % n:
                return x % n

    def die(self) -> int:
        return 1 + self.below(6)


def shuffled(seed: str, label: str, items: Sequence[T]) -> list[T]:
    """Fisher-Yates over the canonical order: for i = len-1 down to 1, swap i and below(i+1)."""
    stream, out = Stream(seed, label), list(items)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def throw(seed: str, label: str, dice: int = 3) -> tuple[int, ...]:
    stream = Stream(seed, label)
    return tuple(stream.die() for _ in range(dice))


# ------------------------------------------------------------------ the sets, again


def double_n(n: int) -> tuple[TileTuple, ...]:
    """Western double-N, ascending by (high, low)."""
    return tuple((high, low) for high in range(n + 1) for low in range(high + 1))


DOUBLE_SIX_SET = double_n(6)
DOUBLE_SIX_WITHOUT_BLANK = tuple(t for t in DOUBLE_SIX_SET if t != (0, 0))
CIVIL: tuple[TileTuple, ...] = (
    (6, 6),
    (1, 1),
    (4, 4),
    (3, 1),
    (5, 5),
    (3, 3),
    (2, 2),
    (6, 5),
    (6, 4),
    (6, 1),
    (5, 1),
)
MILITARY: tuple[TileTuple, ...] = (
    (6, 3),
    (5, 4),
    (6, 2),
    (5, 3),
    (5, 2),
    (4, 3),
    (4, 1),
    (3, 2),
    (4, 2),
    (2, 1),
)
CHINESE = tuple(sorted(CIVIL * 2 + MILITARY))
TWO_CHINESE = tuple(sorted(CHINESE * 2))

# ------------------------------------------------------------------ what the API showed


def tiles(messages: Sequence[Mapping[str, Any]]) -> list[TileTuple]:
    """Tiles in proto3 JSON (``{"high": 6, "low": 4}``), sorted."""
    return sorted((m["high"], m["low"]) for m in messages)


def as_tuples(values: Sequence[Any]) -> list[TileTuple]:
    """The service's own tiles (from a decoded token), as tuples."""
    return [(t.high, t.low) for t in values]
