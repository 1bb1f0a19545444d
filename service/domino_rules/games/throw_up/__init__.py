"""Throw-up Dominoes, ``throw_up``: the rules (:mod:`.rules`), the bot (:mod:`.bot`), and
how the playground draws it; docs: "Throw-up Dominoes" in ``docs/rules.md``."""

from __future__ import annotations

from ..package import Drawing, GamePackage, Layout, SeatFact
from .bot import ThrowUpBot
from .rules import ThrowUp

__all__ = ["GAME"]

_RULESET = ThrowUp()
_PLAYERS = 3
_MOST_HANDS_PER_PLAYER = 20

#: The package's parts, as the catalogue installs them.
GAME = GamePackage(
    ruleset=_RULESET,
    bot=ThrowUpBot(_RULESET),
    drawing=Drawing(
        layout=Layout.LINE,
        count_label="tiles left",
        seat_facts=(SeatFact("pegs", "pegged"),),
    ),
    docs_section="Throw-up Dominoes",
    # [THR-11] each seat leads the same number of hands: two hands at two seats
    shortest={"hands_per_player": 1},
    # STRONG's edge over GREEDY is a point or two of win share: 400 matches cannot tell it
    tournament_matches=4000,
    long_match=lambda hands: (
        {"hands_per_player": min(-(-hands // _PLAYERS), _MOST_HANDS_PER_PLAYER)},
        _PLAYERS,
    ),
)
