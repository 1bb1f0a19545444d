"""One Arm Joe (One-Armed Pete): a single arm of Western dominoes.

Sources: seeds 000 and 001, as decided by RULES.md ``[OAJ-1]``..``[OAJ-10]``.

Options (``OneArmJoeOptions``): ``set_max_pip`` (6..18, default 6), ``lead_double_bonus``
(default false), ``scoring`` (``OTHERS_TOTAL`` default, ``OTHERS_MINUS_OWN``), ``tie``
(``NO_SCORE`` default, ``SHARED``), ``target_score`` (default 100; 0 = a single hand).

The deal: the set in ascending order is shuffled with label ``deal/<hand>/<attempt>``
(attempt 0, 1, ... while deals are void for want of a double, ``[OAJ-3]``); seat 0 takes
the first 3 tiles, seat 1 the next 3, and so on; the rest, in that order, is the boneyard,
drawn from its front. ``deal_from`` deals from a given order, so a test can deal an exact
position.

Decisions where RULES.md leaves a case open (each has a test):

* A ``DRAW`` move draws until a tile matches; the drawn tiles that do not match stay
  in the drawer's hand and are seen by the drawer only; the matching one is played at
  once (event ``AUTO_PLAY``), face up. When the boneyard runs out first, the turn passes
  (event ``TURN_PASSED``).
* A hand's winners are the seats with the lowest count (the seat that dominoed alone);
  under ``tie = NO_SCORE`` tied winners are listed but score 0.
* The hand ends as soon as it is blocked, checked after every move, also right after a
  draw that emptied the boneyard. Its ``end`` is ``DOMINOED`` when a player laid their
  last tile, otherwise ``BLOCKED`` ``[OAJ-8]``.
* A match played to ``target_score`` that no seat has reached after hand 1,000
  (``MAX_HANDS``) ends there, ``MATCH_OVER`` on the totals as they stand: no table plays
  that long, and a bound on the hands is what bounds the work of opening a token
  (``tests/api/test_bounded_refusal.py`` plays such a match to its end).
* A hand's reason in words (``explain_hand``): the seat that dominoed wins outright,
  named with any seat left with 0 pips; otherwise the fewest pips, a tie naming the tied
  seats as sharing a hand that scores nothing (``NO_SCORE``) or what each scores
  (``SHARED``), ``[OAJ-9]``.

What a reachable hand state is (``check_hand_state``; everything else is refused):

* Before the lead (empty line, no open end): every seat holds the 3 tiles dealt, the
  boneyard the rest; some seat holds a double, the leader holds the highest double dealt
  and is to act, with no bonus turn and nobody out ``[OAJ-2]`` ``[OAJ-3]``.
* After it: the line starts with a double and each later tile matches the open end left
  by the tiles before it; the open end is the one the line leaves ``[OAJ-4]``. The
  boneyard only shrinks (at most the tiles not dealt); a hand may grow by drawing.
* A bonus turn follows a double: the last tile laid is a double (and the lead only under
  ``lead_double_bonus``), unless the hand just ended by a player going out ``[OAJ-5]``
  ``[OAJ-6]``.
* A seat has no tiles exactly when it is the seat that dominoed ``[OAJ-8]``.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...rules.building import fields_of, frozen_builder, made_of
from ...rules.checks import check_length, check_seat, fail, require
from ...rules.events import Event, EventKind
from ...rules.limits import MAX_HANDS
from ...rules.match import HandEnd, HandResult, Match, hand_result, held_tiles
from ...rules.moves import Move, MoveKind
from ...rules.options import option
from ...rules.ruleset import Ruleset, seats_text
from ...rules.tiles import Tile, double_n, remove_tile, sorted_tiles

__all__ = [
    "OneArmJoe",
    "OneArmJoeHandState",
    "OneArmJoeOptions",
    "OneArmJoeTable",
    "Scoring",
    "Tie",
]

HAND_SIZE = 3


class Scoring(enum.Enum):
    OTHERS_TOTAL = "OTHERS_TOTAL"
    OTHERS_MINUS_OWN = "OTHERS_MINUS_OWN"


class Tie(enum.Enum):
    NO_SCORE = "NO_SCORE"
    SHARED = "SHARED"


@dataclass(frozen=True, slots=True)
class OneArmJoeOptions:
    set_max_pip: int = option(
        6, "Western double-N set: N from 6 to 18 [OAJ-1]", minimum=6, maximum=18
    )
    lead_double_bonus: bool = option(False, "the lead double earns a bonus turn [OAJ-5]")
    scoring: Scoring = option(
        Scoring.OTHERS_TOTAL,
        "OTHERS_TOTAL: the winner scores the others' pips; "
        "OTHERS_MINUS_OWN: less their own [OAJ-9]",
    )
    tie: Tie = option(
        Tie.NO_SCORE,
        "a tie for lowest count: NO_SCORE, or SHARED by the tied players [OAJ-9]",
    )
    target_score: int = option(
        100,
        "the match ends when a total reaches this; 0 = a single hand [OAJ-10]",
        minimum=0,
        maximum=100_000,
    )


@dataclass(frozen=True)
class OneArmJoeHandState:
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    line: tuple[Tile, ...]
    open_end: int | None
    to_act: int
    bonus: bool
    leader: int
    dominoed: int | None = None


#: ``OneArmJoeHandState(*fields)``, every field given in order (:func:`frozen_builder`);
#: ``_make_state(fields)`` from a changed copy of a state's fields (:func:`made_of`).
_state: Callable[..., OneArmJoeHandState] = frozen_builder(OneArmJoeHandState)
_make_state = made_of(OneArmJoeHandState)


@dataclass(frozen=True, slots=True)
class OneArmJoeTable:
    """The arm as everyone sees it: tiles in the order played, from the lead double."""

    line: tuple[Tile, ...]
    open_end: int | None
    bonus_turn: bool
    leader: int


def _highest_double(hands: tuple[tuple[Tile, ...], ...]) -> tuple[Tile, int] | None:
    """The highest double dealt and the seat holding it; ``None`` when there is none
    (of equal doubles, the last seat's: ``max`` of the ``(tile, seat)`` pairs)."""
    best: tuple[Tile, int] | None = None
    best_code = -1
    for seat, tiles in enumerate(hands):
        for tile in tiles:
            if tile.is_double and tile.code >= best_code:
                best, best_code = (tile, seat), tile.code
    return best


# Moves and events are immutable values: the ones made on every move are made once.

_TILE_CODES = len(double_n(18))
_PIPS = 19  # open ends 0 to 18


@functools.cache
def _plays(seat: int) -> tuple[Move, ...]:
    """``Move(seat, PLAY, tile)`` for every tile, by tile code."""
    return tuple(Move(seat, MoveKind.PLAY, Tile.from_code(code)) for code in range(_TILE_CODES))


@functools.cache
def _draw(seat: int) -> tuple[Move, ...]:
    return (Move(seat, MoveKind.DRAW),)


@functools.cache
def _pass(seat: int) -> tuple[Move, ...]:
    return (Move(seat, MoveKind.PASS),)


def _seat_events(kind: EventKind) -> Callable[[int], Event]:
    """``Event(kind, seat=seat)``, made once per seat."""
    return functools.cache(lambda seat: Event(kind, seat=seat))


def _laid_events(kind: EventKind, *, bonus: bool) -> Callable[[int], tuple[Event, ...]]:
    """The events of a tile laid, made once each: ``Event(kind, seat=seat, tile=tile,
    open_pip=open_end)`` (then ``BONUS_TURN`` where ``bonus``), by the key
    ``(seat * _TILE_CODES + tile.code) * _PIPS + open_end`` (one integer: the cheapest key
    to look up)."""

    def laid(key: int) -> tuple[Event, ...]:
        rest, open_end = divmod(key, _PIPS)
        seat, code = divmod(rest, _TILE_CODES)
        event = Event(kind, seat=seat, tile=Tile.from_code(code), open_pip=open_end)
        return (event, _BONUS_TURN(seat)) if bonus else (event,)

    return functools.cache(laid)


@functools.cache
def _drawn_event(key: int) -> Event:
    """[OAJ-7] a drawn tile that does not match is seen by the drawer only; by the key
    ``seat * _TILE_CODES + tile.code``."""
    seat, code = divmod(key, _TILE_CODES)
    return Event(EventKind.DRAW, seat=seat, tile=Tile.from_code(code), private_to=seat)


_LEADER = _seat_events(EventKind.LEADER)
_TURN_PASSED = _seat_events(EventKind.TURN_PASSED)
_BONUS_TURN = _seat_events(EventKind.BONUS_TURN)
_PASSED = functools.cache(lambda seat: (Event(EventKind.PASS, seat=seat),))
_PLAYED = _laid_events(EventKind.PLAY, bonus=False)
_PLAYED_BONUS = _laid_events(EventKind.PLAY, bonus=True)
_AUTO_PLAYED = _laid_events(EventKind.AUTO_PLAY, bonus=False)
_AUTO_PLAYED_BONUS = _laid_events(EventKind.AUTO_PLAY, bonus=True)
_DEAL_EVENT = Event(EventKind.DEAL, count=HAND_SIZE)
_DEALT = functools.cache(lambda leader: (_DEAL_EVENT, _LEADER(leader)))
_PLAY, _PASS = MoveKind.PLAY, MoveKind.PASS
_DOMINOED, _BLOCKED = HandEnd.DOMINOED, HandEnd.BLOCKED
_SHARED, _MINUS_OWN = Tie.SHARED, Scoring.OTHERS_MINUS_OWN


def _over(
    hands: tuple[tuple[Tile, ...], ...],
    boneyard: tuple[Tile, ...],
    open_end: int | None,
    dominoed: int | None,
) -> bool:
    """Is the hand of these fields over (:meth:`OneArmJoe.hand_over`)."""
    if dominoed is not None:
        return True  # [OAJ-8] a player laid their last tile
    if open_end is None or boneyard:
        return False
    return _blocked(hands, open_end)


def _blocked(hands: tuple[tuple[Tile, ...], ...], open_end: int) -> bool:
    """[OAJ-8] blocked: nobody can match the open end (with the boneyard empty)."""
    end = 1 << open_end
    for tiles in hands:
        for t in tiles:
            if t.halves & end:
                return False
    return True


def _lay(
    state: OneArmJoeHandState,
    seat: int,
    tile: Tile,
    tiles: tuple[Tile, ...],
    fields: dict[str, Any],
    bonus: bool,
    drawn: tuple[Event, ...] | None = None,
) -> tuple[OneArmJoeHandState, tuple[Event, ...]]:
    """``seat`` lays ``tile`` and keeps ``tiles``: ``fields`` are those of ``state`` with
    the boneyard as it is now. ``drawn`` are the events of the draws that came first, for
    a tile drawn and played at once (``AUTO_PLAY``). Returns the state and the events."""
    hands = list(state.hands)
    hands[seat] = tiles
    fields["hands"] = tuple(hands)
    fields["line"] = (*state.line, tile)
    # [OAJ-4] one open end; a double leaves it unchanged
    open_end = state.open_end
    fields["open_end"] = open_end = (
        tile.high if open_end is None or tile.low == open_end else tile.low
    )
    key = (seat * _TILE_CODES + tile.code) * _PIPS + open_end
    if not tiles:  # [OAJ-8] the seat dominoed: the hand is over
        fields["dominoed"] = seat
        if drawn is None:
            return _make_state(fields), _PLAYED(key)
        return _make_state(fields), drawn + _AUTO_PLAYED(key)
    if tile.is_double and bonus:
        # [OAJ-6] a double earns a bonus turn at once
        fields["to_act"] = seat
        fields["bonus"] = True
        laid = _PLAYED_BONUS(key) if drawn is None else drawn + _AUTO_PLAYED_BONUS(key)
    else:
        fields["to_act"] = seat + 1 if seat + 1 < len(hands) else 0
        fields["bonus"] = False
        laid = _PLAYED(key) if drawn is None else drawn + _AUTO_PLAYED(key)
    return _make_state(fields), laid


class OneArmJoe(Ruleset[OneArmJoeOptions, OneArmJoeHandState]):
    id = "one_arm_joe"
    name = "One Arm Joe"
    source = "RULES.md [OAJ-1]..[OAJ-10]; seeds 000 (One Arm Joe) and 001 (One-Armed Joe)"
    description = (
        "A single arm of Western dominoes: 3 tiles each, the highest double leads, "
        "a double earns a bonus turn, draw until you can play; lowest count wins the hand."
    )
    options_type = OneArmJoeOptions
    hand_state_type = OneArmJoeHandState
    table_type = OneArmJoeTable
    hand_ends = frozenset({HandEnd.DOMINOED, HandEnd.BLOCKED})

    def full_set(self, options: OneArmJoeOptions) -> tuple[Tile, ...]:
        return double_n(options.set_max_pip)  # [OAJ-1]

    players_text = (
        "2 to floor(tiles / 3): 9 with double-six (set_max_pip 6), 63 with double-eighteen"
    )

    def max_players(self, options: OneArmJoeOptions) -> int:
        # [OAJ-2] 2 up to floor(tiles / 3)
        return len(self.full_set(options)) // HAND_SIZE

    # ---- the deal ----------------------------------------------------------------

    def void_deal(self, match: Match[OneArmJoeOptions, Any], order: tuple[Tile, ...]) -> bool:
        # [OAJ-3] nobody holds a double (none among the tiles dealt): the deal is void and
        # dealt again
        return not any(tile.is_double for tile in order[: match.players * HAND_SIZE])

    def deal_from(
        self, match: Match[OneArmJoeOptions, Any], hand_number: int, order: tuple[Tile, ...]
    ) -> tuple[OneArmJoeHandState, tuple[Event, ...]]:
        players = match.players
        # [OAJ-2] 3 tiles each, seat by seat from the front of the order
        hands = tuple(
            [sorted_tiles(order[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(players)]
        )
        # [OAJ-3] the holder of the highest double leads (of equal doubles, the last seat)
        leader, best = -1, -1
        for index in range(players * HAND_SIZE):
            tile = order[index]
            if tile.is_double and tile.code >= best:
                leader, best = index // HAND_SIZE, tile.code
        if leader < 0:
            raise ValueError("nobody holds a double: the deal is void [OAJ-3]")
        state = _state(hands, order[players * HAND_SIZE :], (), None, leader, False, leader, None)
        return state, _DEALT(leader)

    # ---- play --------------------------------------------------------------------

    def stock(self, state: OneArmJoeHandState) -> int:
        return len(state.boneyard)

    def all_tiles(self, state: OneArmJoeHandState) -> tuple[Tile, ...]:
        return held_tiles(state) + state.boneyard + state.line

    def hand_legal_moves(
        self, state: OneArmJoeHandState, options: OneArmJoeOptions
    ) -> tuple[Move, ...]:
        seat = state.to_act
        open_end = state.open_end
        plays = _plays(seat)
        if open_end is None:
            # [OAJ-3] the highest double is the leader's only legal move
            return (plays[max(t.code for t in state.hands[seat] if t.is_double)],)
        # [OAJ-6] [OAJ-7] a matching tile must be played, any of them, in ascending order
        end = 1 << open_end
        moves: list[Move] = []
        last = -1
        for t in state.hands[seat]:
            if t.halves & end:
                code = t.code
                if code <= last:  # not a sorted hand of distinct tiles
                    return self._sorted_plays(state)
                moves.append(plays[code])
                last = code
        if moves:
            return tuple(moves)
        if state.bonus or not state.boneyard:
            # [OAJ-6] no drawing on a bonus turn; [OAJ-7] empty boneyard: pass
            return _pass(seat)
        return _draw(seat)

    def _sorted_plays(self, state: OneArmJoeHandState) -> tuple[Move, ...]:
        """The matching tiles of any hand, distinct and ascending."""
        seat, open_end = state.to_act, state.open_end
        assert open_end is not None
        playable = sorted({t.code for t in state.hands[seat] if t.has(open_end)})  # [OAJ-7]
        return tuple(_plays(seat)[code] for code in playable)

    def hand_apply(
        self, match: Match[OneArmJoeOptions, OneArmJoeHandState], move: Move
    ) -> tuple[OneArmJoeHandState, tuple[Event, ...]]:
        state = match.hand_state
        seat = move.seat
        hands = state.hands
        kind = move.kind
        fields = fields_of(state)
        if kind is _PLAY:
            tile = move.tile
            assert tile is not None
            # [OAJ-5] after the lead, play passes on unless the lead earns a bonus turn
            bonus = state.open_end is not None or match.options.lead_double_bonus
            return _lay(state, seat, tile, remove_tile(hands[seat], tile), fields, bonus)
        fields["to_act"] = seat + 1 if seat + 1 < len(hands) else 0
        fields["bonus"] = False
        if kind is _PASS:
            return _make_state(fields), _PASSED(seat)
        # DRAW [OAJ-7]
        open_end, boneyard = state.open_end, state.boneyard
        assert open_end is not None
        end = 1 << open_end
        drawn: list[Event] = []
        key = seat * _TILE_CODES
        for n, tile in enumerate(boneyard):
            if tile.halves & end:
                # the tiles drawn before join the hand, sorted (as one by one)
                tiles = sorted_tiles(hands[seat] + boneyard[:n]) if n else hands[seat]
                fields["boneyard"] = boneyard[n + 1 :]
                fields["to_act"], fields["bonus"] = state.to_act, state.bonus
                return _lay(state, seat, tile, tiles, fields, True, tuple(drawn))
            drawn.append(_drawn_event(key + tile.code))
        grown = list(hands)
        grown[seat] = sorted_tiles(hands[seat] + boneyard)
        fields["hands"] = tuple(grown)
        fields["boneyard"] = ()
        drawn.append(_TURN_PASSED(seat))
        return _make_state(fields), tuple(drawn)

    def hand_over(self, state: OneArmJoeHandState) -> bool:
        return _over(state.hands, state.boneyard, state.open_end, state.dominoed)

    # ---- scoring -----------------------------------------------------------------

    def score_hand(self, match: Match[OneArmJoeOptions, OneArmJoeHandState]) -> HandResult:
        state, options = match.hand_state, match.options
        counted: list[int] = []
        for tiles in state.hands:
            count = 0
            for t in tiles:
                count += t.pips
            counted.append(count)
        counts = tuple(counted)
        dominoed = state.dominoed
        if dominoed is not None:
            # [OAJ-9] dominoing wins outright, even against a hand of [0-0]
            winners: tuple[int, ...] = (dominoed,)
            end = _DOMINOED
        else:
            low = min(counted)
            winners = tuple([s for s, c in enumerate(counted) if c == low])
            end = _BLOCKED
        points = [0] * match.players
        if len(winners) == 1 or options.tie is _SHARED:
            others = sum(counted)
            for seat in winners:
                others -= counted[seat]
            if others:  # everyone tied: nobody scores
                minus_own = options.scoring is _MINUS_OWN
                for seat in winners:
                    points[seat] = others - counted[seat] if minus_own else others
        # [OAJ-8] the hand ended by a player going out, or blocked
        return hand_result(counts, tuple(points), winners, end, ())

    def explain_hand(
        self,
        match: Match[OneArmJoeOptions, OneArmJoeHandState],
        number: int,
        before: tuple[int, ...],
    ) -> str:
        # [OAJ-8] how the hand ended; [OAJ-9] who wins it and what they score
        result, options = match.history[number - 1], match.options
        counts, points, winners = result.counts, result.points, result.winners
        low = min(counts)
        if result.end is _DOMINOED:
            scored = len(winners) == 1 and counts[winners[0]] == 0
        else:
            scored = winners == tuple([s for s, count in enumerate(counts) if count == low])
        if not scored:  # not a result these rules give (a state from outside): the facts
            return super().explain_hand(match, number, before)
        if result.end is _DOMINOED:
            (seat,) = winners
            zero = [s for s, count in enumerate(counts) if count == 0 and s != seat]
            even = f", even against {seats_text(zero)} left with 0 pips" if zero else ""
            return (
                f"Dominoed: seat {seat} laid their last tile and wins the hand outright{even} "
                f"[OAJ-9]. Seat {seat} scores {points[seat]}, the pips left in the other hands."
            )
        others = sum(counts) - low * len(winners)
        less = f" less their own {low}" if options.scoring is _MINUS_OWN else ""
        if len(winners) == 1:
            (seat,) = winners
            return (
                f"Blocked: seat {seat} holds the fewest pips, {low}, and wins the hand [OAJ-9]. "
                f"Seat {seat} scores {points[seat]}: the {others} pips left in the other "
                f"hands{less}."
            )
        if len(winners) == match.players:
            every = "both" if len(winners) == 2 else "all"
            return (
                f"Blocked: {seats_text(winners)} {every} hold {low} pips; with every seat tied "
                f"nobody scores [OAJ-9]."
            )
        tied = f"Blocked: {seats_text(winners)} tie for the fewest pips, {low} each"
        if options.tie is not _SHARED:
            return f"{tied}; under tie NO_SCORE a tie scores nothing for anyone [OAJ-9]."
        return (
            f"{tied}, and share the hand under tie SHARED [OAJ-9]: each scores the {others} "
            f"pips of the seats not tied{less}, {points[winners[0]]}."
        )

    def max_hands(self, options: OneArmJoeOptions, players: int) -> int:
        # [OAJ-10] a single hand for target 0; else hands that score nothing may follow
        # one another, and only MAX_HANDS ends the match
        return 1 if options.target_score == 0 else MAX_HANDS

    def match_over(self, match: Match[OneArmJoeOptions, OneArmJoeHandState]) -> bool:
        # [OAJ-10] play to target_score; 0 means a single hand
        target = match.options.target_score
        return target == 0 or max(self.totals(match)) >= target

    def table(
        self, match: Match[OneArmJoeOptions, OneArmJoeHandState], seat: int | None
    ) -> OneArmJoeTable:
        state = match.hand_state
        return OneArmJoeTable(state.line, state.open_end, state.bonus, state.leader)

    # ---- the check of a state from outside ------------------------------------------

    def check_hand_state(self, match: Match[OneArmJoeOptions, OneArmJoeHandState]) -> None:
        state, options, players = match.hand_state, match.options, match.players
        size = len(self.full_set(options))
        # [OAJ-2] the boneyard only shrinks from the tiles not dealt
        check_length(state.boneyard, 0, size - HAND_SIZE * players, "the boneyard")
        check_length(state.line, 0, size, "the line")
        if state.dominoed is not None:
            check_seat(state.dominoed, players, "dominoed")
        # [OAJ-8] a seat is out of tiles exactly when it dominoed
        dominoed = state.dominoed
        for seat, tiles in enumerate(state.hands):
            if (not tiles) is not (seat == dominoed):
                fail("a seat is out of tiles exactly when it dominoed")
        if not state.line:
            # [OAJ-3] before the lead: the hands as dealt, the highest double's holder to act
            require(state.open_end is None, "an open end before the lead")
            require(
                all(len(tiles) == HAND_SIZE for tiles in state.hands),
                f"before the lead every seat holds {HAND_SIZE} tiles",
            )
            require(not state.bonus, "a bonus turn before the lead")
            highest = _highest_double(state.hands)
            require(
                highest is not None and highest[1] == state.leader == state.to_act,
                "the leader holds the highest double dealt and is to act [OAJ-3]",
            )
            return
        # [OAJ-4] a single arm from the lead double, each tile matching the open end
        line = state.line
        require(line[0].is_double, "the line does not start with a double")
        open_end = line[0].high
        for i in range(1, len(line)):
            tile = line[i]
            if tile.high == open_end:
                open_end = tile.low
            elif tile.low == open_end:
                open_end = tile.high
            else:
                fail("a tile of the line does not match the open end")
        require(state.open_end == open_end, "the open end is not the one the line leaves")
        if state.bonus and state.dominoed is None:
            # [OAJ-5] [OAJ-6] a bonus turn follows a double (the lead only with the option)
            require(state.line[-1].is_double, "a bonus turn after a tile that is no double")
            require(
                len(state.line) > 1 or options.lead_double_bonus,
                "a bonus turn after the lead without lead_double_bonus",
            )
