"""Tsair Deng (Slant Nail), written again from RULES.md alone: a second reading for the
lockstep test.

This is a clean-room model of ``tsair_deng`` ([TD-1]..[TD-10]) written from RULES.md and
docs/rules.md ("How it looks through the API", "Checkable deals") without reading the
service's implementation. Where RULES.md leaves a case open it follows the decisions listed
in the service's module docstring, and says so ("docstring decision").

It is deliberately plain: a tile is a pair ``(high, low)``; a move is a comparable tuple
``(kind, tile, open_pip)`` (``("PLAY", (6, 4), 4)`` for a lead, ``("PLAY", (6, 4), None)``
later, ``("DISCARD", (5, 1), None)``, ``("NEXT_HAND", None, None)``); events are tuples.
Nobody draws in Tsair Deng, so nothing is injected during a hand: the harness gives the
dealt hands (read from the seats' views) to :meth:`TsairDeng.start_hand`, and :func:`deal`
re-deals them from the seed, to be compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .stream import Stream, shuffled

Pair = tuple[int, int]
RefMove = tuple[str, Pair | None, int | None]
RefEvent = tuple[object, ...]

PLAY, DISCARD, NEXT_HAND = "PLAY", "DISCARD", "NEXT_HAND"
CHINESE, DOUBLE_SIX = "CHINESE", "DOUBLE_SIX"
IN_PROGRESS, HAND_OVER, MATCH_OVER = "IN_PROGRESS", "HAND_OVER", "MATCH_OVER"
ALL_TILES_PLACED = "ALL_TILES_PLACED"

#: the framework's bound on the hands of a match (docstring: ``MAX_HANDS``)
MAX_HANDS = 1_000
PLACES = 8


class BadOptions(ValueError):
    """``BAD_OPTIONS``: an option unknown or out of its range."""


@dataclass(frozen=True)
class Options:
    """[TD-1] [TD-5] [TD-10]: the options and their defaults."""

    tile_set: str = CHINESE
    must_play_if_able: bool = False
    hands: int = 4
    target_score: int = 0


def options(values: Mapping[str, Any]) -> Options:
    """Options from ``{name: value}`` (enums by name), refused as ``BAD_OPTIONS`` when a
    name is unknown or a value out of docs/rules.md's table of ranges."""
    known = {"tile_set", "must_play_if_able", "hands", "target_score"}
    unknown = set(values) - known
    if unknown:
        raise BadOptions(f"no option {sorted(unknown)[0]}")
    opts = Options(**values)
    if opts.tile_set not in (CHINESE, DOUBLE_SIX):
        raise BadOptions(f"tile_set {opts.tile_set!r}")
    if not isinstance(opts.must_play_if_able, bool):
        raise BadOptions("must_play_if_able")
    if not 1 <= opts.hands <= 1000:
        raise BadOptions(f"hands {opts.hands}")
    if not 0 <= opts.target_score <= 100_000:
        raise BadOptions(f"target_score {opts.target_score}")
    return opts


def player_range(opts: Options) -> tuple[int, int]:
    """[TD-2] 2, 3 or 4 players, with either set."""
    return 2, 4


# ------------------------------------------------------------------ the sets and the deal

#: Common ground: the Chinese set's civil tiles (twice) and military tiles (once).
CIVIL: list[Pair] = [(6, 6), (1, 1), (4, 4), (3, 1), (5, 5), (3, 3), (2, 2)]
CIVIL += [(6, 5), (6, 4), (6, 1), (5, 1)]
MILITARY: list[Pair] = [(6, 3), (5, 4), (6, 2), (5, 3), (5, 2), (4, 3), (4, 1), (3, 2)]
MILITARY += [(4, 2), (2, 1)]


def full_set(tile_set: str) -> list[Pair]:
    """[TD-1] the set in ascending order (by high half, then low half)."""
    if tile_set == CHINESE:
        return sorted(CIVIL * 2 + MILITARY)
    return sorted((a, b) for a in range(7) for b in range(a + 1))


def hand_size(tile_set: str, players: int) -> int:
    """[TD-2] Chinese 16/10/8, double-six 14/9/7 (the latter two a Decision) for 2/3/4."""
    if tile_set == CHINESE:
        return {2: 16, 3: 10, 4: 8}[players]
    return {2: 14, 3: 9, 4: 7}[players]


def deal(
    tile_set: str, players: int, seed: str, number: int
) -> tuple[list[list[Pair]], list[Pair]]:
    """[TD-2] hand ``number``'s deal (docs/rules.md "The deal"): the set in ascending order,
    Fisher-Yates shuffled with label ``deal/<number>/0``; seat ``s`` takes ``k`` tiles from
    position ``k*s`` on; the rest lie aside. Returns the sorted hands and the tiles aside."""
    items = shuffled(seed, f"deal/{number}/0", full_set(tile_set))
    k = hand_size(tile_set, players)
    hands = [sorted(items[k * s : k * s + k]) for s in range(players)]
    return hands, sorted(items[k * players :])


