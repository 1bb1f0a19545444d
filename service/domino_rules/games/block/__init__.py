"""Block, Draw and partnership dominoes, ``block``: the rules (:mod:`.rules`), the bot
(:mod:`.bot`), and how the playground draws it; docs: "Block, Draw and partnership
dominoes" in ``docs/rules.md``."""

from __future__ import annotations

from ...rules import MoveKind
from ..package import Drawing, GamePackage, Layout
from .bot import BlockBot
from .rules import Block

__all__ = ["GAME"]

_RULESET = Block()

#: The package's parts, as the catalogue installs them.
GAME = GamePackage(
    ruleset=_RULESET,
    bot=BlockBot(_RULESET),
    drawing=Drawing(
        layout=Layout.LINE,
        count_label="pips left",
        move_labels=((MoveKind.DRAW, "draw until a tile fits"),),
    ),
    docs_section="Block, Draw and partnership dominoes",
    shortest={"target_score": 0},
    # no option counts the hands: a target no table reaches plays up to MAX_HANDS
    long_match=lambda hands: ({"target_score": 100_000}, 5),
)
