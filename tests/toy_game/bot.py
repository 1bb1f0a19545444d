"""The High Tile bot: the tiles its seat cannot see (the other hands, every tile played,
which no view shows, and the stock) dealt at random; GREEDY plays its heaviest tile."""

from __future__ import annotations

import random
from typing import Any

from domino_rules.bots.dealing import GameBot, Slot, deal_hidden, hidden_pool
from domino_rules.rules import Match, Move, View
from domino_rules.rules.tiles import sorted_tiles

from .rules import HAND_SIZE, HighTileHandState


class HighTileBot(GameBot):
    greedy_text = "the heaviest tile"
    margin_scale = 5.0
    hand_spread = 5.0
    candidates = 3
    playouts = 60

    def deal_world(
        self, view: View, options: Any, players: int, rng: random.Random, *, infer: bool
    ) -> HighTileHandState | None:
        others = [s for s in range(players) if s != view.seat]
        pool = hidden_pool(self.ruleset.full_set(options), view.hand)
        slots = [Slot(view.hand_sizes[s]) for s in others]
        slots += [Slot(HAND_SIZE - view.hand_sizes[s]) for s in range(players)]
        slots.append(Slot(view.stock))
        parts = deal_hidden(pool, slots, rng)
        if parts is None or view.to_act is None:
            return None
        hands = [view.hand] * players
        for seat, part in zip(others, parts, strict=False):
            hands[seat] = sorted_tiles(part)
        played = tuple(tuple(part) for part in parts[len(others) : len(others) + players])
        return HighTileHandState(tuple(hands), tuple(parts[-1]), played, view.to_act, 0)

    def move_keys(self, view: View, options: Any) -> list[Any]:
        return [move.tile.pips if move.tile else 0 for move in view.legal_moves]

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        return max(legal, key=lambda move: move.tile.pips if move.tile else 0)
