"""Tiu U (fishing), ``tiu_u``: the rules (:mod:`.rules`), the bot (:mod:`.bot`), and how
the playground draws it; docs: "Tiu U" in ``docs/rules.md``."""

from __future__ import annotations

from ..package import Drawing, Faces, FacesWhen, GamePackage, Layout, SeatFact
from .bot import TiuUBot
from .rules import TiuU

__all__ = ["GAME"]

_RULESET = TiuU()

#: The package's parts, as the catalogue installs them.
GAME = GamePackage(
    ruleset=_RULESET,
    bot=TiuUBot(_RULESET),
    drawing=Drawing(
        layout=Layout.LAKE,
        count_label="catch",
        seat_facts=(SeatFact("catch_counts", "catch"),),
        faces=Faces.CHINESE,
        faces_when=(FacesWhen("red_sixes", "ALL_SIXES", Faces.CHINESE_RED_SIXES),),
    ),
    docs_section="Tiu U (fishing)",
    shortest={"hands": 1},
    # STRONG's edge over GREEDY is a point or two of win share: 400 matches cannot tell it
    tournament_matches=4000,
    long_match=lambda hands: ({"hands": hands}, 4),
)
