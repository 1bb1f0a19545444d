"""The Chicken Foot bot: its sampled worlds and its GREEDY heuristic.

**What the seat sees** (``ChickenFootTable``): the centre double, every arm with its
foot, tiles and open end, the feet and the pending foot; every seat's number of tiles and
the boneyard's size.

**Worlds.** The tiles the seat cannot see (the set less its hand, the centre and the
arms) are dealt at random to the other hands, at the sizes the view shows, and to the
boneyard. The hand goes on ``[CF-7]``: when the boneyard is empty and no tile of the
seat's own shows an open end, another hand holds one that does. Draws and passes are not
inferred from (the view holds the last move's events only). The hunt for a centre double
dealt from the hands is not in the view: a world keeps none (it changes no rule of the
hand in play).

**GREEDY**: the heaviest tile that may be laid (a double first of equal weights: it makes
the others lay its toes), then the arm whose new end the most of the seat's other tiles
show. A forced ``DRAW`` or ``PASS`` is the only move.

Playouts play the same heuristic for every seat of a sampled world, through the rules.
"""

from __future__ import annotations

import random
from typing import Any

from ...bots.dealing import GameBot, deal_hands, hidden_pool
from ...rules import Match, Move, MoveKind, Tile, View
from .rules import ChickenFootHandState, ChickenFootOptions, arm_foot, open_end

__all__ = ["ChickenFootBot"]

_PLAY = MoveKind.PLAY


class ChickenFootBot(GameBot):
    greedy_text = (
        "the heaviest tile that may be laid (a double first), then the arm whose new end "
        "the most of the seat's other tiles show"
    )
    margin_scale = 20.0
    margin_weight = 0.3
    hand_spread = 25.0
    candidates = 6
    playouts = 30

    def hands_after(
        self, options: ChickenFootOptions, players: int, hand_number: int, totals: list[int]
    ) -> float:
        # [CF-9] a fixed number of hands
        return float(max(0, self.ruleset.max_hands(options, players) - hand_number))

    def deal_world(
        self,
        view: View,
        options: ChickenFootOptions,
        players: int,
        rng: random.Random,
        *,
        infer: bool,
    ) -> ChickenFootHandState | None:
        table = view.table
        laid = [laid.tile for arm in table.arms for laid in arm.tiles]
        pool = hidden_pool(self.ruleset.full_set(options), view.hand, laid, [table.engine])
        ends = 0
        for arm in table.arms:
            if arm.open_end is not None:
                ends |= 1 << arm.open_end
        accept = None
        if infer and not view.stock and not any(tile.halves & ends for tile in view.hand):
            # [CF-7] not blocked: another hand holds a tile that shows an open end

            def accept(parts: list[list[Tile]]) -> bool:
                return any(tile.halves & ends for part in parts[:-1] for tile in part)

        dealt = deal_hands(view, players, pool, rng, None, accept)
        if dealt is None or view.to_act is None:
            return None
        hands, boneyard = dealt
        arms = tuple(tuple(laid.tile for laid in arm.tiles) for arm in table.arms)
        return ChickenFootHandState(
            hands, boneyard, table.engine, arms, table.feet, view.to_act, table.leader, 0
        )

    def move_keys(self, view: View, options: ChickenFootOptions) -> list[Any]:
        arms, showing = view.table.arms, _showing(view.hand)
        return [
            _key(move, showing, arms[move.train].open_end if move.train is not None else None)
            for move in view.legal_moves
        ]

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        state: ChickenFootHandState = match.hand_state
        showing, centre = _showing(state.hands[state.to_act]), match.options.centre_toes
        top, top_key = legal[0], (-1, 0, 0)
        for move in legal:
            arm = move.train
            if arm is None:
                continue
            end = open_end(state.arms[arm], state.feet[arm_foot(arm, centre)])
            key = _key(move, showing, end)
            if key > top_key:
                top, top_key = move, key
        return top


def _showing(hand: tuple[Tile, ...]) -> list[int]:
    """How many tiles of ``hand`` show each number."""
    counts = [0] * 19
    for tile in hand:
        counts[tile.high] += 1
        if not tile.is_double:
            counts[tile.low] += 1
    return counts


def _key(move: Move, showing: list[int], end: int | None) -> tuple[int, int, int]:
    """The heaviest tile, a double first, then the most of the other tiles showing the
    end it leaves."""
    tile = move.tile
    if move.kind is not _PLAY or tile is None or end is None:
        return (-1, 0, 0)
    after = tile.other(end) if tile.has(end) else end
    placed = showing[after] - (1 if tile.has(after) else 0)
    return (tile.pips, int(tile.is_double), placed)
