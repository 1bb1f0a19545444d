"""Dancing Dragons, ``dancing_dragons``: the rules (:mod:`.rules`), the bot (:mod:`.bot`),
and how the playground draws it; docs: "Dancing Dragons" in ``docs/rules.md``."""

from __future__ import annotations

from ..package import Drawing, Faces, GamePackage, Layout, SeatFact
from .bot import DancingDragonsBot
from .rules import DancingDragons

__all__ = ["GAME"]

_RULESET = DancingDragons()

#: The package's parts, as the catalogue installs them.
GAME = GamePackage(
    ruleset=_RULESET,
    bot=DancingDragonsBot(_RULESET),
    drawing=Drawing(
        layout=Layout.LINE,
        count_label="pips discarded",
        seat_facts=(SeatFact("discard_counts", "discards"),),
        faces=Faces.CHINESE,
    ),
    docs_section="Dancing Dragons",
    shortest={"hands": 1},
    long_match=lambda hands: ({"hands": hands}, 4),
)
