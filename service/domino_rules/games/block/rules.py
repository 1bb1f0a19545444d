"""Block, Draw and partnership dominoes: the Western line game, one ruleset with options.

Sources: RULES.md ``[BLK-1]``..``[BLK-16]`` (pagat, Hoyle; OpenSpiel's
``python_block_dominoes`` and ``python_team_dominoes``; the ``dominoes`` library).

Options (``BlockOptions``): ``set_max_pip`` (6..18, default 6), ``partnership`` (false),
``hand_size`` (0 = 7 for two players and a partnership Block game, else 5), ``draw``
(false: the Block game), ``boneyard_keep`` (0), ``first_lead`` (``HIGHEST_DOUBLE``,
``ANY_TILE``), ``domino_wins`` (true), ``scoring`` (``OTHERS_TOTAL``,
``OTHERS_MINUS_OWN``, ``ALL_PIPS``), ``target_score`` (100; 0 = a single hand),
``next_lead`` (``AS_FIRST``, ``WINNER``, ``NEXT_SEAT``).

The deal: the set in ascending order is shuffled with label ``deal/<hand>/0``; seat 0
takes the first k tiles, seat 1 the next k, and so on; the rest, in that order, is the
boneyard, drawn from its front ``[BLK-2]``. There is never a redeal ``[BLK-4]``.

Decisions where RULES.md leaves a case open (each has a test):

* ``first_lead: ANY_TILE`` and ``next_lead: AS_FIRST``: every hand is led by seat 0, with
  any tile (every hand "as the first one").
* A ``DRAW`` move draws one tile at a time from the front of the boneyard; a hand that
  is blocked after a ``DRAW`` that found nothing ends inside that move ``[BLK-8]``.
* The hand's ``end`` is ``DOMINOED`` when a player laid their last tile, else
  ``BLOCKED``.
* A match played to ``target_score`` that no side reaches by hand 1,000 (``MAX_HANDS``)
  ends there, on the totals as they stand (the framework's bound on every match).
* A hand's reason in words (``explain_hand``) names the seat that went out from the
  hand's final state; for an earlier hand, whose hands are no longer kept, from the
  counts (the one seat with 0 pips, of the winning side under ``domino_wins``), and
  "a player" when two seats were left with 0 pips.

What a reachable hand state is (``check_hand_state``; everything else is refused):

* The line is a chain: each laid tile shows its two halves, touching ends match
  ``[BLK-5]``. Before the lead, every seat holds the tiles dealt, the leader is to act,
  and under the ``HIGHEST_DOUBLE`` lead the leader holds the highest-ranked tile dealt
  ``[BLK-4]``.
* In the Block game nothing is ever drawn: the boneyard is every tile not dealt
  ``[BLK-3]``; in the Draw game the boneyard only shrinks, one tile a draw into the
  hands, and never below ``boneyard_keep`` by drawing ``[BLK-8]``. ``draws_left`` is what
  may still be drawn.
* The seat that laid the last tile is a seat, and there is one exactly when a tile is
  laid.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any

from ...rules.building import fields_of, made_of
from ...rules.checks import check_length, check_range, check_seat, fail, require
from ...rules.errors import OptionsError
from ...rules.events import Event, EventKind
from ...rules.lines import (
    LaidTile,
    blocked,
    check_chain,
    ends,
    fits,
    lay,
    play_event,
    plays_at_ends,
)
from ...rules.match import HandEnd, HandResult, Match
from ...rules.moves import Move, MoveKind
from ...rules.options import option
from ...rules.ruleset import Ruleset, seats_text
from ...rules.tiles import Tile, double_n, insert_tile, remove_tile, sorted_tiles

__all__ = [
    "Block",
    "BlockHandState",
    "BlockOptions",
    "BlockTable",
    "FirstLead",
    "NextLead",
    "Scoring",
    "hand_size",
    "rank",
    "side_score",
    "sides",
]


class FirstLead(enum.Enum):
    HIGHEST_DOUBLE = "HIGHEST_DOUBLE"
    ANY_TILE = "ANY_TILE"


class Scoring(enum.Enum):
    OTHERS_TOTAL = "OTHERS_TOTAL"
    OTHERS_MINUS_OWN = "OTHERS_MINUS_OWN"
    ALL_PIPS = "ALL_PIPS"


class NextLead(enum.Enum):
    AS_FIRST = "AS_FIRST"
    WINNER = "WINNER"
    NEXT_SEAT = "NEXT_SEAT"


#: The most tiles of any set (double-18): the static bounds of the options whose real
#: bound depends on the set ``[BLK-15]``.
_MOST_TILES = 190


@dataclass(frozen=True, slots=True)
class BlockOptions:
    set_max_pip: int = option(
        6, "the set is double-N, N from 6 to 18 [BLK-1]", minimum=6, maximum=18
    )
    partnership: bool = option(
        False, "4 players in two sides, seats 0 and 2 against 1 and 3 [BLK-2]"
    )
    hand_size: int = option(
        0,
        "tiles dealt to each player; 0: 7 to two players and in a partnership Block game, "
        "5 otherwise; at most half the set [BLK-2] [BLK-15]",
        minimum=0,
        maximum=_MOST_TILES // 2,
    )
    draw: bool = option(
        False, "the Draw game: a player who cannot play draws from the boneyard [BLK-3]"
    )
    boneyard_keep: int = option(
        0,
        "tiles of the boneyard never drawn (the Draw game); at most the set [BLK-3]",
        minimum=0,
        maximum=_MOST_TILES,
    )
    first_lead: FirstLead = option(
        FirstLead.HIGHEST_DOUBLE,
        "HIGHEST_DOUBLE: the highest-ranked tile dealt leads; ANY_TILE: seat 0 leads any "
        "tile [BLK-4]",
    )
    domino_wins: bool = option(
        True, "the side that dominoes wins the hand even against a lower count [BLK-10]"
    )
    scoring: Scoring = option(
        Scoring.OTHERS_TOTAL,
        "OTHERS_TOTAL: the other sides' counts; OTHERS_MINUS_OWN: less the winning side's; "
        "ALL_PIPS: every count [BLK-11]",
    )
    target_score: int = option(
        100,
        "the match is played until a side reaches this total; 0 = a single hand [BLK-12]",
        minimum=0,
        maximum=100_000,
    )
    next_lead: NextLead = option(
        NextLead.AS_FIRST,
        "later hands: AS_FIRST as the first hand; WINNER a player of the winning side; "
        "NEXT_SEAT the seat after the last leader [BLK-13]",
    )


@dataclass(frozen=True)
class BlockHandState:
    hands: tuple[tuple[Tile, ...], ...]
    #: The tiles neither dealt nor drawn, drawn from the front.
    boneyard: tuple[Tile, ...]
    #: Left to right.
    line: tuple[LaidTile, ...]
    to_act: int
    leader: int
    #: True when the leader may lead any tile; false: the highest-ranked tile dealt.
    any_lead: bool
    #: Tiles that may still be drawn (0 in the Block game).
    draws_left: int
    #: The seat that laid the last tile (``None`` before the lead).
    last_layer: int | None


@dataclass(frozen=True, slots=True)
class BlockTable:
    line: tuple[LaidTile, ...]
    left_end: int | None
    right_end: int | None
    leader: int


#: ``_make_state(fields)`` from a changed copy of a state's fields (:func:`made_of`).
_make_state = made_of(BlockHandState)
_PLAY = MoveKind.PLAY


def side_score(scoring: Scoring, own: int, others: int) -> int:
    """[BLK-11] what the winning side scores, from its own count and the others' total."""
    if scoring is Scoring.OTHERS_TOTAL:
        return others
    if scoring is Scoring.OTHERS_MINUS_OWN:
        return max(0, others - own)
    return others + own


