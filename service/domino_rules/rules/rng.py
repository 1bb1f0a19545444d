"""The deterministic, documented random generator.

Every shuffle and every die comes from a byte stream that anyone can rebuild from the
game's seed, so a finished match can be re-dealt and checked:

* The stream for a *label* (``deal/1/0``, ``dice/2/3/0``, ...) is the concatenation of
  blocks ``SHA-256(seed ‖ 0x00 ‖ label ‖ 0x00 ‖ counter)`` for ``counter = 0, 1, 2, ...``,
  where ``seed`` and ``label`` are UTF-8 bytes and ``counter`` is 8 bytes big-endian.
* An integer in ``[0, n)`` takes the next 4 bytes as a big-endian unsigned ``x``;
  ``x`` is accepted when ``x < 2**32 - (2**32 mod n)`` and gives ``x mod n``, otherwise the
  next 4 bytes are tried (rejection sampling: no bias).
* A shuffle is Fisher-Yates over the set in its canonical (ascending) order: for
  ``i = len-1`` down to ``1``, swap items ``i`` and ``below(i + 1)``.
* A die is ``1 + below(6)``.

>>> Stream("demo", "deal/1/0").below(10) == Stream("demo", "deal/1/0").below(10)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

__all__ = ["Stream", "commitment", "shuffled", "throw"]

T = TypeVar("T")
_SPAN = 1 << 32


class Stream:
    """The byte stream of one label of one seed."""

    __slots__ = ("_buffer", "_counter", "_prefix")

    def __init__(self, seed: str, label: str) -> None:
        self._prefix = seed.encode() + b"\x00" + label.encode() + b"\x00"
        self._counter = 0
        self._buffer = b""

    def read(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.sha256(self._prefix + self._counter.to_bytes(8, "big")).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if not 0 < n <= _SPAN:
            raise ValueError(f"below({n!r})")
        limit = _SPAN - _SPAN % n
        while True:
            x = int.from_bytes(self.read(4), "big")
            if x < limit:
                return x % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def die(self) -> int:
        return 1 + self.below(6)


def shuffled(seed: str, label: str, items: Sequence[T]) -> tuple[T, ...]:
    return tuple(Stream(seed, label).shuffle(items))


def throw(seed: str, label: str, dice: int = 3) -> tuple[int, ...]:
    """``dice`` dice thrown from one label's stream, in order."""
    stream = Stream(seed, label)
    return tuple(stream.die() for _ in range(dice))


def commitment(seed: str) -> str:
    """The public commitment to a seed: hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode()).hexdigest()
