"""Throw-up Dominoes: a two-ended line laid to the throw of three dice.

Sources: seed 003 (Throw-up Dominoes, Alan Ackroyd), as decided by RULES.md
``[THR-1]``..``[THR-11]``.

Options (``ThrowUpOptions``): ``rethrow_repeats`` (default false), ``hands_per_player``
(1..20, default 2).

Randomness, all from :mod:`domino_rules.rules.rng` with the game's seed:

* The deal of hand ``h``: the 27 tiles in ascending order shuffled with label
  ``deal/<h>/0``; seat ``s`` takes tiles ``7s .. 7s+6`` of that order, the rest, in that
  order, is the boneyard, drawn from its front.
* The throw-off for the leader of hand 1: in attempt ``a = 0, 1, ...`` every contending
  seat, in seat order, throws three dice with label ``lead/<a>/<seat>`` (one ``DICE`` event
  each). Attempt 0 has every seat contend; each later attempt only the seats tied for the
  highest total of the one before. The single highest total leads.
* The throw of round ``r`` of hand ``h``: three dice with label ``dice/<h>/<r>/<t>``, ``t = 0``;
  under ``rethrow_repeats``, while the throw equals the previous round's of the same hand
  as a multiset, ``t = 1, 2, ...``. Every throw is its own ``DICE`` event (seat = the
  leader). Round 1 is thrown at the deal, among the deal's events.

``deal_from`` deals from a given order (the throws still come from the seed), so a test
can deal an exact position.

Decisions where RULES.md leaves a case open (each has a test):

* A hand's leader after the first is the seat after the previous hand's leader; only the
  first hand has a throw-off.
* A tile that matches both open ends (the ends differ, or they show the same number)
  gives two distinct moves, ``LEFT`` and ``RIGHT``; a double matching one end gives one.
* The turn ends by itself inside the move that laid the player's last layable tile
  (event ``TURN_PASSED``). A ``DRAW`` or ``PASS`` move is itself the end of the turn and
  carries no ``TURN_PASSED``.
* A tile drawn is kept in hand and can be laid from the player's next turn on.
* ``idle_rounds`` counts finished rounds in a row in which nobody laid a tile; it falls
  back to 0 the moment a tile is laid. A round in which players only drew or passed is
  idle; the hand ends when the second idle round in a row is over, without a new throw.
* Blocked ("whatever the dice"): the line has started and no tile in any hand has a half
  equal to either open end. It is checked after every tile laid (drawing can only add
  tiles, so it never blocks), and the hand ends at once, in the middle of a turn if need
  be. A player laying their last tile ends the hand at once too. A hand that ends in a
  round's last turn ends without a new throw.
* Scoring: every seat keeps its pegs; the single seat with the fewest tiles in hand also
  scores the number of tiles in the other hands. A hand's winners are the seats with the
  fewest tiles, also when tied (and then nobody scores the bonus).
* A hand's ``end`` is ``DOMINOED`` when a player laid their last tile, ``IDLE_ROUNDS``
  after two idle rounds, ``BLOCKED`` when the line is blocked ``[THR-9]``; a player who
  lays their last tile ends the hand as ``DOMINOED`` even if the line is blocked too.
* A hand's reason in words (``explain_hand``) names the end, the fewest tiles and its
  bonus (or the tie that scores no one), then every seat's hand points, the pegs
  included.

What a reachable hand state is (``check_hand_state``; everything else is refused):

* The round's throw is exactly three dice of 1 to 6 ``[THR-1]`` ``[THR-4]`` (never fewer:
  round 1 is thrown at the deal).
* The boneyard only shrinks from the tiles not dealt ``[THR-3]``; a hand may grow by
  drawing.
* The line is a chain: each laid tile shows its two halves, and touching ends match
  ``[THR-5]``. The pegs, one per seat, add up to the points of the tiles on the line
  (1 a tile, 2 a double) ``[THR-6]``.
* ``idle_rounds`` is 0, 1 or 2 (2 only once the hand is over); a tile laid this round
  means the line has a tile and the run of idle rounds is 0 ``[THR-9]``. Each round but
  idle ones lays a tile, and no two idle rounds follow each other before the end, so the
  round number is at most twice the tiles laid, plus 2.
* Who leads is not checked against the throw-off (that would need the seed's throws; a
  sealed token is what guards a well-formed forged position).
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ...rules import rng
from ...rules.building import frozen_builder, next_seat
from ...rules.checks import check_length, check_range, require
from ...rules.events import Event, EventKind
from ...rules.lines import LaidTile, check_chain, ends
from ...rules.match import HandEnd, HandResult, Match, hand_result, held_tiles
from ...rules.moves import End, Move, MoveKind
from ...rules.options import option
from ...rules.ruleset import Ruleset, points_text, seats_text
from ...rules.tiles import (
    Tile,
    double_n,
    double_six_without_blank,
    insert_tile,
    sorted_tiles,
)

__all__ = [
    "LAID_POINTS",
    "LaidTile",
    "ThrowUp",
    "ThrowUpHandState",
    "ThrowUpOptions",
    "ThrowUpTable",
    "layable_codes",
    "qualifying_totals",
]

HAND_SIZE = 7
DICE = 3
MAX_THROWS = 100


@dataclass(frozen=True, slots=True)
class ThrowUpOptions:
    rethrow_repeats: bool = option(
        False, "a throw equal to the previous round's (as a multiset) is thrown again [THR-4]"
    )
    hands_per_player: int = option(
        2, "the match is this many hands per player [THR-11]", minimum=1, maximum=20
    )


@dataclass(frozen=True)
class ThrowUpHandState:
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    line: tuple[LaidTile, ...]
    dice: tuple[int, ...]
    round: int
    leader: int
    to_act: int
    pegs: tuple[int, ...]
    idle_rounds: int = 0
    laid_this_round: bool = False


#: ``ThrowUpHandState(*fields)``, every field given in order (:func:`frozen_builder`).
_state: Callable[..., ThrowUpHandState] = frozen_builder(ThrowUpHandState)


@dataclass(frozen=True, slots=True)
class ThrowUpTable:
    """The line left to right, the round's dice and the pegs, as everyone sees them."""

    line: tuple[LaidTile, ...]
    left_end: int | None
    right_end: int | None
    dice: tuple[int, ...]
    qualifying: tuple[int, ...]
    round: int
    leader: int
    idle_rounds: int
    pegs: tuple[int, ...]


