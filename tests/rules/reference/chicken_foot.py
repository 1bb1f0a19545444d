"""Chicken Foot, written again from RULES.md alone: a second reading for the lockstep test.

This is a clean-room model of ``chicken_foot`` ([CF-1]..[CF-11], with the [MT-*] tags they
cite), written from RULES.md without reading the service's implementation. Where RULES.md
leaves a case open it follows the decisions listed in the service's module docstring (and
says so, "docstring decision").

It is deliberately plain: a tile is a pair ``(high, low)``; a move is a comparable tuple
``(kind, tile, arm)`` (``("PLAY", (9, 4), 0)``, ``("DRAW", None, None)``,
``("PASS", None, None)``, ``("NEXT_HAND", None, None)``); events are tuples too. The
boneyard is only a count: whenever a seat draws (a ``DRAW`` move, or the hunt for the
engine with ``FROM_HAND``) the tile is asked of ``draw(seat)``, which the harness feeds
from the service's ``DRAW`` event, so that the two never share a shuffle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

Pair = tuple[int, int]
RefMove = tuple[str, Pair | None, int | None]
RefEvent = tuple[object, ...]
Draw = Callable[[int], Pair]

PLAY, DRAW, PASS, NEXT_HAND = "PLAY", "DRAW", "PASS", "NEXT_HAND"
DOMINOED, BLOCKED = "DOMINOED", "BLOCKED"
SET_ASIDE, FROM_HAND = "SET_ASIDE", "FROM_HAND"


class BadOptions(ValueError):
    """[CF-11] ``BAD_OPTIONS``."""


class BadPlayerCount(ValueError):
    """[MT-2] ``BAD_PLAYER_COUNT``."""


@dataclass(frozen=True)
class Options:
    """[CF-1] [CF-2] [CF-4] [CF-8]: the options and their defaults."""

    set_max_pip: int = 9
    hand_size: int = 0
    hands: int = 0
    engine: str = SET_ASIDE
    centre_toes: int = 4
    double_blank_points: int = 50


def full_set(top: int) -> list[Pair]:
    """[MT-1] every pair a >= b of 0..N, in ascending order."""
    return [(a, b) for a in range(top + 1) for b in range(a + 1)]


#: [CF-1] the deal table; None is a dash (needs an explicit ``hand_size``).
_TABLE: dict[int, dict[int, int | None]] = {
    6: {2: 5, 3: 5, 4: 5, 5: 5, 6: None, 7: None, 8: None},
    9: {2: 9, 3: 7, 4: 7, 5: 7, 6: 7, 7: 7, 8: 6},
    12: {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10},  # as [MT-2]
}


def check_options(opts: Options) -> None:
    """[CF-11] (and [MT-15] for the shared ones): each option in its range."""
    top = opts.set_max_pip
    if top not in (6, 9, 12):
        raise BadOptions("set_max_pip")
    if opts.centre_toes not in (4, 6):
        raise BadOptions("centre_toes")
    if not 0 <= opts.hand_size <= len(full_set(top)) // 2:
        raise BadOptions("hand_size")
    if not 0 <= opts.hands <= top + 1:
        raise BadOptions("hands")
    if not 0 <= opts.double_blank_points <= 100:
        raise BadOptions("double_blank_points")
    if opts.engine not in (SET_ASIDE, FROM_HAND):
        raise BadOptions("engine")


def hand_size(opts: Options, players: int) -> int:
    """[MT-2] via [CF-1]: options first, then 2..8 players, a table entry or ``hand_size``,
    and players x hand size within the tiles dealt from."""
    check_options(opts)
    if not 2 <= players <= 8:
        raise BadPlayerCount("2 to 8 players")
    size = opts.hand_size or _TABLE[opts.set_max_pip][players]
    if size is None:
        raise BadPlayerCount("no table entry")
    dealt_from = len(full_set(opts.set_max_pip)) - (opts.engine == SET_ASIDE)
    if players * size > dealt_from:
        raise BadPlayerCount("not enough tiles")
    return size


def match_length(opts: Options) -> int:
    """[MT-3] via [CF-2]: ``hands``, 0 meaning one per double (N+1)."""
    return opts.hands or opts.set_max_pip + 1


def deal_set(opts: Options, number: int) -> list[Pair]:
    """[MT-2] [MT-3]: what hand ``number`` (0-based) deals from, in ascending order: the
    whole set, less its engine when it is set aside."""
    engine = engine_of(opts, number)
    return [t for t in full_set(opts.set_max_pip) if opts.engine == FROM_HAND or t != engine]


def engine_of(opts: Options, number: int) -> Pair:
    """[CF-2] [MT-3]: hand h (0-based) is played with [N-h, N-h]."""
    pip = opts.set_max_pip - number
    return (pip, pip)


def count_of(hand: list[Pair], opts: Options) -> int:
    """[CF-8] [MT-12]: pips left in hand, a [0-0] counting ``double_blank_points``."""
    return sum(opts.double_blank_points if t == (0, 0) else t[0] + t[1] for t in hand)


@dataclass
class Arm:
    """[CF-3] an arm: its foot (an index into ``Hand.feet``) and its tiles from the foot
    outwards, each as (inner half, outer half)."""

    foot: int
    tiles: list[Pair] = field(default_factory=list)


@dataclass
class Result:
    """[MT-12] a finished hand: how it ended, each seat's count and points, the winners."""

    end: str
    counts: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]


