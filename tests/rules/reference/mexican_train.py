"""Mexican Train written from RULES.md alone ("## The trains family", ``[MT-1]``..``[MT-16]``),
as a second reading to play in lockstep with the service (``test_mexican_train_reference.py``).

A plain model of the match: one hand at a time, then the totals. It shares nothing with the
service but the kernel's value types (:class:`Tile`) and the documented shuffle, which the
caller passes in (``shuffle``). Boneyard tiles are never known here: a seat that draws is
given its tile by the caller (``draw``), so the two never need to share a boneyard. Moves are
plain tuples ``(kind, tile, train)``: ``("PLAY", tile, train)``, ``("DRAW", None, None)``,
``("PASS", None, None)``, ``("NEXT_HAND", None, None)``. Events are tuples
``(kind, seat, tile, train, count, seats, scores)``.

Where RULES.md leaves a case open, the service's module docstring (the only part of the
service read) was checked: its decisions (a chain stops by ``PASS`` only after a tile; a dead
double is dropped in the opening round too; a seat dealt only the engine plays first with an
empty hand; no ``BONUS_TURN`` for a hand's last tile) are what this reading gives anyway.
So is its decision that the doubles of the turn that ends the hand bind in the finished
hand's view, the hand's end ending the turn (``play``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from domino_rules.rules.tiles import Tile

Move = tuple[str, Tile | None, int | None]
Event = tuple[
    str, int | None, Tile | None, int | None, int | None, tuple[int, ...], tuple[int, ...]
]

PLAY, DRAW, PASS, NEXT_HAND = "PLAY", "DRAW", "PASS", "NEXT_HAND"
DOMINOED, BLOCKED = "DOMINOED", "BLOCKED"

#: [MT-2] the deal table: players -> tiles each; double-12 and double-15 share a row.
HAND_SIZES: Mapping[int, Mapping[int, int]] = {
    12: {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10},
    15: {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10},
    9: {2: 12, 3: 11, 4: 10},
}


def event(
    kind: str,
    seat: int | None = None,
    tile: Tile | None = None,
    train: int | None = None,
    count: int | None = None,
    seats: tuple[int, ...] = (),
    scores: tuple[int, ...] = (),
) -> Event:
    return (kind, seat, tile, train, count, seats, scores)


@dataclass(frozen=True)
class Options:
    """[MT-1] [MT-2] [MT-3] [MT-5] [MT-9] [MT-10] [MT-12]: the options and their defaults."""

    set_max_pip: int = 12
    hand_size: int = 0
    hands: int = 0
    engine: str = "SET_ASIDE"
    mexican_train: bool = True
    follow_up: str = "ANY_TRAIN"
    opening: str = "SINGLE"
    double_blank_points: int = 0

    @classmethod
    def of(cls, values: Mapping[str, Any]) -> Options:
        return cls(**{k: (v.name if hasattr(v, "name") else v) for k, v in values.items()})


def full_set(n: int) -> list[Tile]:
    """[MT-1] every pair a >= b of 0..N, in the usual (ascending) order."""
    return [Tile(a, b) for a in range(n + 1) for b in range(a + 1)]


def hand_size(options: Options, players: int) -> int | None:
    """[MT-2] tiles per seat, or None when the count is refused (BAD_PLAYER_COUNT)."""
    if not 2 <= players <= 8:
        return None
    k = options.hand_size or HAND_SIZES[options.set_max_pip].get(players)
    if k is None:
        return None
    dealt_from = len(full_set(options.set_max_pip)) - (options.engine == "SET_ASIDE")
    return k if players * k <= dealt_from else None


@dataclass(frozen=True)
class Result:
    """[MT-11] [MT-12] one finished hand."""

    end: str
    counts: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]


class MexicanTrain:
    """The match: hands dealt by ``shuffle(hand_number, tiles)`` (1-based, the tiles in the
    usual order), and each drawn tile asked of ``draw(seat)``."""

    def __init__(
        self,
        options: Options,
        players: int,
        shuffle: Callable[[int, list[Tile]], list[Tile]],
        draw: Callable[[int], Tile],
    ) -> None:
        assert hand_size(options, players) is not None
        self.o = options
        self.p = players
        self.n = options.set_max_pip
        self.shuffle = shuffle
        self.draw_tile = draw
        # [MT-3] hands: 0 means one per double, N+1.
        self.hands_in_match = options.hands or self.n + 1
        self.results: list[Result] = []
        self.died = 0  # pending doubles dropped when their number died
        self.hand_index = -1  # h, counted from 0
        self.over = False  # the hand is over
        self.match_over = False
        self.deal_events: list[Event] = self.deal()

    # ---- the deal ------------------------------------------------------------------

    def deal(self) -> list[Event]:
        """[MT-2] [MT-3] [MT-4] deal hand h, place the engine (after a hunt), find the leader."""
        self.hand_index += 1
        h, p = self.hand_index, self.p
        self.engine = Tile(self.n - h, self.n - h)  # [MT-3] [N-h, N-h]
        k = hand_size(self.o, p)
        assert k is not None
        tiles = full_set(self.n)
        if self.o.engine == "SET_ASIDE":
            tiles.remove(self.engine)  # taken out before the shuffle
        order = self.shuffle(h + 1, tiles)
        self.hands: list[list[Tile]] = [list(order[s * k : (s + 1) * k]) for s in range(p)]
        self.stock = len(order) - p * k
        events = [event("DEAL", count=k)]
        placer: int | None = None
        if self.o.engine == "FROM_HAND":
            # [MT-3] hunt in rounds from seat h mod P while nobody holds the engine; a round
            # is finished even after the engine turns up.
            while not any(self.engine in hand for hand in self.hands):
                for i in range(p):
                    seat = (h + i) % p
                    if self.stock:
                        tile = self.draw_tile(seat)
                        self.stock -= 1
                        self.hands[seat].append(tile)
                        events.append(event("DRAW", seat, tile))
            placer = next(s for s in range(p) if self.engine in self.hands[s])
            self.hands[placer].remove(self.engine)  # placing it is not a turn
            self.leader = placer  # [MT-4]
        else:
            self.leader = h % p  # [MT-4]
        events.append(event("ENGINE", placer, self.engine))
        events.append(event("LEADER", self.leader))
        # [MT-5] personal trains 0..P-1, then the Mexican train P.
        self.trains: list[list[tuple[Tile, int, int]]] = [
            [] for _ in range(p + self.o.mexican_train)
        ]
        self.public = [False] * p  # [MT-6] all private at the start
        self.pending: list[list[Any]] = []  # [train, binding], oldest first [MT-9]
        # [MT-10] CHAIN: the seats still to take their opening turn, in play order.
        self.opening = [(self.leader + i) % p for i in range(p)] if self.chain() else []
        self.to_act = self.leader
        self.over = False
        self.result: Result | None = None
        return events

    def chain(self) -> bool:
        return self.o.opening == "CHAIN"

    # ---- what the table shows --------------------------------------------------------

    def open_end(self, train: int) -> int:
        """[MT-5] the outer half of the last tile; the engine's number while empty."""
        line = self.trains[train]
        return line[-1][2] if line else self.engine.high

    def on_table(self) -> set[Tile]:
        return {self.engine} | {t for line in self.trains for t, _, _ in line}

    def dead(self, pip: int, table: set[Tile] | None = None) -> bool:
        """[MT-9] every tile showing ``pip`` is on the table."""
        table = self.on_table() if table is None else table
        return all(Tile.of(pip, x) in table for x in range(self.n + 1))

    def in_chain_turn(self, seat: int) -> bool:
        """[MT-10] the seat is taking its opening turn."""
        return bool(self.opening) and self.opening[0] == seat

    def binding(self) -> list[Any] | None:
        """[MT-9] the oldest binding double, if any."""
        return next((d for d in self.pending if d[1]), None)

    def usable_trains(self, seat: int) -> list[int]:
        """[MT-7] [MT-9] [MT-10] the trains the seat may lay on now."""
        if self.in_chain_turn(seat):
            return [seat]  # own train only in the opening turn
        bound = self.binding()
        if bound is not None:
            return [bound[0]]  # only the oldest binding double's train
        usable = [seat]
        if self.o.mexican_train:
            usable.append(self.p)
        usable += [s for s in range(self.p) if s != seat and self.public[s]]
        return sorted(usable)

    def plays(self, seat: int) -> set[Move]:
        found: set[Move] = set()
        for train in self.usable_trains(seat):
            end = self.open_end(train)
            for tile in self.hands[seat]:
                if tile.has(end):
                    found.add((PLAY, tile, train))
        return found

    # ---- legal moves -----------------------------------------------------------------

    def seat_to_act(self) -> int | None:
        if self.match_over:
            return None
        if self.over:
            return 0  # Common ground: seat 0 applies NEXT_HAND
        return self.to_act

    def legal(self) -> set[Move]:
        if self.match_over:
            return set()
        if self.over:
            return {(NEXT_HAND, None, None)}
        seat = self.to_act
        plays = self.plays(seat)
        if plays:
            # [MT-7] a seat that can lay must; [MT-10] once its chain has a tile it may stop.
            if self.in_chain_turn(seat) and self.trains[seat]:
                plays.add((PASS, None, None))
            return plays
        # [MT-8] one legal move: DRAW while the boneyard has tiles, else PASS.
        return {(DRAW, None, None)} if self.stock else {(PASS, None, None)}

    # ---- applying a move -------------------------------------------------------------

    def apply(self, move: Move) -> list[Event]:
        assert move in self.legal(), (move, self.legal())
        kind, tile, train = move
        if kind == NEXT_HAND:
            return [event("NEXT_HAND", count=self.hand_index + 2), *self.deal()]
        seat = self.to_act
        if kind == PLAY:
            assert tile is not None and train is not None
            events = self.play(seat, tile, train)
        elif kind == DRAW:
            events = self.draw(seat)
        else:
            events = self.pass_(seat)
        if not self.over and self.blocked():
            self.end_hand(BLOCKED, events)
        return events

    def play(self, seat: int, tile: Tile, train: int) -> list[Event]:
        events = [event("PLAY", seat, tile, train)]
        chain_turn = self.in_chain_turn(seat)
        end = self.open_end(train)
        self.hands[seat].remove(tile)
        self.trains[train].append((tile, end, tile.other(end)))  # [MT-5] inner half first
        # [MT-9] the tile satisfies a double pending on this train.
        self.pending = [d for d in self.pending if d[0] != train]
        # [MT-6] a tile on one's own train takes the marker down.
        if train == seat and self.public[seat]:
            self.public[seat] = False
            events.append(event("MARKER_DOWN", seat))
        table = self.on_table()
        # [MT-9] a pending double whose number has just died is dropped.
        alive = [d for d in self.pending if not self.dead(self.open_end(d[0]), table)]
        self.died += len(self.pending) - len(alive)  # for the test's tally
        self.pending = alive
        live_double = tile.is_double and not self.dead(tile.high, table)
        if live_double:
            # [MT-9] ON_DOUBLE binds at once; ANY_TRAIN and the opening round do not.
            binds = self.o.follow_up == "ON_DOUBLE" and not chain_turn
            self.pending.append([train, binds])
        if not self.hands[seat]:
            # [MT-11] the hand ends at once, even on a double, even in the chain. Open in
            # RULES.md, as the service shows it: the hand's end ends the turn, so the
            # turn's doubles bind (outside the opening round).
            if not self.opening:
                for d in self.pending:
                    d[1] = True
            self.end_hand(DOMINOED, events)
            return events
        if live_double and not chain_turn:
            events.append(event("BONUS_TURN", seat))  # [MT-9] follow-up: plays again
            return events
        if chain_turn:
            # [MT-10] the chain goes on while a tile fits its own train; else it ends itself.
            if self.plays(seat):
                return events
            events.append(event("TURN_PASSED", seat))
        self.end_turn(seat)
        return events

    def draw(self, seat: int) -> list[Event]:
        """[MT-8] one tile; the seat lays it if it can, else the turn ends, marker up."""
        tile = self.draw_tile(seat)
        self.stock -= 1
        self.hands[seat].append(tile)
        events = [event("DRAW", seat, tile)]
        if not self.plays(seat):
            self.marker_up(seat, events)
            self.end_turn(seat)
        return events

    def pass_(self, seat: int) -> list[Event]:
        events = [event("PASS", seat)]
        if not (self.in_chain_turn(seat) and self.trains[seat]):
            self.marker_up(seat, events)  # [MT-6] not the PASS that stops a chain
        self.end_turn(seat)
        return events

    def marker_up(self, seat: int, events: list[Event]) -> None:
        if not self.public[seat]:
            self.public[seat] = True
            events.append(event("MARKER_UP", seat))

    def end_turn(self, seat: int) -> None:
        if self.in_chain_turn(seat):
            self.opening.pop(0)
            if not self.opening:
                for d in self.pending:  # [MT-10] the round is over: all bind, oldest first
                    d[1] = True
        elif not self.opening:
            for d in self.pending:  # [MT-9] ANY_TRAIN: a turn's doubles bind when it ends
                d[1] = True
        self.to_act = (seat + 1) % self.p

    def blocked(self) -> bool:
        """[MT-11] the boneyard is empty and no hand shows any train's open end."""
        if self.stock:
            return False
        ends = {self.open_end(t) for t in range(len(self.trains))}
        return not any(tile.has(e) for hand in self.hands for tile in hand for e in ends)

    # ---- the end of a hand and the match ---------------------------------------------

    def count(self, seat: int) -> int:
        """[MT-12] pips left; a [0-0] counts ``double_blank_points``."""
        return sum(
            self.o.double_blank_points if t == Tile(0, 0) else t.high + t.low
            for t in self.hands[seat]
        )

    def end_hand(self, end: str, events: list[Event]) -> None:
        counts = tuple(self.count(s) for s in range(self.p))
        points = counts  # [MT-12] the seat that dominoed has no tiles: 0
        if end == DOMINOED:
            winners: tuple[int, ...] = (self.to_act,)
        else:
            winners = tuple(s for s in range(self.p) if counts[s] == min(counts))
        self.result = Result(end, counts, points, winners)
        self.results.append(self.result)
        self.over = True
        events.append(event("HAND_OVER", seats=winners, scores=points))
        if len(self.results) == self.hands_in_match:  # [MT-13]
            self.match_over = True
            events.append(event("MATCH_OVER", seats=self.winners(), scores=self.totals()))

    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r.points[s] for r in self.results) for s in range(self.p))

    def winners(self) -> tuple[int, ...]:
        """[MT-13] the lowest total wins; equal lowest share."""
        if not self.match_over:
            return ()
        totals = self.totals()
        return tuple(s for s in range(self.p) if totals[s] == min(totals))
