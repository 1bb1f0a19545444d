"""Tsair Deng (Slant Nail): one open half, play or discard face down, fewest pips wins.

Sources: seed 004 (Anthony Kam's account, Chinese set) and the Western adaptation at the
end of seed 000, as decided by RULES.md ``[TD-1]``..``[TD-10]``.

Options (``TsairDengOptions``): ``tile_set`` (``CHINESE`` default, ``DOUBLE_SIX``),
``must_play_if_able`` (default false), ``hands`` (1..1000, default 4), ``target_score``
(0..100000, default 0: play ``hands`` hands). A match played to ``target_score`` that no
seat has reached after hand 1,000 (``MAX_HANDS``, as many as ``hands`` allows) ends
there, on the totals as they stand: a bound on the hands is what bounds the work of
opening a token.

The deal: the set in ascending order is shuffled with label ``deal/<hand>/0``; seat 0
takes the first ``k`` tiles, seat 1 the next ``k``, and so on (``k`` is 16, 10 or 8 with
the Chinese set and 14, 9 or 7 with double-six, for 2, 3 or 4 players). The tiles left
over (2 Chinese tiles, or 1 double-six tile, with 3 players) lie aside face down for the
whole hand: nobody sees them and nobody draws them (``stock`` is always 0). A random
leader is drawn as ``Stream(seed, "lead/<hand>").below(players)``.

The layout ``[TD-6]``: tile ``n`` (1-based, the lead is tile 1) lies on place
``pos = (n - 1) % 8`` of layer ``(n - 1) // 8`` when the layer is even, and on place
``7 - pos`` when it is odd (see :func:`place_of`). A view shows each place's top tile
and how many tiles are stacked there; a covered tile is in no view.

Decisions where RULES.md leaves a case open (each has a test):

* Turn order: the leader, then the seats in increasing order, wrapping around. Every
  turn uses exactly one tile (played or discarded) and every seat holds ``k`` tiles, so
  the hand lasts exactly ``players * k`` turns, each seat takes ``k`` turns, and the
  last turn is that of the seat before the leader ``[TD-7]``.
* The leader must lead: the lead is always a ``PLAY`` of any tile with its ``open_pip``;
  it can never be a discard, with or without ``must_play_if_able`` ``[TD-4]``.
* Legal moves are listed in a fixed order: for the lead, each distinct tile in ascending
  order, open on the high half, then on the low half; later, the matching ``PLAY`` moves
  (ascending) and then the ``DISCARD`` moves (ascending).
* With ``must_play_if_able`` a player holding several matching tiles plays any one of
  them; a player with none discards any tile.
* ``[TD-3]`` with double-six: the holder of ``[6-6]`` leads the first hand with any tile
  (not necessarily the ``[6-6]``); when ``[6-6]`` lies aside (3 players) the leader is
  drawn at random. Every later hand, with either set, is led by the previous hand's
  winner, who may lead any tile.
* Discards stay face down: a view shows a seat its own discards (in the order
  discarded) and every seat's number of discards, also after the hand ends; the pips
  they count become public only as the hand's raw counts in the score.
* ``[TD-8]`` "no discards" means no discarded tile: a player whose only discard is
  ``[0-0]`` has discards (of 0 pips) and doubles nobody. When every player has no
  discards, every score is 0.
* ``[TD-9]`` the hand has exactly one winner, after the tie-breaks; the lower match
  total is the sum of the points of the hands before this one.
* ``[TD-10]`` with ``target_score`` the number of hands is not set by ``hands``: the
  match ends after the first hand at whose end some total is at least ``target_score``
  (or at hand 1,000, the bound above).
  Without it, the match ends after hand number ``hands``.
* Settlement is computed from the totals so far at any moment (the seed notes that
  paying after each hand gives the same result); hands carry no settlement of their
  own, payment being made once, at the end of the session.
* A hand's ``end`` is always ``ALL_TILES_PLACED`` ``[TD-7]``.
* A hand's reason in words (``explain_hand``) names the fewest points, and on a tie the
  ``[TD-9]`` steps that separated the tied seats, with their values. The discards are
  kept only until the next deal: an earlier hand's reason gives the number of discarded
  tiles only when the tied seats scored 0 with the Chinese set (no blank: nothing
  discarded); otherwise it gives ``[TD-9]``'s order from that step on, without saying
  which step separated them. An earlier hand's leader is the winner of the hand before
  it, or, for the first hand, the leader its deal from the seed gave.

What a reachable hand state is (``check_hand_state``; everything else is refused):

* Every seat was dealt ``k`` tiles and the tiles aside are the rest, in ascending order
  ``[TD-2]``. Each turn uses exactly one tile, from the leader on in seat order, so with
  ``n`` tiles played and discarded so far the seat to act is ``(leader + n) % players``
  and each seat holds ``k`` less the turns it has taken ``[TD-7]``.
* Nothing is discarded before the lead, and the open half is ``None`` exactly until the
  lead ``[TD-4]``. The played tiles form a chain: the lead leaves either half open, each
  later tile has a half equal to the open half and leaves its other half; the open half
  is one the chain can leave ``[TD-5]``.
* Who led is not checked against the deal (that would need the seed's deal; a sealed
  token is what guards a well-formed forged position).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...rules.building import fields_of, frozen_builder, made_of
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
from ...rules.match import HandEnd, HandResult, Match, Status, build_match, held_tiles
from ...rules.moves import Move, MoveKind
from ...rules.options import option
from ...rules.ruleset import Ruleset
from ...rules.tiles import (
    MAX_PIP,
    Tile,
    chinese_set,
    distinct,
    double_n,
    sorted_tiles,
)

__all__ = [
    "Place",
    "TileSet",
    "TsairDeng",
    "TsairDengHandState",
    "TsairDengOptions",
    "TsairDengTable",
    "place_of",
]

#: Places in a row of the serpentine [TD-6].
PLACES = 8
MAX_PLAYERS = 4
SIX_SIX = Tile(6, 6)  # the tile [6-6]; TileSet.DOUBLE_SIX is the set


class TileSet(enum.Enum):
    CHINESE = "CHINESE"
    DOUBLE_SIX = "DOUBLE_SIX"


#: [TD-2] tiles per seat, by set and number of players.
HAND_SIZES = {
    TileSet.CHINESE: CHINESE_HAND_SIZES,
    TileSet.DOUBLE_SIX: {2: 14, 3: 9, 4: 7},
}


@dataclass(frozen=True, slots=True)
class TsairDengOptions:
    tile_set: TileSet = option(
        TileSet.CHINESE, "CHINESE (32 tiles) or DOUBLE_SIX (28 tiles) [TD-1]"
    )
    must_play_if_able: bool = option(
        False, "discarding is legal only without a matching tile [TD-5]"
    )
    hands: int = option(
        4, "hands in the match, unless target_score is set [TD-10]", minimum=1, maximum=1000
    )
    target_score: int = option(
        0,
        "the match ends when a total reaches this; 0 = play `hands` hands [TD-10]",
        minimum=0,
        maximum=100_000,
    )


@dataclass(frozen=True)
class TsairDengHandState:
    hands: tuple[tuple[Tile, ...], ...]
    discards: tuple[tuple[Tile, ...], ...]  # per seat, face down, in the order discarded
    played: tuple[Tile, ...]  # in the order played: tile n lies on place_of(n)
    open_pip: int | None  # None until the lead
    to_act: int
    leader: int
    unused: tuple[Tile, ...] = ()  # dealt to nobody [TD-2]


#: ``TsairDengHandState(*fields)``, every field given in order (:func:`frozen_builder`);
#: ``_make_state(fields)`` from a changed copy of a state's fields (:func:`made_of`).
_state: Callable[..., TsairDengHandState] = frozen_builder(TsairDengHandState)
_make_state = made_of(TsairDengHandState)


@dataclass(frozen=True, slots=True)
class Place:
    """One place of the serpentine: its top tile (``None`` while empty) and its depth."""

    top: Tile | None
    depth: int


@dataclass(frozen=True, slots=True)
class TsairDengTable:
    """The layout as a seat sees it: only the top tile of each place [TD-6]."""

    places: tuple[Place, ...]
    open_pip: int | None
    played: int
    discards: tuple[Tile, ...]  # the viewing seat's own discards; () for a spectator
    discard_counts: tuple[int, ...]
    leader: int


# Moves and events are immutable values, made once per seat and tile code and shared by
# every hand. Both sets are tiles of double-six [TD-1], so a tile code is below 28 and a
# pip below 7.

_CODES = SIX_SIX.code + 1
_PIPS = SIX_SIX.high + 1
_TILES = tuple([Tile.from_code(code) for code in range(_CODES)])
_ALONE = tuple([(tile,) for tile in _TILES])  # by code, to add to a tuple of tiles


def _seat_moves(seat: int) -> tuple[tuple[Move, ...], tuple[Move, ...], tuple[Move, ...]]:
    """For ``seat``, by tile code: ``PLAY`` of the tile, ``DISCARD`` of it, and the leads
    (``PLAY`` with ``open_pip``; at ``2 * code`` the high half open, at ``2 * code + 1`` the
    low half)."""
    plays = tuple([Move(seat, MoveKind.PLAY, t) for t in _TILES])
    discards = tuple([Move(seat, MoveKind.DISCARD, t) for t in _TILES])
    leads = tuple(
        [Move(seat, MoveKind.PLAY, t, open_pip=pip) for t in _TILES for pip in (t.high, t.low)]
    )
    return plays, discards, leads


#: :func:`_seat_moves` by seat.
_MOVES = tuple([_seat_moves(seat) for seat in range(MAX_PLAYERS)])

#: ``(Event(PLAY, seat, tile, open_pip),)`` at ``(seat * _CODES + code) * _PIPS + open_pip``.
_PLAYED = tuple(
    [
        (Event(EventKind.PLAY, seat=seat, tile=tile, open_pip=pip),)
        for seat in range(MAX_PLAYERS)
        for tile in _TILES
        for pip in range(_PIPS)
    ]
)
#: ``(Event(DISCARD, seat, tile, private_to=seat),)`` at ``seat * _CODES + code``: [TD-5]
#: face down, only the discarder sees the tile.
_DISCARDED = tuple(
    [
        (Event(EventKind.DISCARD, seat=seat, tile=tile, private_to=seat),)
        for seat in range(MAX_PLAYERS)
        for tile in _TILES
    ]
)

_PLAY = MoveKind.PLAY  # an Enum's class attribute is a slow lookup


def place_of(number: int) -> int:
    """The place (0..7) of the ``number``-th tile played in a hand (1-based) [TD-6].

    Tiles 1-8 lie left to right; tile 9 covers tile 8, tile 16 covers tile 1, tile 17
    covers tile 16:

    >>> [place_of(n) for n in (1, 8, 9, 10, 16, 17, 24, 25)]
    [0, 7, 7, 6, 0, 0, 7, 7]
    """
    if number < 1:
        raise ValueError(f"tiles are numbered from 1, not {number!r}")
    layer, pos = divmod(number - 1, PLACES)
    return pos if layer % 2 == 0 else PLACES - 1 - pos


class TsairDeng(Ruleset[TsairDengOptions, TsairDengHandState]):
    id = "tsair_deng"
    name = "Tsair Deng (Slant Nail)"
    source = (
        "RULES.md [TD-1]..[TD-10]; seed 004 (Tsair Deng, Anthony Kam) and the Western "
        "adaptation in seed 000 (One Arm Joe)"
    )
    description = (
        "One open half: each turn play a matching tile or discard any tile face down; "
        "played tiles stack in a serpentine of 8 places, covering earlier ones. A hand "
        "scores the pips discarded, doubled when another player discarded nothing; "
        "fewest points win."
    )
    options_type = TsairDengOptions
    hand_state_type = TsairDengHandState
    table_type = TsairDengTable
    hand_ends = frozenset({HandEnd.ALL_TILES_PLACED})
    min_players = 2
    low_wins = True  # [TD-10] fewest total points wins

    def full_set(self, options: TsairDengOptions) -> tuple[Tile, ...]:
        # [TD-1]
        return chinese_set() if options.tile_set is TileSet.CHINESE else double_n(6)

    def max_players(self, options: TsairDengOptions) -> int:
        # [TD-2] 2, 3 or 4 players with either set
        return MAX_PLAYERS

    # ---- the deal ----------------------------------------------------------------

    def deal_from(
        self, match: Match[TsairDengOptions, Any], hand_number: int, order: tuple[Tile, ...]
    ) -> tuple[TsairDengHandState, tuple[Event, ...]]:
        players, options = match.players, match.options
        size = HAND_SIZES[options.tile_set][players]
        hands = tuple([sorted_tiles(order[s * size : (s + 1) * size]) for s in range(players)])
        # [TD-2] with 3 players the tiles left over are not used
        unused = sorted_tiles(order[players * size :])
        if match.history:
            # [TD-3] the previous hand's winner leads
            leader = match.history[-1].winners[0]
        else:
            holders = [s for s, tiles in enumerate(hands) if SIX_SIX in tiles]
            if options.tile_set is TileSet.DOUBLE_SIX and holders:
                # [TD-3] double-six: the holder of [6-6] leads the first hand
                leader = holders[0]
            else:
                # [TD-3] a seat drawn at random
                leader = random_leader(match.seed, hand_number, players)
        state = _state(hands, ((),) * players, (), None, leader, leader, unused)
        events = (Event(EventKind.DEAL, count=size), Event(EventKind.LEADER, seat=leader))
        return state, events

    # ---- play --------------------------------------------------------------------

    def stock(self, state: TsairDengHandState) -> int:
        return 0  # no drawing

    def all_tiles(self, state: TsairDengHandState) -> tuple[Tile, ...]:
        discarded = tuple([tile for tiles in state.discards for tile in tiles])
        return held_tiles(state) + discarded + state.played + state.unused

    def hand_legal_moves(
        self, state: TsairDengHandState, options: TsairDengOptions
    ) -> tuple[Move, ...]:
        seat = state.to_act
        plays, discards, leads = _MOVES[seat]
        open_pip = state.open_pip
        if open_pip is None:
            # [TD-4] the leader plays any tile and names the half left open
            moves: list[Move] = []
            for tile in distinct(state.hands[seat]):
                code = 2 * tile.code
                moves.append(leads[code])
                if not tile.is_double:
                    moves.append(leads[code + 1])
            return tuple(moves)
        # [TD-5] play a tile with a half equal to the open half, or discard any tile; one
        # move per distinct tile, ascending (a hand is sorted: copies are side by side)
        half = 1 << open_pip
        matching: list[Move] = []
        rest: list[Move] = []
        last = -1
        for tile in state.hands[seat]:
            code = tile.code
            if code != last:
                last = code
                if tile.halves & half:
                    matching.append(plays[code])
                rest.append(discards[code])
        if matching and options.must_play_if_able:
            return tuple(matching)
        matching += rest
        return tuple(matching)

    def hand_apply(
        self, match: Match[TsairDengOptions, TsairDengHandState], move: Move
    ) -> tuple[TsairDengHandState, tuple[Event, ...]]:
        state, seat, tile = match.hand_state, move.seat, move.tile
        assert tile is not None
        fields = fields_of(state)
        hands = list(state.hands)
        held = hands[seat]
        code = tile.code
        at = 0  # the first copy of the tile in the hand (a legal move's tile is there)
        for other in held:
            if other.code == code:
                break
            at += 1
        hands[seat] = held[:at] + held[at + 1 :]
        fields["hands"] = tuple(hands)
        if move.kind is _PLAY:
            open_pip = state.open_pip
            if open_pip is None:
                open_pip = move.open_pip  # [TD-4] the lead names it
                assert open_pip is not None
            else:
                # [TD-5] the other half becomes the open half; a double keeps it
                open_pip = tile.pips - open_pip
            event = _PLAYED[(seat * _CODES + code) * _PIPS + open_pip]
            # [TD-6] the tile goes on the serpentine (place_of(len(played)))
            fields["played"] = state.played + _ALONE[code]
            fields["open_pip"] = open_pip
        else:  # DISCARD [TD-5] face down: only the discarder sees the tile
            event = _DISCARDED[seat * _CODES + code]
            discards = list(state.discards)
            discards[seat] += _ALONE[code]
            fields["discards"] = tuple(discards)
        fields["to_act"] = seat + 1 if seat + 1 < len(hands) else 0
        return _make_state(fields), event

    def hand_over(self, state: TsairDengHandState) -> bool:
        # [TD-7] every player has played or discarded all their tiles: one tile a turn in
        # seat order from the leader, so the seat to act holds none only when nobody does
        return not state.hands[state.to_act]

    # ---- scoring -----------------------------------------------------------------

    def score_hand(self, match: Match[TsairDengOptions, TsairDengHandState]) -> HandResult:
        # [TD-8] a hand scores the pips of its discards, doubled when another player
        # discarded nothing; [TD-9] one winner, fewest points then the tie-breaks; [TD-7]
        state = match.hand_state
        return discard_result(match, state.discards, state.leader)

    def explain_hand(
        self,
        match: Match[TsairDengOptions, TsairDengHandState],
        number: int,
        before: tuple[int, ...],
    ) -> str:
        # [TD-7] the end; [TD-8] the scores; [TD-9] the fewest points, then the tie-breaks
        said = explain_discards(
            match,
            number,
            before,
            self.finished_state(match, number),
            tags=("[TD-7]", "[TD-8]", "[TD-9]"),
            blanks=match.options.tile_set is TileSet.DOUBLE_SIX,
            leader_of=lambda: self._leader_of(match, number),
        )
        # not a result these rules give (a state from outside): the facts
        return said if said is not None else super().explain_hand(match, number, before)

    def _leader_of(self, match: Match[TsairDengOptions, TsairDengHandState], number: int) -> int:
        """The leader of finished hand ``number``: the winner of the hand before it [TD-3],
        or, for the first hand, the leader its deal gave (dealt again from the seed)."""
        if number > 1:
            return match.history[number - 2].winners[0]
        blank = build_match(
            match.players, match.options, match.seed, 0, None, (), Status.IN_PROGRESS, ()
        )
        state, _ = self.deal(blank, 1)
        return state.leader

    def max_hands(self, options: TsairDengOptions, players: int) -> int:
        # [TD-10] `hands` hands, unless played to a target score (ended by MAX_HANDS)
        return discards_max_hands(options.hands, options.target_score)

    def match_over(self, match: Match[TsairDengOptions, TsairDengHandState]) -> bool:
        # [TD-10] play until a total reaches target_score (hands ignored), else `hands`
        options = match.options
        totals = self.totals(match)
        return discards_match_over(match.hand_number, totals, options.hands, options.target_score)

    def settlement(self, match: Match[TsairDengOptions, TsairDengHandState]) -> tuple[int, ...]:
        # [TD-10] every pair settles the difference of their totals
        return settlement_of(self.totals(match))

    def table(
        self, match: Match[TsairDengOptions, TsairDengHandState], seat: int | None
    ) -> TsairDengTable:
        state = match.hand_state
        tops: list[Tile | None] = [None] * PLACES
        depths = [0] * PLACES
        for number, tile in enumerate(state.played, start=1):
            # [TD-6] a later tile covers the one below it: only the top shows
            place = place_of(number)
            tops[place] = tile
            depths[place] += 1
        return TsairDengTable(
            places=tuple(Place(top, depth) for top, depth in zip(tops, depths, strict=False)),
            open_pip=state.open_pip,
            played=len(state.played),
            discards=state.discards[seat] if seat is not None else (),
            discard_counts=tuple(len(d) for d in state.discards),
            leader=state.leader,
        )

    # ---- the check of a state from outside ------------------------------------------

    def check_hand_state(self, match: Match[TsairDengOptions, TsairDengHandState]) -> None:
        state, options, players = match.hand_state, match.options, match.players
        size = HAND_SIZES[options.tile_set][players]
        # [TD-2] k tiles dealt to each seat; the rest lie aside, in ascending order
        check_length(state.discards, players, players, "discards")
        for seat, tiles in enumerate(state.discards):
            if len(tiles) > size:
                check_length(tiles, 0, size, f"seat {seat}'s discards")
        check_length(state.played, 0, size * players, "the played tiles")
        aside = len(self.full_set(options)) - size * players
        check_length(state.unused, aside, aside, "the tiles aside")
        check_sorted(state.unused, "the tiles aside")
        # [TD-7] one tile a turn, from the leader on in seat order
        turns = len(state.played) + sum([len(tiles) for tiles in state.discards])
        require(turns <= size * players, "more turns than tiles dealt")
        leader = state.leader
        for seat, tiles in enumerate(state.hands):
            offset = (seat - leader) % players
            taken = max(0, (turns - offset + players - 1) // players)
            if len(tiles) != size - taken:
                fail(f"seat {seat} holds the wrong number of tiles")
        require(
            state.to_act == (state.leader + turns) % players,
            "to_act is not the seat whose turn it is",
        )
        if not state.played:
            # [TD-4] the lead is a PLAY: nothing before it, and no open half yet
            require(turns == 0, "a discard before the lead")
            require(state.open_pip is None, "an open half before the lead")
            return
        # [TD-4] [TD-5] the chain of open halves from the lead on
        # (the halves the chain can leave open, as a bit set: bit p for pip p)
        played = state.played
        possible = played[0].halves
        for i in range(1, len(played)):
            tile = played[i]
            high, low = 1 << tile.high, 1 << tile.low
            possible = (low if possible & high else 0) | (high if possible & low else 0)
            require(bool(possible), "a played tile does not match the open half")
        open_pip = state.open_pip
        require(
            open_pip is not None and 0 <= open_pip <= MAX_PIP and bool(possible >> open_pip & 1),
            "the open half is not one the played tiles leave",
        )