def rank(tile: Tile) -> tuple[int, int, int]:
    """[BLK-4] a tile's rank for the lead: doubles above every other tile, highest first;
    then by pip total, and of equal totals the higher high half."""
    return (1, tile.high, 0) if tile.is_double else (0, tile.pips, tile.high)


def hand_size(options: BlockOptions, players: int) -> int:
    """[BLK-2] the tiles dealt to each player."""
    if options.hand_size:
        return options.hand_size
    if players == 2 or (options.partnership and not options.draw):
        return 7
    return 5


def sides(options: BlockOptions, players: int) -> tuple[tuple[int, ...], ...]:
    """[BLK-2] the sides: seats 0 and 2 against 1 and 3 in a partnership, else each seat."""
    if options.partnership:
        return ((0, 2), (1, 3))
    return tuple((seat,) for seat in range(players))


def _side_of(options: BlockOptions, seat: int, players: int) -> tuple[int, ...]:
    return (seat % 2, seat % 2 + 2) if options.partnership else (seat,)


def _draws_left(options: BlockOptions, boneyard: int) -> int:
    return max(0, boneyard - options.boneyard_keep) if options.draw else 0


class Block(Ruleset[BlockOptions, BlockHandState]):
    id = "block"
    name = "Block, Draw and partnership dominoes"
    source = "RULES.md [BLK-1]..[BLK-16]; pagat, Hoyle, OpenSpiel, the dominoes library"
    description = (
        "The Western line game: lay tiles on either end of a line, matching numbers; "
        "pass (Block) or draw (Draw) when you cannot; two or four players, alone or in "
        "partnership; the side that goes out or holds the fewest pips scores."
    )
    options_type = BlockOptions
    hand_state_type = BlockHandState
    table_type = BlockTable
    hand_ends = frozenset({HandEnd.DOMINOED, HandEnd.BLOCKED})
    hands_may_have_no_winner = True  # [BLK-10] equal lowest counts: nobody wins

    players_text = (
        "2 up to as many as the set deals (5 with double-six and 5 tiles each); "
        "exactly 4 in a partnership"
    )

    def full_set(self, options: BlockOptions) -> tuple[Tile, ...]:
        return double_n(options.set_max_pip)  # [BLK-1]

    def check_options(self, options: BlockOptions) -> None:
        # [BLK-15] the bounds that depend on the set
        tiles = len(self.full_set(options))
        if options.hand_size > tiles // 2:
            raise OptionsError(
                f"option hand_size must be from 0 to {tiles // 2} with this set, "
                f"not {options.hand_size}"
            )
        if options.boneyard_keep > tiles:
            raise OptionsError(
                f"option boneyard_keep must be from 0 to {tiles} with this set, "
                f"not {options.boneyard_keep}"
            )

    def max_players(self, options: BlockOptions) -> int:
        return self.player_range(options)[1]

    def player_range(self, options: BlockOptions) -> tuple[int, int]:
        # [BLK-2] exactly 4 in a partnership; else 2 up to the most the set can deal
        tiles = len(self.full_set(options))
        if options.partnership:
            return (4, 4) if 4 * hand_size(options, 4) <= tiles else (4, 3)
        most = 1
        for players in range(2, tiles + 1):
            if players * hand_size(options, players) <= tiles:
                most = players
            elif options.hand_size or players > 2:
                break
        return 2, most

    def max_hands(self, options: BlockOptions, players: int) -> int:
        return 1 if options.target_score == 0 else super().max_hands(options, players)

    # ---- the deal ----------------------------------------------------------------

    def deal_from(
        self, match: Match[BlockOptions, Any], hand_number: int, order: tuple[Tile, ...]
    ) -> tuple[BlockHandState, tuple[Event, ...]]:
        players, options = match.players, match.options
        size = hand_size(options, players)
        hands = tuple([sorted_tiles(order[s * size : (s + 1) * size]) for s in range(players)])
        boneyard = order[players * size :]
        previous = match.hand_state
        lead = options.next_lead if isinstance(previous, BlockHandState) else None
        if lead is None or lead is NextLead.AS_FIRST:
            if options.first_lead is FirstLead.HIGHEST_DOUBLE:
                # [BLK-4] the holder of the highest-ranked tile dealt leads it
                top = max((tile for hand in hands for tile in hand), key=rank)
                leader = next(s for s, hand in enumerate(hands) if top in hand)
                any_lead = False
            else:
                leader, any_lead = 0, True  # [BLK-4] ANY_TILE: seat 0, any tile
        elif lead is NextLead.WINNER:
            # [BLK-13] a player of the winning side: the first from the last layer on
            winners = match.history[-1].winners
            assert isinstance(previous, BlockHandState)
            if not winners:
                leader = previous.leader  # a tie: the last leader again
            else:
                start = previous.last_layer if previous.last_layer is not None else 0
                leader = next(
                    (start + k) % players
                    for k in range(players)
                    if (start + k) % players in winners
                )
            any_lead = True
        else:
            assert isinstance(previous, BlockHandState)
            leader, any_lead = (previous.leader + 1) % players, True  # [BLK-13] NEXT_SEAT
        state = BlockHandState(
            hands,
            boneyard,
            (),
            leader,
            leader,
            any_lead,
            _draws_left(options, len(boneyard)),
            None,
        )
        events = (Event(EventKind.DEAL, count=size), Event(EventKind.LEADER, seat=leader))
        return state, events

    # ---- play --------------------------------------------------------------------

    def stock(self, state: BlockHandState) -> int:
        return len(state.boneyard)  # [BLK-14] every tile neither dealt nor drawn

    def all_tiles(self, state: BlockHandState) -> tuple[Tile, ...]:
        laid = tuple([laid.tile for laid in state.line])
        return tuple([tile for hand in state.hands for tile in hand]) + state.boneyard + laid

    def hand_legal_moves(self, state: BlockHandState, options: BlockOptions) -> tuple[Move, ...]:
        seat, hand, line = state.to_act, state.hands[state.to_act], state.line
        if not line:
            if state.any_lead:
                return tuple([Move(seat, MoveKind.PLAY, tile=tile) for tile in hand])
            # [BLK-4] the highest-ranked tile dealt is the leader's only move
            return (Move(seat, MoveKind.PLAY, tile=max(hand, key=rank)),)
        # [BLK-5] [BLK-6] a tile that fits must be played, at either end it fits
        plays = plays_at_ends(seat, hand, line)
        if plays:
            return tuple(plays)
        if state.draws_left > 0:
            return (Move(seat, MoveKind.DRAW),)  # [BLK-8]
        return (Move(seat, MoveKind.PASS),)  # [BLK-7]

    def hand_apply(
        self, match: Match[BlockOptions, BlockHandState], move: Move
    ) -> tuple[BlockHandState, tuple[Event, ...]]:
        state, seat, players = match.hand_state, move.seat, match.players
        following = (seat + 1) % players
        if move.kind is _PLAY:
            tile = move.tile
            assert tile is not None
            fields = fields_of(state)
            hands = list(state.hands)
            hands[seat] = remove_tile(hands[seat], tile)
            fields["hands"] = tuple(hands)
            fields["line"] = lay(state.line, tile, move.end)
            fields["to_act"] = following
            fields["last_layer"] = seat
            return _make_state(fields), play_event(seat, tile, move.end)
        if move.kind is MoveKind.PASS:
            return replace(state, to_act=following), (Event(EventKind.PASS, seat=seat),)
        # [BLK-8] draw one tile at a time until one fits or nothing more may be drawn
        hand, boneyard, left = state.hands[seat], state.boneyard, state.draws_left
        events: list[Event] = []
        to_act = following
        while left > 0:
            tile, boneyard, left = boneyard[0], boneyard[1:], left - 1
            hand = insert_tile(hand, tile)
            events.append(Event(EventKind.DRAW, seat=seat, tile=tile, private_to=seat))
            if fits(tile, state.line):
                to_act = seat
                break
        hands = list(state.hands)
        hands[seat] = hand
        after = replace(
            state, hands=tuple(hands), boneyard=boneyard, to_act=to_act, draws_left=left
        )
        return after, tuple(events)

    def hand_over(self, state: BlockHandState) -> bool:
        # [BLK-9] a player went out, or nobody can play and nothing more may be drawn
        hands, line = state.hands, state.line
        return not all(hands) or (bool(line) and state.draws_left <= 0 and blocked(hands, line))

    def score_hand(self, match: Match[BlockOptions, BlockHandState]) -> HandResult:
        state, options, players = match.hand_state, match.options, match.players
        counts = tuple([sum(tile.pips for tile in hand) for hand in state.hands])
        teams = sides(options, players)
        side_counts = [sum(counts[s] for s in side) for side in teams]
        out = [s for s, hand in enumerate(state.hands) if not hand]
        end = HandEnd.DOMINOED if out else HandEnd.BLOCKED
        points = [0] * players
        if out and options.domino_wins:
            # [BLK-10] the side that dominoed wins outright
            winner: tuple[int, ...] | None = _side_of(options, out[0], players)
        else:
            low = min(side_counts)
            lowest = [side for side, count in zip(teams, side_counts, strict=True) if count == low]
            winner = lowest[0] if len(lowest) == 1 else None  # equal lowest: a tie
        if winner is None:
            return HandResult(counts, tuple(points), (), end)
        own = sum(counts[s] for s in winner)
        # [BLK-11] what the winning side scores, credited to each of its seats
        score = side_score(options.scoring, own, sum(counts) - own)
        for seat in winner:
            points[seat] = score
        return HandResult(counts, tuple(points), tuple(sorted(winner)), end)

    def explain_hand(
        self, match: Match[BlockOptions, BlockHandState], number: int, before: tuple[int, ...]
    ) -> str:
        # [BLK-9] how the hand ended, [BLK-10] who wins it, [BLK-11] what the side scores
        result, options, players = match.history[number - 1], match.options, match.players
        counts, winners = result.counts, result.winners
        pair = options.partnership
        teams = sides(options, players)
        outright = result.end is HandEnd.DOMINOED and options.domino_wins
        if (winners or outright) and winners not in teams:
            # not a result these rules give (a state from outside): the facts
            return super().explain_hand(match, number, before)

        def who(side: tuple[int, ...]) -> str:
            return f"the side of {seats_text(side)}" if pair else seats_text(side)

        by_count = True  # the lowest count decides (not a domino that wins outright)
        if result.end is HandEnd.DOMINOED:
            state = self.finished_state(match, number)
            if state is not None:
                out = [seat for seat, hand in enumerate(state.hands) if not hand]
            else:  # only the counts are kept: the seat out is the one with 0 pips, if alone
                among = winners if options.domino_wins else range(players)
                out = [seat for seat in among if counts[seat] == 0]
            head = f"Dominoed: seat {out[0]}" if len(out) == 1 else "Dominoed: a player"
            head += " laid their last tile"
            if options.domino_wins:
                decided = f"{head}, so {who(winners)} wins the hand outright [BLK-10]."
                by_count = False
            else:
                decided = f"{head}; under domino_wins false the lowest count wins [BLK-10]: "
        else:
            decided = "Blocked: "
        if by_count:
            side_counts = [sum(counts[seat] for seat in side) for side in teams]
            low = min(side_counts)
            if not winners:
                tied = [
                    side for side, count in zip(teams, side_counts, strict=True) if count == low
                ]
                if pair:
                    ties = " and ".join(who(side) for side in tied)
                else:
                    ties = seats_text(side[0] for side in tied)
                return (
                    f"{decided}{ties} tie for the lowest count, {low} each: no side wins and "
                    f"nobody scores [BLK-10]."
                )
            decided += f"{who(winners)} has the lowest count, {low}, and wins the hand [BLK-10]."
        own = sum(counts[seat] for seat in winners)
        others = sum(counts) - own
        score = result.points[winners[0]]
        where = "the other side's hands" if pair else "the other hands"
        if options.scoring is Scoring.OTHERS_TOTAL:
            what = f"the {others} pips left in {where}"
        elif options.scoring is Scoring.OTHERS_MINUS_OWN:
            what = f"the {others} pips left in {where} less their own {own}"
            if others < own:
                what += ", never below 0"
        else:
            what = f"every pip left in the hands, their own {own} included"
        if pair:
            scores = f"{seats_text(winners).capitalize()} each score {score}"
        else:
            scores = f"Seat {winners[0]} scores {score}"
        return f"{decided} {scores}: {what} [BLK-11]."

    def match_over(self, match: Match[BlockOptions, BlockHandState]) -> bool:
        # [BLK-12] until a side reaches target_score; 0 means a single hand
        target = match.options.target_score
        return target == 0 or max(self.totals(match)) >= target

    def table(self, match: Match[BlockOptions, BlockHandState], seat: int | None) -> BlockTable:
        state = match.hand_state
        left, right = ends(state.line)
        return BlockTable(state.line, left, right, state.leader)  # [BLK-14]

    # ---- checks ------------------------------------------------------------------

    def check_hand_state(self, match: Match[BlockOptions, BlockHandState]) -> None:
        state, options, players = match.hand_state, match.options, match.players
        full = len(self.full_set(options))
        dealt = players * hand_size(options, players)
        check_length(state.line, 0, full, "the line")
        check_length(state.boneyard, 0, full - dealt, "the boneyard")
        check_chain(state.line)  # [BLK-5]
        drawn = full - dealt - len(state.boneyard)
        if not options.draw:
            require(drawn == 0, "a tile was drawn in the Block game")  # [BLK-3]
        else:
            stop = min(options.boneyard_keep, full - dealt)
            require(len(state.boneyard) >= stop, "tiles were drawn past boneyard_keep")
        check_range(state.draws_left, 0, full, "draws_left")
        require(
            state.draws_left == _draws_left(options, len(state.boneyard)),
            "draws_left does not fit the boneyard",
        )
        held = sum(len(hand) for hand in state.hands)
        require(held + len(state.line) == dealt + drawn, "the hands do not fit the deal")
        if not state.line:
            require(state.last_layer is None, "a last layer before the lead")
            require(state.to_act == state.leader, "before the lead the leader acts")
            for hand in state.hands:
                check_length(
                    hand, hand_size(options, players), hand_size(options, players), "a hand"
                )
            if not state.any_lead:
                top = max((tile for hand in state.hands for tile in hand), key=rank)
                require(top in state.hands[state.leader], "the leader does not hold the top tile")
        else:
            if state.last_layer is None:
                fail("a line with no seat that laid its last tile")
            check_seat(state.last_layer, players, "last_layer")
