"""Dancing Dragons, written again from RULES.md alone: a second reading for the lockstep test
``tests/rules/test_dancing_dragons_reference.py``.

A clean-room model of ``dancing_dragons`` ([DD-1]..[DD-11], with the [TD-*], [BLK-*] and
[THR-5] rules they borrow), written from RULES.md and README.md's "Checkable deals" without
reading the service's implementation. Where RULES.md leaves a case open it follows the
decisions of the service's module docstring and says so ("docstring decision").

It is deliberately plain: a tile is a pair ``(high, low)``; a move is a comparable tuple
``(kind, tile, end)`` (``("PLAY", (6, 4), None)`` for the lead, ``("PLAY", (6, 4), "LEFT")``,
``("DISCARD", (5, 1), None)``, ``("NEXT_HAND", None, None)``); events are tuples too. Dancing
Dragons never draws, so the model deals every hand itself from the seed by the documented
derivation (the harness checks that the service dealt the same), and draws the first leader
the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .stream import Stream, shuffled

Pair = tuple[int, int]
RefMove = tuple[str, Pair | None, str | None]
RefEvent = tuple[Any, ...]
#: a tile of the line: the tile, the pip showing on its left, the pip on its right
Laid = tuple[Pair, int, int]

PLAY, DISCARD, NEXT_HAND = "PLAY", "DISCARD", "NEXT_HAND"
LEFT, RIGHT = "LEFT", "RIGHT"
ALL_TILES_PLACED = "ALL_TILES_PLACED"
IN_PROGRESS, HAND_OVER, MATCH_OVER = "IN_PROGRESS", "HAND_OVER", "MATCH_OVER"
#: The most hands of a match (docstring decision: a target no seat reaches ends at 1,000).
MAX_HANDS = 1_000

#: [DD-9] every option with its default, and its range.
DEFAULTS: dict[str, Any] = {"must_play_if_able": True, "hands": 4, "target_score": 0}
RANGES: dict[str, tuple[int, int]] = {"hands": (1, 1_000), "target_score": (0, 100_000)}


class BadOptions(ValueError):
    """[DD-9] ``BAD_OPTIONS``."""


def options(values: Mapping[str, Any]) -> dict[str, Any]:
    """[DD-5] [DD-9] the options with their defaults; out of range is ``BAD_OPTIONS``."""
    unknown = set(values) - set(DEFAULTS)
    if unknown:
        raise BadOptions(f"unknown option {sorted(unknown)}")
    opts = {**DEFAULTS, **values}
    if type(opts["must_play_if_able"]) is not bool:
        raise BadOptions("must_play_if_able")
    for name, (low, high) in RANGES.items():
        value = opts[name]
        if type(value) is not int or not low <= value <= high:
            raise BadOptions(f"{name}={value!r}")  # [DD-9] hands checked even when unused
    return opts


#: [DD-1] 2, 3 or 4 players get 16, 10 or 8 tiles.
HAND_SIZE = {2: 16, 3: 10, 4: 8}
PLAYERS = (2, 4)

# ---- the set and the documented randomness (README.md "Checkable deals") ------------

#: Common ground: the Chinese set's civil tiles (twice) and military tiles (once).
CIVIL: list[Pair] = [(6, 6), (1, 1), (4, 4), (3, 1), (5, 5), (3, 3), (2, 2), (6, 5), (6, 4)]
CIVIL += [(6, 1), (5, 1)]
MILITARY: list[Pair] = [(6, 3), (5, 4), (6, 2), (5, 3), (5, 2), (4, 3), (4, 1), (3, 2)]
MILITARY += [(4, 2), (2, 1)]


def chinese_set() -> list[Pair]:
    """The 32 tiles ascending, by high half then low half, duplicates adjacent."""
    return sorted(CIVIL * 2 + MILITARY)


def deal(players: int, seed: str, number: int) -> tuple[list[list[Pair]], list[Pair]]:
    """[DD-1] [DD-2] hand ``number``'s deal: the set shuffled with ``deal/<h>/0``; seat s
    takes k tiles from k*s on; with 3 players the last two lie aside. Hands sorted."""
    order = shuffled(seed, f"deal/{number}/0", chinese_set())
    k = HAND_SIZE[players]
    hands = [sorted(order[k * s : k * s + k]) for s in range(players)]
    return hands, sorted(order[k * players :])


def first_leader(players: int, seed: str) -> int:
    """[DD-2] the first hand's leader: below(players) of the stream ``lead/1``."""
    return Stream(seed, "lead/1").below(players)


# ---- one hand ---------------------------------------------------------------------


@dataclass
class Hand:
    hands: list[list[Pair]]
    aside: list[Pair]
    leader: int
    to_act: int
    line: list[Laid] = field(default_factory=list)
    discards: list[list[Pair]] = field(default_factory=list)

    @property
    def ends(self) -> tuple[int | None, int | None]:
        """[DD-10] the two open ends; unset before the lead."""
        if not self.line:
            return None, None
        return self.line[0][1], self.line[-1][2]


@dataclass
class Result:
    end: str
    counts: list[int]
    points: list[int]
    winners: list[int]
    #: for the tally: which [DD-8] step picked the winner
    tie_break: str


