"""Throw-up Dominoes, written again from RULES.md alone: a second reading for the lockstep
test ``tests/rules/test_throw_up_reference.py``.

A clean-room model of ``throw_up`` ([THR-1]..[THR-11]), written from RULES.md (and the
randomness documented in docs/rules.md and in the service's module docstring) without
reading the service's implementation. Where RULES.md leaves a case open it follows the
decisions listed in the service's module docstring, and says so ("docstring decision").

It is deliberately plain: a tile is a pair ``(high, low)``; a move is a comparable tuple
``(kind, tile, end)`` (``("PLAY", (6, 4), "LEFT")``, ``("PLAY", (5, 2), None)`` for the
first tile of the hand, ``("DRAW", None, None)``, ``("PASS", None, None)``,
``("NEXT_HAND", None, None)``); events are tuples too. The boneyard is only a count: each
tile a ``DRAW`` takes is asked of ``draw(seat)``, which the harness feeds from the service's
``DRAW`` events. The dice (the throw-off and every round's throw) are thrown here, from the
documented stream, so the service's ``DICE`` events are checked, not copied; :func:`deal`
re-deals a hand from the seed the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .stream import Stream

Pair = tuple[int, int]
RefMove = tuple[str, Pair | None, str | None]
RefEvent = tuple[Any, ...]
Draw = Callable[[int], Pair]

PLAY, DRAW, PASS, NEXT_HAND = "PLAY", "DRAW", "PASS", "NEXT_HAND"
LEFT, RIGHT = "LEFT", "RIGHT"
IN_PROGRESS, HAND_OVER, MATCH_OVER = "IN_PROGRESS", "HAND_OVER", "MATCH_OVER"
DOMINOED, BLOCKED, IDLE_ROUNDS = "DOMINOED", "BLOCKED", "IDLE_ROUNDS"

#: [THR-3] seven tiles each
HAND_SIZE = 7


class BadOptions(ValueError):
    pass


@dataclass(frozen=True)
class Options:
    rethrow_repeats: bool = False  # [THR-4] default false
    hands_per_player: int = 2  # [THR-11] default 2


def options(values: Mapping[str, Any]) -> Options:
    """[THR-4] [THR-11] the options; docstring decision: ``hands_per_player`` 1..20."""
    unknown = set(values) - {"rethrow_repeats", "hands_per_player"}
    if unknown:
        raise BadOptions(f"unknown options {sorted(unknown)}")
    opts = Options(**values)
    if not 1 <= opts.hands_per_player <= 20:
        raise BadOptions("hands_per_player")
    return opts


def full_set() -> list[Pair]:
    """[THR-1] double-six without [0-0]: 27 tiles, ascending (high half, then low)."""
    return [(a, b) for a in range(7) for b in range(a + 1) if (a, b) != (0, 0)]


def is_double(tile: Pair) -> bool:
    return tile[0] == tile[1]


# ------------------------------------------------------------------ the documented stream


def throw(seed: str, label: str) -> tuple[int, int, int]:
    """[THR-1] three six-sided dice from one label."""
    s = Stream(seed, label)
    a, b, c = (s.die() for _ in range(3))
    return a, b, c


def deal(players: int, seed: str, hand_number: int) -> tuple[list[list[Pair]], list[Pair]]:
    """[THR-3] hand ``hand_number``: the set shuffled with label ``deal/<h>/0``; seat ``s``
    takes tiles ``7s .. 7s+6``; the rest, in order, is the boneyard (drawn from its front)."""
    order = Stream(seed, f"deal/{hand_number}/0").shuffle(full_set())
    hands = [sorted(order[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(players)]
    return hands, order[HAND_SIZE * players :]


def qualifying(dice: tuple[int, ...]) -> set[int]:
    """[THR-5] the totals of one, two or all three dice."""
    a, b, c = dice
    return {a, b, c, a + b, a + c, b + c, a + b + c}


# ------------------------------------------------------------------ one hand


@dataclass
class Hand:
    hands: list[list[Pair]]
    boneyard: int
    leader: int
    to_act: int
    #: [THR-5] left to right: (tile, pip facing left, pip facing right)
    line: list[tuple[Pair, int, int]] = field(default_factory=list)
    dice: tuple[int, ...] = ()
    round: int = 1
    idle_rounds: int = 0
    laid_this_round: bool = False
    pegs: list[int] = field(default_factory=list)
    #: the round's throws so far (for rethrow_repeats)
    previous_throw: tuple[int, ...] | None = None

    def ends(self) -> tuple[int | None, int | None]:
        if not self.line:
            return None, None
        return self.line[0][1], self.line[-1][2]


@dataclass
class Result:
    end: str
    counts: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]


class ThrowUp:
    """A match of Throw-up Dominoes."""

    def __init__(self, values: Mapping[str, Any], players: int, seed: str) -> None:
        if not 2 <= players <= 3:  # [THR-1]
            raise BadOptions("2 or 3 players")
        self.opts = options(values)
        self.players, self.seed = players, seed
        self.hand_number = 0
        self.hand: Hand | None = None
        self.history: list[Result] = []
        self.status = IN_PROGRESS
        self.first_leader: int | None = None

    # ---- match ---------------------------------------------------------------

    def hands_in_match(self) -> int:
        """[THR-11] that many hands per player."""
        return self.opts.hands_per_player * self.players

    def totals(self) -> list[int]:
        """The finished hands' points, plus the pegs of the hand in play ([THR-6]: each tile
        scores at once)."""
        out = [sum(r.points[s] for r in self.history) for s in range(self.players)]
        if self.status == IN_PROGRESS and self.hand is not None:
            out = [a + b for a, b in zip(out, self.hand.pegs, strict=True)]
        return out

    def winners(self) -> tuple[int, ...]:
        """[THR-11] the highest total wins; equal highest share the win."""
        if self.status != MATCH_OVER:
            return ()
        totals = self.totals()
        return tuple(s for s, t in enumerate(totals) if t == max(totals))

    def throw_off(self) -> tuple[int, list[RefEvent]]:
        """[THR-2] every player throws three dice; the tied highest throw again."""
        events: list[RefEvent] = []
        contenders = list(range(self.players))
        attempt = 0
        while True:
            totals = {}
            for seat in contenders:
                dice = throw(self.seed, f"lead/{attempt}/{seat}")
                events.append(("DICE", seat, dice))
                totals[seat] = sum(dice)
            best = max(totals.values())
            contenders = [s for s in contenders if totals[s] == best]
            if len(contenders) == 1:
                return contenders[0], events
            attempt += 1

    def round_throw(self, h: Hand) -> list[RefEvent]:
        """[THR-4] the leader throws; under ``rethrow_repeats`` a throw equal (as a multiset)
        to the previous round's of the same hand is thrown again, each throw an event."""
        events: list[RefEvent] = []
        t = 0
        while True:
            dice = throw(self.seed, f"dice/{self.hand_number}/{h.round}/{t}")
            events.append(("DICE", h.leader, dice))
            repeat = h.previous_throw is not None and sorted(dice) == sorted(h.previous_throw)
            if not (self.opts.rethrow_repeats and repeat):
                break
            t += 1
        h.dice = dice
        h.previous_throw = dice
        return events

    def start_hand(self, hands: list[list[Pair]], boneyard: int) -> list[RefEvent]:
        """Deal the next hand; its events (the throw-off's DICE, LEADER, the first DICE)."""
        self.hand_number += 1
        events: list[RefEvent] = []
        if self.hand_number == 1:
            leader, events = self.throw_off()
            self.first_leader = leader
        else:  # [THR-2] later hands: the lead passes to the next seat
            assert self.hand is not None
            leader = (self.hand.leader + 1) % self.players
        events.append(("LEADER", leader))
        self.hand = Hand(
            hands=[sorted(h) for h in hands],
            boneyard=boneyard,
            leader=leader,
            to_act=leader,
            pegs=[0] * self.players,
        )
        self.status = IN_PROGRESS
        events += self.round_throw(self.hand)  # round 1 is thrown at the deal
        return events

    # ---- moves ---------------------------------------------------------------

    def to_act(self) -> int | None:
        if self.status == MATCH_OVER:
            return None
        if self.status == HAND_OVER:
            return 0  # Common ground: seat 0 applies NEXT_HAND
        assert self.hand is not None
        return self.hand.to_act

    def plays(self, seat: int) -> list[RefMove]:
        """[THR-5] each qualifying tile on each open end it matches; the first tile with no
        end. Both ends showing the tile's number: LEFT and RIGHT are two moves."""
        h = self.hand
        assert h is not None
        totals = qualifying(h.dice)
        left, right = h.ends()
        out: list[RefMove] = []
        for tile in sorted(set(h.hands[seat])):
            if sum(tile) not in totals:
                continue
            if not h.line:
                out.append((PLAY, tile, None))
                continue
            if left in tile:
                out.append((PLAY, tile, LEFT))
            if right in tile:
                out.append((PLAY, tile, RIGHT))
        return out

    def legal_moves(self) -> list[RefMove]:
        if self.status == MATCH_OVER:
            return []
        if self.status == HAND_OVER:
            return [(NEXT_HAND, None, None)]
        h = self.hand
        assert h is not None
        plays = self.plays(h.to_act)
        if plays:
            return plays
        # [THR-7] nothing to lay at the start of the turn: DRAW, or PASS with no boneyard
        return [(DRAW, None, None)] if h.boneyard else [(PASS, None, None)]

    def apply(self, move: RefMove, draw: Draw) -> list[RefEvent]:
        """Apply a legal move; the events it makes. ``NEXT_HAND`` is the harness's (it deals)."""
        assert move in self.legal_moves(), move
        h = self.hand
        assert h is not None
        seat = h.to_act
        kind, tile, end = move
        events: list[RefEvent] = []
        if kind == DRAW:  # [THR-7] one tile, not playable this turn; the turn ends
            drawn = draw(seat)
            h.boneyard -= 1
            h.hands[seat] = sorted(h.hands[seat] + [drawn])
            events.append(("DRAW", seat, drawn))
            return events + self.next_turn()
        if kind == PASS:
            events.append(("PASS", seat))
            return events + self.next_turn()
        assert kind == PLAY and tile is not None
        self.lay(seat, tile, end)
        points = 2 if is_double(tile) else 1  # [THR-6] a tile 1 point at once, a double 2
        h.pegs[seat] += points
        events += [("PLAY", seat, tile, end), ("PEG", seat, points)]
        h.laid_this_round = True
        h.idle_rounds = 0  # docstring decision: the run of idle rounds falls back at once
        if not h.hands[seat]:  # [THR-9] (Decision) the last tile: the hand ends at once
            return events + self.end_hand(DOMINOED)
        if self.blocked():  # [THR-9] blocked whatever the dice: at once
            return events + self.end_hand(BLOCKED)
        if self.plays(seat):  # [THR-5] (Decision) must go on laying
            return events
        # [THR-5] the turn ends by itself (docstring decision: event TURN_PASSED)
        events.append(("TURN_PASSED", seat))
        return events + self.next_turn()

    def lay(self, seat: int, tile: Pair, end: str | None) -> None:
        h = self.hand
        assert h is not None
        h.hands[seat].remove(tile)
        high, low = tile
        if end is None:  # [THR-5] the first tile: high half LEFT, low half RIGHT
            h.line.append((tile, high, low))
        elif end == LEFT:
            pip = h.line[0][1]
            h.line.insert(0, (tile, low if high == pip else high, pip))
        else:
            pip = h.line[-1][2]
            h.line.append((tile, pip, low if high == pip else high))

    def blocked(self) -> bool:
        """[THR-9] no tile in any hand matches either open end (the boneyard aside)."""
        h = self.hand
        assert h is not None
        left, right = h.ends()
        return not any(left in t or right in t for hand in h.hands for t in hand)

    def next_turn(self) -> list[RefEvent]:
        """The turn is over: the next seat, or [THR-8] a new round (or [THR-9] the end)."""
        h = self.hand
        assert h is not None
        nxt = (h.to_act + 1) % self.players
        if nxt != h.leader:
            h.to_act = nxt
            return []
        # the round is over
        if not h.laid_this_round:
            h.idle_rounds += 1
        if h.idle_rounds >= 2:  # [THR-9] two consecutive rounds with no tile laid
            return self.end_hand(IDLE_ROUNDS)
        h.round += 1
        h.laid_this_round = False
        h.to_act = h.leader
        return self.round_throw(h)  # [THR-8]

    def end_hand(self, end: str) -> list[RefEvent]:
        """[THR-10] the single seat with the fewest tiles scores the tiles in the other
        hands; (Decision) a tie for fewest scores no one. Docstring decision: the pegs stay
        with their seats; the hand's winners are the seats with the fewest tiles."""
        h = self.hand
        assert h is not None
        counts = tuple(len(x) for x in h.hands)
        fewest = min(counts)
        winners = tuple(s for s, c in enumerate(counts) if c == fewest)
        points = list(h.pegs)
        if len(winners) == 1:
            points[winners[0]] += sum(counts) - fewest
        self.history.append(Result(end, counts, tuple(points), winners))
        events: list[RefEvent] = [("HAND_OVER", winners, tuple(points))]
        if len(self.history) >= self.hands_in_match():
            self.status = MATCH_OVER
            events.append(("MATCH_OVER", self.winners(), tuple(self.totals())))
        else:
            self.status = HAND_OVER
        return events
