"""High Tile, a toy game: each seat plays its three tiles, one a turn; the most pips wins.

It has what every game has and nothing more: no options, no table of its own (a seat sees
only the parts of a view every game has) and so no proto message of its own.

* The set is double-three (10 tiles); 2 or 3 players; each is dealt 3 tiles, the rest is
  the stock, never drawn. Seat 0 leads every hand.
* On its turn a seat plays any tile of its hand (``PLAY``, the tile face up).
* The hand ends when every hand is empty. A seat's count is the pips it played; its
  points are its count; the highest count wins (ties share). The match is one hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domino_rules.rules import (
    Event,
    EventKind,
    HandEnd,
    HandResult,
    Match,
    Move,
    MoveKind,
    Ruleset,
    Tile,
)
from domino_rules.rules.checks import fail, require
from domino_rules.rules.tiles import double_n, remove_tile, sorted_tiles

HAND_SIZE = 3


@dataclass(frozen=True, slots=True)
class HighTileOptions:
    """No options."""


@dataclass(frozen=True)
class HighTileHandState:
    hands: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]
    played: tuple[tuple[Tile, ...], ...]
    to_act: int
    leader: int


class HighTile(Ruleset[HighTileOptions, HighTileHandState]):
    id = "high_tile"
    name = "High Tile"
    source = "the test suite's toy game"
    description = "Play your three tiles, one a turn; the most pips played wins."
    options_type = HighTileOptions
    hand_state_type = HighTileHandState
    hand_ends = frozenset({HandEnd.ALL_TILES_PLACED})

    def full_set(self, options: HighTileOptions) -> tuple[Tile, ...]:
        return double_n(3)

    def max_players(self, options: HighTileOptions) -> int:
        return 3

    def max_hands(self, options: HighTileOptions, players: int) -> int:
        return 1

    def deal_from(
        self, match: Match[HighTileOptions, Any], hand_number: int, order: tuple[Tile, ...]
    ) -> tuple[HighTileHandState, tuple[Event, ...]]:
        players = match.players
        hands = tuple(
            sorted_tiles(order[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(players)
        )
        state = HighTileHandState(
            hands, order[players * HAND_SIZE :], ((),) * players, to_act=0, leader=0
        )
        return state, (Event(EventKind.DEAL, count=HAND_SIZE), Event(EventKind.LEADER, seat=0))

    def hand_legal_moves(
        self, state: HighTileHandState, options: HighTileOptions
    ) -> tuple[Move, ...]:
        seat = state.to_act
        return tuple(Move(seat, MoveKind.PLAY, tile=tile) for tile in state.hands[seat])

    def hand_apply(
        self, match: Match[HighTileOptions, HighTileHandState], move: Move
    ) -> tuple[HighTileHandState, tuple[Event, ...]]:
        state, seat = match.hand_state, move.seat
        assert move.tile is not None
        hands = list(state.hands)
        hands[seat] = remove_tile(hands[seat], move.tile)
        played = list(state.played)
        played[seat] = (*played[seat], move.tile)
        after = HighTileHandState(
            tuple(hands), state.stock, tuple(played), (seat + 1) % match.players, state.leader
        )
        return after, (Event(EventKind.PLAY, seat=seat, tile=move.tile),)

    def hand_over(self, state: HighTileHandState) -> bool:
        return not any(state.hands)

    def score_hand(self, match: Match[HighTileOptions, HighTileHandState]) -> HandResult:
        counts = tuple(sum(tile.pips for tile in tiles) for tiles in match.hand_state.played)
        top = max(counts)
        winners = tuple(seat for seat, count in enumerate(counts) if count == top)
        return HandResult(counts, counts, winners, HandEnd.ALL_TILES_PLACED)

    def match_over(self, match: Match[HighTileOptions, HighTileHandState]) -> bool:
        return True

    def stock(self, state: HighTileHandState) -> int:
        return len(state.stock)

    def table(self, match: Match[HighTileOptions, HighTileHandState], seat: int | None) -> None:
        return None

    def all_tiles(self, state: HighTileHandState) -> tuple[Tile, ...]:
        return (
            *(tile for hand in state.hands for tile in hand),
            *state.stock,
            *(tile for tiles in state.played for tile in tiles),
        )

    def check_hand_state(self, match: Match[HighTileOptions, HighTileHandState]) -> None:
        state, players = match.hand_state, match.players
        require(state.leader == 0, "seat 0 leads")
        require(len(state.played) == players, "one list of tiles played per seat")
        require(len(state.stock) == 10 - HAND_SIZE * players, "the stock is never drawn")
        turns = sum(len(tiles) for tiles in state.played)
        for seat in range(players):
            # seat s has had a turn for each of turns s, s + players, ... so far
            had = (turns - seat + players - 1) // players
            if len(state.played[seat]) != had or len(state.hands[seat]) != HAND_SIZE - had:
                fail(f"seat {seat} has not played as often as its turns")
        if turns < HAND_SIZE * players:
            require(state.to_act == turns % players, "the seat to act is the next in turn")
