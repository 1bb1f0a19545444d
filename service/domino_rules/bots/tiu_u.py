"""The Tiu U bot: its sampled worlds and its GREEDY heuristic.

**What the seat sees** (``TiuUTable``): the lake, the piles, every catch and its count,
the drawn tile waiting for its capture, the leader; its own hand, every hand's size and
the woodpile's size; the last move's events (none is hidden in Tiu U).

**Sampling.** The hidden tiles are the two sets less the seat's hand, the lake, the
piles (3 tiles each), the catches and the drawn tile. They are dealt at random into the
other hands (their sizes) and the woodpile (its size, in random order: it is drawn from
its top). What the rules let the seat infer is kept:

* ``[TU-4]`` a pair of ``[6-6]`` is laid out at the deal and hands never grow, so no
  hand holds two ``[6-6]``;
* ``[TU-5]`` a seat whose last move was a ``PASS`` (when ``may_decline`` is off) could
  neither capture nor pile: no tile of its hand matches ``[TU-3]`` a lake tile as the lake
  was at its hand step, nor is the fourth copy of a pile then. That lake is the lake seen
  less the tile its draw added (``TO_LAKE``), plus the tile its draw captured.

**Limits.** Only the last move is seen, so a pass before it (and what it rules out) is
lost; a ``voids`` field would keep it (see the package docstring).

**GREEDY** (``[TU-5]``..``[TU-9]``): capture the biggest fish by points. A capture is worth
what its tiles add to the catch: a big fish (8 pips or more) 2 per pip, a small fish its
red pips (the rounding of small fish to tens is left out), the three tiles of a pile
each. Piling is worth the two lake tiles and the seat's own when the seat also holds the
fourth copy (the pile is then the seat's to take, and safe from a capture by total);
otherwise piling gives the tiles away, and is worth minus the tile's value. Passing
(legal when nothing else is, or under ``may_decline``) is worth a little less than
nothing. A drawn tile's choice (``CAPTURE_DRAWN``) takes the most valuable target.

Rollouts play the same heuristic for every seat of a sampled world.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..rules import EventKind, Match, Move, MoveKind, Tile, View
from ..rules.tiles import red_pips
from ..rules.tiu_u import RedSixes, TiuUHandState, TiuUOptions, TiuUTable, matches
from .dealing import GameBot, Slot, best, deal_hidden, hidden_pool

__all__ = ["BIG_FISH", "TiuUBot", "fish_value", "lake_before_pass"]

#: [TU-9] a big fish has at least this many pips.
BIG_FISH = 8
_SIX_SIX = Tile(6, 6)


def fish_value(tile: Tile, all_sixes: bool) -> int:
    """What ``tile`` adds to a catch, the rounding of small fish aside ``[TU-9]``."""
    if tile.pips >= BIG_FISH:
        return 2 * tile.pips
    return red_pips(tile, all_sixes=all_sixes)


def lake_before_pass(view: View) -> tuple[int, list[Tile], set[Tile]] | None:
    """The seat that passed in the last move, with the lake and the piles as they were
    at its hand step ``[TU-5]`` ``[TU-6]``; ``None`` when the last move was no pass of
    another seat."""
    table: TiuUTable = view.table
    events = view.events
    if not events or events[0].kind is not EventKind.PASS:
        return None
    seat = events[0].seat
    if seat is None or seat == view.seat:
        return None
    lake = Counter(table.lake)
    piles = set(table.piles)
    for event in events[1:]:
        if event.kind is EventKind.TO_LAKE and event.tile is not None:
            lake[event.tile] -= 1  # the drawn tile joined the lake after the pass
        elif event.kind is EventKind.CAPTURE and event.target is not None:
            if len(event.tiles) == 4:
                piles.add(event.target)  # the drawn fourth copy took a pile
            else:
                lake[event.target] += 1  # the drawn tile took a lake tile
    return seat, list(lake.elements()), piles


class TiuUBot(GameBot):
    ruleset_id = "tiu_u"
    margin_scale = 40.0

    def deal_world(
        self,
        view: View,
        options: TiuUOptions,
        players: int,
        rng: random.Random,
        *,
        infer: bool,
    ) -> TiuUHandState | None:
        table: TiuUTable = view.table
        me = view.seat
        assert me is not None
        drawn = (table.drawn,) if table.drawn is not None else ()
        pool = hidden_pool(
            self.ruleset.full_set(options),
            view.hand,
            table.lake,
            [t for t in table.piles for _ in range(3)],
            [t for caught in table.catches for t in caught.tiles],
            drawn,
        )
        others = [s for s in range(players) if s != me]
        passed = lake_before_pass(view) if infer and not options.may_decline else None
        slots = []
        for seat in others:
            allows = None
            if passed is not None and passed[0] == seat:
                lake, piles = passed[1], passed[2]
                # [TU-5] it could neither capture nor pile
                allows = lambda t, lake=lake, piles=piles: (  # noqa: E731
                    t not in piles and not any(matches(t, x) for x in lake)
                )
            slots.append(Slot(view.hand_sizes[seat], allows))
        slots.append(Slot(view.stock))

        def accept(parts: list[list[Tile]]) -> bool:
            # [TU-4] a pair of [6-6] is laid out at the deal
            return all(part.count(_SIX_SIX) <= 1 for part in parts[:-1])

        parts = deal_hidden(pool, slots, rng, accept)
        if parts is None:
            return None
        hands = [view.hand] * players
        for seat, part in zip(others, parts, strict=False):
            hands[seat] = tuple(sorted(part, key=_code))
        return TiuUHandState(
            hands=tuple(hands),
            woodpile=tuple(parts[-1]),
            lake=table.lake,
            piles=table.piles,
            catches=tuple(caught.tiles for caught in table.catches),
            to_act=view.to_act if view.to_act is not None else me,
            leader=table.leader,
            drawn=table.drawn,
        )

    def move_keys(self, view: View, options: TiuUOptions) -> list[Any]:
        table: TiuUTable = view.table
        key = _scorer(view.hand, table.piles, options)
        return [key(move) for move in view.legal_moves]

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        state: TiuUHandState = match.hand_state
        return _choose(legal, state.hands[state.to_act], state.piles, match.options)


def _code(tile: Tile) -> int:
    return tile.code


def _scorer(
    hand: tuple[Tile, ...], piles: tuple[Tile, ...], options: TiuUOptions
) -> Callable[[Move], float]:
    """The GREEDY score of a move (see the module docstring)."""
    all_sixes = options.red_sixes is RedSixes.ALL_SIXES

    def key(move: Move) -> float:
        tile, target = move.tile, move.target
        if move.kind is MoveKind.PASS or tile is None:
            return -0.5
        value = fish_value(tile, all_sixes)
        if move.kind is MoveKind.PILE:
            # [TU-7] worth the pile when the seat holds the fourth copy too
            return 3 * value if hand.count(tile) >= 2 else -value
        assert target is not None
        taken = 3 if target in piles and target == tile else 1
        own = value if move.kind is MoveKind.CAPTURE else 0
        return own + taken * fish_value(target, all_sixes)

    return key


def _choose(
    legal: tuple[Move, ...], hand: tuple[Tile, ...], piles: tuple[Tile, ...], options: TiuUOptions
) -> Move:
    if len(legal) == 1:
        return legal[0]
    return best(legal, _scorer(hand, piles, options))
