"""What the lockstep checks against a second reading of RULES.md share
(``test_<id>_reference.py``, each with its ``reference/<id>.py``): the tally a run prints,
the failure a difference raises, and a tile as the references write it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from domino_rules.rules import Tile


def pair(tile: Tile) -> tuple[int, int]:
    """A tile as the references write it: ``(high, low)``."""
    return (tile.high, tile.low)


@dataclass
class Tally:
    """What a run compared, and the kinds of moves and situations it met (a run checks
    these, so that it compares what it says it does)."""

    matches: int = 0
    hands: int = 0
    moves: int = 0
    sets: int = 0
    sets_equal: int = 0
    kinds: Counter[str] = field(default_factory=Counter)

    def line(self, name: str) -> str:
        seen = ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items()))
        return (
            f"{name}: {self.matches} matches, {self.hands} hands, {self.moves} moves compared, "
            f"legal-move sets equal {self.sets_equal} of {self.sets}; seen: {seen}"
        )


class Mismatch(AssertionError):
    """The service and the reference differ: the message names the tag, the seed and the
    position."""