class DancingDragons:
    """A match of Dancing Dragons: hands dealt from the seed, moves applied one at a time."""

    def __init__(self, values: Mapping[str, Any], players: int, seed: str) -> None:
        self.opts = options(values)
        if not PLAYERS[0] <= players <= PLAYERS[1]:
            raise ValueError("BAD_PLAYER_COUNT")  # [DD-1]
        self.players, self.seed = players, seed
        self.history: list[Result] = []
        self.hand_number = 0
        self.status = IN_PROGRESS
        self.hand: Hand
        self.start_events = self.start_hand()

    # ---- the deal

    def start_hand(self) -> list[RefEvent]:
        """[DD-1] [DD-2] deal the next hand; its ``DEAL`` and ``LEADER`` events."""
        self.hand_number += 1
        hands, aside = deal(self.players, self.seed, self.hand_number)
        if self.hand_number == 1:
            leader = first_leader(self.players, self.seed)
        else:
            leader = self.history[-1].winners[0]  # [DD-2] [DD-8] the last hand's winner
        self.hand = Hand(hands, aside, leader, leader, [], [[] for _ in hands])
        self.status = IN_PROGRESS
        return [("DEAL", HAND_SIZE[self.players]), ("LEADER", leader)]

    # ---- who acts, what is legal

    def to_act(self) -> int | None:
        if self.status == MATCH_OVER:
            return None
        if self.status == HAND_OVER:
            return 0  # Common ground: seat 0 applies NEXT_HAND
        return self.hand.to_act

    def legal_moves(self) -> list[RefMove]:
        if self.status == MATCH_OVER:
            return []
        if self.status == HAND_OVER:
            return [(NEXT_HAND, None, None)]
        h = self.hand
        tiles = sorted(set(h.hands[h.to_act]))
        if not h.line:
            return [(PLAY, t, None) for t in tiles]  # [DD-3] any tile, no end
        left, right = h.ends
        plays: list[RefMove] = []
        for t in tiles:
            # [DD-4] a move per end the tile fits (both when both ends show its number)
            if left in t:
                plays.append((PLAY, t, LEFT))
            if right in t:
                plays.append((PLAY, t, RIGHT))
        discards: list[RefMove] = [(DISCARD, t, None) for t in tiles]
        if self.opts["must_play_if_able"] and plays:
            return plays  # [DD-5] discarding only when no tile fits
        return plays + discards  # [DD-5] no PASS in Dancing Dragons

    # ---- applying a move

    def apply(self, move: RefMove) -> list[RefEvent]:
        """Apply a legal move; its events (``DISCARD`` with its tile, as its seat sees it)."""
        assert move in self.legal_moves(), move
        kind, tile, end = move
        if kind == NEXT_HAND:
            return [("NEXT_HAND", self.hand_number + 1), *self.start_hand()]
        h = self.hand
        seat = h.to_act
        assert tile is not None
        h.hands[seat].remove(tile)
        events: list[RefEvent] = []
        if kind == PLAY:
            if not h.line:
                h.line.append((tile, tile[0], tile[1]))  # [DD-3] high half LEFT, low RIGHT
            elif end == LEFT:
                showing = h.line[0][1]
                h.line.insert(0, (tile, other(tile, showing), showing))  # [DD-4]
            else:
                showing = h.line[-1][2]
                h.line.append((tile, showing, other(tile, showing)))  # [DD-4]
            events.append(("PLAY", seat, tile, end))
        else:
            h.discards[seat].append(tile)  # [DD-5] face down in front of the seat
            events.append(("DISCARD", seat, tile))
        h.to_act = (seat + 1) % self.players  # Common ground: increasing seat order
        if all(not x for x in h.hands):  # [DD-6] every tile played or discarded
            result = self.score_hand()
            self.history.append(result)
            events.append(("HAND_OVER", tuple(result.winners), tuple(result.points)))
            self.status = HAND_OVER
            if self.match_over():
                self.status = MATCH_OVER
                events.append(("MATCH_OVER", tuple(self.winners()), tuple(self.totals())))
        return events

    # ---- scoring

    def score_hand(self) -> Result:
        """[DD-7] [DD-8] [TD-8] [TD-9] the hand's counts, points and its one winner."""
        h = self.hand
        counts = [sum(a + b for a, b in d) for d in h.discards]
        someone_clean = any(not d for d in h.discards)
        points = [2 * c if someone_clean and h.discards[s] else c for s, c in enumerate(counts)]
        before = self.totals()  # the match totals before this hand (not yet in history)
        tied = [s for s in range(self.players) if points[s] == min(points)]
        how = "fewest points"
        if len(tied) > 1:
            how = "fewer discarded tiles"
            fewest = min(len(h.discards[s]) for s in tied)
            tied = [s for s in tied if len(h.discards[s]) == fewest]
        if len(tied) > 1:
            how = "lower match total"
            lowest = min(before[s] for s in tied)
            tied = [s for s in tied if before[s] == lowest]
        if len(tied) > 1:
            how = "turn order from the leader"
            order = [(h.leader + i) % self.players for i in range(self.players)]
            tied = [next(s for s in order if s in tied)]
        return Result(ALL_TILES_PLACED, counts, points, tied, how)

    def totals(self) -> list[int]:
        return [sum(r.points[s] for r in self.history) for s in range(self.players)]

    def match_over(self) -> bool:
        """[DD-9] ``hands`` hands, or, with a target, until a total reaches it."""
        if self.hand_number >= MAX_HANDS:
            return True
        target: int = self.opts["target_score"]
        hands: int = self.opts["hands"]
        if target > 0:
            return max(self.totals()) >= target
        return len(self.history) >= hands

    def winners(self) -> list[int]:
        """[DD-9] fewest total wins; equal fewest share the win. Empty until the end."""
        if self.status != MATCH_OVER:
            return []
        totals = self.totals()
        return [s for s, t in enumerate(totals) if t == min(totals)]

    def settlement(self) -> list[int]:
        """[DD-9] [TD-10] player i's net is the sum over j of (total_j - total_i)."""
        totals = self.totals()
        return [sum(t - mine for t in totals) for mine in totals]


def other(tile: Pair, pip: int) -> int:
    """The half of ``tile`` that is not laid against ``pip``."""
    return tile[1] if tile[0] == pip else tile[0]
