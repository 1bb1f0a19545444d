"""The Block bot: its sampled worlds and its GREEDY heuristic.

**What the seat sees** (``BlockTable``): the line and its two ends, the leader, every
seat's number of tiles (a partner's too: its tiles stay hidden) and the boneyard's size.

**Worlds.** The tiles the seat cannot see (the set less its hand and the line) are dealt
at random to the other hands, at the sizes the view shows, and to the boneyard. Before a
``HIGHEST_DOUBLE`` lead the seat to act leads the highest-ranked tile dealt, so no other
hand may hold a higher one. The hand goes on ``[BLK-9]``: when nothing more may be drawn
and no tile of the seat's own fits the line, another hand holds one that does. A seat's
passes and draws are not inferred from (the view holds the last move's events only, and
the ends have moved since).

**GREEDY**: of the tiles that fit, the heaviest (a double first of equal weights), then
the one that leaves the seat the most tiles that fit the new ends. A forced ``DRAW`` or
``PASS`` is the only move.

Playouts play the same heuristic for every seat of a sampled world, through the rules.
"""

from __future__ import annotations

import random
from typing import Any

from ...bots.dealing import GameBot, best, deal_hands, hidden_pool
from ...rules import Match, Move, MoveKind, Tile, View
from ...rules.lines import ends_after
from .rules import (
    BlockHandState,
    BlockOptions,
    FirstLead,
    NextLead,
    rank,
)

__all__ = ["BlockBot"]

#: Points a hand scores, about (OTHERS_TOTAL, two players): how fast a target comes.
_POINTS_A_HAND = 15.0


class BlockBot(GameBot):
    greedy_text = (
        "of the tiles that fit, the heaviest (a double first), then the one that leaves "
        "the most of the seat's tiles a place to go"
    )
    margin_scale = 15.0
    margin_weight = 0.3
    hand_spread = 15.0
    candidates = 6
    #: STRONG's default, set by measurement: a median CPU per suggestion of at most 15 ms
    #: (``python bench/bots.py``) at a win share against GREEDY within noise of the larger
    #: budget it replaced (``python bench/tournament.py``)
    playouts = 50

    def hands_after(
        self, options: BlockOptions, players: int, hand_number: int, totals: list[int]
    ) -> float:
        if options.target_score == 0:
            return 0.0
        return self.hands_to_target(options.target_score, totals, _POINTS_A_HAND)

    def deal_world(
        self, view: View, options: BlockOptions, players: int, rng: random.Random, *, infer: bool
    ) -> BlockHandState | None:
        table = view.table
        laid = [laid.tile for laid in table.line]
        pool = hidden_pool(self.ruleset.full_set(options), view.hand, laid)
        any_lead = bool(table.line) or not (
            options.first_lead is FirstLead.HIGHEST_DOUBLE
            and (view.hand_number == 1 or options.next_lead is NextLead.AS_FIRST)
        )
        allows = None
        if not any_lead and view.hand:
            top = rank(max(view.hand, key=rank))

            def below(seat: int) -> Any:
                return lambda tile: rank(tile) < top

            allows = below
        left = max(0, view.stock - options.boneyard_keep) if options.draw else 0
        ends = {table.left_end, table.right_end} if table.line else set()
        accept = None
        if ends and not left and not any(t.high in ends or t.low in ends for t in view.hand):
            # [BLK-9] not blocked: another hand holds a tile that fits

            def accept(parts: list[list[Tile]]) -> bool:
                return any(t.high in ends or t.low in ends for part in parts[:-1] for t in part)

        dealt = deal_hands(view, players, pool, rng, allows, accept)
        if dealt is None or view.to_act is None:
            return None
        hands, boneyard = dealt
        last = None if not table.line else table.leader
        return BlockHandState(
            hands, boneyard, table.line, view.to_act, table.leader, any_lead, left, last
        )

    def move_keys(self, view: View, options: BlockOptions) -> list[Any]:
        return [_key(move, view.hand, view.table.line) for move in view.legal_moves]

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        state: BlockHandState = match.hand_state
        hand = state.hands[state.to_act]
        return best(legal, lambda move: _key(move, hand, state.line))


def _key(move: Move, hand: tuple[Tile, ...], line: Any) -> tuple[int, int, int]:
    """The heaviest tile, a double first, then the most of the other tiles fitting the
    ends it leaves."""
    tile = move.tile
    if move.kind is not _PLAY or tile is None:
        return (-1, 0, 0)
    left, right = ends_after(line, tile, move.end)
    ends = 1 << left | 1 << right
    placed = 0
    for t in hand:
        if t.halves & ends and t != tile:
            placed += 1
    return (tile.pips, int(tile.is_double), placed)


_PLAY = MoveKind.PLAY
