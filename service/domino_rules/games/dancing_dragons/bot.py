"""The Dancing Dragons bot: its sampled worlds and its GREEDY heuristic.

**What the seat sees** (``DancingDragonsTable``): the whole line and its two ends, the
leader, its own discards and every seat's number of discards and of tiles in hand.

**Worlds.** The tiles the seat cannot see (the Chinese set less its hand, the line and
its own discards) are dealt at random to the other hands, to the other seats' face-down
discards (as many as each has) and, with 3 players, to the two tiles aside. A discard
under ``must_play_if_able`` is not inferred from (the view holds the last move's events
only, and the ends have moved since).

**GREEDY**: play rather than discard: of the tiles that fit, the heaviest, then the one
that leaves the seat the most tiles that fit the new ends; with no play, discard the
lightest tile.

Playouts play the same heuristic for every seat of a sampled world, through the rules.
"""

from __future__ import annotations

import random
from typing import Any

from ...bots.dealing import GameBot, Slot, best, deal_hidden, hidden_pool
from ...rules import Match, Move, MoveKind, Tile, View
from ...rules.lines import ends_after
from ...rules.tiles import sorted_tiles
from .rules import DancingDragonsHandState, DancingDragonsOptions

__all__ = ["DancingDragonsBot"]


class DancingDragonsBot(GameBot):
    greedy_text = (
        "play rather than discard: of the tiles that fit, the heaviest, then the one that "
        "leaves the most of the seat's tiles a place to go; with no play, discard the "
        "lightest tile"
    )
    margin_scale = 20.0
    margin_weight = 0.1
    hand_spread = 20.0
    candidates = 6
    #: STRONG's default, set by measurement: a median CPU per suggestion of at most 15 ms
    #: (``python bench/bots.py``) at a win share against GREEDY within noise of the larger
    #: budget it replaced (``python bench/tournament.py``)
    playouts = 36

    def hands_after(
        self, options: DancingDragonsOptions, players: int, hand_number: int, totals: list[int]
    ) -> float:
        if options.target_score > 0:
            return self.hands_to_target(options.target_score, totals, 20.0)
        return float(max(0, options.hands - hand_number))

    def deal_world(
        self,
        view: View,
        options: DancingDragonsOptions,
        players: int,
        rng: random.Random,
        *,
        infer: bool,
    ) -> DancingDragonsHandState | None:
        table = view.table
        seat = view.seat
        if seat is None or view.to_act is None:
            return None
        laid = [laid.tile for laid in table.line]
        pool = hidden_pool(self.ruleset.full_set(options), view.hand, laid, table.discards)
        others = [s for s in range(players) if s != seat]
        aside = len(pool) - sum(view.hand_sizes[s] + table.discard_counts[s] for s in others)
        slots = [Slot(view.hand_sizes[s]) for s in others]
        slots += [Slot(table.discard_counts[s]) for s in others]
        slots.append(Slot(aside))
        parts = deal_hidden(pool, slots, rng)
        if parts is None:
            return None
        hands = [view.hand] * players
        discards = [table.discards] * players
        for k, other in enumerate(others):
            hands[other] = sorted_tiles(parts[k])
            discards[other] = tuple(parts[len(others) + k])
        return DancingDragonsHandState(
            tuple(hands),
            tuple(discards),
            table.line,
            view.to_act,
            table.leader,
            sorted_tiles(parts[-1]),
        )

    def move_keys(self, view: View, options: DancingDragonsOptions) -> list[Any]:
        return [_key(move, view.hand, view.table.line) for move in view.legal_moves]

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        state: DancingDragonsHandState = match.hand_state
        hand = state.hands[state.to_act]
        return best(legal, lambda move: _key(move, hand, state.line))


def _key(move: Move, hand: tuple[Tile, ...], line: Any) -> tuple[int, int, int]:
    """A play before a discard: the heaviest tile, then the most of the seat's other tiles
    (the hand less one copy of it) fitting the ends it leaves; else the lightest discard."""
    tile = move.tile
    assert tile is not None
    if move.kind is _DISCARD:
        return (0, -tile.pips, 0)
    left, right = ends_after(line, tile, move.end)
    ends = 1 << left | 1 << right
    placed = 0
    for t in hand:
        if t.halves & ends:
            placed += 1
    if tile.halves & ends:
        placed -= 1  # the tile itself, one copy
    return (1, tile.pips, placed)


_DISCARD = MoveKind.DISCARD
