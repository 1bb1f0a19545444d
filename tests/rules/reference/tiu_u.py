"""Tiu U (fishing), written again from RULES.md alone: a second reading for the lockstep
test ``tests/rules/test_tiu_u_reference.py``.

This is a clean-room model of ``tiu_u`` ([TU-1]..[TU-10] and the "Common ground"),
written from RULES.md (and docs/rules.md's account of the seeded deal) without reading
the service's implementation. Where RULES.md leaves a case open it follows the decisions
listed in the service's module docstring, and says so ("docstring decision").

It is deliberately plain: a tile is a pair ``(high, low)``; a move is a comparable tuple
``(kind, tile, target)``: ``("CAPTURE", (4, 2), (5, 1))``, ``("PILE", (3, 3), None)``,
``("PASS", None, None)``, ``("CAPTURE_DRAWN", (5, 1), (3, 3))``,
``("NEXT_HAND", None, None)``; events are tuples too. The woodpile is only a count:
each tile the draw step turns up is asked of ``draw(seat)``, which the harness feeds from
the service's ``REVEAL`` events, so that the two never share a shuffle. :func:`deal`
re-deals a hand from the seed by the documented derivation (docs/rules.md "Randomness"),
which the reference starts each hand from, and which the harness uses to check that
every drawn tile is the woodpile's top.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .stream import shuffled

Pair = tuple[int, int]
RefMove = tuple[str, Pair | None, Pair | None]
RefEvent = tuple[Any, ...]
Draw = Callable[[int], Pair]

CAPTURE, CAPTURE_DRAWN, PILE, PASS, NEXT_HAND = (
    "CAPTURE",
    "CAPTURE_DRAWN",
    "PILE",
    "PASS",
    "NEXT_HAND",
)
WOODPILE_EXHAUSTED = "WOODPILE_EXHAUSTED"
IN_PROGRESS, HAND_OVER, MATCH_OVER = "IN_PROGRESS", "HAND_OVER", "MATCH_OVER"

#: Common ground: the Chinese set's civil tiles (twice in one set) and military (once).
CIVIL: frozenset[Pair] = frozenset(
    [(6, 6), (1, 1), (4, 4), (3, 1), (5, 5), (3, 3), (2, 2), (6, 5), (6, 4), (6, 1), (5, 1)]
)
MILITARY: frozenset[Pair] = frozenset(
    [(6, 3), (5, 4), (6, 2), (5, 3), (5, 2), (4, 3), (4, 1), (3, 2), (4, 2), (2, 1)]
)
#: Gee Joon, the supreme pair [TU-3].
SUPREME: frozenset[Pair] = frozenset([(4, 2), (2, 1)])
DOUBLE_SIX: Pair = (6, 6)

#: [TU-5] [TU-9] [TU-10] the options and their RULES.md defaults.
DEFAULTS: dict[str, Any] = {"may_decline": False, "red_sixes": "DOUBLE_SIX_ONLY", "hands": 1}
#: [TU-2] stacks of 4 each player takes, by player count (2 to 4 players).
STACKS = {2: 3, 3: 2, 4: 1}


def options(values: Mapping[str, Any] | None = None) -> dict[str, Any]:
    opts = dict(DEFAULTS)
    for name, value in (values or {}).items():
        opts[name] = getattr(value, "name", value)  # an enum member, or its name
    return opts


def two_chinese_sets() -> list[Pair]:
    """[TU-1] 64 tiles: each civil tile 4 times, each military tile twice, in ascending
    order (by high half, then low half, duplicates adjacent: docs/rules.md)."""
    out: list[Pair] = []
    for high in range(1, 7):
        for low in range(1, high + 1):
            tile = (high, low)
            out += [tile] * (4 if tile in CIVIL else 2)
    return out


# ------------------------------------------------------------------ the deal


@dataclass
class Deal:
    lake: list[Pair]
    hands: list[list[Pair]]
    #: in draw order: the first tile drawn first
    woodpile: list[Pair]


def deal(players: int, seed: str, number: int) -> Deal:
    """[TU-2] hand ``number``'s deal: the 64 tiles shuffled with label ``deal/<h>/0``
    (docs/rules.md); 16 stacks of 4, stack i = order[4i:4i+4]. The lake is stacks 0..3
    (docstring decision: which stacks); each seat takes k stacks from the other end, seat 0
    first (docstring decision); the woodpile is the rest, drawn from the end the hands were
    taken from, so its highest index is drawn first."""
    order = shuffled(seed, f"deal/{number}/0", two_chinese_sets())
    k = 4 * STACKS[players]
    hands = [order[64 - k * (s + 1) : 64 - k * s] for s in range(players)]
    woodpile = order[16 : 64 - k * players][::-1]
    return Deal(order[:16], hands, woodpile)


# ------------------------------------------------------------------ matching and scoring


def matches(a: Pair, b: Pair) -> bool:
    """[TU-3] equal pip totals, and also [2-1] with [4-2]."""
    return sum(a) == sum(b) or {a, b} == SUPREME


def red_pips(tile: Pair, red_sixes: str) -> int:
    """Common ground: every 1 and every 4 is red; the 6s of [6-6] are half red (6 red pips
    on that tile); ``ALL_SIXES``: every 6 is half red (3 red pips)."""
    red = sum(pip for pip in tile if pip in (1, 4))
    sixes = sum(1 for pip in tile if pip == 6)
    if tile == DOUBLE_SIX or red_sixes == "ALL_SIXES":
        red += 3 * sixes
    return red


def count(catch: list[Pair], red_sixes: str) -> int:
    """[TU-9] big fish (8 or more pips) score 2 per pip; small fish 1 per red pip, their
    total rounded up to a multiple of 10 (0 stays 0)."""
    big = sum(2 * sum(t) for t in catch if sum(t) >= 8)
    small = sum(red_pips(t, red_sixes) for t in catch if sum(t) < 8)
    return big + -(-small // 10) * 10


def settle(counts: list[int]) -> list[int]:
    """[TU-10] the highest count is paid by each other player the difference; equal
    highest each collect from every lower player and pay each other nothing."""
    best = max(counts)
    top = [s for s, c in enumerate(counts) if c == best]
    return [
        sum(best - c for c in counts if c != best) if c == best else -(best - c) * len(top)
        for c in counts
    ]


# ------------------------------------------------------------------ the model


@dataclass
class Hand:
    hands: list[list[Pair]]
    lake: list[Pair]
    woodpile: int
    leader: int
    to_act: int
    piles: list[Pair] = field(default_factory=list)
    catches: list[list[Pair]] = field(default_factory=list)
    #: the drawn tile while its capture is to be chosen [TU-6]
    drawn: Pair | None = None


@dataclass
class Result:
    end: str
    counts: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    settlement: tuple[int, ...]


class TiuU:
    """One match: hands dealt from the seed, moves applied, results kept."""

    def __init__(self, values: Mapping[str, Any] | None, players: int, seed: str) -> None:
        self.opts = options(values)
        self.players, self.seed = players, seed
        self.hand_number = 0
        self.history: list[Result] = []
        self.status = IN_PROGRESS
        self.hand: Hand | None = None
        self.dealt: Deal | None = None

    # ---- a hand ------------------------------------------------------------------

    def start_hand(self) -> list[RefEvent]:
        """Deal the next hand ([TU-2]), lay out pairs of [6-6] ([TU-4]), name its leader
        ([TU-5]); the events ``DEAL``, ``PAIR_LAID`` per pair, ``LEADER``."""
        self.hand_number += 1
        self.status = IN_PROGRESS
        d = deal(self.players, self.seed, self.hand_number)
        self.dealt = d
        # [TU-5] seat 0 leads the first hand; each later hand starts one seat on.
        leader = (self.hand_number - 1) % self.players
        hand = Hand(
            hands=[sorted(h) for h in d.hands],
            lake=sorted(d.lake),
            woodpile=len(d.woodpile),
            leader=leader,
            to_act=leader,
            catches=[[] for _ in range(self.players)],
        )
        events: list[RefEvent] = [("DEAL", 4 * STACKS[self.players])]
        for seat, tiles in enumerate(hand.hands):
            # [TU-4] two [6-6] make a pair, four make two; a third stays in hand
            # (docstring decision).
            while tiles.count(DOUBLE_SIX) >= 2:
                tiles.remove(DOUBLE_SIX)
                tiles.remove(DOUBLE_SIX)
                hand.catches[seat] += [DOUBLE_SIX, DOUBLE_SIX]
                events.append(("PAIR_LAID", seat, (DOUBLE_SIX, DOUBLE_SIX)))
        events.append(("LEADER", leader))
        self.hand = hand
        return events

    def to_act(self) -> int | None:
        if self.status == MATCH_OVER:
            return None
        if self.status == HAND_OVER:
            return 0  # Common ground: seat 0 acts for NEXT_HAND
        assert self.hand is not None
        return self.hand.to_act

    def can_pile(self, tile: Pair) -> bool:
        """[TU-7] two identical lake tiles, a third in the seat's hand, and the fourth
        copy unseen: not in the lake, nor a catch, nor (a fortiori) a pile. Only a tile
        with four copies (civil) has a fourth."""
        h = self.hand
        assert h is not None
        if tile not in CIVIL or h.lake.count(tile) != 2:
            return False
        return tile not in h.piles and all(tile not in c for c in h.catches)

    def capture_targets(self, tile: Pair) -> list[Pair]:
        """What ``tile`` may take: each distinct matching single lake tile [TU-3], and a
        pile of its identical tiles (the fourth takes all three) [TU-7]; piled tiles never
        one at a time."""
        h = self.hand
        assert h is not None
        targets = {t for t in h.lake if matches(tile, t)}
        if tile in h.piles:
            targets.add(tile)
        return sorted(targets)

    def legal_moves(self) -> list[RefMove]:
        if self.status == MATCH_OVER:
            return []
        if self.status == HAND_OVER:
            return [(NEXT_HAND, None, None)]
        h = self.hand
        assert h is not None
        if h.drawn is not None:
            # [TU-6] the drawn tile with a choice of different things to take
            return [(CAPTURE_DRAWN, h.drawn, t) for t in self.capture_targets(h.drawn)]
        own = sorted(set(h.hands[h.to_act]))
        moves: list[RefMove] = []
        for tile in own:
            moves += [(CAPTURE, tile, t) for t in self.capture_targets(tile)]
            # docstring decision: PILE is offered also when a capture is possible
            if self.can_pile(tile):
                moves.append((PILE, tile, None))
        # [TU-5] PASS only when neither is possible, or always with may_decline
        if not moves or self.opts["may_decline"]:
            moves.append((PASS, None, None))
        return moves

    def take(self, seat: int, tile: Pair, target: Pair) -> RefEvent:
        """``tile`` (already out of hand or woodpile) takes ``target``: a lake tile, or the
        three piled tiles; all go to the seat's catch, the capturing tile first."""
        h = self.hand
        assert h is not None
        if target in h.piles and target == tile:
            h.piles.remove(target)
            taken: tuple[Pair, ...] = (target, target, target)
        else:
            h.lake.remove(target)
            taken = (target,)
        h.catches[seat] += [tile, *taken]
        return ("CAPTURE", seat, tile, target, (tile, *taken))

    def apply(self, move: RefMove, draw: Draw) -> list[RefEvent]:
        assert move in self.legal_moves(), move
        kind, tile, target = move
        if kind == NEXT_HAND:
            return [("NEXT_HAND", self.hand_number + 1), *self.start_hand()]
        h = self.hand
        assert h is not None
        seat = h.to_act
        events: list[RefEvent] = []
        if kind == CAPTURE_DRAWN:
            assert tile is not None and target is not None and h.drawn == tile
            h.drawn = None
            events.append(self.take(seat, tile, target))
        else:
            # [TU-5] the hand step
            if kind == CAPTURE:
                assert tile is not None and target is not None
                h.hands[seat].remove(tile)
                events.append(self.take(seat, tile, target))
            elif kind == PILE:
                assert tile is not None
                h.hands[seat].remove(tile)
                h.lake.remove(tile)
                h.lake.remove(tile)
                h.piles = sorted([*h.piles, tile])
                events.append(("PILE", seat, tile, (tile, tile, tile)))
            else:
                events.append(("PASS", seat))
            # [TU-6] the draw step, in the same turn
            drawn = draw(seat)
            h.woodpile -= 1
            events.append(("REVEAL", seat, drawn))
            targets = self.capture_targets(drawn)
            if len(targets) >= 2:
                h.drawn = drawn
                events.append(("CHOICE", seat, drawn, tuple(targets)))
                return events  # the same seat chooses
            if targets:
                events.append(self.take(seat, drawn, targets[0]))
            else:
                h.lake = sorted([*h.lake, drawn])
                events.append(("TO_LAKE", seat, drawn))
        # the turn is over
        if h.woodpile == 0:
            events += self.end_hand()  # [TU-8]
        else:
            h.to_act = (seat + 1) % self.players
        return events

    def end_hand(self) -> list[RefEvent]:
        """[TU-8] the last draw is resolved: score the catches [TU-9], settle [TU-10];
        docstring decision: the hand's points are the counts, its winners the highest."""
        h = self.hand
        assert h is not None
        counts = tuple(count(c, self.opts["red_sixes"]) for c in h.catches)
        best = max(counts)
        winners = tuple(s for s, c in enumerate(counts) if c == best)
        result = Result(WOODPILE_EXHAUSTED, counts, counts, winners, tuple(settle(list(counts))))
        self.history.append(result)
        events: list[RefEvent] = [("HAND_OVER", winners, counts)]
        if len(self.history) >= self.opts["hands"]:
            self.status = MATCH_OVER
            events.append(("MATCH_OVER", self.winners(), tuple(self.totals())))
        else:
            self.status = HAND_OVER
        return events

    # ---- the match ---------------------------------------------------------------

    def totals(self) -> list[int]:
        """[TU-10] a match adds up the counts."""
        return [sum(r.points[s] for r in self.history) for s in range(self.players)]

    def settlement(self) -> list[int]:
        """[TU-10] and adds up each hand's settlement."""
        return [sum(r.settlement[s] for r in self.history) for s in range(self.players)]

    def winners(self) -> tuple[int, ...]:
        """[TU-10] the highest total count wins; equal highest share (Common ground)."""
        if self.status != MATCH_OVER:
            return ()
        totals = self.totals()
        return tuple(s for s, t in enumerate(totals) if t == max(totals))
