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

import dataclasses
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any

from . import rng
from .base import (
    End,
    Event,
    EventKind,
    HandEnd,
    HandResult,
    Match,
    Move,
    MoveKind,
    Ruleset,
    held_tiles,
    next_seat,
    option,
    replace_at,
)
from .checks import check_length, check_range, require
from .registry import register
from .tiles import Tile, double_six_without_blank, remove_tile

__all__ = [
    "LaidTile",
    "ThrowUp",
    "ThrowUpHandState",
    "ThrowUpOptions",
    "ThrowUpTable",
    "qualifying_totals",
]

HAND_SIZE = 7
DICE = 3
MAX_THROWS = 10_000


@dataclass(frozen=True, slots=True)
class ThrowUpOptions:
    rethrow_repeats: bool = option(
        False, "a throw equal to the previous round's (as a multiset) is thrown again [THR-4]"
    )
    hands_per_player: int = option(
        2, "the match is this many hands per player [THR-11]", minimum=1, maximum=20
    )


@dataclass(frozen=True, slots=True)
class LaidTile:
    """A tile of the line and the pips it shows to its left and to its right."""

    tile: Tile
    left: int
    right: int


@dataclass(frozen=True, slots=True)
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


def _ends(line: tuple[LaidTile, ...]) -> tuple[int | None, int | None]:
    if not line:
        return None, None
    return line[0].left, line[-1].right


def _with_peg(pegs: tuple[int, ...], seat: int, points: int) -> tuple[int, ...]:
    return replace_at(pegs, seat, pegs[seat] + points)


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
            tuple(sorted(order[s * HAND_SIZE : (s + 1) * HAND_SIZE])) for s in range(players)
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
        state = ThrowUpHandState(
            hands=hands,
            boneyard=boneyard,
            line=(),
            dice=dice,
            round=1,
            leader=leader,
            to_act=leader,
            pegs=(0,) * players,
        )
        return state, tuple(events)

    # ---- play --------------------------------------------------------------------

    def stock(self, state: ThrowUpHandState) -> int:
        return len(state.boneyard)

    def all_tiles(self, state: ThrowUpHandState) -> tuple[Tile, ...]:
        return held_tiles(state) + state.boneyard + tuple(laid.tile for laid in state.line)

    def hand_legal_moves(
        self, state: ThrowUpHandState, options: ThrowUpOptions
    ) -> tuple[Move, ...]:
        seat = state.to_act
        plays = _plays(state, seat)
        if plays:
            return plays
        # [THR-7] nothing to lay at the start of the turn: draw one, or pass
        if state.boneyard:
            return (Move(seat, MoveKind.DRAW),)
        return (Move(seat, MoveKind.PASS),)

    def hand_apply(
        self, match: Match[ThrowUpOptions, ThrowUpHandState], move: Move
    ) -> tuple[ThrowUpHandState, tuple[Event, ...]]:
        state, seat = match.hand_state, move.seat
        events: list[Event] = []
        if move.kind is MoveKind.PLAY:
            assert move.tile is not None
            state = _lay(state, seat, move.tile, move.end, events)
            if self.hand_over(state):
                return state, tuple(events)  # [THR-9] domino or blocked: at once
            if _plays(state, seat):
                return state, tuple(events)  # [THR-5] the player goes on laying
            events.append(Event(EventKind.TURN_PASSED, seat=seat))
        elif move.kind is MoveKind.DRAW:
            # [THR-7] one tile, kept for a later turn; the turn ends
            tile, boneyard = state.boneyard[0], state.boneyard[1:]
            events.append(Event(EventKind.DRAW, seat=seat, tile=tile, private_to=seat))
            tiles = tuple(sorted(state.hands[seat] + (tile,)))
            state = dataclasses.replace(
                state, hands=replace_at(state.hands, seat, tiles), boneyard=boneyard
            )
        else:  # PASS [THR-7]
            events.append(Event(EventKind.PASS, seat=seat))
        state = _end_turn(match, state, seat, events)
        return state, tuple(events)

    def hand_over(self, state: ThrowUpHandState) -> bool:
        # [THR-9] two idle rounds in a row, a player out of tiles, or the line blocked
        return _how_over(state) is not None

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
        end = _how_over(state)
        assert end is not None
        return HandResult(counts=counts, points=tuple(points), winners=winners, end=end)

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
            check_range(die, 1, 6, "a die")
        # [THR-3] the boneyard only shrinks from the tiles not dealt
        check_length(state.boneyard, 0, full - HAND_SIZE * players, "the boneyard")
        # [THR-5] a line of touching ends that match
        check_length(state.line, 0, full, "the line")
        for laid in state.line:
            halves = (min(laid.left, laid.right), max(laid.left, laid.right))
            require(halves == (laid.tile.low, laid.tile.high), "a laid tile shows wrong halves")
        require(
            all(a.right == b.left for a, b in pairwise(state.line)),
            "touching ends of the line do not match",
        )
        # [THR-6] the pegs add up to the tiles laid: 1 a tile, 2 a double
        check_length(state.pegs, players, players, "pegs")
        for peg in state.pegs:
            check_range(peg, 0, 2 * full, "a peg")
        laid_points = sum(2 if laid.tile.is_double else 1 for laid in state.line)
        require(sum(state.pegs) == laid_points, "the pegs do not add up to the tiles laid")
        # [THR-9] idle rounds, and the rounds they allow
        check_range(state.idle_rounds, 0, 2, "idle_rounds")
        if state.laid_this_round:
            require(
                bool(state.line) and state.idle_rounds == 0,
                "a tile laid this round, but none on the line or a run of idle rounds",
            )
        check_range(state.round, 1, 2 * len(state.line) + 2, "round")


