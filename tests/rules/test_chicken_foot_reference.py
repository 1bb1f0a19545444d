"""Chicken Foot checked in lockstep against a second reading of RULES.md.

No implementation of Chicken Foot exists outside this project, so the other side of this
cross-check is ``tests/rules/reference/chicken_foot.py``: a small model written from
RULES.md alone ([CF-1]..[CF-11] and the [MT-*] tags they cite), without reading the
service's code, following the service's module docstring only where RULES.md leaves a case
open. Two readings of the same text that agree move after move over thousands of random
positions leave little room for a misreading in either.

Random seeded matches are played through both, with a spread of options: sets double-6,
-9 and -12 ``[CF-1]``, 2 to 8 players, the centre with 4 or 6 arms ``[CF-4]``, both
``engine`` options (``FROM_HAND`` with its hunt for the engine, ``[MT-3]``), the deal's
table and explicit hand sizes (small boneyards, so that hands block), ``[0-0]`` at 50 and
other values ``[CF-8]``, and short matches (``hands``) or full ones ``[CF-9]``. The deal is
the documented shuffle (``deal/<hand>/0``) dealt as ``[MT-2]`` says; every tile drawn is the
one the service's ``DRAW`` event shows its drawer, which must be the front of the boneyard.

Compared at every decision: the seat to act and the set of legal moves ``[CF-4]``
``[CF-5]`` ``[CF-6]``, and a move outside that set is refused ``[CF-11]``. After every
move: its events ``[CF-11]``, and what both can see: the arms with their feet, tiles and
open ends, the feet, the pending foot ``[CF-3]`` ``[CF-10]``, every hand, the hand sizes and
the boneyard's size. At each hand's end: how it ended ``[CF-7]``, each seat's count, points
and the winners ``[CF-8]``; at the match's end the totals and the winners ``[CF-9]``. The
move played is chosen at random among the legal moves both list.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from domino_rules.rules import rng
from domino_rules.rules.errors import IllegalMoveError, OptionsError, PlayerCountError
from domino_rules.rules.events import Event
from domino_rules.rules.match import Match, Status
from domino_rules.rules.moves import Move, MoveKind
from domino_rules.rules.registry import get
from domino_rules.rules.tiles import Tile

from .reference import chicken_foot as ref
from .reference.chicken_foot import FROM_HAND, SET_ASIDE, Options, Pair, RefEvent, RefMove

RULES = get("chicken_foot")
SvcMatch = Match[Any, Any]

#: The default tier: matches of 1 to 3 hands; the slow tier plays ten times as many,
#: some of them full matches (one hand per double).
MATCHES = 250
SLOW_MATCHES = 2_500


class Mismatch(AssertionError):
    """A difference between the service and the reference: tag, seed and position."""


@dataclasses.dataclass
class Tally:
    matches: int = 0
    hands: int = 0
    moves: int = 0
    sets: int = 0
    sets_equal: int = 0
    refusals: int = 0
    ends: Counter[str] = dataclasses.field(default_factory=Counter)
    kinds: Counter[str] = dataclasses.field(default_factory=Counter)
    #: (set, players, engine, centre arms) of every match played
    spread: set[tuple[int, int, str, int]] = dataclasses.field(default_factory=set)
    feet: int = 0
    dead_feet: int = 0
    blank_counted: int = 0

    def line(self, seconds: float) -> str:
        ends = ", ".join(f"{n} {end}" for end, n in sorted(self.ends.items()))
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(self.kinds.items()))
        return (
            f"chicken_foot lockstep: {self.matches} matches, {self.hands} hands ({ends}), "
            f"{self.moves} moves compared ({kinds}), legal-move sets equal {self.sets_equal} "
            f"of {self.sets}, {self.refusals} moves outside the set refused, {self.feet} "
            f"feet grown ({self.dead_feet} seen dead with an empty toe), [0-0] counted in "
            f"{self.blank_counted} hands; {seconds:.1f} s"
        )


# ------------------------------------------------------------------ the two sides


def tile_of(pair: Pair) -> Tile:
    return Tile(*pair)


def pair_of(tile: Tile | None) -> Pair | None:
    return None if tile is None else (tile.high, tile.low)


def move_of(seat: int, move: RefMove) -> Move:
    kind, pair, arm = move
    return Move(seat, MoveKind[kind], None if pair is None else tile_of(pair), train=arm)


def ref_move(move: Move) -> RefMove:
    assert move.end is None and move.open_pip is None and move.target is None, move
    return (move.kind.value, pair_of(move.tile), move.train)


def event_of(event: Event) -> RefEvent:
    """A service event as the reference writes it (tiles as the drawer sees them)."""
    kind = event.kind.value
    tile = pair_of(event.tile)
    if kind in ("DEAL", "NEXT_HAND"):
        return (kind, event.count)
    if kind == "DRAW":
        assert event.private_to == event.seat, "[MT-16] a DRAW's tile is the drawer's"
        return (kind, event.seat, tile)
    if kind == "ENGINE":
        return (kind, event.seat, tile)
    if kind in ("LEADER", "PASS"):
        return (kind, event.seat)
    if kind == "PLAY":
        return (kind, event.seat, tile, event.train)
    if kind in ("HAND_OVER", "MATCH_OVER"):
        return (kind, event.seats, event.scores)
    return (kind, event.seat, tile, event.train, event.count)


def service_options(opts: Options) -> Any:
    return RULES.make_options(dataclasses.asdict(opts))


def deal_of(seed: str, opts: Options, players: int) -> Any:
    """[MT-2] the deal of hand ``number`` (0-based): the documented shuffle of the tiles it
    deals from (label ``deal/<hand>/0``, hands counted from 1), seat 0 the first k tiles,
    seat 1 the next k, and so on; the rest is the boneyard, drawn from its front."""
    size = ref.hand_size(opts, players)

    def deal(number: int) -> tuple[list[list[Pair]], list[Pair]]:
        order = rng.shuffled(seed, f"deal/{number + 1}/0", ref.deal_set(opts, number))
        hands = [list(order[s * size : (s + 1) * size]) for s in range(players)]
        return hands, list(order[players * size :])

    return deal


class Lockstep:
    """One match played through the service and the reference side by side."""

    def __init__(self, seed: str, opts: Options, players: int, tally: Tally) -> None:
        self.seed, self.opts, self.players, self.tally = seed, opts, players, tally
        self.choose = random.Random(f"choose/{seed}")
        self.deal = deal_of(seed, opts, players)
        self.boneyard: list[Pair] = []
        self.drawn: list[tuple[int, Pair]] = []  # the service's DRAW events, to be drawn
        self.where = "the deal"
        self.svc: SvcMatch = RULES.new_match(service_options(opts), players, seed)
        self.queue_draws(self.svc.last_events)
        self.ref = ref.ChickenFootMatch(opts, players, self.ref_deal, self.ref_draw)
        self.compare_events(self.svc.last_events, self.ref.events, "[CF-2] [MT-3] the deal")
        self.seen_feet = 1
        self.dead_feet: set[int] = set()  # this hand's feet seen dead with an empty toe

    # the reference's deal and draws, fed from the documented deal and the service's DRAWs

    def ref_deal(self, number: int) -> tuple[list[list[Pair]], int]:
        hands, self.boneyard = self.deal(number)
        return hands, len(self.boneyard)

    def ref_draw(self, seat: int) -> Pair:
        if not self.drawn:
            self.fail("[MT-8] [MT-3]", f"seat {seat} draws; the service drew nothing")
        drawer, tile = self.drawn.pop(0)
        front = self.boneyard.pop(0)
        if drawer != seat or tile != front:
            self.fail("[MT-2] [MT-8]", f"seat {seat} draws {front}; service: {drawer} {tile}")
        return tile

    def queue_draws(self, events: tuple[Event, ...]) -> None:
        self.drawn = [
            (e.seat, (e.tile.high, e.tile.low))
            for e in events
            if e.kind.value == "DRAW" and e.seat is not None and e.tile is not None
        ]

    # comparisons

    def fail(self, tag: str, what: str) -> None:
        raise Mismatch(
            f"{tag} seed {self.seed!r} {self.players}p {self.opts}, hand "
            f"{self.svc.hand_number}, {self.where}: {what}"
        )

    def check(self, tag: str, name: str, service: object, reference: object) -> None:
        if service != reference:
            self.fail(tag, f"{name}: service {service}, reference {reference}")

    def compare_events(self, events: tuple[Event, ...], expected: list[RefEvent], tag: str) -> None:
        self.check(tag, "events", [event_of(e) for e in events], expected)
        if self.drawn:
            self.fail(tag, f"the service drew {self.drawn}, the reference did not")

    def compare_state(self) -> None:
        """[CF-3] [CF-10]: the table, the hands, the hand sizes and the boneyard."""
        hand = self.ref.hand
        view = RULES.view(self.svc, None)
        table = view.table
        self.check("[CF-10]", "engine", pair_of(table.engine), hand.engine)
        self.check("[MT-4] [CF-2]", "leader", table.leader, hand.leader)
        self.check("[CF-3] [CF-5]", "feet", tuple(table.feet), tuple(hand.feet))
        arms = [
            (a.arm, a.foot, tuple((t.left, t.right) for t in a.tiles), a.open_end)
            for a in table.arms
        ]
        mine = [(i, a.foot, tuple(a.tiles), hand.open_end(a)) for i, a in enumerate(hand.arms)]
        self.check("[CF-3] [CF-4] [CF-5]", "arms", arms, mine)
        for arm in table.arms:
            for laid in arm.tiles:
                self.check("[CF-3]", "a laid tile", laid.tile, Tile.of(laid.left, laid.right))
        pending = None if hand.result is not None else hand.pending_foot()
        if self.svc.status is Status.IN_PROGRESS:
            self.check("[CF-4] [CF-5] [CF-10]", "pending foot", table.pending_foot, pending)
        self.check("[MT-8]", "boneyard size", view.stock, hand.stock)
        self.check(
            "[CF-6]", "hand sizes", tuple(view.hand_sizes), tuple(len(h) for h in hand.hands)
        )
        hands = [[pair_of(t) for t in h] for h in self.svc.hand_state.hands]
        self.check("[CF-6] [MT-2]", "hands", hands, hand.hands)
        if len(hand.feet) > self.seen_feet:
            self.tally.feet += len(hand.feet) - self.seen_feet
            self.seen_feet = len(hand.feet)
        dead = hand.dead_numbers()
        for f in range(1, len(hand.feet)):
            if hand.feet[f] in dead and any(not a.tiles for a in hand.arms if a.foot == f):
                self.dead_feet.add(f)

    def compare_turn(self) -> tuple[int | None, list[RefMove]]:
        """[CF-4] [CF-5] [CF-6]: the seat to act and its legal moves, as a set."""
        to_act = RULES.to_act(self.svc)
        self.check("[CF-6] [MT-4]", "seat to act", to_act, self.ref.to_act())
        listed = RULES.legal_moves(self.svc)
        service = [ref_move(m) for m in listed]
        for move in listed:
            self.check("[CF-11]", "a legal move's seat", move.seat, to_act)
        self.check("[MT-15]", "legal moves listed once", len(service), len(set(service)))
        reference = self.ref.legal_moves()
        self.tally.sets += 1
        self.check("[CF-4] [CF-5] [CF-6]", "legal moves", sorted(service), sorted(reference))
        self.tally.sets_equal += 1
        return to_act, reference

    def probe(self, seat: int, legal: list[RefMove]) -> None:
        """[CF-11]: a move outside the legal set is refused, and changes nothing."""
        hand = self.ref.hand
        tiles = hand.hands[seat] or [(0, 0)]
        arms = len(hand.arms)
        candidates: list[RefMove] = [
            ("PLAY", self.choose.choice(tiles), self.choose.randrange(arms + 2)),
            ("PLAY", self.choose.choice(tiles), None),
            ("DRAW", None, None),
            ("PASS", None, None),
            ("NEXT_HAND", None, None),
        ]
        move = self.choose.choice(candidates)
        if move in legal:
            return
        try:
            RULES.apply(self.svc, move_of(seat, move))
        except IllegalMoveError:
            self.tally.refusals += 1
        else:
            self.fail("[CF-11] [MT-15]", f"the service accepted {move}, not a legal move")

    def compare_end(self) -> None:
        """[CF-7] [CF-8] [CF-9]: the hand's result, and the match's at its end."""
        result = self.ref.history[-1]
        score = RULES.score(self.svc)
        mine = score.hands[-1]
        self.check("[CF-7]", "end", mine.end.value, result.end)
        self.check("[CF-8] [MT-12]", "counts", tuple(mine.counts), result.counts)
        self.check("[CF-8] [MT-12]", "points", tuple(mine.points), result.points)
        self.check("[MT-12]", "hand winners", tuple(mine.winners), result.winners)
        self.check("[CF-9] [MT-13]", "totals", tuple(score.match_points), self.ref.totals())
        self.check("[CF-9] [MT-13]", "match winners", tuple(score.winners), self.ref.winners())
        over = Status.MATCH_OVER if self.ref.over else Status.HAND_OVER
        self.check("[CF-9] [MT-13]", "status", self.svc.status, over)
        self.tally.hands += 1
        self.tally.ends[result.end] += 1
        if self.opts.double_blank_points and any((0, 0) in h for h in self.ref.hand.hands):
            self.tally.blank_counted += 1

    def play(self) -> None:
        self.compare_state()
        moves = 0
        while True:
            to_act, legal = self.compare_turn()
            if to_act is None:
                break
            assert legal, "a seat to act has a move"
            self.probe(to_act, legal)
            move = self.choose.choice(sorted(legal))
            self.where = f"move {moves} ({to_act} {move})"
            self.svc, events = RULES.apply(self.svc, move_of(to_act, move))
            self.queue_draws(events)
            expected = self.ref.apply(move)
            if move[0] == "NEXT_HAND":
                self.seen_feet, self.dead_feet = 1, set()
            self.compare_events(events, expected, "[CF-11] [MT-16] events")
            self.compare_state()
            own = [pair_of(t) for t in RULES.view(self.svc, to_act).hand]
            self.check("[CF-10] [MT-14]", "the mover's own view", own, self.ref.hand.hands[to_act])
            self.tally.moves += 1
            self.tally.kinds[move[0]] += 1
            moves += 1
            if self.ref.hand.result is not None and move[0] != "NEXT_HAND":
                self.tally.dead_feet += len(self.dead_feet)
                self.compare_end()
        self.tally.matches += 1


# ------------------------------------------------------------------ the spread of matches


def spread(count: int, label: str, *, full_every: int = 0) -> Iterator[tuple[str, Options, int]]:
    """``count`` matches: every set, both centres and both engines in turn, players 2..8,
    now and then an explicit hand size or another [0-0] value, and every fourth match two
    or three players with the most tiles each (a near-empty boneyard: hands block); 1 to
    3 hands, or every ``full_every``-th match a full one."""
    for index in range(count):
        pick = random.Random(f"{label}/{index}")
        top = (6, 9, 12)[index % 3]
        centre = (4, 6)[index // 3 % 2]
        engine = (SET_ASIDE, FROM_HAND)[index // 6 % 2]
        players = 2 + (index + index // 12) % 7
        if index % 4 == 3:
            players = 2 + index // 4 % 2  # with the most tiles each: where hands block
        tiles = (top + 1) * (top + 2) // 2 - (engine == SET_ASIDE)
        most = min(tiles // players, (top + 1) * (top + 2) // 4)
        size = 0
        if index % 4 == 3:
            size = most
        elif (top == 6 and players > 5) or pick.random() < 0.3:
            size = pick.choice((pick.randint(1, most), most, max(1, most - 1)))
        blank = pick.choice((50, 50, 50, 0, 25, 100))
        hands = 0 if full_every and index % full_every == 0 else pick.randint(1, 3)
        opts = Options(top, size, hands, engine, centre, blank)
        yield f"{label}/{index}", opts, players


def run(count: int, label: str, *, full_every: int = 0) -> Tally:
    tally = Tally()
    start = time.perf_counter()
    for seed, opts, players in spread(count, label, full_every=full_every):
        tally.spread.add((opts.set_max_pip, players, opts.engine, opts.centre_toes))
        Lockstep(seed, opts, players, tally).play()
    print(tally.line(time.perf_counter() - start))
    return tally


def covered(tally: Tally) -> None:
    """The run reached what it is meant to compare."""
    assert tally.sets == tally.sets_equal
    assert {top for top, _, _, _ in tally.spread} == {6, 9, 12}
    assert {players for _, players, _, _ in tally.spread} == set(range(2, 9))
    assert {(engine, centre) for _, _, engine, centre in tally.spread} == {
        (engine, centre) for engine in (SET_ASIDE, FROM_HAND) for centre in (4, 6)
    }
    assert tally.ends["DOMINOED"] and tally.ends["BLOCKED"]
    assert tally.kinds["DRAW"] and tally.kinds["PASS"] and tally.kinds["NEXT_HAND"]
    assert tally.feet and tally.dead_feet and tally.blank_counted and tally.refusals


def test_lockstep_random_matches() -> None:
    """[CF-1] [CF-2] [CF-3] [CF-4] [CF-5] [CF-6] [CF-7] [CF-8] [CF-9] [CF-10] [CF-11]
    [MT-2] [MT-3] [MT-4] [MT-8] [MT-9] [MT-11] [MT-12] [MT-13] [MT-15] [MT-16]: random
    matches of 1 to 3 hands, in lockstep with the reference."""
    covered(run(MATCHES, "cf-oracle"))


@pytest.mark.slow
def test_lockstep_random_matches_slow() -> None:
    """[CF-1] .. [CF-11], [MT-2] [MT-3] [MT-4] [MT-8] [MT-9] [MT-11] [MT-12] [MT-13]: ten
    times as many matches, every tenth a full match of one hand per double."""
    covered(run(SLOW_MATCHES, "cf-oracle-slow", full_every=10))


def test_lockstep_a_seat_dealt_only_the_centre() -> None:
    """[MT-3] [CF-2] [CF-7]: ``FROM_HAND`` with one tile each, where a seat is dealt only
    the centre double. It places it and plays first with an empty hand, so it draws (the
    module docstring's decision: placing the centre is not laying a tile)."""
    tally = Tally()
    found = 0
    for index in range(400):
        players = 2 + index % 7
        opts = Options(set_max_pip=(9, 12)[index % 2], hand_size=1, hands=1, engine=FROM_HAND)
        seed = f"cf-centre-only/{index}"
        hands, _ = deal_of(seed, opts, players)(0)
        if [ref.engine_of(opts, 0)] in hands:
            found += 1
            Lockstep(seed, opts, players, tally).play()
    assert found >= 5 and tally.sets == tally.sets_equal
    assert tally.kinds["DRAW"]
    print(f"chicken_foot, a seat dealt only the centre: {found} matches, {tally.moves} moves")


# ------------------------------------------------------------------ options and players


def _outcome(call: Any) -> str:
    try:
        call()
    except (OptionsError, ref.BadOptions):
        return "BAD_OPTIONS"
    except (PlayerCountError, ref.BadPlayerCount):
        return "BAD_PLAYER_COUNT"
    return "ok"


def test_options_and_player_counts_agree() -> None:
    """[CF-1] [CF-11] [MT-2] [MT-15]: the options and player counts each side accepts or
    refuses, and the hand size it deals, over a grid that crosses every range's edges
    (sets 6, 9, 12 and the refused 15; centres 4, 5, 6; players 1..9)."""
    compared = 0
    for top in (6, 9, 12, 15):
        half = (top + 1) * (top + 2) // 4
        for centre in (4, 5, 6):
            for engine in (SET_ASIDE, FROM_HAND):
                for size in sorted({0, 1, 5, 7, half - 1, half, half + 1}):
                    for hands, blank in ((0, 50), (top + 1, 0), (top + 2, 100), (1, 101)):
                        opts = Options(top, size, hands, engine, centre, blank)
                        for players in range(1, 10):
                            service = _outcome(
                                lambda o=opts, p=players: RULES.new_match(
                                    service_options(o), p, "grid"
                                )
                            )
                            mine = _outcome(lambda o=opts, p=players: ref.hand_size(o, p))
                            assert service == mine, (opts, players, service, mine)
                            if mine == "ok":
                                match = RULES.new_match(service_options(opts), players, "grid")
                                events = [event_of(e) for e in match.last_events]
                                assert events[0] == ("DEAL", ref.hand_size(opts, players))
                            compared += 1
    print(f"chicken_foot options: {compared} option sets and player counts compared")


# ------------------------------------------------------------------ the reference itself


def test_reference_plays_the_worked_example() -> None:
    """[CF-3] [CF-4] [CF-5] [CF-6]: RULES.md's worked example 7, played by the reference
    alone (a check of the second reading; the service plays it in test_chicken_foot.py)."""
    opts = Options(set_max_pip=6, hand_size=5, hands=1)
    dealt = [
        [(6, 5), (6, 3), (5, 5), (2, 1), (1, 0)],
        [(6, 4), (6, 2), (5, 4), (5, 0), (3, 3)],
    ]
    rest = 27 - 10
    match = ref.ChickenFootMatch(opts, 2, lambda n: (dealt, rest), lambda seat: (5, 1))
    for move in [("PLAY", (6, 5), 0), ("PLAY", (6, 4), 1), ("PLAY", (6, 3), 2)]:
        match.apply(move)
    assert ("PLAY", (5, 5), 0) not in match.legal_moves()
    match.apply(("PLAY", (6, 2), 3))
    match.apply(("PLAY", (5, 5), 0))
    assert match.hand.feet == [6, 5] and len(match.hand.arms) == 7 and match.to_act() == 1
    assert sorted(match.legal_moves()) == [("PLAY", (5, 0), 4), ("PLAY", (5, 4), 4)]
    match.apply(("PLAY", (5, 4), 4))
    assert match.legal_moves() == [("DRAW", None, None)]
    match.apply(("DRAW", None, None))
    assert match.legal_moves() == [("PLAY", (5, 1), 5)]
    match.apply(("PLAY", (5, 1), 5))
    match.apply(("PLAY", (5, 0), 6))
    assert match.hand.pending_foot() is None
    assert sorted(match.legal_moves()) == [
        ("PLAY", (1, 0), 5),
        ("PLAY", (1, 0), 6),
        ("PLAY", (2, 1), 3),
        ("PLAY", (2, 1), 5),
    ]
