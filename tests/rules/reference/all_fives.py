"""All Fives, Muggins and Fives and Threes, written again from RULES.md alone: a second
reading for the lockstep test ``tests/rules/test_all_fives_reference.py``.

This is a clean-room model of ``all_fives`` ([A5-1]..[A5-15], with the [BLK-*] tags they
borrow), written from RULES.md (and docs/rules.md's public account) without reading the
service's implementation. Where RULES.md leaves a case open it follows the decisions listed
in the service's module docstring, and says so ("docstring decision").

It is deliberately plain: a tile is a pair ``(high, low)``; a move is a comparable tuple
``(kind, tile, end)`` (``("PLAY", (6, 4), "LEFT")``, ``("PLAY", (5, 5), None)`` for a
lead, ``("DRAW", None, None)``, ``("PASS", None, None)``, ``("NEXT_HAND", None, None)``);
events are tuples too. The boneyard is only a count: each tile a ``DRAW`` takes is asked of
``draw(seat)``, which the harness feeds from the service's ``DRAW`` events, so that the two
never share a shuffle. Each hand's deal (every seat's tiles and the boneyard's size) is given
by the harness too. The lead by lot is drawn here, from the documented stream
(docs/rules.md "Randomness"), and :func:`deal` re-deals a hand from the seed the same way,
for the harness to check the service's deal and that draws come from the boneyard's front.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .stream import below, shuffled

Pair = tuple[int, int]
RefMove = tuple[str, Pair | None, str | None]
RefEvent = tuple[Any, ...]
Draw = Callable[[int], Pair]

PLAY, DRAW, PASS, NEXT_HAND = "PLAY", "DRAW", "PASS", "NEXT_HAND"
LEFT, RIGHT, UP, DOWN = "LEFT", "RIGHT", "UP", "DOWN"
DOMINOED, BLOCKED, TARGET_REACHED = "DOMINOED", "BLOCKED", "TARGET_REACHED"
IN_PROGRESS, HAND_OVER, MATCH_OVER = "IN_PROGRESS", "HAND_OVER", "MATCH_OVER"
#: The most hands of a match (the service's documented bound on every match).
MAX_HANDS = 1_000


class BadOptions(ValueError):
    """[A5-14] ``BAD_OPTIONS``."""


class BadPlayerCount(ValueError):
    """[A5-2] ``BAD_PLAYER_COUNT``."""


#: [A5-1]..[A5-12]: every option, with its RULES.md default, and the enums' values.
DEFAULTS: dict[str, Any] = {
    "set_max_pip": 6,
    "partnership": False,
    "hand_size": 0,
    "draw": True,
    "boneyard_keep": 0,
    "first_lead": "ANY_TILE",
    "next_lead": "WINNER",
    "spinner": "FIRST_DOUBLE",
    "play_scoring": "FIVES",
    "divide_by_five": False,
    "partners_play_out": False,
    "hand_bonus": "OTHERS_ROUNDED",
    "target_score": 200,
    "finish_hand": False,
    "exact_target": False,
}
ENUMS: dict[str, tuple[str, ...]] = {
    "first_lead": ("ANY_TILE", "HIGHEST_DOUBLE"),
    "next_lead": ("WINNER", "NEXT_SEAT", "AS_FIRST"),
    "spinner": ("FIRST_DOUBLE", "NONE"),
    "play_scoring": ("FIVES", "FIVES_AND_THREES"),
    "hand_bonus": ("OTHERS_ROUNDED", "OTHERS_MINUS_OWN_ROUNDED", "CHIP_OUT_POINT", "NONE"),
}


def full_set(top: int) -> list[Pair]:
    """[A5-1] Western double-N: every pair a >= b of 0..N, in ascending order."""
    return [(a, b) for a in range(top + 1) for b in range(a + 1)]


def options(values: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options ``values`` names, every other at its default; [A5-14] the checks of the
    options on their own (``BadOptions``)."""
    opts = dict(DEFAULTS)
    for name, value in (values or {}).items():
        if name not in DEFAULTS:
            raise BadOptions(name)
        opts[name] = value
    if not 6 <= opts["set_max_pip"] <= 18:
        raise BadOptions("set_max_pip")
    tiles = len(full_set(opts["set_max_pip"]))
    if not 0 <= opts["hand_size"] <= tiles // 2:
        raise BadOptions("hand_size")
    if not 0 <= opts["boneyard_keep"] <= tiles:
        raise BadOptions("boneyard_keep")
    if not 0 <= opts["target_score"] <= 100_000:
        raise BadOptions("target_score")
    for name, allowed in ENUMS.items():
        if opts[name] not in allowed:
            raise BadOptions(name)
    if opts["divide_by_five"] and (
        opts["play_scoring"] == "FIVES_AND_THREES" or opts["hand_bonus"] == "CHIP_OUT_POINT"
    ):
        raise BadOptions("divide_by_five")
    # [A5-14] exact_target on a target no score can land on: with FIVES, no divide_by_five
    # and a bonus other than CHIP_OUT_POINT every score is a multiple of 5. With target 0
    # exact_target is accepted and ignored.
    all_fives = (
        opts["play_scoring"] == "FIVES"
        and not opts["divide_by_five"]
        and opts["hand_bonus"] != "CHIP_OUT_POINT"
    )
    if opts["exact_target"] and opts["target_score"] > 0 and all_fives and opts["target_score"] % 5:
        raise BadOptions("exact_target")
    return opts


