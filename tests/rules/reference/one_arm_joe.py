"""One Arm Joe (One-Armed Pete), written again from RULES.md alone: a second reading for
the lockstep test ``tests/rules/test_one_arm_joe_reference.py``.

This is a clean-room model of ``one_arm_joe`` ([OAJ-1]..[OAJ-10]), written from RULES.md
(and docs/rules.md's public account of the deal and the events) without reading the
service's implementation. Where RULES.md leaves a case open it follows the decisions
listed in the service's module docstring, and says so ("docstring decision").

It is deliberately plain: a tile is a pair ``(high, low)``; a move is a comparable tuple
``(kind, tile)`` (``("PLAY", (6, 4))``, ``("DRAW", None)``, ``("PASS", None)``,
``("NEXT_HAND", None)``); events are tuples too. The boneyard is only a count: each tile
a ``DRAW`` takes is asked of ``draw(seat)``, which the harness feeds from the service's
``DRAW`` and ``AUTO_PLAY`` events, so that the two never share a shuffle. Each hand's
deal is given by the harness; :func:`deal` re-deals a hand from the seed by the
documented derivation (README "Checkable deals"), for the harness to check the service's
deal, its void deals and that every draw comes from the boneyard's front.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .stream import shuffled

Pair = tuple[int, int]
RefMove = tuple[str, Pair | None]
RefEvent = tuple[Any, ...]
Draw = Callable[[int], Pair]

PLAY, DRAW, PASS, NEXT_HAND = "PLAY", "DRAW", "PASS", "NEXT_HAND"
DOMINOED, BLOCKED = "DOMINOED", "BLOCKED"
IN_PROGRESS, HAND_OVER, MATCH_OVER = "IN_PROGRESS", "HAND_OVER", "MATCH_OVER"
#: Docstring decision: a match to a target that nobody reaches ends after hand 1,000.
MAX_HANDS = 1_000
#: [OAJ-2] every seat is dealt three tiles.
DEALT = 3


class BadOptions(ValueError):
    """``BAD_OPTIONS``."""


#: Every option with its RULES.md default, and the enums' values.
DEFAULTS: dict[str, Any] = {
    "set_max_pip": 6,  # [OAJ-1]
    "lead_double_bonus": False,  # [OAJ-5]
    "scoring": "OTHERS_TOTAL",  # [OAJ-9]
    "tie": "NO_SCORE",  # [OAJ-9]
    "target_score": 100,  # [OAJ-10]
}
ENUMS: dict[str, list[str]] = {
    "scoring": ["OTHERS_TOTAL", "OTHERS_MINUS_OWN"],
    "tie": ["NO_SCORE", "SHARED"],
}


def options(values: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options with defaults filled in; :class:`BadOptions` for a value out of range."""
    opts = dict(DEFAULTS)
    for name, value in (values or {}).items():
        if name not in DEFAULTS:
            raise BadOptions(name)
        opts[name] = getattr(value, "name", value)
    for name in ("set_max_pip", "target_score"):
        if isinstance(opts[name], bool) or not isinstance(opts[name], int):
            raise BadOptions(name)
    if not isinstance(opts["lead_double_bonus"], bool):
        raise BadOptions("lead_double_bonus")
    if not 6 <= opts["set_max_pip"] <= 18:  # [OAJ-1]
        raise BadOptions("set_max_pip")
    if not 0 <= opts["target_score"] <= 100_000:  # docs/rules.md's option table
        raise BadOptions("target_score")
    for name, allowed in ENUMS.items():
        if opts[name] not in allowed:
            raise BadOptions(name)
    return opts


def full_set(top: int) -> list[Pair]:
    """[OAJ-1] the Western double-``top`` set, ascending (high half, then low half)."""
    return [(high, low) for high in range(top + 1) for low in range(high + 1)]


def player_range(opts: Mapping[str, Any]) -> tuple[int, int]:
    """[OAJ-2] 2 up to floor(tiles / 3)."""
    return 2, len(full_set(opts["set_max_pip"])) // DEALT


def is_double(tile: Pair) -> bool:
    return tile[0] == tile[1]


def pips(tiles: list[Pair]) -> int:
    return sum(a + b for a, b in tiles)


# ---- the checkable deal (README "Checkable deals") --------------------------------


