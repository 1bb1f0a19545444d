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

Rollouts play the same heuristic for every seat of a sampled world, on tile codes
(:class:`_Playouts`).
"""

from __future__ import annotations

import random
from typing import Any

from ...bots.dealing import GameBot, Rollouts, Slot, best, deal_hidden, hidden_pool
from ...bots.playout import TILE_PIPS, discard_points, lay_on, line_play
from ...rules import End, Match, Move, MoveKind, Tile, View
from ...rules.lines import fits, lay
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
    playouts = 100

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

    def rollouts(self, match: Match[Any, Any]) -> Rollouts:
        return _Playouts(match)


def _key(move: Move, hand: tuple[Tile, ...], line: Any) -> tuple[int, int, int]:
    tile = move.tile
    assert tile is not None
    if move.kind is MoveKind.DISCARD:
        return (0, -tile.pips, 0)
    after = lay(line, tile, move.end)
    rest = list(hand)
    rest.remove(tile)
    return (1, tile.pips, sum(1 for t in rest if fits(t, after)))


# --------------------------------------------------------------------------- playouts

_PLAY = MoveKind.PLAY


class _Playouts(Rollouts):
    """Dancing Dragons playouts on tile codes (see :class:`~.dealing.Rollouts`): every
    seat in turn plays or discards ``[DD-4]`` ``[DD-5]`` as the GREEDY heuristic chooses
    (:func:`_key`, computed the same way by :func:`~domino_rules.bots.playout.line_play`;
    the first of equal scores in the order of the legal moves: plays, then discards,
    each ascending), until every tile is placed ``[DD-6]``; the points of ``[DD-7]``."""

    def __init__(self, match: Match[DancingDragonsOptions, DancingDragonsHandState]) -> None:
        state = match.hand_state
        self.players = match.players
        self.hands = [[t.code for t in hand] for hand in state.hands]  # sorted
        self.discarded = [sum(t.pips for t in tiles) for tiles in state.discards]
        self.discards = [len(tiles) for tiles in state.discards]
        line = state.line
        self.left = line[0].left if line else -1
        self.right = line[-1].right if line else -1
        self.to_act = state.to_act

    def play(self, move: Move) -> tuple[int, ...]:
        players, pips_of = self.players, TILE_PIPS
        hands = [hand[:] for hand in self.hands]
        discarded, discards = self.discarded[:], self.discards[:]
        left, right, seat = self.left, self.right, self.to_act
        assert move.tile is not None
        kind, tile, end = move.kind, move.tile.code, move.end
        turns = sum([len(hand) for hand in hands])  # [DD-6] one tile a turn
        while True:
            hand = hands[seat]
            if kind is _PLAY:
                # [DD-4] the half matching the end goes against it; the lead lies high
                # half left, both halves open [DD-3]
                left, right = lay_on(tile, end, left, right)
            else:
                discarded[seat] += pips_of[tile]  # [DD-5] face down
                discards[seat] += 1
            hand.remove(tile)
            turns -= 1
            if not turns:
                break
            seat = seat + 1 if seat + 1 < players else 0
            hand = hands[seat]
            # the next move: the GREEDY play, else the lightest tile discarded [DD-5]
            chosen = line_play(hand, left, right, pips_of)
            if chosen >= 0:
                kind, tile, end = _PLAY, chosen >> 1, (End.RIGHT if chosen & 1 else End.LEFT)
            else:
                kind, tile, lightest = MoveKind.DISCARD, hand[0], 99
                for t in hand:
                    if pips_of[t] < lightest:
                        tile, lightest = t, pips_of[t]
        return discard_points(discarded, discards)  # [DD-7]
