"""Dancing Dragons: Tsair Deng's Chinese cousin, on a line with two open ends.

Sources: RULES.md ``[DD-1]``..``[DD-11]`` (pagat, from the Domino 32 Company's rule book;
domino-play.com). What it shares with Tsair Deng (the Chinese set's hand sizes, the
random first leader, the score of discards and its tie-breaks, the match and its
settlement) is written once, in :mod:`domino_rules.rules.discards`; its line is the
two-ended line of :mod:`domino_rules.rules.lines`.

Options (``DancingDragonsOptions``): ``must_play_if_able`` (default true), ``hands``
(1..1000, default 4), ``target_score`` (0..100000, default 0: play ``hands`` hands).

The deal: the Chinese set in ascending order is shuffled with label ``deal/<hand>/0``;
seat 0 takes the first ``k`` tiles (16, 10 or 8 for 2, 3 or 4 players), seat 1 the next
``k``, and so on; with 3 players the last two lie aside, face down, never drawn and never
shown (``stock`` is always 0). The first leader is ``Stream(seed, "lead/1")``'s draw below
the player count; later hands are led by the previous hand's winner.

Decisions where RULES.md leaves a case open (each has a test):

* Turn order: the leader, then the seats in increasing order; every turn uses exactly
  one tile, so each seat takes ``k`` turns ``[DD-6]``.
* Legal moves are listed in a fixed order: on the lead one ``PLAY`` per distinct tile
  (ascending); later the ``PLAY`` moves (each distinct tile ascending, ``LEFT`` before
  ``RIGHT``), then the ``DISCARD`` moves (each distinct tile ascending) where discarding
  is legal.
* The tiles aside (3 players) are kept in ascending order.
* A match played to ``target_score`` that no seat reaches by hand 1,000 ends there.
* A hand's reason in words (``explain_hand``) is Tsair Deng's, with this game's tags: the
  fewest points, on a tie the ``[DD-8]`` steps that separated the tied seats, and for an
  earlier hand, whose discards are no longer kept, the rule's order from the number of
  discarded tiles on (unless the tied seats scored 0: the set has no blank).

What a reachable hand state is (``check_hand_state``; everything else is refused):

* Every seat was dealt ``k`` tiles; the tiles aside are the rest, ascending; one tile a
  turn from the leader on, so the seat to act and every hand's size follow from the
  number of tiles played and discarded ``[DD-6]``.
* Nothing is discarded before the lead ``[DD-3]``. The line is a chain: each laid tile
  shows its two halves and touching ends match ``[DD-4]``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from ...rules.building import fields_of, made_of
from ...rules.checks import check_length, check_sorted, fail, require
from ...rules.discards import (
    CHINESE_HAND_SIZES,
    discard_result,
    discards_match_over,
    discards_max_hands,
    explain_discards,
    random_leader,
    settlement_of,
)
from ...rules.events import Event, EventKind
from ...rules.lines import LaidTile, check_chain, ends, lay, play_event, plays_at_ends
from ...rules.match import HandEnd, HandResult, Match
from ...rules.moves import Move, MoveKind
from ...rules.options import option
from ...rules.ruleset import Ruleset
from ...rules.tiles import MAX_PIP, Tile, chinese_set, distinct, double_n, remove_tile, sorted_tiles

__all__ = [
    "DancingDragons",
    "DancingDragonsHandState",
    "DancingDragonsOptions",
    "DancingDragonsTable",
]


@dataclass(frozen=True, slots=True)
class DancingDragonsOptions:
    must_play_if_able: bool = option(
        True, "discarding is legal only when no tile fits either end [DD-5]"
    )
    hands: int = option(
        4, "hands in the match, unless target_score is set [DD-9]", minimum=1, maximum=1000
    )
    target_score: int = option(
        0,
        "the match ends when a total reaches this; 0 = play `hands` hands [DD-9]",
        minimum=0,
        maximum=100_000,
    )


@dataclass(frozen=True)
class DancingDragonsHandState:
    hands: tuple[tuple[Tile, ...], ...]
    #: Per seat, face down, in the order discarded.
    discards: tuple[tuple[Tile, ...], ...]
    #: Left to right.
    line: tuple[LaidTile, ...]
    to_act: int
    leader: int
    #: Dealt to nobody (3 players), ascending.
    unused: tuple[Tile, ...] = ()


#: ``_make_state(fields)`` from a changed copy of a state's fields (:func:`made_of`).
_make_state = made_of(DancingDragonsHandState)


@functools.cache
def _discards(seat: int) -> tuple[Move, ...]:
    """``Move(seat, DISCARD, tile)`` by tile code, made once."""
    return tuple(Move(seat, MoveKind.DISCARD, tile) for tile in double_n(MAX_PIP))


@functools.cache
def _discarded(seat: int) -> tuple[tuple[Event, ...], ...]:
    """The events of ``seat``'s face-down discard by tile code, made once."""
    return tuple(
        (Event(EventKind.DISCARD, seat=seat, tile=tile, private_to=seat),)
        for tile in double_n(MAX_PIP)
    )


