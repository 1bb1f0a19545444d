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

import functools
import hashlib
from collections.abc import Sequence
from typing import TypeVar

__all__ = ["Stream", "commitment", "shuffled", "throw"]

T = TypeVar("T")
_SPAN = 1 << 32


def _native_words() -> str:
    """How a memoryview reads 4-byte unsigned words here: "big", "little", or "" (its
    words are not 4 bytes: read them one by one)."""
    view = memoryview(b"\x00\x00\x00\x01").cast("B").cast("I")
    if view.itemsize != 4:
        return ""  # pragma: no cover - no mainstream platform
    return "big" if view[0] == 1 else "little"


_NATIVE_WORDS = _native_words()
_BLOCK = 32  # bytes of one SHA-256 digest
#: The first block counters, as the 8 big-endian bytes each block hashes.
_COUNTERS = tuple(c.to_bytes(8, "big") for c in range(64))
_sha256 = hashlib.sha256
_DIE_LIMIT = _SPAN - _SPAN % 6


class Stream:
    """The byte stream of one label of one seed."""

    __slots__ = ("_buffer", "_counter", "_prefix")

    def __init__(self, seed: str, label: str) -> None:
        self._prefix = seed.encode() + b"\x00" + label.encode() + b"\x00"
        self._counter = 0
        self._buffer = b""

    def read(self, n: int) -> bytes:
        buffer = self._buffer
        if len(buffer) < n:
            first = self._counter
            self._counter = last = first + -(-(n - len(buffer)) // _BLOCK)
            prefix = self._prefix
            if last <= len(_COUNTERS):
                counters = _COUNTERS[first:last]
            else:
                counters = tuple([c.to_bytes(8, "big") for c in range(first, last)])
            buffer += b"".join([_sha256(prefix + counter).digest() for counter in counters])
        self._buffer = buffer[n:]
        return buffer[:n]

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if not 0 < n <= _SPAN:
            raise ValueError(f"below({n!r})")
        limit = _SPAN - _SPAN % n
        while True:
            x = int.from_bytes(self.read(4), "big")
            if x < limit:
                return x % n

    def words(self, count: int) -> list[int]:
        """The next ``count`` 4-byte big-endian unsigned integers, read at once."""
        data = self.read(4 * count)
        if _NATIVE_WORDS == "big":
            return memoryview(data).cast("I").tolist()
        if _NATIVE_WORDS == "little":
            # read backwards, each word's bytes come in native (little-endian) order
            words: list[int] = memoryview(data[::-1]).cast("I").tolist()
            return words[::-1]
        return [int.from_bytes(data[i : i + 4], "big") for i in range(0, 4 * count, 4)]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """Fisher-Yates with :meth:`below`. The bytes of one draw per swap are read at
        once; a rejected draw reads 4 bytes more, exactly as :meth:`below` would."""
        out = list(items)
        swaps = len(out) - 1
        if swaps < 1:
            return out
        words = self.words(swaps)
        limits = _limits(swaps + 1)
        if max(words) < limits[0]:  # no draw is rejected (almost always): no check each
            i = swaps
            for x in words:
                j = x % (i + 1)
                out[i], out[j] = out[j], out[i]
                i -= 1
            return out
        rejected = swaps
        for i, x in zip(range(swaps, 0, -1), words, strict=True):
            if x >= limits[i]:  # rejected: the rest draw one word at a time
                rejected = i
                break
            j = x % (i + 1)
            out[i], out[j] = out[j], out[i]
        k = swaps - rejected  # the words before the rejected one were used
        for i in range(rejected, 0, -1):
            while True:
                if k == len(words):
                    words += self.words(1)
                x = words[k]
                k += 1
                if x < limits[i]:
                    break
            j = x % (i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def die(self) -> int:
        return 1 + self.below(6)

    def dice(self, count: int) -> tuple[int, ...]:
        """``count`` dice, in order: ``die()`` ``count`` times, the bytes read at once."""
        words = self.words(count)
        if all(x < _DIE_LIMIT for x in words):
            return tuple([1 + x % 6 for x in words])
        # a rejected draw (about once in 700 million): the next word is the next draw
        out: list[int] = []
        k = 0
        while len(out) < count:
            if k == len(words):
                words += self.words(1)
            x = words[k]
            k += 1
            if x < _DIE_LIMIT:
                out.append(1 + x % 6)
        return tuple(out)


@functools.cache
def _limits(size: int) -> tuple[int, ...]:
    """``limits[i]``: the draw for a swap of item ``i`` (an integer below ``i + 1``) is
    accepted when it is less than this (see :meth:`Stream.below`); ``limits[0]``, which
    no swap uses, is the least of the others (a draw below it is accepted by every swap).
    """
    limits = [_SPAN - _SPAN % (i + 1) for i in range(size)]
    limits[0] = min(limits[1:], default=_SPAN)
    return tuple(limits)


def shuffled(seed: str, label: str, items: Sequence[T]) -> tuple[T, ...]:
    return tuple(Stream(seed, label).shuffle(items))


def throw(seed: str, label: str, dice: int = 3) -> tuple[int, ...]:
    """``dice`` dice thrown from one label's stream, in order."""
    return Stream(seed, label).dice(dice)


def commitment(seed: str) -> str:
    """The public commitment to a seed: hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode()).hexdigest()
