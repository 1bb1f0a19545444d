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

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from .base import (
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
from .checks import check_length, check_seat, require
from .registry import register
from .tiles import Tile, double_n, hand_pips, remove_tile

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


@dataclass(frozen=True, slots=True)
class OneArmJoeHandState:
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    line: tuple[Tile, ...]
    open_end: int | None
    to_act: int
    bonus: bool
    leader: int
    dominoed: int | None = None


@dataclass(frozen=True, slots=True)
class OneArmJoeTable:
    """The arm as everyone sees it: tiles in the order played, from the lead double."""

    line: tuple[Tile, ...]
    open_end: int | None
    bonus_turn: bool
    leader: int


def _highest_double(hands: tuple[tuple[Tile, ...], ...]) -> tuple[Tile, int] | None:
    """The highest double dealt and the seat holding it; ``None`` when there is none."""
    doubles = [(t, s) for s, tiles in enumerate(hands) for t in tiles if t.is_double]
    return max(doubles) if doubles else None


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

    def _dealt(self, order: tuple[Tile, ...], players: int) -> tuple[tuple[Tile, ...], ...]:
        # [OAJ-2] 3 tiles each, seat by seat from the front of the order
        return tuple(
            tuple(sorted(order[s * HAND_SIZE : (s + 1) * HAND_SIZE])) for s in range(players)
        )

    def void_deal(self, match: Match[OneArmJoeOptions, Any], order: tuple[Tile, ...]) -> bool:
        # [OAJ-3] nobody holds a double: the deal is void and dealt again
        return _highest_double(self._dealt(order, match.players)) is None

    def deal_from(
        self, match: Match[OneArmJoeOptions, Any], hand_number: int, order: tuple[Tile, ...]
    ) -> tuple[OneArmJoeHandState, tuple[Event, ...]]:
        players = match.players
        hands = self._dealt(order, players)
        highest = _highest_double(hands)
        if highest is None:
            raise ValueError("nobody holds a double: the deal is void [OAJ-3]")
        # [OAJ-3] the holder of the highest double leads
        _, leader = highest
        state = OneArmJoeHandState(
            hands=hands,
            boneyard=order[players * HAND_SIZE :],
            line=(),
            open_end=None,
            to_act=leader,
            bonus=False,
            leader=leader,
        )
        events = (Event(EventKind.DEAL, count=HAND_SIZE), Event(EventKind.LEADER, seat=leader))
        return state, events

    # ---- play --------------------------------------------------------------------

    def stock(self, state: OneArmJoeHandState) -> int:
        return len(state.boneyard)

    def all_tiles(self, state: OneArmJoeHandState) -> tuple[Tile, ...]:
        return held_tiles(state) + state.boneyard + state.line

    def hand_legal_moves(
        self, state: OneArmJoeHandState, options: OneArmJoeOptions
    ) -> tuple[Move, ...]:
        seat, tiles = state.to_act, state.hands[state.to_act]
        if state.open_end is None:
            # [OAJ-3] the highest double is the leader's only legal move
            return (Move(seat, MoveKind.PLAY, max(t for t in tiles if t.is_double)),)
        playable = sorted({t for t in tiles if t.has(state.open_end)})
        if playable:
            # [OAJ-6] [OAJ-7] a matching tile must be played, any of them
            return tuple(Move(seat, MoveKind.PLAY, t) for t in playable)
        if state.bonus or not state.boneyard:
            # [OAJ-6] no drawing on a bonus turn; [OAJ-7] empty boneyard: pass
            return (Move(seat, MoveKind.PASS),)
        return (Move(seat, MoveKind.DRAW),)

    def hand_apply(
        self, match: Match[OneArmJoeOptions, OneArmJoeHandState], move: Move
    ) -> tuple[OneArmJoeHandState, tuple[Event, ...]]:
        state, options = match.hand_state, match.options
        seat, players = move.seat, match.players
        events: list[Event] = []
        if move.kind is MoveKind.PASS:
            events.append(Event(EventKind.PASS, seat=seat))
            state = dataclasses.replace(state, to_act=next_seat(seat, players), bonus=False)
        elif move.kind is MoveKind.PLAY:
            assert move.tile is not None
            # [OAJ-5] after the lead, play passes on unless the lead earns a bonus turn
            bonus = state.open_end is not None or options.lead_double_bonus
            state = self._lay(state, seat, move.tile, events, EventKind.PLAY, bonus=bonus)
        else:  # DRAW [OAJ-7]
            tiles, boneyard = state.hands[seat], state.boneyard
            assert state.open_end is not None
            while boneyard:
                tile, boneyard = boneyard[0], boneyard[1:]
                if tile.has(state.open_end):
                    state = dataclasses.replace(state, boneyard=boneyard)
                    state = self._lay(state, seat, tile, events, EventKind.AUTO_PLAY, drawn=True)
                    break
                events.append(Event(EventKind.DRAW, seat=seat, tile=tile, private_to=seat))
                tiles = tuple(sorted((*tiles, tile)))
                state = dataclasses.replace(
                    state, hands=replace_at(state.hands, seat, tiles), boneyard=boneyard
                )
            else:
                events.append(Event(EventKind.TURN_PASSED, seat=seat))
                state = dataclasses.replace(state, to_act=next_seat(seat, players), bonus=False)
        return state, tuple(events)

    def _lay(
        self,
        state: OneArmJoeHandState,
        seat: int,
        tile: Tile,
        events: list[Event],
        kind: EventKind,
        drawn: bool = False,
        bonus: bool = True,
    ) -> OneArmJoeHandState:
        players = len(state.hands)
        tiles = state.hands[seat] if drawn else remove_tile(state.hands[seat], tile)
        # [OAJ-4] one open end; a double leaves it unchanged
        open_end = tile.high if state.open_end is None else tile.other(state.open_end)
        events.append(Event(kind, seat=seat, tile=tile, open_pip=open_end))
        state = dataclasses.replace(
            state,
            hands=replace_at(state.hands, seat, tiles),
            line=(*state.line, tile),
            open_end=open_end,
        )
        if not tiles:
            return dataclasses.replace(state, dominoed=seat)  # [OAJ-8]
        if tile.is_double and bonus:
            # [OAJ-6] a double earns a bonus turn at once
            events.append(Event(EventKind.BONUS_TURN, seat=seat))
            return dataclasses.replace(state, to_act=seat, bonus=True)
        return dataclasses.replace(state, to_act=next_seat(seat, players), bonus=False)

    def hand_over(self, state: OneArmJoeHandState) -> bool:
        if state.dominoed is not None:
            return True
        if state.open_end is None or state.boneyard:
            return False
        # [OAJ-8] blocked: the boneyard is empty and nobody can match the open end
        return not any(t.has(state.open_end) for tiles in state.hands for t in tiles)

    # ---- scoring -----------------------------------------------------------------

    def score_hand(self, match: Match[OneArmJoeOptions, OneArmJoeHandState]) -> HandResult:
        state, options = match.hand_state, match.options
        counts = tuple(hand_pips(tiles) for tiles in state.hands)
        winners: tuple[int, ...]
        if state.dominoed is not None:
            # [OAJ-9] dominoing wins outright, even against a hand of [0-0]
            winners, end = (state.dominoed,), HandEnd.DOMINOED
        else:
            low = min(counts)
            winners, end = tuple(s for s, c in enumerate(counts) if c == low), HandEnd.BLOCKED
        points = [0] * match.players
        if len(winners) == 1 or options.tie is Tie.SHARED:
            others = sum(c for s, c in enumerate(counts) if s not in winners)
            if others:  # everyone tied: nobody scores
                for seat in winners:
                    own = counts[seat] if options.scoring is Scoring.OTHERS_MINUS_OWN else 0
                    points[seat] = others - own
        # [OAJ-8] the hand ended by a player going out, or blocked
        return HandResult(counts=counts, points=tuple(points), winners=winners, end=end)

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
        out = {seat for seat, tiles in enumerate(state.hands) if not tiles}
        require(
            out == ({state.dominoed} if state.dominoed is not None else set()),
            "a seat is out of tiles exactly when it dominoed",
        )
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
        require(state.line[0].is_double, "the line does not start with a double")
        open_end = state.line[0].high
        for tile in state.line[1:]:
            require(tile.has(open_end), "a tile of the line does not match the open end")
            open_end = tile.other(open_end)
        require(state.open_end == open_end, "the open end is not the one the line leaves")
        if state.bonus and state.dominoed is None:
            # [OAJ-5] [OAJ-6] a bonus turn follows a double (the lead only with the option)
            require(state.line[-1].is_double, "a bonus turn after a tile that is no double")
            require(
                len(state.line) > 1 or options.lead_double_bonus,
                "a bonus turn after the lead without lead_double_bonus",
            )


register(OneArmJoe())
