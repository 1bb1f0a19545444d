"""One Arm Joe checked in lockstep against a second reading of RULES.md: the clean-room
reference ``tests/rules/reference/one_arm_joe.py``, written from RULES.md (and the
decisions of the service's module docstring) without reading the service's code.

No implementation of One Arm Joe exists outside this project, so the check is a second
reading: many random matches are played through the service and the reference from the
same deal, with every player count the game seats (2 to 9 with double-six, up to 63 with
double-eighteen, including counts that leave no boneyard at all), every ``set_max_pip``
from 6 to 18, ``lead_double_bonus`` on and off, both ``scoring`` rules, both ``tie`` rules
and targets of 0 (a single hand), 50, 100, 150, 200, 250 and others.

Each hand's tiles are read from the seats' views and given to the reference, which also
re-deals the hand from the seed by the documented derivation (README "Checkable deals",
label ``deal/<hand>/<attempt>``, void deals without a double skipped): the hands, the
number of ``REDEAL`` events and the service's boneyard (its hand state read as a plain
record) must be those. Each tile a ``DRAW`` takes is read from the service's ``DRAW``
events as the drawer sees them (and its ``AUTO_PLAY``) and fed to the reference, which
decides itself when to stop drawing; each must be the boneyard's front. At every decision
the seat to act and the set of legal moves ``(kind, tile)`` are compared (service moves
carry no ``end`` nor ``open_pip``); after every move the table (the line, the open end,
the bonus turn, the leader), every seat's hand, the hand sizes, the stock, the match
totals and the move's events (``NEXT_HAND``, ``DEAL``, ``REDEAL``, ``LEADER``, ``PLAY``,
``BONUS_TURN``, ``DRAW`` hidden from the other seats, ``AUTO_PLAY``, ``TURN_PASSED``,
``PASS``, ``HAND_OVER``, ``MATCH_OVER``); at each hand's end the result (end, each seat's
count and points, the winners); at the match end the totals and the winners. Moves are
chosen at random (seeded) among the legal moves; at three decisions in a hundred every other
move the seat could name is tried and must be refused.

Not compared: the hand's reason in words, the API and its tokens, ``check_hand_state``
on states from outside, and the 1,000-hand bound (modelled, never reached).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from domino_rules.rules import EventKind, Match, Move, MoveKind, Status
from domino_rules.rules.errors import IllegalMoveError
from domino_rules.rules.moves import End
from domino_rules.rules.registry import get

from .lockstep import Mismatch, Position, Tally, pair, service_refusal
from .reference import one_arm_joe as ref

RULES = get("one_arm_joe")
PROFILES = {p.id: dict(p.options) for p in RULES.profiles}

#: the share of decisions at which every illegal move is tried
PROBE = 0.03
#: matches per run
QUICK = 300
SLOW = 3_000


def key(move: Move) -> ref.RefMove:
    return (move.kind.name, None if move.tile is None else pair(move.tile))


@dataclass
class Feed:
    """The tiles a ``DRAW`` took in the service, handed to the reference one at a time."""

    tiles: list[ref.Pair]
    where: str
    #: the boneyard as the reference dealt it: the service's draws must come from its front
    boneyard: list[ref.Pair]

    def take(self, seat: int) -> ref.Pair:
        if not self.tiles:
            raise Mismatch(f"[OAJ-7] {self.where}: the reference draws one tile more")
        tile = self.tiles.pop(0)
        front = self.boneyard.pop(0)
        if tile != front:
            raise Mismatch(f"[OAJ-2] {self.where}: drew {tile}, the boneyard's front is {front}")
        return tile


class Lockstep(Position):
    """One match through the service and the reference."""

    def __init__(self, label: str, seed: str, players: int, values: Mapping[str, Any]) -> None:
        self.label, self.seed, self.players = label, seed, players
        self.match: Match[Any, Any] = RULES.new_match(RULES.make_options(values), players, seed)
        self.ref = ref.OneArmJoe(values, players, seed)
        self.chooser = random.Random(seed)
        self.moves: list[str] = []  # this hand's moves, for the messages
        self.tally = Tally()
        self.boneyard: list[ref.Pair] = []

    # ---- comparing --------------------------------------------------------------

    def check_state(self, seats: Iterable[int] | None = None) -> None:
        """Everything both can see after a move; the hands of ``seats`` (default: all;
        after a move, the mover's: no other hand changes)."""
        match, model = self.match, self.ref
        self.same("OAJ-10", "status", match.status.name, model.status)
        self.same("OAJ-5", "seat to act", RULES.to_act(match), model.to_act())
        h = model.hand
        assert h is not None
        table = RULES.view(match, None).table
        self.same("OAJ-4", "line", [pair(t) for t in table.line], h.line)
        self.same("OAJ-4", "open end", table.open_end, h.open_end)
        if match.status is Status.IN_PROGRESS:
            self.same("OAJ-6", "bonus turn", table.bonus_turn, h.bonus)
        elif table.bonus_turn != h.bonus:
            # RULES.md says nothing of the flag once the hand is over: the service keeps
            # it as it was when a seat went out on its bonus turn (not compared)
            self.tally.kinds["bonus_turn flag left set at the hand's end"] += 1
        self.same("OAJ-3", "leader", table.leader, h.leader)
        for seat in range(self.players) if seats is None else seats:
            view = RULES.view(match, seat)
            self.same("OAJ-7", f"seat {seat}'s hand", sorted(map(pair, view.hand)), h.hands[seat])
        self.same("OAJ-7", "hand sizes", list(view.hand_sizes), [len(x) for x in h.hands])
        self.same("OAJ-7", "stock", view.stock, h.boneyard)
        # the hand state as a plain record: the boneyard left, front first
        left = [pair(t) for t in match.hand_state.boneyard]
        self.same("OAJ-2", "the boneyard's tiles", left, self.boneyard)
        self.same("OAJ-10", "match totals", list(view.match_points), model.totals())

    def check_events(self, events: Iterable[Any], mine: list[ref.RefEvent], seat: int) -> None:
        got: list[ref.RefEvent] = []
        for event in events:
            kind = event.kind
            if kind in (EventKind.PLAY, EventKind.AUTO_PLAY):
                self.same("OAJ-7", "a laid tile is public", event.private_to, None)
                got.append((kind.name, event.seat, pair(event.tile), event.open_pip))
            elif kind is EventKind.DRAW:
                seen = event.for_seat(seat).tile
                got.append(("DRAW", event.seat, None if seen is None else pair(seen)))
                for other in (*(s for s in range(self.players) if s != seat), None):
                    self.same("OAJ-7", "drawn tile hidden", event.for_seat(other).tile, None)
            elif kind in (EventKind.PASS, EventKind.TURN_PASSED, EventKind.BONUS_TURN):
                got.append((kind.name, event.seat))
            elif kind in (EventKind.HAND_OVER, EventKind.MATCH_OVER):
                got.append((kind.name, tuple(event.seats), tuple(event.scores)))
            else:
                got.append(("unexpected", kind.name))
        self.same("OAJ-7", "events", got, mine)

    def check_result(self) -> None:
        """[OAJ-8] [OAJ-9] [OAJ-10] the finished hand in GetScore."""
        score = RULES.score(self.match)
        self.same("OAJ-10", "hands scored", len(score.hands), len(self.ref.history))
        got, want = score.hands[-1], self.ref.history[-1]
        self.same("OAJ-8", "hand end", got.end.name, want.end)
        self.same("OAJ-9", "seat counts", got.counts, want.counts)
        self.same("OAJ-9", "hand winners", got.winners, want.winners)
        self.same("OAJ-9", "hand points", got.points, want.points)
        self.same("OAJ-9", "score's hand points", score.hand_points, want.points)
        self.same("OAJ-10", "match winners", score.winners, self.ref.winners())
        self.same("OAJ-10", "match totals", score.match_points, tuple(self.ref.totals()))
        shown = [sorted(map(pair, h)) for h in RULES.view(self.match, None).shown_hands]
        assert self.ref.hand is not None
        self.same("OAJ-9", "hands shown", shown, self.ref.hand.hands)

    # ---- playing ----------------------------------------------------------------

    def deal(self, events: Iterable[Any]) -> None:
        """Give the reference the hand just dealt, from the seats' views."""
        hands = [sorted(map(pair, RULES.view(self.match, s).hand)) for s in range(self.players)]
        stock = RULES.view(self.match, None).stock
        dealt, self.boneyard, void = ref.deal(
            self.ref.opts, self.players, self.seed, self.ref.hand_number + 1
        )
        self.same("OAJ-2", "the deal", hands, [sorted(h) for h in dealt])
        mine = self.ref.start_hand(hands, stock, void)
        got = [
            (e.kind.name, e.seat if e.kind is EventKind.LEADER else e.count)
            for e in events
            if e.kind in (EventKind.DEAL, EventKind.REDEAL, EventKind.LEADER)
        ]
        self.same("OAJ-3", "DEAL, REDEAL and LEADER events", got, mine)
        self.tally.kinds["void deal redealt"] += void
        self.moves = []

    def play(self, tally: Tally) -> None:
        self.tally = tally
        self.deal(self.match.last_events)
        self.check_state()
        if not self.boneyard:
            tally.kinds["hand with no boneyard"] += 1
        while True:
            legal = RULES.legal_moves(self.match)
            mine = self.ref.legal_moves()
            if self.match.status is Status.MATCH_OVER:
                self.same("OAJ-10", "moves after the match", legal, ())
                self.same("OAJ-10", "reference moves after the match", mine, [])
                break
            by_key = {key(m): m for m in legal}
            tally.sets += 1
            self.same("OAJ-7", "legal moves", sorted(by_key, key=repr), sorted(mine, key=repr))
            self.same("OAJ-7", "distinct moves", len(by_key), len(legal))
            for m in legal:
                self.same("OAJ-4", "a move's end and open_pip", (m.end, m.open_pip), (None, None))
            tally.sets_equal += 1
            if self.chooser.random() < PROBE:
                self.probe_illegal(set(mine), tally)
            choice = self.chooser.choice(sorted(by_key, key=repr))
            move = by_key[choice]
            tally.moves += 1
            self.moves.append(str(move))
            self.count_kind(move, tally)
            self.match, events = RULES.apply(self.match, move)
            if move.kind is MoveKind.NEXT_HAND:
                got = [(e.kind.name, e.count) for e in events[:1]]
                self.same("OAJ-10", "NEXT_HAND event", got, [("NEXT_HAND", self.match.hand_number)])
                self.deal(events[1:])
                self.check_state()
                if not self.boneyard:
                    tally.kinds["hand with no boneyard"] += 1
                continue
            feed = self.drawn(events, move.seat)
            mine_events = self.ref.apply(choice, feed.take)
            self.same("OAJ-7", "tiles left undrawn by the reference", feed.tiles, [])
            self.check_events(events, mine_events, move.seat)
            self.count_events(mine_events, tally)
            over = self.match.status is not Status.IN_PROGRESS
            self.check_state(None if over else [move.seat])
            if over:
                self.hand_over(move, tally)
        tally.matches += 1
        hands = len(self.ref.history)
        tally.kinds["1-hand match" if hands == 1 else "match of 2+ hands"] += 1
        if len(self.ref.winners()) > 1:
            tally.kinds["match win shared"] += 1

    def hand_over(self, move: Move, tally: Tally) -> None:
        tally.hands += 1
        result = self.ref.history[-1]
        tally.kinds[f"end {result.end}"] += 1
        if move.kind is MoveKind.DRAW:
            tally.kinds["hand ended by a DRAW"] += 1
        if len(result.winners) > 1:
            tally.kinds[f"tied hand, {self.ref.opts['tie']}"] += 1
            if len(result.winners) == self.players:
                tally.kinds["every seat tied"] += 1
        if result.end == ref.DOMINOED and 0 in [
            c for s, c in enumerate(result.counts) if s not in result.winners
        ]:
            tally.kinds["dominoed against a count of 0"] += 1
        self.check_result()

    def drawn(self, events: Iterable[Any], seat: int) -> Feed:
        """The tiles the service's ``DRAW`` events show the drawer, in order, and the tile
        its ``AUTO_PLAY`` laid (drawn last)."""
        tiles = []
        for event in events:
            if event.kind in (EventKind.DRAW, EventKind.AUTO_PLAY):
                tile = event.for_seat(seat).tile
                if tile is None:
                    raise Mismatch(f"[OAJ-7] {self.where()}: the drawer does not see the tile")
                tiles.append(pair(tile))
        return Feed(tiles, self.where(), self.boneyard)

    def probe_illegal(self, legal: set[ref.RefMove], tally: Tally) -> None:
        """[OAJ-3] [OAJ-6] [OAJ-7] every other move of the seat to act (each tile of its
        hand, and with an end or an open pip; ``DRAW``; ``PASS``; ``NEXT_HAND``) and a move
        of another seat are refused and change nothing."""
        seat = RULES.to_act(self.match)
        assert seat is not None
        tiles = sorted(set(RULES.view(self.match, seat).hand))
        candidates = [Move(seat, MoveKind[k]) for k in (ref.DRAW, ref.PASS, ref.NEXT_HAND)]
        for tile in tiles:
            candidates.append(Move(seat, MoveKind.PLAY, tile))
            candidates.append(Move(seat, MoveKind.PLAY, tile, end=End.LEFT))
            candidates.append(Move(seat, MoveKind.PLAY, tile, open_pip=tile.low))
        other = (seat + 1) % self.players
        candidates += [Move(other, MoveKind[k]) for k in (ref.DRAW, ref.PASS)]
        for move in candidates:
            if (
                key(move) in legal
                and move.seat == seat
                and move.end is None
                and move.open_pip is None
            ):
                continue
            before = self.match
            try:
                RULES.apply(self.match, move)
            except IllegalMoveError:
                tally.kinds["illegal move refused"] += 1
            except Exception as exc:  # NotYourTurnError and kin: refused too
                tally.kinds[f"refused: {type(exc).__name__}"] += 1
            else:
                raise Mismatch(f"[OAJ-7] {self.where()}: {move} was not refused")
            self.same("OAJ-7", "a refused move changes nothing", self.match, before)

    def count_kind(self, move: Move, tally: Tally) -> None:
        hand = self.ref.hand
        kind = move.kind.name
        if hand is not None and hand.bonus and self.ref.status == ref.IN_PROGRESS:
            kind += " on a bonus turn"
        elif kind == ref.PLAY and hand is not None and not hand.line:
            kind = "lead"
        tally.kinds[kind] += 1

    def count_events(self, events: list[ref.RefEvent], tally: Tally) -> None:
        names = [e[0] for e in events]
        for name in ("AUTO_PLAY", "TURN_PASSED", "BONUS_TURN"):
            tally.kinds[f"event {name}"] += name in names
        if "AUTO_PLAY" in names and "BONUS_TURN" in names:
            tally.kinds["drawn double, bonus turn"] += 1
        hand = self.ref.hand
        assert hand is not None
        if "BONUS_TURN" in names and names[0] == "PLAY" and len(hand.line) == 1:
            tally.kinds["lead double bonus"] += 1


# ------------------------------------------------------------------ the scenarios

TARGETS = [0, 0, 50, 100, 150, 200, 250, 30, 75]


def random_options(chooser: random.Random) -> tuple[int, dict[str, Any]]:
    """A valid random set of options (every option varied) and a player count."""
    top = chooser.choice([6, 6, 6, 6, 6, 7, 8, 9, 9, 10, 12, 15, 18])
    values: dict[str, Any] = {
        "set_max_pip": top,
        "lead_double_bonus": chooser.random() < 0.5,
        "scoring": chooser.choice(ref.ENUMS["scoring"]),
        "tie": chooser.choice(ref.ENUMS["tie"]),
        "target_score": chooser.choice(TARGETS),
    }
    for name in chooser.sample(sorted(values), chooser.randint(0, 2)):
        del values[name]  # the defaults
    low, high = ref.player_range(ref.options(values))
    roll = chooser.random()
    if roll < 0.1:
        players = high  # every tile dealt but a few (or none)
    elif roll < 0.7:
        players = chooser.randint(low, min(high, 5))
    else:
        players = chooser.randint(low, min(high, 12))
    return players, values


def scenarios(n: int) -> list[tuple[str, int, dict[str, Any]]]:
    """``n`` matches: the defaults at every player count of double-six, each profile of
    the registry, named cases, then random options."""
    fixed: list[tuple[str, int, dict[str, Any]]] = []
    fixed += [("defaults", players, {}) for players in range(2, 10)]
    for name, values in PROFILES.items():
        fixed += [(f"profile {name}", players, dict(values)) for players in (2, 3, 4)]
    fixed += [
        ("lead double bonus", 3, {"lead_double_bonus": True}),
        ("minus own", 4, {"scoring": "OTHERS_MINUS_OWN", "target_score": 50}),
        ("shared ties", 4, {"tie": "SHARED", "target_score": 150}),
        ("shared, minus own", 5, {"tie": "SHARED", "scoring": "OTHERS_MINUS_OWN"}),
        ("single hand", 2, {"target_score": 0}),
        ("target 250", 2, {"target_score": 250}),
        ("double-seven, no boneyard", 12, {"set_max_pip": 7, "target_score": 50}),
        ("double-nine", 18, {"set_max_pip": 9, "target_score": 50}),
        ("double-twelve", 6, {"set_max_pip": 12, "tie": "SHARED"}),
        ("double-eighteen", 63, {"set_max_pip": 18, "target_score": 0}),
        ("double-eighteen", 7, {"set_max_pip": 18, "lead_double_bonus": True}),
    ]
    chooser = random.Random(f"one-arm-joe-reference-{n}")
    out = [fixed[i % len(fixed)] for i in range(min(n, 2 * len(fixed)))]
    while len(out) < n:
        players, values = random_options(chooser)
        out.append(("random", players, values))
    return out


def run(n: int, prefix: str) -> Tally:
    tally = Tally()
    for i, (label, players, values) in enumerate(scenarios(n)):
        Lockstep(label, f"{prefix}-{i}", players, values).play(tally)
    return tally


def check_coverage(tally: Tally) -> None:
    """What the run must have met, so that it compares what it says it does."""
    for kind in (
        "lead",
        "PLAY",
        "DRAW",
        "PASS",
        "NEXT_HAND",
        "PLAY on a bonus turn",
        "PASS on a bonus turn",
        "event AUTO_PLAY",
        "event TURN_PASSED",
        "event BONUS_TURN",
        "drawn double, bonus turn",
        "lead double bonus",
        "end DOMINOED",
        "end BLOCKED",
        "hand ended by a DRAW",
        "tied hand, NO_SCORE",
        "tied hand, SHARED",
        "void deal redealt",
        "hand with no boneyard",
        "1-hand match",
        "match of 2+ hands",
        "illegal move refused",
    ):
        assert tally.kinds[kind] > 0, (kind, tally.line("coverage"))


# ------------------------------------------------------------------ the tests


def test_random_matches_agree_with_the_reference() -> None:
    """[OAJ-1] [OAJ-2] [OAJ-3] [OAJ-4] [OAJ-5] [OAJ-6] [OAJ-7] [OAJ-8] [OAJ-9] [OAJ-10]
    the defaults at 2 to 9 players, every profile, named cases (lead bonus, both scorings
    and ties, sets up to double-eighteen at 63 players, no boneyard) and random options,
    played through the service and the reference in lockstep: every legal-move set,
    table, hand, score and event equal."""
    start = time.monotonic()
    tally = run(QUICK, "oajref")
    print(tally.line("quick") + f" ({time.monotonic() - start:.1f} s)")
    check_coverage(tally)
    assert tally.matches == QUICK
    assert tally.sets_equal == tally.sets


@pytest.mark.slow
def test_many_random_matches_agree_with_the_reference() -> None:
    """[OAJ-2] [OAJ-3] [OAJ-4] [OAJ-5] [OAJ-6] [OAJ-7] [OAJ-8] [OAJ-9] [OAJ-10] ten times
    as many matches, with other seeds."""
    start = time.monotonic()
    tally = run(SLOW, "oajref-slow")
    print(tally.line("slow") + f" ({time.monotonic() - start:.1f} s)")
    check_coverage(tally)
    assert tally.matches == SLOW


# ------------------------------------------------------------------ options and players


def reference_refusal(values: Mapping[str, Any]) -> tuple[str, range | None]:
    try:
        opts = ref.options(values)
    except ref.BadOptions:
        return "BAD_OPTIONS", None
    low, high = ref.player_range(opts)
    return "OK", range(low, high + 1)


def test_options_and_player_counts_are_refused_alike() -> None:
    """[OAJ-1] [OAJ-2] [OAJ-9] [OAJ-10] random option sets, in and out of range: refused
    alike (``BAD_OPTIONS``), and the same player range, 2 to floor(tiles / 3), where
    accepted; every profile of the registry is accepted by both."""
    chooser = random.Random("oajref-options")
    tally: Counter[str] = Counter()
    for _ in range(600):
        values: dict[str, Any] = {
            "set_max_pip": chooser.choice([5, 6, 6, 7, 9, 12, 17, 18, 19]),
            "target_score": chooser.choice([-1, 0, 50, 100, 100_000, 100_001]),
            "lead_double_bonus": chooser.random() < 0.5,
            **{name: chooser.choice(allowed) for name, allowed in ref.ENUMS.items()},
        }
        for name in chooser.sample(sorted(values), chooser.randint(0, len(values))):
            del values[name]  # the defaults
        got, want = service_refusal(RULES, values), reference_refusal(values)
        assert got == want, values
        tally[got[0]] += 1
    for name, values in PROFILES.items():
        assert service_refusal(RULES, values)[0] == reference_refusal(values)[0] == "OK", name
    assert reference_refusal({})[1] == range(2, 10)  # 9 with double-six
    assert reference_refusal({"set_max_pip": 18})[1] == range(2, 64)
    print(f"options: {dict(tally)}")
    assert min(tally.values()) > 100
