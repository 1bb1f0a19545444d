"""A game whose views have a table of their own, with no proto message for it."""

from dataclasses import dataclass
from typing import Any

from domino_rules.games.package import Drawing, GamePackage
from domino_rules.rules import Match

from ..bot import HighTileBot
from ..rules import HighTile


@dataclass(frozen=True, slots=True)
class Hand:
    number: int


class HighTileWithATable(HighTile):
    id = "high_tile_with_a_table"
    table_type = Hand

    def table(self, match: Match[Any, Any], seat: int | None) -> Hand:  # type: ignore[override]
        return Hand(match.hand_number)


_RULESET = HighTileWithATable()
GAME = GamePackage(_RULESET, HighTileBot(_RULESET), Drawing(), "none", {}, lambda h: ({}, 2))
