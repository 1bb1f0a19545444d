"""What a seat may see at the table, judged from a ruleset's hand state, apart from the
service's own views (RULES.md, DESIGN.md "Views").

* One Arm Joe: own hand + the arm. Not: others' hands, the boneyard.
* Tsair Deng: own hand + own face-down discards + the top tile of each of the 8 places
  of the serpentine ``[TD-6]``, computed here from the order of play. Not: others' hands,
  others' discards (only their number), covered tiles, the tiles left over ``[TD-2]``.
* Tiu U: own hand + the lake + every pile (3 tiles each) + every catch + the drawn tile
  waiting for its capture. Not: others' hands, the woodpile (contents or order).
* Throw-up: own hand + the line. Not: others' hands, the boneyard.

A spectator (seat ``None``) sees only the public part (the same without "own").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domino_rules.rules import Tile

__all__ = [
    "BLOCK",
    "DANCING_DRAGONS",
    "ONE_ARM_JOE",
    "PLACES",
    "THROW_UP",
    "TIU_U",
    "TSAIR_DENG",
    "Judge",
    "own",
    "serpentine_tops",
]

#: [TD-6] the serpentine has 8 places.
PLACES = 8


@dataclass(frozen=True)
class Judge:
    """What a seat sees of one ruleset's hand state.

    ``fields`` are the fields of the hand state the judge knows how to judge: a new
    field (a new place a tile can lie) must be judged here before the tests pass.
    """

    fields: frozenset[str]
    tiles: Callable[[Any, int | None], list[Tile]]

    def visible(self, hand_state: Any, seat: int | None) -> Counter[Tile]:
        """The multiset of tiles ``seat`` (``None``: a spectator) sees at the table now."""
        return Counter(self.tiles(hand_state, seat))


def own(tiles_by_seat: tuple[tuple[Tile, ...], ...], seat: int | None) -> tuple[Tile, ...]:
    """A seat's own tiles; a spectator owns none."""
    return tiles_by_seat[seat] if seat is not None else ()


def serpentine_tops(played: tuple[Tile, ...]) -> list[tuple[Tile | None, int]]:
    """[TD-6] (top tile, depth) of each of the 8 places, from the order of play.

    Tiles 1-8 lie left to right; tile 9 covers tile 8, tile 16 covers tile 1, tile 17
    covers tile 16, and so on: even rows run left to right, odd rows right to left.

    >>> tops = serpentine_tops(tuple(Tile(n, 0) for n in range(1, 10)))
    >>> tops[0], tops[7]
    ((Tile(1, 0), 1), (Tile(9, 0), 2))
    """
    places: list[tuple[Tile | None, int]] = [(None, 0)] * PLACES
    for index, tile in enumerate(played):
        row, column = divmod(index, PLACES)
        place = column if row % 2 == 0 else PLACES - 1 - column
        places[place] = (tile, places[place][1] + 1)
    return places


def _one_arm_joe(hand: Any, seat: int | None) -> list[Tile]:
    return [*own(hand.hands, seat), *hand.line]


def _tsair_deng(hand: Any, seat: int | None) -> list[Tile]:
    tops = [top for top, _ in serpentine_tops(hand.played) if top is not None]
    return [*own(hand.hands, seat), *own(hand.discards, seat), *tops]


def _tiu_u(hand: Any, seat: int | None) -> list[Tile]:
    piles = [tile for tile in hand.piles for _ in range(3)]
    catches = [tile for caught in hand.catches for tile in caught]
    drawn = [hand.drawn] if hand.drawn is not None else []
    return [*own(hand.hands, seat), *hand.lake, *piles, *catches, *drawn]


def _throw_up(hand: Any, seat: int | None) -> list[Tile]:
    return [*own(hand.hands, seat), *(laid.tile for laid in hand.line)]


ONE_ARM_JOE = Judge(
    frozenset({"hands", "boneyard", "line", "open_end", "to_act", "bonus", "leader", "dominoed"}),
    _one_arm_joe,
)
TSAIR_DENG = Judge(
    frozenset({"hands", "discards", "played", "open_pip", "to_act", "leader", "unused"}),
    _tsair_deng,
)
TIU_U = Judge(
    frozenset({"hands", "woodpile", "lake", "piles", "catches", "to_act", "leader", "drawn"}),
    _tiu_u,
)
THROW_UP = Judge(
    frozenset(
        {
            "hands",
            "boneyard",
            "line",
            "dice",
            "round",
            "leader",
            "to_act",
            "pegs",
            "idle_rounds",
            "laid_this_round",
        }
    ),
    _throw_up,
)


def _block(hand: Any, seat: int | None) -> list[Tile]:
    # [BLK-14] a partner is a seat like any other: its tiles stay hidden
    return [*own(hand.hands, seat), *(laid.tile for laid in hand.line)]


BLOCK = Judge(
    frozenset(
        {
            "hands",
            "boneyard",
            "line",
            "to_act",
            "leader",
            "any_lead",
            "draws_left",
            "last_layer",
        }
    ),
    _block,
)


def _dancing_dragons(hand: Any, seat: int | None) -> list[Tile]:
    # [DD-10] the line face up; a seat's own discards; the tiles aside never
    return [
        *own(hand.hands, seat),
        *own(hand.discards, seat),
        *(laid.tile for laid in hand.line),
    ]


DANCING_DRAGONS = Judge(
    frozenset({"hands", "discards", "line", "to_act", "leader", "unused"}),
    _dancing_dragons,
)