def _how_over(state: ThrowUpHandState) -> HandEnd | None:
    """[THR-9] how the hand is over: a player out of tiles, two idle rounds in a row, or
    the line blocked (no tile in any hand matches an open end); ``None`` while it goes on."""
    if any(not tiles for tiles in state.hands):
        return HandEnd.DOMINOED
    if state.idle_rounds >= 2:
        return HandEnd.IDLE_ROUNDS
    left, right = _ends(state.line)
    if left is None or right is None:
        return None
    if any(t.has(left) or t.has(right) for tiles in state.hands for t in tiles):
        return None
    return HandEnd.BLOCKED


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
    for t in range(MAX_THROWS):
        dice = rng.throw(seed, f"dice/{hand_number}/{round_number}/{t}", DICE)
        events.append(Event(EventKind.DICE, seat=leader, dice=dice))
        repeat = previous is not None and sorted(dice) == sorted(previous)
        if not (options.rethrow_repeats and repeat):
            return dice
    raise RuntimeError("no throw differs from the previous round's")  # pragma: no cover


def _plays(state: ThrowUpHandState, seat: int) -> tuple[Move, ...]:
    """The tiles ``seat`` can lay now, each on every end it matches ([THR-5])."""
    totals = qualifying_totals(state.dice)
    left, right = _ends(state.line)
    moves: list[Move] = []
    for tile in sorted(set(state.hands[seat])):
        if tile.pips not in totals:
            continue
        if left is None or right is None:
            moves.append(Move(seat, MoveKind.PLAY, tile))  # the first tile starts the line
            continue
        if tile.has(left):
            moves.append(Move(seat, MoveKind.PLAY, tile, end=End.LEFT))
        if tile.has(right):
            moves.append(Move(seat, MoveKind.PLAY, tile, end=End.RIGHT))
    return tuple(moves)


def _lay(
    state: ThrowUpHandState, seat: int, tile: Tile, end: End | None, events: list[Event]
) -> ThrowUpHandState:
    left, right = _ends(state.line)
    if end is None:
        # [THR-5] the first tile: high half to the left, low half to the right
        line: tuple[LaidTile, ...] = (LaidTile(tile, tile.high, tile.low),)
    elif end is End.LEFT:
        assert left is not None
        line = (LaidTile(tile, tile.other(left), left), *state.line)
    else:
        assert right is not None
        line = (*state.line, LaidTile(tile, right, tile.other(right)))
    points = 2 if tile.is_double else 1  # [THR-6]
    events.append(Event(EventKind.PLAY, seat=seat, tile=tile, end=end))
    events.append(Event(EventKind.PEG, seat=seat, points=points))
    return dataclasses.replace(
        state,
        hands=replace_at(state.hands, seat, remove_tile(state.hands[seat], tile)),
        line=line,
        pegs=_with_peg(state.pegs, seat, points),
        idle_rounds=0,
        laid_this_round=True,
    )


def _end_turn(
    match: Match[ThrowUpOptions, ThrowUpHandState],
    state: ThrowUpHandState,
    seat: int,
    events: list[Event],
) -> ThrowUpHandState:
    """The next seat's turn; after the round's last turn, the leader throws again."""
    following = next_seat(seat, match.players)
    if following != state.leader:
        return dataclasses.replace(state, to_act=following)
    # [THR-9] a round in which nobody laid a tile is idle; two in a row end the hand
    idle = 0 if state.laid_this_round else state.idle_rounds + 1
    state = dataclasses.replace(state, to_act=state.leader, idle_rounds=idle, laid_this_round=False)
    if idle >= 2:
        return state
    # [THR-8] the leader throws for the next round
    number = state.round + 1
    dice = _round_throw(
        match.seed, match.hand_number, number, state.leader, state.dice, match.options, events
    )
    return dataclasses.replace(state, dice=dice, round=number)


register(ThrowUp())
