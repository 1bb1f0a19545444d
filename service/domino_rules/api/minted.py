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

The cache holds at most ``size`` games (a few KiB each), dropping the least recently
used; ``size=0`` turns it off.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..codec import Game

__all__ = ["DEFAULT_SIZE", "Minted"]

#: Games kept per process by default: a few MiB; enough for every game in play on a
#: busy process to find its last token between two calls that follow each other.
DEFAULT_SIZE = 1024


class Minted:
    """The last ``size`` games sealed, by token (see the module docstring)."""

    __slots__ = ("_games", "_lock", "hits", "misses", "size")

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        if size < 0:
            raise ValueError(f"the cache size must be 0 or more, not {size}")
        self.size = size
        self._games: OrderedDict[bytes, Game] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._games)

    def add(self, token: bytes, game: Game) -> None:
        """``token`` was just sealed from ``game``."""
        if not self.size:
            return
        with self._lock:
            self._games[token] = game
            if len(self._games) > self.size:
                self._games.popitem(last=False)

    def get(self, token: bytes) -> Game | None:
        """The game of ``token`` if this process sealed it lately, else ``None``."""
        with self._lock:
            game = self._games.get(token)
            if game is None:
                self.misses += 1
                return None
            self._games.move_to_end(token)
            self.hits += 1
            return game