def deal(
    opts: Mapping[str, Any], players: int, seed: str, number: int
) -> tuple[list[list[Pair]], list[Pair], int]:
    """Hand ``number``: every seat's tiles, the boneyard (front first) and the number of
    void deals before it. [OAJ-2] seat s takes tiles 3s..3s+2 of ``deal/h/a``; [OAJ-3] a
    deal where no seat holds a double is void, and attempt ``a`` counts up."""
    tiles = full_set(opts["set_max_pip"])
    attempt = 0
    while True:
        order = shuffled(seed, f"deal/{number}/{attempt}", tiles)
        hands = [order[DEALT * s : DEALT * s + DEALT] for s in range(players)]
        if any(is_double(t) for hand in hands for t in hand):
            return hands, order[DEALT * players :], attempt
        attempt += 1


# ---- a hand ------------------------------------------------------------------------


@dataclass
class Hand:
    hands: list[list[Pair]]  # each seat's tiles, sorted
    boneyard: int  # tiles left to draw
    leader: int
    to_act: int
    line: list[Pair] = field(default_factory=list)  # [OAJ-4] from the lead double on
    open_end: int | None = None  # unset before the lead
    bonus: bool = False  # [OAJ-6] the seat to act is on a bonus turn
    dominoed: int | None = None


@dataclass
class Result:
    end: str
    counts: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]


