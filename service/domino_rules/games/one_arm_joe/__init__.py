"""One Arm Joe (One-Armed Pete), ``one_arm_joe``: the rules (:mod:`.rules`), the bot
(:mod:`.bot`), and how the playground draws it; docs: "One Arm Joe" in ``docs/rules.md``."""

from __future__ import annotations

from ...rules import MoveKind
from ..package import Drawing, GamePackage, Layout
from .bot import OneArmJoeBot
from .rules import OneArmJoe

__all__ = ["GAME"]

_RULESET = OneArmJoe()

#: The package's parts, as the catalogue installs them.
GAME = GamePackage(
    ruleset=_RULESET,
    bot=OneArmJoeBot(_RULESET),
    drawing=Drawing(
        layout=Layout.ARM,
        open_field="open_end",
        count_label="pips left",
        move_labels=((MoveKind.DRAW, "draw until a tile matches"),),
    ),
    docs_section="One Arm Joe (One-Armed Pete)",
    shortest={"target_score": 0},
    # no option counts the hands: a target no table reaches plays up to MAX_HANDS
    long_match=lambda hands: ({"target_score": 100_000}, 9),
)
