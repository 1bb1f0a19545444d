"""Tsair Deng (Slant Nail), ``tsair_deng``: the rules (:mod:`.rules`), the bot
(:mod:`.bot`), and how the playground draws it; docs: "Tsair Deng" in ``docs/rules.md``."""

from __future__ import annotations

from ..package import Drawing, Faces, FacesWhen, GamePackage, Layout, SeatFact
from .bot import TsairDengBot
from .rules import TsairDeng

__all__ = ["GAME"]

_RULESET = TsairDeng()

#: The package's parts, as the catalogue installs them.
GAME = GamePackage(
    ruleset=_RULESET,
    bot=TsairDengBot(_RULESET),
    drawing=Drawing(
        layout=Layout.PLACES,
        open_field="open_pip",
        count_label="pips discarded",
        seat_facts=(SeatFact("discard_counts", "discards"),),
        faces_when=(FacesWhen("tile_set", "CHINESE", Faces.CHINESE),),
    ),
    docs_section="Tsair Deng (Slant Nail)",
    shortest={"hands": 1},
    long_match=lambda hands: ({"hands": hands}, 4),
)
