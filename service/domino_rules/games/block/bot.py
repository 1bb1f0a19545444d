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

Rollouts play the same heuristic for every seat of a sampled world, on tile codes
(:class:`_Playouts`).
"""

from __future__ import annotations

import random
from typing import Any

from ...bots.dealing import GameBot, Rollouts, best, deal_hands, hidden_pool
from ...bots.playout import TILE_HALVES, TILE_HIGH, TILE_LOW, TILE_PIPS, lay_on, line_play
from ...rules import End, Match, Move, MoveKind, Tile, View
from ...rules.lines import fits, lay
from .rules import (
    BlockHandState,
    BlockOptions,
    FirstLead,
    NextLead,
    rank,
    side_score,
    sides,
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
    playouts = 100

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

    def rollouts(self, match: Match[Any, Any]) -> Rollouts:
        return _Playouts(match)


def _key(move: Move, hand: tuple[Tile, ...], line: Any) -> tuple[int, int, int]:
    tile = move.tile
    if move.kind is not MoveKind.PLAY or tile is None:
        return (-1, 0, 0)
    after = lay(line, tile, move.end)
    rest = [t for t in hand if t != tile]
    placed = sum(1 for t in rest if fits(t, after))
    return (tile.pips, int(tile.is_double), placed)


# --------------------------------------------------------------------------- playouts

_PLAY, _DRAW, _PASS = MoveKind.PLAY, MoveKind.DRAW, MoveKind.PASS
#: Per tile code: the weight :func:`_key` plays the heaviest by, a double first of equal
#: pips.
_WEIGHT = tuple(
    2 * pips + (high == low) for pips, high, low in zip(TILE_PIPS, TILE_HIGH, TILE_LOW, strict=True)
)


class _Playouts(Rollouts):
    """Block playouts on tile codes (see :class:`~.dealing.Rollouts`): the moves of
    ``[BLK-5]``..``[BLK-9]`` as the rules core makes them, the GREEDY heuristic's choice
    (:func:`_key`, computed the same way by :func:`~domino_rules.bots.playout.line_play`;
    the first of equal scores in the order of the legal moves), and the points of
    ``[BLK-10]`` ``[BLK-11]``."""

    def __init__(self, match: Match[BlockOptions, BlockHandState]) -> None:
        state, options = match.hand_state, match.options
        players = match.players
        self.players = players
        self.hands = [[t.code for t in hand] for hand in state.hands]  # sorted
        self.boneyard = [t.code for t in state.boneyard]  # drawn from the front
        self.draws_left = state.draws_left
        line = state.line
        self.left = line[0].left if line else -1
        self.right = line[-1].right if line else -1
        self.to_act = state.to_act
        # per pip, the tiles held (every hand) that have it: the line is blocked when
        # none has an end's pip [BLK-9]
        self.held = [0] * (options.set_max_pip + 1)
        for hand in state.hands:
            for t in hand:
                self.held[t.high] += 1
                if not t.is_double:
                    self.held[t.low] += 1
        self.sides = sides(options, players)
        self.side_of = [next(side for side in self.sides if s in side) for s in range(players)]
        self.domino_wins, self.scoring = options.domino_wins, options.scoring

    def play(self, move: Move) -> tuple[int, ...]:
        players, high_of, low_of, halves_of = self.players, TILE_HIGH, TILE_LOW, TILE_HALVES
        hands = [hand[:] for hand in self.hands]
        boneyard, drawn_at, draws_left = self.boneyard, 0, self.draws_left
        held = self.held[:]
        left, right, seat = self.left, self.right, self.to_act
        kind, end = move.kind, move.end
        tile = move.tile.code if move.tile is not None else -1
        out = -1
        while True:
            hand = hands[seat]
            if kind is _PLAY:
                # [BLK-5] the half matching the end goes against it; the first tile lies
                # high half left
                left, right = lay_on(tile, end, left, right)
                hand.remove(tile)
                high, low = high_of[tile], low_of[tile]
                held[high] -= 1
                if high != low:
                    held[low] -= 1
                if not hand:
                    out = seat
                    break  # [BLK-9] dominoed
                seat = seat + 1 if seat + 1 < players else 0
            elif kind is _DRAW:
                # [BLK-8] one tile at a time until one fits or nothing more may be drawn
                ends = 1 << left | 1 << right
                while draws_left:
                    tile = boneyard[drawn_at]
                    drawn_at += 1
                    draws_left -= 1
                    hand.append(tile)
                    hand.sort()
                    held[high_of[tile]] += 1
                    if high_of[tile] != low_of[tile]:
                        held[low_of[tile]] += 1
                    if halves_of[tile] & ends:
                        break
                else:
                    seat = seat + 1 if seat + 1 < players else 0
            else:
                seat = seat + 1 if seat + 1 < players else 0  # [BLK-7]
            if not draws_left and not held[left] and not held[right]:
                break  # [BLK-9] blocked: nobody can play, nothing more may be drawn
            # the next move: the GREEDY play, else a draw, else a pass [BLK-6]..[BLK-8]
            chosen = line_play(hands[seat], left, right, _WEIGHT)
            if chosen >= 0:
                kind, tile, end = _PLAY, chosen >> 1, (End.RIGHT if chosen & 1 else End.LEFT)
            else:
                kind = _DRAW if draws_left else _PASS
        return self.points([sum([TILE_PIPS[t] for t in hand]) for hand in hands], out)

    def points(self, counts: list[int], out: int) -> tuple[int, ...]:
        """[BLK-10] [BLK-11] the points of the hand over, from the pips left in each hand
        and the seat that went out (``-1``: blocked), as ``Block.score_hand`` gives
        them."""
        if out >= 0 and self.domino_wins:
            winner = self.side_of[out]  # [BLK-10] the side that dominoed wins outright
        else:
            side_counts = [sum([counts[s] for s in side]) for side in self.sides]
            low = min(side_counts)
            if side_counts.count(low) > 1:
                return (0,) * self.players  # equal lowest: a tie, nobody scores
            winner = self.sides[side_counts.index(low)]
        own = sum([counts[s] for s in winner])
        score = side_score(self.scoring, own, sum(counts) - own)
        points = [0] * self.players
        for s in winner:
            points[s] = score
        return tuple(points)
