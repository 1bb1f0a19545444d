"""A game with an option, with no proto message for its options."""

from dataclasses import dataclass

from domino_rules.games.package import Drawing, GamePackage
from domino_rules.rules.options import option

from ..bot import HighTileBot
from ..rules import HighTile


@dataclass(frozen=True, slots=True)
class Doubled:
    doubles_count_twice: bool = option(False, "a double counts twice")


class HighTileWithAnOption(HighTile):
    id = "high_tile_with_an_option"
    options_type = Doubled  # type: ignore[assignment]


_RULESET = HighTileWithAnOption()
GAME = GamePackage(_RULESET, HighTileBot(_RULESET), Drawing(), "none", {}, lambda h: ({}, 2))