def hand_size(opts: Mapping[str, Any], players: int) -> int:
    """[A5-2] 0 deals 7 to two players and 5 to three or more (a partnership too)."""
    if opts["hand_size"]:
        return int(opts["hand_size"])
    return 7 if players == 2 else 5


def player_range(opts: Mapping[str, Any]) -> tuple[int, int]:
    """[A5-2] exactly 4 with ``partnership``; else 2 up to players x hand size <= tiles.
    In both, players x hand size <= tiles: ``(low, high)`` with ``high < low`` is none."""
    tiles = len(full_set(opts["set_max_pip"]))
    if opts["partnership"]:
        return (4, 4) if 4 * hand_size(opts, 4) <= tiles else (4, 3)
    top = 2 if 2 * hand_size(opts, 2) <= tiles else 1
    while (top + 1) * hand_size(opts, top + 1) <= tiles:
        top += 1
    return 2, top


def check_players(opts: Mapping[str, Any], players: int) -> None:
    low, high = player_range(opts)
    if not low <= players <= high:
        raise BadPlayerCount(players)


# ------------------------------------------------------------------ the lot


def deal(opts: Mapping[str, Any], players: int, seed: str, number: int) -> list[list[Pair]]:
    """[A5-2] hand ``number``'s deal, as [BLK-2]: the set shuffled with label
    ``deal/<hand>/0``; seat 0 takes the first k tiles, seat 1 the next k, and so on; the
    rest, in that order, is the boneyard (the last list), drawn from its front."""
    order = shuffled(seed, f"deal/{number}/0", full_set(opts["set_max_pip"]))
    k = hand_size(opts, players)
    return [order[k * s : k * s + k] for s in range(players)] + [order[k * players :]]


# ------------------------------------------------------------------ counts and scores


def is_double(tile: Pair) -> bool:
    return tile[0] == tile[1]


def rank(tile: Pair) -> tuple[int, int, int]:
    """[BLK-4] (for [A5-4]): doubles highest first, above every other tile; then by pip
    total, then by the higher high half."""
    return (1 if is_double(tile) else 0, tile[0] + tile[1], tile[0])


def play_points(count: int, opts: Mapping[str, Any]) -> int:
    """[A5-9] what a count scores."""
    if count <= 0:
        return 0
    if opts["play_scoring"] == "FIVES":
        points = count if count % 5 == 0 else 0
    else:  # FIVES_AND_THREES: a fifth if a multiple of 5, plus a third if a multiple of 3
        points = (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)
    if opts["divide_by_five"]:
        points //= 5
    return points


