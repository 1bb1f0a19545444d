"""A toy game that proves the extension point: High Tile (:mod:`.rules`), with its bot
(:mod:`.bot`), installed by nothing but ``DOMINO_RULES_GAMES=tests.toy_game``.

It has no options, no table and no proto message of its own; its tests
(:mod:`.test_toy_game`) play it through both doors, GetView, SuggestMove and the
playground, and no file outside this package names it.
"""

from __future__ import annotations

from domino_rules.games.package import Drawing, GamePackage

from .bot import HighTileBot
from .rules import HighTile

_RULESET = HighTile()

GAME = GamePackage(
    ruleset=_RULESET,
    bot=HighTileBot(_RULESET),
    drawing=Drawing(count_label="pips played"),
    docs_section="High Tile (the tests' toy game)",
    shortest={},
    long_match=lambda hands: ({}, 3),
)
