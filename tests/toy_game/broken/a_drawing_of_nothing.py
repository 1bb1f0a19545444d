"""A game whose drawing reads a table field its views do not have."""

from domino_rules.games.package import Drawing, GamePackage

from ..bot import HighTileBot
from ..rules import HighTile

_RULESET = HighTile()
GAME = GamePackage(
    _RULESET, HighTileBot(_RULESET), Drawing(open_field="open_end"), "none", {}, lambda h: ({}, 2)
)
