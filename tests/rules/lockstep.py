"""What the lockstep checks against a second reading of RULES.md share
(``test_<id>_reference.py``, each with its ``reference/<id>.py``): the tally a run prints,
the failure a difference raises, and a tile as the references write it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domino_rules.rules import Match, PlayerCountError, Ruleset, Tile
from domino_rules.rules.errors import OptionsError


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


class Position:
    """One match in lockstep, as its messages name it: the scenario's label, the seed, the
    table, the hand and the last moves of it; :meth:`same` fails with all of that."""

    label: str
    seed: str
    players: int
    match: Match[Any, Any]
    #: this hand's moves, as text
    moves: list[str]
    #: how many of the last moves a message names
    last_moves = 4

    def setting(self) -> str:
        """More of the scenario a message names (its options), or nothing."""
        return ""

    def where(self) -> str:
        last = " ".join(self.moves[-self.last_moves :])
        return (
            f"{self.label} seed={self.seed!r} P={self.players}{self.setting()} hand "
            f"{self.match.hand_number} move {len(self.moves)} (last: {last})"
        )

    def same(self, tag: str, what: str, ours: object, theirs: object) -> None:
        if ours != theirs:
            raise Mismatch(
                f"[{tag}] {self.where()}: {what}: service {ours!r}, reference {theirs!r}"
            )


def service_refusal(
    rules: Ruleset[Any, Any], values: Mapping[str, Any]
) -> tuple[str, range | None]:
    """What the service makes of ``values``: ``BAD_OPTIONS``, or ``OK`` and the player
    counts it seats, checked to be exactly those ``new_match`` takes at the range's edges."""
    try:
        opts = rules.make_options(values)
    except OptionsError:
        return "BAD_OPTIONS", None
    low, high = rules.player_range(opts)
    for players in (low - 1, low, high, high + 1):
        try:
            rules.new_match(opts, players, "range")
            ok = True
        except PlayerCountError:
            ok = False
        assert ok is (low <= players <= high), (values, players)
    return "OK", range(low, high + 1)
