"""Chicken Foot, ``chicken_foot``: the rules (:mod:`.rules`), the bot (:mod:`.bot`), and
how the playground draws it; docs: "Chicken Foot" in ``docs/rules.md``."""

from __future__ import annotations

from ..package import Drawing, GamePackage, Layout
from .bot import ChickenFootBot
from .rules import ChickenFoot

__all__ = ["GAME"]

_RULESET = ChickenFoot()

#: The package's parts, as the catalogue installs them.
GAME = GamePackage(
    ruleset=_RULESET,
    bot=ChickenFootBot(_RULESET),
    drawing=Drawing(layout=Layout.FEET, count_label="pips left"),
    docs_section="Chicken Foot",
    shortest={"set_max_pip": 6, "hand_size": 7, "hands": 1},
    # double-12 plays the most hands (13), and eight seats are the largest table
    long_match=lambda hands: ({"set_max_pip": 12, "hands": min(hands, 13)}, 8),
)
