"""The documented random stream, read from README "Checkable deals" alone: what every
reference here deals and throws with, so that each checks the service's deal and dice
rather than copying them.

* The byte stream of a label: the blocks ``SHA-256(seed 0x00 label 0x00 counter)``,
  ``counter`` 8 bytes big-endian from 0, concatenated.
* An integer below ``n``: the next 4 bytes as a big-endian word ``x``, taken as
  ``x mod n`` if ``x < 2**32 - (2**32 mod n)``, else the next 4 bytes.
* A shuffle: Fisher-Yates over the items as given (a set in ascending order): for ``i``
  from ``len - 1`` down to 1, swap items ``i`` and ``below(i + 1)``.
* A die: ``1 + below(6)``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Stream:
    """The stream of one label of one seed."""

    def __init__(self, seed: str, label: str) -> None:
        self.prefix = seed.encode() + b"\0" + label.encode() + b"\0"
        self.counter = 0
        self.buffer = b""

    def word(self) -> int:
        while len(self.buffer) < 4:
            block = self.prefix + self.counter.to_bytes(8, "big")
            self.buffer += hashlib.sha256(block).digest()
            self.counter += 1
        x, self.buffer = int.from_bytes(self.buffer[:4], "big"), self.buffer[4:]
        return x

    def below(self, n: int) -> int:
        limit = 2**32 - (2**32 % n)
        while True:
            x = self.word()
            if x < limit:
                return x % n

    def die(self) -> int:
        return 1 + self.below(6)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def below(seed: str, label: str, n: int) -> int:
    """An integer below ``n``: the first of the label's stream."""
    return Stream(seed, label).below(n)


def shuffled(seed: str, label: str, items: Sequence[T]) -> list[T]:
    """``items`` shuffled by the label's stream."""
    return Stream(seed, label).shuffle(items)