def random_leader(seed: str, number: int, players: int) -> int:
    """[TD-3] a seat drawn at random: ``below(players)`` of label ``lead/<number>``."""
    return Stream(seed, f"lead/{number}").below(players)


def is_double(tile: Pair) -> bool:
    return tile[0] == tile[1]


def pips(tile: Pair) -> int:
    return tile[0] + tile[1]


def other_half(tile: Pair, pip: int) -> int:
    """[TD-5] the half that becomes open when ``tile`` is matched on ``pip`` (a double
    keeps it)."""
    return tile[1] if tile[0] == pip else tile[0]


def covered_by(n: int) -> int | None:
    """[TD-6] the tile that tile ``n`` (1-based) covers, read off RULES.md's words: tiles
    1-8 cover nothing; in every later row of 8 the first tile covers the last tile of the
    row below, the second the one before it, and so on (9 covers 8, 16 covers 1, 17
    covers 16)."""
    if n <= PLACES:
        return None
    row, i = divmod(n - 1, PLACES)  # tile n is the (i+1)-th tile of row ``row``
    return PLACES * row - i


def place(n: int) -> int:
    """[TD-6] the place (0..7, left to right) tile ``n`` lies on: that of the tile it covers."""
    below = covered_by(n)
    return n - 1 if below is None else place(below)


# ------------------------------------------------------------------ a hand


@dataclass
class Hand:
    """One hand in play: the state both sides can be compared on."""

    players: int
    k: int
    hands: list[list[Pair]]
    aside: list[Pair]
    leader: int
    to_act: int
    open_pip: int | None = None
    played: list[Pair] = field(default_factory=list)
    discards: list[list[Pair]] = field(default_factory=list)

    def places(self) -> list[tuple[Pair | None, int]]:
        """[TD-6] each place's visible top tile (None while empty) and its depth."""
        stacks: list[list[Pair]] = [[] for _ in range(PLACES)]
        for n, tile in enumerate(self.played, start=1):
            stacks[place(n)].append(tile)
        return [(s[-1] if s else None, len(s)) for s in stacks]

    def over(self) -> bool:
        """[TD-7] every player has played or discarded all their tiles."""
        return all(not h for h in self.hands)


@dataclass(frozen=True)
class Result:
    """A finished hand, as ``GetScore`` gives it."""

    end: str
    counts: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    #: which [TD-9] step separated the tied seats (for the tally): "", "points",
    #: "discards", "total", "turn"
    decided_by: str


def score_hand(hand: Hand, before: list[int]) -> Result:
    """[TD-8] [TD-9] the hand's counts, points and its one winner."""
    players = hand.players
    counts = [sum(map(pips, d)) for d in hand.discards]
    # [TD-8] "no discards" is no discarded tile (docstring decision: a discarded [0-0] is
    # a discard); the doubling applies to every player other than those without discards
    # (whose score is 0 anyway).
    nobody = any(not d for d in hand.discards)
    points = [2 * c if nobody and hand.discards[s] else c for s, c in enumerate(counts)]
    # [TD-9] fewest points; then fewer discarded tiles; then the lower match total before
    # this hand; then first in turn order from this hand's leader, the leader included.
    order = [(hand.leader + i) % players for i in range(players)]
    steps = [
        ("points", points),
        ("discards", [len(d) for d in hand.discards]),
        ("total", before),
        ("turn", [order.index(s) for s in range(players)]),
    ]
    left = list(range(players))
    decided_by = ""
    for name, values in steps:
        best = min(values[s] for s in left)
        left = [s for s in left if values[s] == best]
        if len(left) == 1:
            decided_by = name
            break
    return Result(ALL_TILES_PLACED, tuple(counts), tuple(points), (left[0],), decided_by)


# ------------------------------------------------------------------ the match


