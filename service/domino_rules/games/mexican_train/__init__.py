"""Mexican Train, ``mexican_train``: the rules (:mod:`.rules`), the bot (:mod:`.bot`), and
how the playground draws it; docs: "Mexican Train" in ``docs/rules.md``."""

from __future__ import annotations

from ...rules import MoveKind
from ..package import Drawing, GamePackage, Layout
from .bot import MexicanTrainBot
from .rules import MexicanTrain

__all__ = ["GAME"]

_RULESET = MexicanTrain()

#: The package's parts, as the catalogue installs them.
GAME = GamePackage(
    ruleset=_RULESET,
    bot=MexicanTrainBot(_RULESET),
    drawing=Drawing(
        layout=Layout.TRAINS,
        count_label="pips left",
        move_labels=((MoveKind.DRAW, "draw one tile"),),
    ),
    docs_section="Mexican Train",
    shortest={"set_max_pip": 9, "hands": 1},
    # the longest match the options allow: 13 hands of double-12 (16 of double-15)
    long_match=lambda hands: ({"set_max_pip": 15 if hands > 13 else 12}, 8),
)
