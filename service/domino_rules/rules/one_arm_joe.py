"""One Arm Joe (One-Armed Pete): a single arm of Western dominoes.

Sources: seeds 000 and 001, as decided by RULES.md ``[OAJ-1]``..``[OAJ-10]``.

Options (``OneArmJoeOptions``): ``set_max_pip`` (6..18, default 6), ``lead_double_bonus``
(default false), ``scoring`` (``OTHERS_TOTAL`` default, ``OTHERS_MINUS_OWN``), ``tie``
(``NO_SCORE`` default, ``SHARED``), ``target_score`` (default 100; 0 = a single hand).

The deal: the set in ascending order is shuffled with label ``deal/<hand>/<attempt>``
(attempt 0, 1, ... while deals are void for want of a double, ``[OAJ-3]``); seat 0 takes
the first 3 tiles, seat 1 the next 3, and so on; the rest, in that order, is the boneyard,
drawn from its front.

Decisions where RULES.md leaves a case open (each has a test):

* A ``DRAW`` move draws until a tile matches; the drawn tiles that do not match stay
  in the drawer's hand and are seen by the drawer only; the matching one is played at
  once (event ``AUTO_PLAY``), face up. When the boneyard runs out first, the turn passes
  (event ``TURN_PASSED``).
* A hand's winners are the seats with the lowest count (the seat that dominoed alone);
  under ``tie = NO_SCORE`` tied winners are listed but score 0.
* The hand ends as soon as it is blocked, checked after every move, also right after a
  draw that emptied the boneyard.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass

from . import rng
from .base import (
    Event,
    EventKind,
    HandResult,
    Match,
    Move,
    MoveKind,
    Ruleset,
    next_seat,
    option,
    replace_at,
)
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
MAX_DEAL_ATTEMPTS = 10_000


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

    def full_set(self, options: OneArmJoeOptions) -> tuple[Tile, ...]:
        return double_n(options.set_max_pip)

    players_text = (
        "2 to floor(tiles / 3): 9 with double-six (set_max_pip 6), 63 with double-eighteen"
    )

    def max_players(self, options: OneArmJoeOptions) -> int:
        # [OAJ-2] 2 up to floor(tiles / 3)
        return len(self.full_set(options)) // HAND_SIZE

    # ---- the deal ----------------------------------------------------------------

    def deal(
        self, match: Match[OneArmJoeOptions, object], hand_number: int
    ) -> tuple[OneArmJoeHandState, tuple[Event, ...]]:
        players, tiles = match.players, self.full_set(match.options)
        events: list[Event] = []
        for attempt in range(MAX_DEAL_ATTEMPTS):
            order = rng.shuffled(match.seed, f"deal/{hand_number}/{attempt}", tiles)
            hands = tuple(
                tuple(sorted(order[s * HAND_SIZE : (s + 1) * HAND_SIZE])) for s in range(players)
            )
            doubles = [(t, s) for s, hand in enumerate(hands) for t in hand if t.is_double]
            if doubles:
                break
            # [OAJ-3] nobody holds a double: the deal is void
            events.append(Event(EventKind.REDEAL, count=attempt + 1))
        else:  # pragma: no cover - probability below 1e-1000
            raise RuntimeError("no deal with a double")
        _, leader = max(doubles)
        boneyard = order[players * HAND_SIZE :]
        events.insert(0, Event(EventKind.DEAL, count=HAND_SIZE))
        events.append(Event(EventKind.LEADER, seat=leader))
        hand = OneArmJoeHandState(hands, boneyard, (), None, leader, False, leader)
        return hand, tuple(events)

    # ---- play --------------------------------------------------------------------

    def hand_to_act(self, hand: OneArmJoeHandState) -> int:
        return hand.to_act

    def hand_tiles(self, hand: OneArmJoeHandState, seat: int) -> tuple[Tile, ...]:
        return hand.hands[seat]

    def stock(self, hand: OneArmJoeHandState) -> int:
        return len(hand.boneyard)

    def all_tiles(self, hand: OneArmJoeHandState) -> tuple[Tile, ...]:
        return sum(hand.hands, ()) + hand.boneyard + hand.line

    def hand_legal_moves(
        self, hand: OneArmJoeHandState, options: OneArmJoeOptions
    ) -> tuple[Move, ...]:
        seat, tiles = hand.to_act, hand.hands[hand.to_act]
        if hand.open_end is None:
            # [OAJ-3] the highest double is the leader's only legal move
            return (Move(seat, MoveKind.PLAY, max(t for t in tiles if t.is_double)),)
        playable = sorted({t for t in tiles if t.has(hand.open_end)})
        if playable:
            # [OAJ-6] [OAJ-7] a matching tile must be played, any of them
            return tuple(Move(seat, MoveKind.PLAY, t) for t in playable)
        if hand.bonus or not hand.boneyard:
            # [OAJ-6] no drawing on a bonus turn; [OAJ-7] empty boneyard: pass
            return (Move(seat, MoveKind.PASS),)
        return (Move(seat, MoveKind.DRAW),)

    def hand_apply(
        self, match: Match[OneArmJoeOptions, OneArmJoeHandState], move: Move
    ) -> tuple[OneArmJoeHandState, tuple[Event, ...]]:
        hand, options = match.hand_state, match.options
        seat, players = move.seat, match.players
        events: list[Event] = []
        if move.kind is MoveKind.PASS:
            events.append(Event(EventKind.PASS, seat=seat))
            hand = dataclasses.replace(hand, to_act=next_seat(seat, players), bonus=False)
        elif move.kind is MoveKind.PLAY:
            assert move.tile is not None
            # [OAJ-5] after the lead, play passes on unless the lead earns a bonus turn
            bonus = hand.open_end is not None or options.lead_double_bonus
            hand = self._lay(hand, seat, move.tile, events, EventKind.PLAY, bonus=bonus)
        else:  # DRAW [OAJ-7]
            tiles, boneyard = hand.hands[seat], hand.boneyard
            assert hand.open_end is not None
            while boneyard:
                tile, boneyard = boneyard[0], boneyard[1:]
                if tile.has(hand.open_end):
                    hand = dataclasses.replace(hand, boneyard=boneyard)
                    hand = self._lay(hand, seat, tile, events, EventKind.AUTO_PLAY, drawn=True)
                    break
                events.append(Event(EventKind.DRAW, seat=seat, tile=tile, private_to=seat))
                tiles = tuple(sorted((*tiles, tile)))
                hand = dataclasses.replace(
                    hand, hands=replace_at(hand.hands, seat, tiles), boneyard=boneyard
                )
            else:
                events.append(Event(EventKind.TURN_PASSED, seat=seat))
                hand = dataclasses.replace(hand, to_act=next_seat(seat, players), bonus=False)
        return hand, tuple(events)

    def _lay(
        self,
        hand: OneArmJoeHandState,
        seat: int,
        tile: Tile,
        events: list[Event],
        kind: EventKind,
        drawn: bool = False,
        bonus: bool = True,
    ) -> OneArmJoeHandState:
        players = len(hand.hands)
        tiles = hand.hands[seat] if drawn else remove_tile(hand.hands[seat], tile)
        # [OAJ-4] one open end; a double leaves it unchanged
        open_end = tile.high if hand.open_end is None else tile.other(hand.open_end)
        events.append(Event(kind, seat=seat, tile=tile, open_pip=open_end))
        hand = dataclasses.replace(
            hand,
            hands=replace_at(hand.hands, seat, tiles),
            line=(*hand.line, tile),
            open_end=open_end,
        )
        if not tiles:
            return dataclasses.replace(hand, dominoed=seat)  # [OAJ-8]
        if tile.is_double and bonus:
            # [OAJ-6] a double earns a bonus turn at once
            events.append(Event(EventKind.BONUS_TURN, seat=seat))
            return dataclasses.replace(hand, to_act=seat, bonus=True)
        return dataclasses.replace(hand, to_act=next_seat(seat, players), bonus=False)

    def hand_over(self, hand: OneArmJoeHandState) -> bool:
        if hand.dominoed is not None:
            return True
        if hand.open_end is None or hand.boneyard:
            return False
        # [OAJ-8] blocked: the boneyard is empty and nobody can match the open end
        return not any(t.has(hand.open_end) for tiles in hand.hands for t in tiles)

    # ---- scoring -----------------------------------------------------------------

    def score_hand(self, match: Match[OneArmJoeOptions, OneArmJoeHandState]) -> HandResult:
        hand, options = match.hand_state, match.options
        counts = tuple(hand_pips(tiles) for tiles in hand.hands)
        winners: tuple[int, ...]
        if hand.dominoed is not None:
            # [OAJ-9] dominoing wins outright, even against a hand of [0-0]
            winners = (hand.dominoed,)
        else:
            low = min(counts)
            winners = tuple(s for s, c in enumerate(counts) if c == low)
        points = [0] * match.players
        if len(winners) == 1 or options.tie is Tie.SHARED:
            others = sum(c for s, c in enumerate(counts) if s not in winners)
            if others:  # everyone tied: nobody scores
                for seat in winners:
                    own = counts[seat] if options.scoring is Scoring.OTHERS_MINUS_OWN else 0
                    points[seat] = others - own
        return HandResult(counts=counts, points=tuple(points), winners=winners)

    def match_over(self, match: Match[OneArmJoeOptions, OneArmJoeHandState]) -> bool:
        # [OAJ-10] play to target_score; 0 means a single hand
        target = match.options.target_score
        return target == 0 or max(self.totals(match)) >= target

    def table(
        self, match: Match[OneArmJoeOptions, OneArmJoeHandState], seat: int | None
    ) -> OneArmJoeTable:
        hand = match.hand_state
        return OneArmJoeTable(hand.line, hand.open_end, hand.bonus, hand.leader)


register(OneArmJoe())