class Hand:
    """One hand of Chicken Foot, dealt from ``dealt`` (each seat's tiles as dealt) with
    ``stock`` tiles left in the boneyard; every tile drawn is asked of ``draw``."""

    def __init__(
        self,
        opts: Options,
        number: int,
        dealt: list[list[Pair]],
        stock: int,
        draw: Draw,
    ) -> None:
        self.opts = opts
        self.number = number
        self.players = len(dealt)
        self.hands = [sorted(h) for h in dealt]
        self.stock = stock
        self.draw = draw
        self.engine = engine_of(opts, number)
        self.events: list[RefEvent] = [("DEAL", len(dealt[0]))]
        self.result: Result | None = None
        # [CF-3] [CF-4]: foot 0 is the centre, with ``centre_toes`` empty arms.
        self.feet = [self.engine[0]]
        self.arms = [Arm(0) for _ in range(opts.centre_toes)]
        if opts.engine == SET_ASIDE:
            # [MT-4] with SET_ASIDE: seat h mod P plays first.
            self.leader = number % self.players
            self.events.append(("ENGINE", None, self.engine))
        else:
            self.leader = self._hunt()
            self.hands[self.leader].remove(self.engine)
            self.events.append(("ENGINE", self.leader, self.engine))
        self.events.append(("LEADER", self.leader))
        self.to_act = self.leader

    def _hunt(self) -> int:
        """[MT-3] FROM_HAND: if nobody holds the engine, draw for it in rounds, each seat
        once a round from seat h mod P while the boneyard has tiles; a round is finished
        even after the engine turned up. Its holder places it and plays first ([MT-4])."""
        while not any(self.engine in h for h in self.hands):
            assert self.stock, "[MT-3] the whole set was dealt: the engine turns up"
            for step in range(self.players):
                seat = (self.number + step) % self.players
                if self.stock == 0:
                    break
                self._take(seat)
        return next(s for s, h in enumerate(self.hands) if self.engine in h)

    def _take(self, seat: int) -> Pair:
        tile = self.draw(seat)
        self.stock -= 1
        self.hands[seat].append(tile)
        self.hands[seat].sort()
        self.events.append(("DRAW", seat, tile))
        return tile

    # ---- the table -----------------------------------------------------------

    def open_end(self, arm: Arm) -> int | None:
        """[CF-3]: the outer half of its last tile; its foot's number while empty; none
        once it ends in a double."""
        if not arm.tiles:
            return self.feet[arm.foot]
        inner, outer = arm.tiles[-1]
        return None if inner == outer else outer

    def dead_numbers(self) -> set[int]:
        """[MT-9] a number is dead when every tile showing it (N+1 tiles, its double
        among them) is on the table: the engine and every arm's tiles."""
        shown = [0] * (self.opts.set_max_pip + 1)
        for tile in [self.engine, *(t for arm in self.arms for t in arm.tiles)]:
            for pip in set(tile):
                shown[pip] += 1
        return {pip for pip, n in enumerate(shown) if n == self.opts.set_max_pip + 1}

    def dead(self, pip: int) -> bool:
        return pip in self.dead_numbers()

    def pending_foot(self) -> int | None:
        """[CF-4] the centre while it has an empty arm (docstring decision: it is then the
        pending foot, 0); else [CF-5] the foot with an empty toe whose number is not dead
        (at most one can be)."""
        if any(not arm.tiles for arm in self.arms if arm.foot == 0):
            return 0
        dead = self.dead_numbers()
        pending = [
            foot
            for foot in range(1, len(self.feet))
            if self.feet[foot] not in dead
            and any(not arm.tiles for arm in self.arms if arm.foot == foot)
        ]
        assert len(pending) <= 1, "[CF-5] at most one foot is ever pending"
        return pending[0] if pending else None

    def targets(self) -> list[int]:
        """The arms a tile may go on now: the pending foot's lowest empty toe only
        ([CF-4] [CF-5]); otherwise every arm with an open end ([CF-6])."""
        foot = self.pending_foot()
        if foot is not None:
            return [min(i for i, a in enumerate(self.arms) if a.foot == foot and not a.tiles)]
        return [i for i, a in enumerate(self.arms) if self.open_end(a) is not None]

    # ---- moves ---------------------------------------------------------------

    def plays(self, seat: int) -> list[RefMove]:
        arms = self.targets()
        return [
            (PLAY, tile, arm)
            for tile in self.hands[seat]
            for arm in arms
            if self.open_end(self.arms[arm]) in tile
        ]

    def legal_moves(self) -> list[RefMove]:
        """[CF-6] a seat that can lay must; else DRAW while the boneyard has tiles; else
        PASS. Nothing once the hand is over."""
        if self.result is not None:
            return []
        plays = self.plays(self.to_act)
        if plays:
            return plays
        return [(DRAW, None, None)] if self.stock else [(PASS, None, None)]

    def apply(self, move: RefMove) -> list[RefEvent]:
        """Apply a legal move; returns its events ([CF-11], as [MT-16] without markers,
        follow-ups and chain ends)."""
        assert move in self.legal_moves(), move
        seat = self.to_act
        kind, tile, arm = move
        self.events = []
        if kind == PLAY:
            assert tile is not None and arm is not None
            self._lay(seat, tile, arm)
            if not self.hands[seat]:
                self._end(DOMINOED, seat)  # [CF-7] a double included
                return self.events
            self._next()  # [CF-5] no follow-up after a double: the turn passes
        elif kind == DRAW:
            drawn = self._take(seat)
            # [CF-6] [MT-8] a tile that can be laid is laid by the same seat, by a move.
            if not any(t == drawn for _, t, _ in self.plays(seat)):
                self._next()
        else:
            self.events.append(("PASS", seat))
            self._next()  # [MT-8] a PASS changes nothing else, and never ends a hand
            return self.events
        if self.blocked():
            self._end(BLOCKED, None)
        return self.events

    def _lay(self, seat: int, tile: Pair, arm_number: int) -> None:
        arm = self.arms[arm_number]
        end = self.open_end(arm)
        assert end is not None and end in tile
        self.hands[seat].remove(tile)
        other = tile[1] if tile[0] == end else tile[0]
        arm.tiles.append((end, other))  # [CF-3] the matching half inwards
        self.events.append(("PLAY", seat, tile, arm_number))
        if tile[0] == tile[1]:
            # [CF-3] [CF-5] a double closes the arm and becomes a foot of three toes, the
            # next three arm numbers (docstring decision: even when its number is dead).
            self.feet.append(tile[0])
            foot = len(self.feet) - 1
            self.arms.extend(Arm(foot) for _ in range(3))

    def _next(self) -> None:
        self.to_act = (self.to_act + 1) % self.players

    def blocked(self) -> bool:
        """[CF-7] [MT-11]: the boneyard is empty and no hand holds a tile showing the
        number of any open end."""
        if self.stock:
            return False
        ends = {self.open_end(a) for a in self.arms} - {None}
        return not any(end in tile for hand in self.hands for tile in hand for end in ends)

    def _end(self, end: str, went_out: int | None) -> None:
        """[MT-12] via [CF-8]: counts; points are the counts, 0 for the seat that went out;
        winners: that seat alone, or after a block every seat with the lowest count."""
        counts = tuple(count_of(h, self.opts) for h in self.hands)
        if went_out is not None:
            points = tuple(0 if s == went_out else c for s, c in enumerate(counts))
            winners: tuple[int, ...] = (went_out,)
        else:
            points = counts
            winners = tuple(s for s, c in enumerate(counts) if c == min(counts))
        self.result = Result(end, counts, points, winners)