class TsairDeng:
    """A match: hands dealt by the harness, moves applied one by one."""

    def __init__(self, values: Mapping[str, Any], players: int, seed: str) -> None:
        self.opts = options(values)
        low, high = player_range(self.opts)
        if not low <= players <= high:
            raise ValueError(f"{players} players")
        self.players, self.seed = players, seed
        self.hand_number = 0
        self.hand: Hand | None = None
        self.history: list[Result] = []
        self.status = IN_PROGRESS

    # ---- the deal -----------------------------------------------------------

    def start_hand(self, hands: list[list[Pair]], aside: list[Pair]) -> list[RefEvent]:
        """Deal the next hand from ``hands`` (as the views show them) and the tiles aside;
        returns the ``DEAL`` and ``LEADER`` events."""
        self.hand_number += 1
        opts, players = self.opts, self.players
        k = hand_size(opts.tile_set, players)
        assert all(len(h) == k for h in hands), "[TD-2] hand size"
        if self.history:
            leader = self.history[-1].winners[0]  # [TD-3] the previous hand's winner
        elif opts.tile_set == DOUBLE_SIX and any((6, 6) in h for h in hands):
            leader = next(s for s, h in enumerate(hands) if (6, 6) in h)  # [TD-3]
        else:
            leader = random_leader(self.seed, self.hand_number, players)  # [TD-3]
        self.hand = Hand(
            players,
            k,
            [sorted(h) for h in hands],
            sorted(aside),
            leader,
            leader,
            discards=[[] for _ in range(players)],
        )
        self.status = IN_PROGRESS
        return [("DEAL", k), ("LEADER", leader)]

    # ---- moves --------------------------------------------------------------

    def to_act(self) -> int | None:
        if self.status == MATCH_OVER:
            return None
        if self.status == HAND_OVER:
            return 0  # Common ground: seat 0 applies NEXT_HAND
        assert self.hand is not None
        return self.hand.to_act

    def legal_moves(self) -> list[RefMove]:
        if self.status == MATCH_OVER:
            return []
        if self.status == HAND_OVER:
            return [(NEXT_HAND, None, None)]
        hand = self.hand
        assert hand is not None
        tiles = sorted(set(hand.hands[hand.to_act]))
        if hand.open_pip is None:
            # [TD-4] the lead: any tile, naming the open half (docstring decision: the
            # lead is never a discard)
            moves: list[RefMove] = []
            for t in tiles:
                moves.append((PLAY, t, t[0]))
                if not is_double(t):
                    moves.append((PLAY, t, t[1]))
            return moves
        # [TD-5] a matching tile, or a discard of any tile
        plays: list[RefMove] = [(PLAY, t, None) for t in tiles if hand.open_pip in t]
        discards: list[RefMove] = [(DISCARD, t, None) for t in tiles]
        if self.opts.must_play_if_able and plays:
            return plays
        return plays + discards

    def apply(self, move: RefMove) -> list[RefEvent]:
        """Apply a legal move; returns its events: ``("PLAY", seat, tile, open_pip)``,
        ``("DISCARD", seat, tile)``, ``("HAND_OVER", winners, points)``,
        ``("MATCH_OVER", winners, totals)``, ``("NEXT_HAND", number)`` (then the harness
        calls :meth:`start_hand`)."""
        assert move in self.legal_moves(), move
        kind, tile, open_pip = move
        if kind == NEXT_HAND:
            return [(NEXT_HAND, self.hand_number + 1)]
        hand = self.hand
        assert hand is not None and tile is not None
        seat = hand.to_act
        hand.hands[seat].remove(tile)
        events: list[RefEvent]
        if kind == PLAY:
            if hand.open_pip is None:
                assert open_pip is not None
                hand.open_pip = open_pip  # [TD-4]
            else:
                hand.open_pip = other_half(tile, hand.open_pip)  # [TD-5]
            hand.played.append(tile)  # [TD-6]
            events = [(PLAY, seat, tile, hand.open_pip)]
        else:
            hand.discards[seat].append(tile)  # [TD-5] face down
            events = [(DISCARD, seat, tile)]
        hand.to_act = (seat + 1) % self.players  # docstring decision: increasing order
        if hand.over():
            events += self.end_hand()
        return events

    def end_hand(self) -> list[RefEvent]:
        assert self.hand is not None
        result = score_hand(self.hand, self.totals())
        self.history.append(result)
        events: list[RefEvent] = [("HAND_OVER", result.winners, result.points)]
        self.status = HAND_OVER
        if self.match_over():
            self.status = MATCH_OVER
            events.append(("MATCH_OVER", self.winners(), tuple(self.totals())))
        return events

    def match_over(self) -> bool:
        """[TD-10] after ``hands`` hands, or with ``target_score`` once a total reaches it
        (``hands`` ignored); the framework's bound of 1,000 hands in any case."""
        if self.hand_number >= MAX_HANDS:
            return True
        if self.opts.target_score > 0:
            return max(self.totals()) >= self.opts.target_score
        return self.hand_number >= self.opts.hands

    # ---- scores -------------------------------------------------------------

    def totals(self) -> list[int]:
        """The match totals: the sum of the finished hands' points (nothing is scored
        during a hand)."""
        return [sum(r.points[s] for r in self.history) for s in range(self.players)]

    def winners(self) -> tuple[int, ...]:
        """[TD-10] the fewest total points win, equal fewest share; none until the end."""
        if self.status != MATCH_OVER:
            return ()
        totals = self.totals()
        return tuple(s for s, t in enumerate(totals) if t == min(totals))

    def settlement(self) -> tuple[int, ...]:
        """[TD-10] player i's net is the sum over j of (total_j - total_i) (docstring
        decision: from the totals so far, at any moment)."""
        totals = self.totals()
        return tuple(sum(tj - ti for tj in totals) for ti in totals)