class OneArmJoe:
    """A match of One Arm Joe: hands dealt by the harness, played by :meth:`apply`."""

    def __init__(self, values: Mapping[str, Any], players: int, seed: str) -> None:
        self.opts = options(values)
        low, high = player_range(self.opts)
        assert low <= players <= high, players
        self.players, self.seed = players, seed
        self.hand: Hand | None = None
        self.hand_number = 0
        self.history: list[Result] = []
        self.status = IN_PROGRESS

    # ---- the match ---------------------------------------------------------------

    def totals(self) -> list[int]:
        return [sum(r.points[s] for r in self.history) for s in range(self.players)]

    def winners(self) -> tuple[int, ...]:
        """[OAJ-10] the highest total wins; equal highest share the win."""
        if self.status != MATCH_OVER:
            return ()
        totals = self.totals()
        return tuple(s for s, t in enumerate(totals) if t == max(totals))

    def match_over(self) -> bool:
        """[OAJ-10] a total reached ``target_score``; 0 means a single hand."""
        target = self.opts["target_score"]
        if target == 0 or self.hand_number >= MAX_HANDS:
            return True
        return any(t >= target for t in self.totals())

    def start_hand(self, hands: list[list[Pair]], boneyard: int, void: int) -> list[RefEvent]:
        """Begin the next hand from ``hands`` as dealt (``void`` deals were void before
        it): [OAJ-3] the holder of the highest double leads it; the events of the deal."""
        self.hand_number += 1
        doubles = [(t[0], s) for s, hand in enumerate(hands) for t in hand if is_double(t)]
        assert doubles, "[OAJ-3] a valid deal has a double"
        leader = max(doubles)[1]
        self.hand = Hand([sorted(h) for h in hands], boneyard, leader, leader)
        self.status = IN_PROGRESS
        redeals = [("REDEAL", a + 1) for a in range(void)]
        return [("DEAL", DEALT), *redeals, ("LEADER", leader)]

    # ---- the rules of play ---------------------------------------------------------

    def to_act(self) -> int | None:
        if self.status == MATCH_OVER:
            return None
        if self.status == HAND_OVER:
            return 0  # Common ground: seat 0 applies NEXT_HAND
        assert self.hand is not None
        return self.hand.to_act

    def matches(self, tile: Pair) -> bool:
        """[OAJ-4] a tile matches the one open end."""
        h = self.hand
        assert h is not None and h.open_end is not None
        return h.open_end in tile

    def legal_moves(self) -> list[RefMove]:
        if self.status == MATCH_OVER:
            return []
        if self.status == HAND_OVER:
            return [(NEXT_HAND, None)]
        h = self.hand
        assert h is not None
        mine = h.hands[h.to_act]
        if not h.line:  # [OAJ-3] the lead: the highest double is the only legal move
            return [(PLAY, max(t for t in mine if is_double(t)))]
        playable = sorted({t for t in mine if self.matches(t)})
        if playable:  # [OAJ-6] [OAJ-7] must play a matching tile, any of them
            return [(PLAY, t) for t in playable]
        if h.bonus:  # [OAJ-6] no drawing on a bonus turn
            return [(PASS, None)]
        return [(DRAW, None)] if h.boneyard else [(PASS, None)]  # [OAJ-7]

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.players

    def blocked(self) -> bool:
        """[OAJ-8] the boneyard is empty and no player holds a matching tile."""
        h = self.hand
        assert h is not None
        if h.boneyard or h.open_end is None:
            return False
        return not any(self.matches(t) for hand in h.hands for t in hand)

    def _lay(self, seat: int, tile: Pair, kind: str) -> list[RefEvent]:
        """Lay ``tile`` on the open end [OAJ-4]; a double earns a bonus turn [OAJ-5]
        [OAJ-6], else play passes on."""
        h = self.hand
        assert h is not None
        lead = not h.line
        if lead:
            h.open_end = tile[0]
        else:
            assert h.open_end is not None and h.open_end in tile
            a, b = tile
            h.open_end = b if a == h.open_end else a  # a double leaves it unchanged
        h.line.append(tile)
        events: list[RefEvent] = [(kind, seat, tile, h.open_end)]
        if not h.hands[seat]:
            h.dominoed = seat  # [OAJ-8] the hand ends at once: no bonus turn
            h.bonus = False
            return events
        if is_double(tile) and (not lead or self.opts["lead_double_bonus"]):
            h.bonus = True
            events.append(("BONUS_TURN", seat))
        else:
            h.bonus = False
            h.to_act = self.next_seat(seat)
        return events

    def apply(self, move: RefMove, draw: Draw) -> list[RefEvent]:
        """Apply a legal move; the events, the hand's end and the match's end included."""
        assert move in self.legal_moves(), move
        kind, tile = move
        assert kind != NEXT_HAND, "the harness deals the next hand (start_hand)"
        h = self.hand
        assert h is not None
        seat = h.to_act
        events: list[RefEvent] = []
        if kind == PLAY:
            assert tile is not None
            h.hands[seat].remove(tile)
            events += self._lay(seat, tile, "PLAY")
        elif kind == PASS:  # [OAJ-6] [OAJ-7] play moves on
            events.append(("PASS", seat))
            h.bonus = False
            h.to_act = self.next_seat(seat)
        else:  # [OAJ-7] draw one at a time until a tile matches
            while True:
                if not h.boneyard:  # the boneyard ran out first: the turn passes
                    events.append(("TURN_PASSED", seat))
                    h.to_act = self.next_seat(seat)
                    break
                drawn = draw(seat)
                h.boneyard -= 1
                if self.matches(drawn):  # played at once (event), a double: bonus turn
                    events += self._lay(seat, drawn, "AUTO_PLAY")
                    break
                events.append(("DRAW", seat, drawn))  # docstring decision: kept in hand
                h.hands[seat] = sorted([*h.hands[seat], drawn])
        if h.dominoed is not None:
            events += self._finish(DOMINOED)
        elif self.blocked():  # docstring decision: checked after every move
            events += self._finish(BLOCKED)
        return events

    def _finish(self, end: str) -> list[RefEvent]:
        """[OAJ-9] score the hand; [OAJ-10] maybe end the match."""
        h = self.hand
        assert h is not None
        counts = tuple(pips(hand) for hand in h.hands)
        minus_own = self.opts["scoring"] == "OTHERS_MINUS_OWN"
        points = [0] * self.players
        if h.dominoed is not None:  # wins outright, even against a 0 count
            winners: tuple[int, ...] = (h.dominoed,)
        else:
            low = min(counts)
            winners = tuple(s for s, c in enumerate(counts) if c == low)
        others = [s for s in range(self.players) if s not in winners]
        if len(winners) == 1:
            (w,) = winners
            points[w] = sum(counts[s] for s in others) - (counts[w] if minus_own else 0)
        elif self.opts["tie"] == "SHARED" and others:  # every player tied: nobody scores
            for w in winners:
                points[w] = sum(counts[s] for s in others) - (counts[w] if minus_own else 0)
        # else: NO_SCORE, tied winners listed but score 0 (docstring decision)
        self.history.append(Result(end, counts, tuple(points), winners))
        events: list[RefEvent] = [("HAND_OVER", winners, tuple(points))]
        if self.match_over():
            self.status = MATCH_OVER
            events.append(("MATCH_OVER", self.winners(), tuple(self.totals())))
        else:
            self.status = HAND_OVER
        return events