class ChickenFootMatch:
    """[CF-9] [MT-13]: ``match_length`` hands, each scored; the lowest total wins, equal
    lowest totals share the win. ``deal(number)`` gives each seat's dealt tiles and the
    boneyard's size for hand ``number`` (0-based): the harness's (or a test's) deal."""

    def __init__(
        self,
        opts: Options,
        players: int,
        deal: Callable[[int], tuple[list[list[Pair]], int]],
        draw: Draw,
    ) -> None:
        self.opts = opts
        self.players = players
        self.size = hand_size(opts, players)
        self.length = match_length(opts)
        self.deal = deal
        self.draw = draw
        self.history: list[Result] = []
        self.hand = self._new_hand(0)
        self.events = self.hand.events

    def _new_hand(self, number: int) -> Hand:
        dealt, stock = self.deal(number)
        assert all(len(h) == self.size for h in dealt), "[MT-2] hand size"
        return Hand(self.opts, number, dealt, stock, self.draw)

    @property
    def over(self) -> bool:
        return len(self.history) == self.length

    def to_act(self) -> int | None:
        """The hand's seat to act; seat 0 for NEXT_HAND; nobody once the match is over."""
        if self.over:
            return None
        return 0 if self.hand.result is not None else self.hand.to_act

    def legal_moves(self) -> list[RefMove]:
        if self.over:
            return []
        if self.hand.result is not None:
            return [(NEXT_HAND, None, None)]
        return self.hand.legal_moves()

    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r.points[s] for r in self.history) for s in range(self.players))

    def winners(self) -> tuple[int, ...]:
        if not self.over:
            return ()
        totals = self.totals()
        return tuple(s for s, t in enumerate(totals) if t == min(totals))

    def apply(self, move: RefMove) -> list[RefEvent]:
        if move[0] == NEXT_HAND:
            assert self.hand.result is not None and not self.over
            self.hand = self._new_hand(self.hand.number + 1)
            self.events = [("NEXT_HAND", self.hand.number + 1), *self.hand.events]
            return self.events
        events = self.hand.apply(move)
        result = self.hand.result
        if result is not None:
            self.history.append(result)
            events.append(("HAND_OVER", result.winners, result.points))
            if self.over:
                events.append(("MATCH_OVER", self.winners(), self.totals()))
        self.events = events
        return events
