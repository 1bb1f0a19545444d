"""All Fives, Muggins and Fives and Threes, ``all_fives``: the rules (:mod:`.rules`), the
bot (:mod:`.bot`), and how the playground draws it; docs: "All Fives, Muggins and Fives
and Threes" in ``docs/rules.md``."""

from __future__ import annotations

from ...rules import MoveKind
from ..package import Drawing, GamePackage, Layout, SeatFact
from .bot import AllFivesBot
from .rules import AllFives

__all__ = ["GAME"]

_RULESET = AllFives()

#: The package's parts, as the catalogue installs them.
GAME = GamePackage(
    ruleset=_RULESET,
    bot=AllFivesBot(_RULESET),
    drawing=Drawing(
        layout=Layout.CROSS,
        count_label="pips left",
        seat_facts=(SeatFact("hand_points", "this hand"),),
        move_labels=((MoveKind.DRAW, "draw until a tile fits"),),
    ),
    docs_section="All Fives, Muggins and Fives and Threes",
    shortest={"target_score": 0},
    # no option counts the hands: a target no table reaches plays up to MAX_HANDS
    long_match=lambda hands: ({"target_score": 100_000}, 5),
)
