"""The Mexican Train bot: its sampled worlds and its GREEDY heuristic.

**What the seat sees** (``MexicanTrainTable``): the engine, every train with its tiles,
its open end and its marker, the unsatisfied doubles and whether they bind, the seats
still to take a ``CHAIN`` opening turn, every seat's number of tiles and the boneyard's
size.

**Worlds.** The tiles the seat cannot see (the set less its hand, the engine and the
trains) are dealt at random to the other hands, at the sizes the view shows, and to the
boneyard. The hand goes on ``[MT-11]``: when the boneyard is empty and no tile of the
seat's own shows an open end, another hand holds one that does. Markers and draws are
not inferred from (the view holds the last move's events only).

**GREEDY**: of the tiles that may be laid, a double first when another tile can follow
it, then the heaviest, then on the seat's own train (which takes its marker down), then
elsewhere than the Mexican train. In a ``CHAIN`` opening turn it lays on while it can. A
forced ``DRAW`` or ``PASS`` is the only move.

Playouts play the same heuristic for every seat of a sampled world, through the rules.
"""

from __future__ import annotations

import random
from typing import Any

from ...bots.dealing import GameBot, best, deal_hands, hidden_pool
from ...rules import Match, Move, MoveKind, Tile, View
from ...rules import trains as shared
from .rules import MexicanTrainHandState, MexicanTrainOptions

__all__ = ["MexicanTrainBot"]

_PLAY = MoveKind.PLAY


class MexicanTrainBot(GameBot):
    greedy_text = (
        "a double first when another tile can follow it, then the heaviest tile, then on "
        "its own train, then elsewhere than the Mexican train"
    )
    margin_scale = 20.0
    margin_weight = 0.3
    hand_spread = 25.0
    candidates = 4
    #: STRONG's default, set by measurement: a median CPU per suggestion of at most 15 ms
    #: (``python bench/bots.py``) at a win share against GREEDY within noise of the larger
    #: budget it replaced (``python bench/tournament.py``)
    playouts = 10

    def hands_after(
        self, options: MexicanTrainOptions, players: int, hand_number: int, totals: list[int]
    ) -> float:
        # [MT-13] the match is a fixed number of hands
        return float(
            max(0, shared.hands_in_match(options.set_max_pip, options.hands) - hand_number)
        )

    def deal_world(
        self,
        view: View,
        options: MexicanTrainOptions,
        players: int,
        rng: random.Random,
        *,
        infer: bool,
    ) -> MexicanTrainHandState | None:
        table = view.table
        lines = tuple(tuple(laid.tile for laid in train.tiles) for train in table.trains)
        laid = [tile for line in lines for tile in line]
        pool = hidden_pool(self.ruleset.full_set(options), view.hand, laid, (table.engine,))
        ends = 0
        for train in table.trains:
            ends |= 1 << train.open_end
        accept = None
        if infer and not view.stock and not any(t.halves & ends for t in view.hand):
            # [MT-11] not blocked: another hand holds a tile that shows an open end

            def accept(parts: list[list[Tile]]) -> bool:
                return any(t.halves & ends for part in parts[:-1] for t in part)

        dealt = deal_hands(view, players, pool, rng, None, accept)
        if dealt is None or view.to_act is None:
            return None
        hands, boneyard = dealt
        public = 0
        for train in table.trains:
            if train.train < players and train.public:
                public |= 1 << train.train
        pending = tuple(double.train for double in table.pending)
        binding = sum(1 for double in table.pending if double.binding)
        return MexicanTrainHandState(
            hands,
            boneyard,
            table.engine,
            lines,
            tuple(train.open_end for train in table.trains),
            public,
            pending,
            binding,
            table.opening,
            view.to_act,
            table.leader,
            0,
        )

    def move_keys(self, view: View, options: MexicanTrainOptions) -> list[Any]:
        seat = view.seat
        assert seat is not None
        players = len(view.hand_sizes)
        return [_key(move, view.hand, seat, players) for move in view.legal_moves]

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        state: MexicanTrainHandState = match.hand_state
        seat = state.to_act
        hand = state.hands[seat]
        players = match.players
        return best(legal, lambda move: _key(move, hand, seat, players))


def _key(move: Move, hand: tuple[Tile, ...], seat: int, players: int) -> tuple[int, ...]:
    """A double that another tile can follow, then the heaviest, then the seat's own
    train, then not the Mexican train; any play before the PASS that stops a chain."""
    tile = move.tile
    if move.kind is not _PLAY or tile is None:
        return (-1, 0, 0, 0)
    follows = 0
    if tile.is_double:
        bit = 1 << tile.high
        follows = int(any(t.halves & bit for t in hand if t is not tile and t != tile))
    return (follows, tile.pips, int(move.train == seat), int(move.train != players))
