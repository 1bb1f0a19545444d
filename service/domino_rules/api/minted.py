"""The games behind the tokens this process handed out lately.

A client sends back the token it was given: a platform's next call on a game is
``GetLegalMoves``, ``GetView`` for each seat or ``ApplyMove``, each with the token the
last answer carried. Opening such a token again (authenticating it, unpacking it,
checking the whole state) redoes work whose result this process already holds: the game
it has just sealed. :class:`Minted` keeps the last games sealed, keyed by the exact bytes
of their tokens, so that those calls skip the opening.

Nothing about the service changes: a token means the same game in every process, and a
process that never saw it (another replica, or this one after a restart or once the
game has left the cache) opens and checks it in full. Only bytes this process produced
can match, so a forged or altered token is always opened and checked; an unsealed token
is the same game however many times it is opened. The games are immutable, so a call
cannot change the game another call gets.

The cache is bounded in bytes, not only in games: a game is a few KiB, but one with a
long history (a Tiu U match of hundreds of hands) weighs hundreds of KiB, and a client
that applies moves to such a token again and again would otherwise fill a process with
copies of it. Each entry is weighed when it is added (:func:`weight`, an upper bound of
what the entry holds, from the sizes of the objects a game is made of and its counts of
hands and events: no walk over the game), and the least recently used entries leave
until the total is within ``max_bytes``. ``size`` still bounds the number of games;
either bound at 0 turns the cache off.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from typing import Any

from ..rules import Event, EventKind, HandEnd, HandResult
from ..state.codec import Game

__all__ = ["DEFAULT_BYTES", "DEFAULT_SIZE", "Minted", "weight"]

#: Games kept per process by default: enough for every game in play on a busy process
#: to find its last token between two calls that follow each other.
DEFAULT_SIZE = 1024
#: Bytes the kept games may hold per process by default.
DEFAULT_BYTES = 32 * 1024 * 1024


def _int_bytes() -> int:
    """An int that is not one of the interpreter's shared small ints, as allocated."""
    return (sys.getsizeof(10**6) + 15) // 16 * 16


def _object_bytes(value: Any) -> int:
    """A frozen dataclass instance and its field dict, as allocated (rounded up to the
    allocator's 16 bytes)."""
    size = sys.getsizeof(value) + sys.getsizeof(value.__dict__)
    return (size + 15) // 16 * 16


_INT = _int_bytes()
_TUPLE = sys.getsizeof(())  # the header of a tuple; 8 bytes per item besides
_HAND_RESULT = _object_bytes(HandResult((1,), (1,), (0,), HandEnd.BLOCKED, (1,)))
_EVENT = _object_bytes(Event(EventKind.PLAY, seat=0, count=1, points=1))
#: Every part of a game that does not grow with its history or its events: the match,
#: the hand state and its tuples of tiles (the tiles themselves are shared), the
#: options, the seed, the game id, the entry in the cache. Measured well under this for
#: every ruleset at its largest table (the tests check it).
_FIXED = 8 * 1024


def weight(token: bytes, game: Game) -> int:
    """An upper bound of the bytes an entry for ``token`` holds: the token, the fixed
    part of a game, and per hand of its history and per event the objects they are made
    of, every number counted as an int of its own (numbers up to 256 are shared, so
    this overcounts). Computed from counts, in constant time."""
    match = game.match
    players = match.players
    # a result: the object, four tuples of one value per seat (winners at most that)
    per_hand = _HAND_RESULT + 4 * (_TUPLE + 8 * players) + 4 * players * _INT
    # an event: the object and its tuples (dice, tiles, seats, scores: small)
    per_event = _EVENT + 4 * _TUPLE + 4 * 8 * max(players, 3) + 4 * _INT
    return (
        sys.getsizeof(token)
        + _FIXED
        + len(match.history) * per_hand
        + len(match.last_events) * per_event
    )


class Minted:
    """The last games sealed, by token, within ``size`` games and ``max_bytes`` bytes
    (see the module docstring). For metrics: ``len()`` (games held), :attr:`bytes`
    (their weight), :attr:`hits`, :attr:`misses`, and :attr:`evictions`."""

    __slots__ = (
        "_games",
        "_lock",
        "bytes",
        "evictions",
        "hits",
        "max_bytes",
        "misses",
        "size",
    )

    def __init__(self, size: int = DEFAULT_SIZE, *, max_bytes: int = DEFAULT_BYTES) -> None:
        if size < 0:
            raise ValueError(f"the cache size must be 0 or more, not {size}")
        if max_bytes < 0:
            raise ValueError(f"the cache's bytes must be 0 or more, not {max_bytes}")
        self.size = size
        self.max_bytes = max_bytes
        self._games: OrderedDict[bytes, tuple[Game, int]] = OrderedDict()
        self._lock = threading.Lock()
        #: The weight of the games held (:func:`weight`), at most ``max_bytes``.
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        #: Games dropped to make room.
        self.evictions = 0

    def __len__(self) -> int:
        return len(self._games)

    def add(self, token: bytes, game: Game) -> None:
        """``token`` was just sealed from ``game``."""
        if not self.size or not self.max_bytes:
            return
        cost = weight(token, game)
        if cost > self.max_bytes:
            return  # never held: it would empty the cache and still not fit
        with self._lock:
            old = self._games.pop(token, None)
            if old is not None:
                self.bytes -= old[1]
            self._games[token] = (game, cost)
            self.bytes += cost
            while len(self._games) > self.size or self.bytes > self.max_bytes:
                _, (_, dropped) = self._games.popitem(last=False)
                self.bytes -= dropped
                self.evictions += 1

    def get(self, token: bytes) -> Game | None:
        """The game of ``token`` if this process sealed it lately, else ``None``."""
        with self._lock:
            entry = self._games.get(token)
            if entry is None:
                self.misses += 1
                return None
            self._games.move_to_end(token)
            self.hits += 1
            return entry[0]