@dataclass(frozen=True, slots=True)
class DancingDragonsTable:
    line: tuple[LaidTile, ...]
    left_end: int | None
    right_end: int | None
    leader: int
    discards: tuple[Tile, ...]  # the viewing seat's own, in order; () for a spectator
    discard_counts: tuple[int, ...]


class DancingDragons(Ruleset[DancingDragonsOptions, DancingDragonsHandState]):
    id = "dancing_dragons"
    name = "Dancing Dragons"
    source = "RULES.md [DD-1]..[DD-11]; pagat (the Domino 32 Company) and domino-play.com"
    description = (
        "Tsair Deng's cousin with two open ends: lay a tile on either end of the dragon "
        "or discard one face down; a hand scores the pips discarded, doubled when another "
        "player discarded nothing; fewest points win."
    )
    options_type = DancingDragonsOptions
    hand_state_type = DancingDragonsHandState
    table_type = DancingDragonsTable
    hand_ends = frozenset({HandEnd.ALL_TILES_PLACED})
    low_wins = True  # [DD-9] fewest total points win

    def full_set(self, options: DancingDragonsOptions) -> tuple[Tile, ...]:
        return chinese_set()  # [DD-1]

    def max_players(self, options: DancingDragonsOptions) -> int:
        return max(CHINESE_HAND_SIZES)  # [DD-1] 2, 3 or 4

    # ---- the deal ----------------------------------------------------------------

    def deal_from(
        self, match: Match[DancingDragonsOptions, Any], hand_number: int, order: tuple[Tile, ...]
    ) -> tuple[DancingDragonsHandState, tuple[Event, ...]]:
        players = match.players
        size = CHINESE_HAND_SIZES[players]
        hands = tuple([sorted_tiles(order[s * size : (s + 1) * size]) for s in range(players)])
        unused = sorted_tiles(order[players * size :])  # [DD-1] the last two, 3 players
        if match.history:
            leader = match.history[-1].winners[0]  # [DD-2] the last hand's winner
        else:
            leader = random_leader(match.seed, hand_number, players)  # [DD-2]
        state = DancingDragonsHandState(hands, ((),) * players, (), leader, leader, unused)
        events = (Event(EventKind.DEAL, count=size), Event(EventKind.LEADER, seat=leader))
        return state, events

    # ---- play --------------------------------------------------------------------

    def stock(self, state: DancingDragonsHandState) -> int:
        return 0  # [DD-10] nothing is ever drawn

    def all_tiles(self, state: DancingDragonsHandState) -> tuple[Tile, ...]:
        held = [tile for hand in state.hands for tile in hand]
        discarded = [tile for tiles in state.discards for tile in tiles]
        laid = [laid.tile for laid in state.line]
        return (*held, *discarded, *laid, *state.unused)

    def hand_legal_moves(
        self, state: DancingDragonsHandState, options: DancingDragonsOptions
    ) -> tuple[Move, ...]:
        seat, line = state.to_act, state.line
        tiles = distinct(state.hands[seat])
        if not line:
            # [DD-3] the leader plays any tile; both halves stay open
            return tuple([Move(seat, MoveKind.PLAY, tile) for tile in tiles])
        # [DD-4] a tile fitting an end, at each end it fits
        plays = plays_at_ends(seat, tiles, line)
        if plays and options.must_play_if_able:
            return tuple(plays)  # [DD-5] a player who can play must
        # [DD-5] or discard any tile face down (there is no PASS)
        discards = _discards(seat)
        return (*plays, *[discards[tile.code] for tile in tiles])

    def hand_apply(
        self, match: Match[DancingDragonsOptions, DancingDragonsHandState], move: Move
    ) -> tuple[DancingDragonsHandState, tuple[Event, ...]]:
        state, seat = match.hand_state, move.seat
        tile = move.tile
        assert tile is not None
        fields = fields_of(state)
        hands = list(state.hands)
        hands[seat] = remove_tile(hands[seat], tile)
        fields["hands"] = tuple(hands)
        fields["to_act"] = seat + 1 if seat + 1 < match.players else 0
        if move.kind is MoveKind.PLAY:
            fields["line"] = lay(state.line, tile, move.end)
            return _make_state(fields), play_event(seat, tile, move.end)
        discards = list(state.discards)
        discards[seat] = (*discards[seat], tile)
        fields["discards"] = tuple(discards)
        # [DD-5] face down: only the discarder sees the tile
        return _make_state(fields), _discarded(seat)[tile.code]

    def hand_over(self, state: DancingDragonsHandState) -> bool:
        return not any(state.hands)  # [DD-6] every tile played or discarded

    # ---- scoring -----------------------------------------------------------------

    def score_hand(
        self, match: Match[DancingDragonsOptions, DancingDragonsHandState]
    ) -> HandResult:
        # [DD-7] the pips discarded, doubled when another player discarded nothing;
        # [DD-8] one winner: fewest points, then Tsair Deng's tie-breaks
        state = match.hand_state
        return discard_result(match, state.discards, state.leader)

    def explain_hand(
        self,
        match: Match[DancingDragonsOptions, DancingDragonsHandState],
        number: int,
        before: tuple[int, ...],
    ) -> str:
        # [DD-6] the end; [DD-7] the scores; [DD-8] the fewest points, then the tie-breaks
        said = explain_discards(
            match,
            number,
            before,
            self.finished_state(match, number),
            tags=("[DD-6]", "[DD-7]", "[DD-8]"),
            blanks=False,
            leader_of=lambda: _leader_of(match, number),
        )
        # not a result these rules give (a state from outside): the facts
        return said if said is not None else super().explain_hand(match, number, before)

    def max_hands(self, options: DancingDragonsOptions, players: int) -> int:
        return discards_max_hands(options.hands, options.target_score)  # [DD-9]

    def match_over(self, match: Match[DancingDragonsOptions, DancingDragonsHandState]) -> bool:
        options = match.options
        totals = self.totals(match)
        return discards_match_over(match.hand_number, totals, options.hands, options.target_score)

    def settlement(
        self, match: Match[DancingDragonsOptions, DancingDragonsHandState]
    ) -> tuple[int, ...]:
        return settlement_of(self.totals(match))  # [DD-9]

    def table(
        self, match: Match[DancingDragonsOptions, DancingDragonsHandState], seat: int | None
    ) -> DancingDragonsTable:
        state = match.hand_state
        left, right = ends(state.line)
        # [DD-10] the whole line face up; a seat's own discards; every seat's count
        return DancingDragonsTable(
            line=state.line,
            left_end=left,
            right_end=right,
            leader=state.leader,
            discards=state.discards[seat] if seat is not None else (),
            discard_counts=tuple(len(d) for d in state.discards),
        )

    # ---- the check of a state from outside ------------------------------------------

    def check_hand_state(
        self, match: Match[DancingDragonsOptions, DancingDragonsHandState]
    ) -> None:
        state, players = match.hand_state, match.players
        size = CHINESE_HAND_SIZES[players]
        check_length(state.discards, players, players, "discards")
        for seat, tiles in enumerate(state.discards):
            if len(tiles) > size:
                check_length(tiles, 0, size, f"seat {seat}'s discards")
        check_length(state.line, 0, size * players, "the line")
        aside = len(chinese_set()) - size * players
        check_length(state.unused, aside, aside, "the tiles aside")
        check_sorted(state.unused, "the tiles aside")
        check_chain(state.line)  # [DD-4]
        # [DD-6] one tile a turn, from the leader on in seat order
        turns = len(state.line) + sum([len(tiles) for tiles in state.discards])
        require(turns <= size * players, "more turns than tiles dealt")
        for seat, tiles in enumerate(state.hands):
            taken = max(0, (turns - (seat - state.leader) % players + players - 1) // players)
            if len(tiles) != size - taken:
                fail(f"seat {seat} holds the wrong number of tiles")
        require(
            state.to_act == (state.leader + turns) % players,
            "to_act is not the seat whose turn it is",
        )
        if not state.line:
            require(turns == 0, "a discard before the lead")  # [DD-3]


def _leader_of(match: Match[Any, Any], number: int) -> int:
    """The leader of finished hand ``number``: the winner of the hand before it, or for
    the first hand the seat drawn at random [DD-2]."""
    if number > 1:
        return match.history[number - 2].winners[0]
    return random_leader(match.seed, 1, match.players)