def rounded(value: int) -> int:
    """[A5-11] to the nearest multiple of 5: ending in 1, 2 down, in 3, 4 up."""
    return 5 * ((value + 2) // 5)


# ------------------------------------------------------------------ a hand


@dataclass
class Hand:
    """One hand: the hands, the layout [A5-6] [A5-7], the points so far [A5-9]."""

    hands: list[list[Pair]]
    boneyard: int
    leader: int
    #: the only lead allowed ([A5-4] HIGHEST_DOUBLE), or None: any tile
    lead_tile: Pair | None
    to_act: int
    line: list[tuple[Pair, int, int]] = field(default_factory=list)  # (tile, left, right)
    spinner: int | None = None  # index in ``line``
    up: list[tuple[Pair, int, int]] = field(default_factory=list)  # (tile, inner, outer)
    down: list[tuple[Pair, int, int]] = field(default_factory=list)
    count: int = 0
    points: list[int] = field(default_factory=list)
    last_layer: int | None = None
    end: str | None = None


@dataclass(frozen=True)
class Result:
    """[A5-15] a finished hand, as GetScore gives it."""

    counts: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    end: str


class AllFives:
    """A match of ``all_fives`` ([A5-12]) for ``players`` seats, one hand at a time."""

    def __init__(self, values: Mapping[str, Any], players: int, seed: str) -> None:
        self.opts = options(values)
        check_players(self.opts, players)
        self.players = players
        self.seed = seed
        self.history: list[Result] = []
        self.status = IN_PROGRESS
        self.hand_number = 0
        self.hand: Hand | None = None
        self.refused = 0  # scores exact_target refused, for the harness's tally

    # ---- sides -----------------------------------------------------------------

    def side(self, seat: int) -> tuple[int, ...]:
        """[A5-2] seats 0 and 2 against 1 and 3 in a partnership; else one seat."""
        if self.opts["partnership"]:
            return (seat % 2, seat % 2 + 2)
        return (seat,)

    def sides(self) -> list[tuple[int, ...]]:
        if self.opts["partnership"]:
            return [(0, 2), (1, 3)]
        return [(s,) for s in range(self.players)]

    def play_out(self) -> bool:
        """[A5-10] ``partners_play_out`` changes nothing without ``partnership``."""
        return bool(self.opts["partnership"] and self.opts["partners_play_out"])

    # ---- totals ----------------------------------------------------------------

    def totals(self) -> list[int]:
        """Each seat's match total, the points pegged in the hand in play included."""
        totals = [sum(r.points[s] for r in self.history) for s in range(self.players)]
        if self.status == IN_PROGRESS and self.hand is not None:
            totals = [t + p for t, p in zip(totals, self.hand.points, strict=True)]
        return totals

    def winners(self) -> tuple[int, ...]:
        """[A5-12] Common ground: the highest totals, equal highest share the win."""
        if self.status != MATCH_OVER:
            return ()
        totals = self.totals()
        return tuple(s for s, t in enumerate(totals) if t == max(totals))

    # ---- the deal and the lead --------------------------------------------------

    def start_hand(self, hands: list[list[Pair]], boneyard: int) -> list[RefEvent]:
        """Hand ``hand_number + 1`` as dealt ([A5-2], given by the harness); its leader
        [A5-4] [A5-5]. Returns ``[("DEAL", k), ("LEADER", seat)]``."""
        number = self.hand_number + 1
        assert len(hands) == self.players
        k = hand_size(self.opts, self.players)
        assert all(len(h) == k for h in hands), "[A5-2] every seat is dealt k tiles"
        # [A5-13] the stock: every tile neither dealt nor drawn
        assert boneyard == len(full_set(self.opts["set_max_pip"])) - self.players * k
        lead_tile: Pair | None = None
        previous = self.hand
        if number == 1 or self.opts["next_lead"] == "AS_FIRST":
            leader, lead_tile = self._first_lead(hands)
        elif self.opts["next_lead"] == "NEXT_SEAT":
            assert previous is not None
            leader = (previous.leader + 1) % self.players
        else:  # WINNER
            assert previous is not None and self.history
            if self.history[-1].end == DOMINOED:
                # the player who dominoed; under partners_play_out the seat that laid the
                # hand's last tile
                assert previous.last_layer is not None
                leader = previous.last_layer
            else:
                # nobody dominoed: by lot, the stream lead/<hand> (docstring decision)
                leader = below(self.seed, f"lead/{number}", self.players)
        self.hand_number = number
        self.status = IN_PROGRESS
        self.hand = Hand(
            hands=[sorted(h) for h in hands],
            boneyard=boneyard,
            leader=leader,
            lead_tile=lead_tile,
            to_act=leader,
            points=[0] * self.players,
        )
        return [("DEAL", k), ("LEADER", leader)]

    def _first_lead(self, hands: list[list[Pair]]) -> tuple[int, Pair | None]:
        """[A5-4] ANY_TILE: seat 0, any tile (by lot = who sits in seat 0). HIGHEST_DOUBLE:
        the holder of the highest-ranked tile dealt ([BLK-4]) leads it, only that."""
        if self.opts["first_lead"] == "ANY_TILE":
            return 0, None
        best = max((rank(t), s, t) for s, h in enumerate(hands) for t in h)
        return best[1], best[2]

    # ---- the layout ----------------------------------------------------------------

    def arms_open(self) -> bool:
        """[A5-7] UP and DOWN open once both sides of the spinner touch a tile of the line."""
        h = self.hand
        assert h is not None
        return h.spinner is not None and 0 < h.spinner < len(h.line) - 1

    def open_ends(self) -> dict[str, int]:
        """[A5-6] [A5-7] the number showing at each open end."""
        h = self.hand
        assert h is not None
        if not h.line:
            return {}
        ends = {LEFT: h.line[0][1], RIGHT: h.line[-1][2]}
        if self.arms_open():
            assert h.spinner is not None
            number = h.line[h.spinner][0][0]
            ends[UP] = h.up[-1][2] if h.up else number
            ends[DOWN] = h.down[-1][2] if h.down else number
        return ends

    def compute_count(self) -> int:
        """[A5-8] the sum over the open ends of the number showing, twice where the end's
        outermost tile is a double; UP and DOWN add nothing until a tile lies there; a line
        of one tile adds its pips once."""
        h = self.hand
        assert h is not None
        if not h.line:
            return 0
        if len(h.line) == 1:
            tile = h.line[0][0]
            return tile[0] + tile[1]
        first, last = h.line[0], h.line[-1]
        count = first[1] * (2 if is_double(first[0]) else 1)
        count += last[2] * (2 if is_double(last[0]) else 1)
        if self.arms_open():
            for arm in (h.up, h.down):
                if arm:
                    tile, _inner, outer = arm[-1]
                    count += outer * (2 if is_double(tile) else 1)
        return count

    def fits(self, tile: Pair) -> bool:
        return any(n in tile for n in self.open_ends().values())

    def can_draw(self) -> bool:
        """[A5-3] while ``draw`` is on and the boneyard holds more than boneyard_keep."""
        h = self.hand
        assert h is not None
        return bool(self.opts["draw"]) and h.boneyard > self.opts["boneyard_keep"]

    def blocked(self) -> bool:
        """[A5-10] as [BLK-9]: nobody holds a tile that fits an open end, and nothing more
        may be drawn."""
        h = self.hand
        assert h is not None
        if self.can_draw():
            return False
        return not any(self.fits(t) for hand in h.hands for t in hand)

    # ---- moves ----------------------------------------------------------------------

    def to_act(self) -> int | None:
        if self.status == MATCH_OVER:
            return None
        if self.status == HAND_OVER:
            return 0  # Common ground: seat 0 applies NEXT_HAND
        assert self.hand is not None
        return self.hand.to_act

    def legal_moves(self) -> list[RefMove]:
        """[A5-3] [A5-4] [A5-6] [A5-7] the moves of the seat to act."""
        if self.status == MATCH_OVER:
            return []
        if self.status == HAND_OVER:
            return [(NEXT_HAND, None, None)]
        h = self.hand
        assert h is not None
        hand = h.hands[h.to_act]
        if not h.line:
            if h.lead_tile is not None:
                return [(PLAY, h.lead_tile, None)]
            return [(PLAY, t, None) for t in sorted(set(hand))]
        ends = self.open_ends()
        plays: list[RefMove] = [
            (PLAY, t, end) for t in sorted(set(hand)) for end, n in ends.items() if n in t
        ]
        if plays:
            return plays
        return [(DRAW, None, None)] if self.can_draw() else [(PASS, None, None)]

    def next_seat(self, seat: int) -> int:
        """Seat order; [A5-10] a seat already out is skipped under partners_play_out."""
        h = self.hand
        assert h is not None
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if h.hands[nxt] or not self.play_out():
                return nxt
        raise AssertionError("nobody holds a tile")

    def apply(self, move: RefMove, draw: Draw) -> list[RefEvent]:
        """Apply a legal move of the seat to act; returns the events the harness compares:
        ``("PLAY", seat, tile, end)``, ``("PEG", seat, points, count)``, ``("DRAW", seat,
        tile)`` per tile, ``("PASS", seat)``, ``("HAND_OVER", winners, points)``,
        ``("MATCH_OVER", winners, totals)``."""
        assert move in self.legal_moves(), move
        h = self.hand
        assert h is not None and self.status == IN_PROGRESS
        seat = h.to_act
        kind, tile, end = move
        events: list[RefEvent] = []
        if kind == PASS:
            events.append(("PASS", seat))
            h.to_act = self.next_seat(seat)  # a PASS never blocks a hand [A5-10]
            return events
        if kind == DRAW:
            # [A5-3] one at a time until one fits or only boneyard_keep are left
            while self.can_draw():
                drawn = draw(seat)
                h.boneyard -= 1
                h.hands[seat] = sorted([*h.hands[seat], drawn])
                events.append(("DRAW", seat, drawn))
                if self.fits(drawn):
                    return events  # the drawer acts again and must play it
            if self.blocked():
                return events + self._hand_end(BLOCKED, None, 0)
            h.to_act = self.next_seat(seat)
            return events
        assert kind == PLAY and tile is not None
        events.append(("PLAY", seat, tile, end))  # [A5-15] none on the lead
        self._lay(tile, end)
        h.hands[seat].remove(tile)
        h.last_layer = seat
        h.count = self.compute_count()
        points = play_points(h.count, self.opts)
        # [A5-10] going out: a player lays their last tile; under partners_play_out both
        # partners must have laid theirs
        out = not h.hands[seat] and (
            not self.play_out() or all(not h.hands[s] for s in self.side(seat))
        )
        if out:
            return events + self._hand_end(DOMINOED, seat, points)
        if points:
            scored = self._score(seat, points)
            if scored:
                events.append(("PEG", seat, points, h.count))
                if self._target_hit(seat):
                    return events + self._finish(TARGET_REACHED, self.side(seat))
        if self.blocked():
            return events + self._hand_end(BLOCKED, None, 0)
        h.to_act = self.next_seat(seat)
        return events

    def _lay(self, tile: Pair, end: str | None) -> None:
        """[A5-6] [A5-7] lay ``tile``: the lead starts the line, high half LEFT; later
        tiles match the end's number, the other half showing; doubles keep the number."""
        h = self.hand
        assert h is not None
        if end is None:
            h.line = [(tile, tile[0], tile[1])]
            if is_double(tile) and self.opts["spinner"] == "FIRST_DOUBLE":
                h.spinner = 0
            return
        number = self.open_ends()[end]
        other = tile[1] if tile[0] == number else tile[0]
        if end == LEFT:
            h.line.insert(0, (tile, other, number))
            if h.spinner is not None:
                h.spinner += 1
            index = 0
        elif end == RIGHT:
            h.line.append((tile, number, other))
            index = len(h.line) - 1
        else:
            (h.up if end == UP else h.down).append((tile, number, other))
            return  # the spinner is always in the line: the first double is laid there
        if h.spinner is None and is_double(tile) and self.opts["spinner"] == "FIRST_DOUBLE":
            h.spinner = index

    # ---- scores ---------------------------------------------------------------------

    def _side_total(self, seat: int) -> int:
        return self.totals()[seat]  # partners carry the same total

    def _score(self, seat: int, points: int) -> bool:
        """[A5-9] points to the side of ``seat`` at once (both partners' seats), unless
        [A5-12] exact_target refuses a score that would pass the target."""
        h = self.hand
        assert h is not None
        target = self.opts["target_score"]
        if self.opts["exact_target"] and target > 0 and self._side_total(seat) + points > target:
            self.refused += 1
            return False
        for s in self.side(seat):
            h.points[s] += points
        return True

    def _target_hit(self, seat: int) -> bool:
        """[A5-12] the match ends the moment a side's total reaches the target (not with
        finish_hand, nor with target 0)."""
        target: int = self.opts["target_score"]
        if target == 0 or self.opts["finish_hand"]:
            return False
        return self._side_total(seat) >= target

    def _hand_end(self, end: str, out_seat: int | None, play: int) -> list[RefEvent]:
        """[A5-10] [A5-11] [A5-12] a hand that a side went out of (``out_seat`` laid the
        last tile, its count scoring ``play``) or that is blocked."""
        h = self.hand
        assert h is not None
        events: list[RefEvent] = []
        seat_counts = [sum(a + b for a, b in hand) for hand in h.hands]
        side_count = {side: sum(seat_counts[s] for s in side) for side in self.sides()}
        if end == DOMINOED:
            assert out_seat is not None
            winner: tuple[int, ...] | None = self.side(out_seat)
        else:
            # docstring decision: the last play's points were scored first (in apply:
            # they may have ended the match TARGET_REACHED, with no bonus); then the bonus
            lowest = min(side_count.values())
            best = [side for side, c in side_count.items() if c == lowest]
            winner = best[0] if len(best) == 1 else None  # a tie: no winner, no bonus
        bonus = 0
        if winner is not None:
            others = sum(c for side, c in side_count.items() if side != winner)
            kind = self.opts["hand_bonus"]
            if kind == "OTHERS_ROUNDED":
                bonus = rounded(others)
            elif kind == "OTHERS_MINUS_OWN_ROUNDED":
                bonus = rounded(max(0, others - side_count[winner]))
            elif kind == "CHIP_OUT_POINT":
                bonus = 1 if end == DOMINOED else 0
            if self.opts["divide_by_five"]:
                bonus //= 5
        if end == DOMINOED:
            # [A5-12] the play that takes a side out scores its count's points and the
            # side's bonus as one score; the PEG carries the count's points (docstring)
            assert out_seat is not None
            if play + bonus and self._score(out_seat, play + bonus) and play:
                events.append(("PEG", out_seat, play, h.count))
        elif bonus and winner is not None:
            self._score(winner[0], bonus)  # exact_target may refuse it on its own
        return events + self._finish(end, winner or ())

    def _finish(self, end: str, winners: tuple[int, ...]) -> list[RefEvent]:
        """The hand's result and, [A5-12], whether the match is over."""
        h = self.hand
        assert h is not None
        h.end = end
        counts = tuple(sum(a + b for a, b in hand) for hand in h.hands)
        result = Result(counts, tuple(h.points), tuple(winners), end)
        self.history.append(result)
        self.status = HAND_OVER
        events: list[RefEvent] = [("HAND_OVER", result.winners, result.points)]
        target = self.opts["target_score"]
        totals = self.totals()
        # docstring decision: a match no side has won by hand 1,000 (the framework's
        # MAX_HANDS) ends there, on the totals as they stand
        over = target == 0 or max(totals) >= target or self.hand_number >= MAX_HANDS
        if end == TARGET_REACHED or over:
            self.status = MATCH_OVER
            events.append(("MATCH_OVER", self.winners(), tuple(self.totals())))
        return events