def qualifying_totals(dice: tuple[int, ...]) -> tuple[int, ...]:
    """The tile totals one, two or all three dice make ([THR-5]), sorted and distinct.

    >>> qualifying_totals((1, 5, 3))
    (1, 3, 4, 5, 6, 8, 9)
    """
    return tuple(sorted({sum(c) for k in range(1, len(dice) + 1) for c in combinations(dice, k)}))


_ends = ends


class ThrowUp(Ruleset[ThrowUpOptions, ThrowUpHandState]):
    id = "throw_up"
    name = "Throw-up Dominoes"
    source = "RULES.md [THR-1]..[THR-11]; seed 003 (Throw-up Dominoes, Alan Ackroyd)"
    description = (
        "Double-six without the double blank, 7 tiles each: the leader throws three dice "
        "each round and tiles whose total one, two or three dice make are laid on a "
        "two-ended line, pegging 1 a tile, 2 a double; fewest tiles left takes a bonus."
    )
    options_type = ThrowUpOptions
    hand_state_type = ThrowUpHandState
    table_type = ThrowUpTable
    hand_ends = frozenset({HandEnd.DOMINOED, HandEnd.BLOCKED, HandEnd.IDLE_ROUNDS})

    def full_set(self, options: ThrowUpOptions) -> tuple[Tile, ...]:
        return double_six_without_blank()  # [THR-1]

    def max_players(self, options: ThrowUpOptions) -> int:
        return 3  # [THR-1]

    # ---- the deal ----------------------------------------------------------------

    def deal_from(
        self, match: Match[ThrowUpOptions, Any], hand_number: int, order: tuple[Tile, ...]
    ) -> tuple[ThrowUpHandState, tuple[Event, ...]]:
        players, seed = match.players, match.seed
        # [THR-3] 7 tiles each; the rest is the boneyard
        hands = tuple(
            [sorted_tiles(order[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(players)]
        )
        boneyard = order[players * HAND_SIZE :]
        events: list[Event] = [Event(EventKind.DEAL, count=HAND_SIZE)]
        previous = match.hand_state
        if isinstance(previous, ThrowUpHandState):
            # [THR-2] later hands: the lead passes to the next seat
            leader = next_seat(previous.leader, players)
        else:
            leader = _throw_off(seed, players, events)
        events.append(Event(EventKind.LEADER, seat=leader))
        # [THR-4] the leader throws for round 1
        dice = _round_throw(seed, hand_number, 1, leader, None, match.options, events)
        state = _state(hands, boneyard, (), dice, 1, leader, leader, (0,) * players, 0, False)
        return state, tuple(events)

    # ---- play --------------------------------------------------------------------

    def stock(self, state: ThrowUpHandState) -> int:
        return len(state.boneyard)

    def all_tiles(self, state: ThrowUpHandState) -> tuple[Tile, ...]:
        return held_tiles(state) + state.boneyard + tuple(laid.tile for laid in state.line)

    def hand_legal_moves(
        self, state: ThrowUpHandState, options: ThrowUpOptions
    ) -> tuple[Move, ...]:
        return _legal(state.to_act, state.hands, state.line, state.dice, state.boneyard)

    def hand_apply(
        self, match: Match[ThrowUpOptions, ThrowUpHandState], move: Move
    ) -> tuple[ThrowUpHandState, tuple[Event, ...]]:
        state, seat = match.hand_state, move.seat
        hands, line, boneyard = state.hands, state.line, state.boneyard
        events: tuple[Event, ...]
        if move.kind is _PLAY:
            tile = move.tile
            assert tile is not None
            code = tile.code
            end = move.end
            # [THR-5] the first tile high half to the left; later, the half matching the
            # end it is laid at against it
            if end is None:
                line = (_FIRST_LAID[code],)
                side = 0
            elif end is _LEFT:
                line = (_ON_LEFT[code * _PIPS + line[0].left], *line)
                side = 1
            else:
                line = (*line, _ON_RIGHT[code * _PIPS + line[-1].right])
                side = 2
            hand = hands[seat]
            codes = list(map(_CODE, hand))
            at = codes.index(code)
            hand = hand[:at] + hand[at + 1 :]
            hands = (*hands[:seat], hand, *hands[seat + 1 :])
            pegs = state.pegs  # [THR-6] 1 point a tile, 2 a double
            pegs = (*pegs[:seat], pegs[seat] + LAID_POINTS[code], *pegs[seat + 1 :])
            events = _laid_events((seat * _TILE_CODES + code) * 3 + side)
            dice, leader, number = state.dice, state.leader, state.round
            left, right = line[0].left, line[-1].right
            held = sum(map(_BIT.__getitem__, codes)) ^ _BIT[code]
            fitting = held & layable_codes(dice) & (_WITH_PIP[left] | _WITH_PIP[right])
            # [THR-5] the player goes on laying while they can; [THR-9] a hand that ends
            # now ends inside this play
            if fitting or not hand or _how_over(hands, 0, line) is not None:
                after = _state(hands, boneyard, line, dice, number, leader, seat, pegs, 0, True)
                return after, events
            # the turn ends; a tile was laid this round, so the hand goes on
            events = (*events, _TURN_PASSED(seat))
            idle, laid = 0, True
        else:
            pegs, idle, laid = state.pegs, state.idle_rounds, state.laid_this_round
            if move.kind is _DRAW:
                # [THR-7] one tile, kept for a later turn; the turn ends
                tile = boneyard[0]
                boneyard = boneyard[1:]
                hands = (*hands[:seat], insert_tile(hands[seat], tile), *hands[seat + 1 :])
                events = (_drawn_event(seat * _TILE_CODES + tile.code),)
            else:  # PASS [THR-7]
                events = (_PASSED(seat),)
        # the next seat's turn; after the round's last, the leader throws again
        following = seat + 1 if seat + 1 < match.players else 0
        leader, dice, number = state.leader, state.dice, state.round
        if following == leader:
            # [THR-9] a round in which nobody laid a tile is idle; two in a row end the hand
            idle = 0 if laid else idle + 1
            laid = False
            if idle >= 2:
                after = _state(
                    hands, boneyard, line, dice, number, leader, leader, pegs, idle, laid
                )
                return after, events
            # [THR-8] the leader throws for the next round
            number += 1
            thrown: list[Event] = list(events)
            dice = _round_throw(
                match.seed, match.hand_number, number, leader, dice, match.options, thrown
            )
            events = tuple(thrown)
        after = _state(hands, boneyard, line, dice, number, leader, following, pegs, idle, laid)
        return after, events

    def hand_over(self, state: ThrowUpHandState) -> bool:
        # [THR-9] two idle rounds in a row, a player out of tiles, or the line blocked
        return _how_over(state.hands, state.idle_rounds, state.line) is not None

    # ---- scoring -----------------------------------------------------------------

    def running_points(self, state: ThrowUpHandState, players: int) -> tuple[int, ...]:
        return state.pegs  # [THR-6] pegged at once

    def score_hand(self, match: Match[ThrowUpOptions, ThrowUpHandState]) -> HandResult:
        state = match.hand_state
        counts = tuple(len(tiles) for tiles in state.hands)
        fewest = min(counts)
        winners = tuple(s for s, c in enumerate(counts) if c == fewest)
        points = list(state.pegs)
        if len(winners) == 1:
            # [THR-10] 1 point per tile in the other hands; a tie scores no one
            points[winners[0]] += sum(counts) - fewest
        end = _how_over(state.hands, state.idle_rounds, state.line)
        assert end is not None
        return hand_result(counts, tuple(points), winners, end, ())

    def explain_hand(
        self, match: Match[ThrowUpOptions, ThrowUpHandState], number: int, before: tuple[int, ...]
    ) -> str:
        # [THR-9] how the hand ended; [THR-10] the bonus of the fewest tiles; [THR-6] pegs
        result = match.history[number - 1]
        counts, points, winners = result.counts, result.points, result.winners
        fewest = min(counts)
        if winners != tuple([seat for seat, count in enumerate(counts) if count == fewest]):
            # not a result these rules give (a state from outside): the facts
            return super().explain_hand(match, number, before)
        if result.end is HandEnd.DOMINOED:
            head = f"Dominoed: seat {winners[0]} laid their last tile [THR-9]"
        elif result.end is HandEnd.BLOCKED:
            head = "Blocked: no tile in any hand matches either end [THR-9]"
        else:
            head = "Two rounds in a row without a tile laid [THR-9]"
        if len(winners) == 1:
            (seat,) = winners
            fewer = (
                "with no tile left" if fewest == 0 else f"with the fewest tiles in hand, {fewest}"
            )
            decided = (
                f"{fewer}, seat {seat} scores 1 point per tile in the other hands, "
                f"{sum(counts) - fewest} [THR-10]"
            )
        else:
            decided = (
                f"{seats_text(winners)} tie for the fewest tiles in hand, {fewest} each, and "
                f"a tie scores no one [THR-10]"
            )
        return (
            f"{head}; {decided}. Hand points, with those pegged for tiles laid [THR-6]: "
            f"{points_text(points)}."
        )

    def max_hands(self, options: ThrowUpOptions, players: int) -> int:
        return options.hands_per_player * players  # [THR-11]

    def match_over(self, match: Match[ThrowUpOptions, ThrowUpHandState]) -> bool:
        # [THR-11] hands_per_player hands per player
        return len(match.history) >= match.options.hands_per_player * match.players

    def table(
        self, match: Match[ThrowUpOptions, ThrowUpHandState], seat: int | None
    ) -> ThrowUpTable:
        state = match.hand_state
        left, right = _ends(state.line)
        return ThrowUpTable(
            line=state.line,
            left_end=left,
            right_end=right,
            dice=state.dice,
            qualifying=qualifying_totals(state.dice),
            round=state.round,
            leader=state.leader,
            idle_rounds=state.idle_rounds,
            pegs=state.pegs,
        )

    # ---- the check of a state from outside ------------------------------------------

    def check_hand_state(self, match: Match[ThrowUpOptions, ThrowUpHandState]) -> None:
        state, players = match.hand_state, match.players
        full = len(self.full_set(match.options))
        # [THR-1] [THR-4] the round's throw: three dice
        check_length(state.dice, DICE, DICE, "dice")
        for die in state.dice:
            if not 1 <= die <= 6:
                check_range(die, 1, 6, "a die")
        # [THR-3] the boneyard only shrinks from the tiles not dealt
        check_length(state.boneyard, 0, full - HAND_SIZE * players, "the boneyard")
        # [THR-5] a line of touching ends that match
        check_length(state.line, 0, full, "the line")
        check_chain(state.line)
        laid_points = sum([2 if laid.tile.is_double else 1 for laid in state.line])
        # [THR-6] the pegs add up to the tiles laid: 1 a tile, 2 a double
        check_length(state.pegs, players, players, "pegs")
        for peg in state.pegs:
            if not 0 <= peg <= 2 * full:
                check_range(peg, 0, 2 * full, "a peg")
        require(sum(state.pegs) == laid_points, "the pegs do not add up to the tiles laid")
        # [THR-9] idle rounds, and the rounds they allow
        check_range(state.idle_rounds, 0, 2, "idle_rounds")
        if state.laid_this_round:
            require(
                bool(state.line) and state.idle_rounds == 0,
                "a tile laid this round, but none on the line or a run of idle rounds",
            )
        check_range(state.round, 1, 2 * len(state.line) + 2, "round")


def _how_over(
    hands: tuple[tuple[Tile, ...], ...], idle_rounds: int, line: tuple[LaidTile, ...]
) -> HandEnd | None:
    """[THR-9] how the hand is over: a player out of tiles, two idle rounds in a row, or
    the line blocked (no tile in any hand matches an open end); ``None`` while it goes on."""
    for tiles in hands:
        if not tiles:
            return _DOMINOED
    if idle_rounds >= 2:
        return _IDLE_ROUNDS
    if not line:
        return None
    matching = _MATCHING[line[0].left][line[-1].right]
    return None if any(map(matching.__getitem__, _codes(hands))) else _BLOCKED


def _throw_off(seed: str, players: int, events: list[Event]) -> int:
    """[THR-2] every seat throws; seats tied for highest throw again until one is highest."""
    contenders = tuple(range(players))
    for attempt in range(MAX_THROWS):
        totals: dict[int, int] = {}
        for seat in contenders:
            dice = rng.throw(seed, f"lead/{attempt}/{seat}", DICE)
            events.append(Event(EventKind.DICE, seat=seat, dice=dice))
            totals[seat] = sum(dice)
        best = max(totals.values())
        contenders = tuple(s for s in contenders if totals[s] == best)
        if len(contenders) == 1:
            return contenders[0]
    raise RuntimeError("no leader after the throw-off")  # pragma: no cover


def _round_throw(
    seed: str,
    hand_number: int,
    round_number: int,
    leader: int,
    previous: tuple[int, ...] | None,
    options: ThrowUpOptions,
    events: list[Event],
) -> tuple[int, ...]:
    """[THR-4] the leader's throw for a round, thrown again on a repeat where the option says."""
    rethrow = options.rethrow_repeats
    key = (seed, hand_number, round_number, leader, previous if rethrow else None)
    known = _THROWN.get(key)
    if known is None:
        thrown: list[Event] = []
        for t in range(MAX_THROWS):
            dice = rng.throw(seed, f"dice/{hand_number}/{round_number}/{t}", DICE)
            thrown.append(_dice_event(leader, dice))
            repeat = previous is not None and sorted(dice) == sorted(previous)
            if not (rethrow and repeat):
                break
        else:
            raise RuntimeError("no throw differs from the previous round's")  # pragma: no cover
        if len(_THROWN) >= _THROWN_KEPT:
            _THROWN.clear()
        _THROWN[key] = known = (dice, tuple(thrown))
    events += known[1]
    return known[0]


#: The throws of a round ([THR-4]) depend only on the seed, the hand, the round and (under
#: ``rethrow_repeats``) the round before's dice: :func:`_round_throw` keeps the last
#: ones made, the dice and their events, by all of these and the leader.
_THROWN: dict[tuple[object, ...], tuple[tuple[int, ...], tuple[Event, ...]]] = {}
_THROWN_KEPT = 1 << 14


# Moves, events and laid tiles are immutable values: the ones made on every move are made
# once, each by one integer key where that is the cheapest to look up.

_TILE_CODES = len(double_n(18))
_PIPS = 19


@functools.cache
def _qualifying(dice: tuple[int, ...]) -> frozenset[int]:
    """:func:`qualifying_totals` as a set, once per throw."""
    return frozenset(qualifying_totals(dice))


@functools.cache
def _seat_moves(seat: int) -> tuple[tuple[Move, ...], tuple[Move, ...], tuple[Move, ...]]:
    """For ``seat``, by tile code: ``PLAY`` of the first tile (no end), on the left end,
    on the right end."""
    tiles = [Tile.from_code(code) for code in range(_TILE_CODES)]
    return (
        tuple(Move(seat, MoveKind.PLAY, t) for t in tiles),
        tuple(Move(seat, MoveKind.PLAY, t, end=End.LEFT) for t in tiles),
        tuple(Move(seat, MoveKind.PLAY, t, end=End.RIGHT) for t in tiles),
    )


@functools.cache
def _draw_or_pass(seat: int) -> tuple[tuple[Move], tuple[Move]]:
    return (Move(seat, MoveKind.DRAW),), (Move(seat, MoveKind.PASS),)


@functools.cache
def _laid_events(key: int) -> tuple[Event, Event]:
    """``PLAY`` and ``PEG`` ([THR-6] 1 a tile, 2 a double) by ``(seat * _TILE_CODES +
    code) * 3 + end`` (0: no end, 1: left, 2: right)."""
    rest, end = divmod(key, 3)
    seat, code = divmod(rest, _TILE_CODES)
    tile = Tile.from_code(code)
    played = Event(EventKind.PLAY, seat=seat, tile=tile, end=(None, End.LEFT, End.RIGHT)[end])
    return played, Event(EventKind.PEG, seat=seat, points=2 if tile.is_double else 1)


@functools.cache
def _drawn_event(key: int) -> Event:
    """[THR-7] a tile drawn, seen by the drawer only; by ``seat * _TILE_CODES + code``."""
    seat, code = divmod(key, _TILE_CODES)
    return Event(EventKind.DRAW, seat=seat, tile=Tile.from_code(code), private_to=seat)


@functools.cache
def _dice_event(seat: int, dice: tuple[int, ...]) -> Event:
    return Event(EventKind.DICE, seat=seat, dice=dice)


_PASSED = functools.cache(lambda seat: Event(EventKind.PASS, seat=seat))
_TURN_PASSED = functools.cache(lambda seat: Event(EventKind.TURN_PASSED, seat=seat))
# members read on every move, as module constants (an Enum's class attribute is a slow
# lookup)
_PLAY, _DRAW, _LEFT = MoveKind.PLAY, MoveKind.DRAW, End.LEFT
_DOMINOED, _IDLE_ROUNDS, _BLOCKED = HandEnd.DOMINOED, HandEnd.IDLE_ROUNDS, HandEnd.BLOCKED


def _legal(
    seat: int,
    hands: tuple[tuple[Tile, ...], ...],
    line: tuple[LaidTile, ...],
    dice: tuple[int, ...],
    boneyard: tuple[Tile, ...],
) -> tuple[Move, ...]:
    """The legal moves of ``seat`` at the start of its turn or inside it: the tiles it can
    lay ([THR-5]); none, and it draws one, or passes when the boneyard is empty
    ([THR-7])."""
    # [THR-1] no two tiles of the set are equal: a hand is a bit set of tile codes
    fitting = sum(map(_BIT.__getitem__, map(_CODE, hands[seat]))) & layable_codes(dice)
    if line:
        left, right = line[0].left, line[-1].right
        fitting &= _WITH_PIP[left] | _WITH_PIP[right]
    else:
        left = right = -1  # any tile starts the line
    if fitting:
        return _plays(seat, left, right, fitting)
    return _draw_or_pass(seat)[0 if boneyard else 1]


def _plays(seat: int, left: int, right: int, fitting: int) -> tuple[Move, ...]:
    """The plays by ``seat`` of the tiles ``fitting`` (a bit set of codes: tiles it holds,
    whose total the dice make and that match an end) on a line whose ends show ``left``
    and ``right`` (-1 before the first tile), in the order of the legal moves: the tiles
    ascending, each on every end it matches ([THR-5])."""
    table = _plays_on_ends(seat, left, right)
    if not fitting & (fitting - 1):
        return table[fitting.bit_length() - 1]  # one tile
    plays: list[Move] = []
    while fitting:
        lowest = fitting & -fitting
        plays += table[lowest.bit_length() - 1]
        fitting ^= lowest
    return tuple(plays)


@functools.cache
def layable_codes(dice: tuple[int, ...]) -> int:
    """The tiles of the set that ``dice`` let be laid [THR-5], their total one that one, two
    or three of the dice make, as a bit set of their codes.

    >>> bin(layable_codes((1, 1, 1)))  # totals 1, 2, 3: [1-0] [1-1] [2-0] [2-1] [3-0]
    '0b1011110'
    """
    totals = _qualifying(dice)
    return sum([1 << code for code, tile in enumerate(_SET_TILES) if tile.pips in totals])


@functools.cache
def _plays_on_ends(seat: int, left: int, right: int) -> tuple[tuple[Move, ...], ...]:
    """Per tile code, the plays of that tile by ``seat`` on a line whose ends show ``left``
    and ``right`` (-1 before the first tile), in the order of the legal moves: [THR-5] at
    each end it matches, the left one first; any tile starts the line."""
    first, lefts, rights = _seat_moves(seat)
    table: list[tuple[Move, ...]] = []
    for code, tile in enumerate(_SET_TILES):
        if left < 0:
            table.append((first[code],))
            continue
        plays = []
        if tile.has(left):
            plays.append(lefts[code])
        if tile.has(right):
            plays.append(rights[code])
        table.append(tuple(plays))
    return tuple(table)


# [THR-1] the set: double-six without the double blank. Per code up to [6-6]'s (the
# double blank's, 0, is never dealt) ...
_SET_TILES = tuple(Tile.from_code(code) for code in range(Tile(6, 6).code + 1))
# ... the tile laid first [THR-5], high half to the left; laid at the left end on a
# pip it has (by ``code * 19 + pip``), that pip to its right, its other half open; laid
# at the right end, the same mirrored
_FIRST_LAID = tuple(LaidTile(tile, tile.high, tile.low) for tile in _SET_TILES)
_ON_LEFT = {
    code * _PIPS + pip: LaidTile(tile, tile.other(pip), pip)
    for code, tile in enumerate(_SET_TILES)
    for pip in (tile.high, tile.low)
}
_ON_RIGHT = {
    code * _PIPS + pip: LaidTile(tile, pip, tile.other(pip))
    for code, tile in enumerate(_SET_TILES)
    for pip in (tile.high, tile.low)
}
#: [THR-9] per pair of open ends ``[left][right]``, per tile code: does the tile match
#: one of them (the line is blocked when no tile in any hand does).
_MATCHING = tuple(
    tuple(tuple([tile.has(left) or tile.has(right) for tile in _SET_TILES]) for right in range(7))
    for left in range(7)
)
#: [THR-1] per pip, the tiles that have it, as a bit set of their codes; per code, its
#: bit, and the points it pegs when laid [THR-6]: 1, and 2 for a double.
_WITH_PIP = tuple(
    sum([1 << code for code, tile in enumerate(_SET_TILES) if tile.has(pip)]) for pip in range(7)
)
_BIT = tuple([1 << code for code in range(len(_SET_TILES))])
LAID_POINTS = tuple([2 if tile.is_double else 1 for tile in _SET_TILES])
_CODE = operator.attrgetter("code")
_chain = itertools.chain.from_iterable


def _codes(hands: tuple[tuple[Tile, ...], ...]) -> Iterator[int]:
    """The codes of the tiles in every hand."""
    return map(_CODE, _chain(hands))
