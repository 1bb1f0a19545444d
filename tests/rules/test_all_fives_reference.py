"""All Fives checked in lockstep against a second reading of RULES.md: the clean-room
reference ``tests/rules/reference/all_fives.py``, written from RULES.md (and the decisions
of the service's module docstring) without reading the service's code.

``test_all_fives_oracle.py`` compares the service with PyPI ``all-fives-domino``, which
plays only two players, seven tiles each, no drawing, one hand and no bonus. This test
covers the rest: 2 to 8 players and partnerships (with and without ``partners_play_out``),
drawing from the boneyard (``boneyard_keep`` too) and passing, the spinner's ``UP`` and
``DOWN`` arms, ``FIVES`` and ``FIVES_AND_THREES`` with and without ``divide_by_five``,
every ``hand_bonus``, blocked hands and ties, every ``first_lead`` and ``next_lead`` (the
lead by lot included), whole matches to a target (ended the moment a side reaches it,
with ``finish_hand`` and ``exact_target`` too, and single hands), every profile the
ruleset declares (options read from the registry) and sets double-six to double-twelve.

Many random matches are played through both, from the same deal: each hand's tiles are read
from the seats' views and given to the reference, and each tile a ``DRAW`` takes is read
from the service's ``DRAW`` event, as its drawer sees it, and fed to the reference, which
decides itself how many tiles one ``DRAW`` takes. The reference also re-deals every hand from
the seed by the documented derivation: the hands must be those, and every drawn tile the
boneyard's front ``[A5-2]``. At every decision the seat to act and
the set of legal moves (kind, tile, end) are compared; after every move the table (the
line, the spinner, the ``UP`` and ``DOWN`` arms, each open end, the count, the hand's
points), every seat's hand, the hand sizes, the stock, the leader and the match totals,
and the move's events (``DEAL``, ``LEADER``, ``PLAY``, ``PEG``, ``DRAW``, ``PASS``,
``HAND_OVER``, ``MATCH_OVER``); at each hand's end the result (end, each seat's count and
points, the winners); at the match end the totals and the winners. Moves are chosen at
random (seeded) among the legal moves; at one decision in twenty every other move the seat
could name (each tile on each end and with none, ``DRAW``, ``PASS``, ``NEXT_HAND``) is tried
and must be refused ``[A5-14]``.

Not compared: the hand's reason in words, the views' ``events`` as other seats see them
(beyond the drawn tile being hidden), the API and its tokens, and the 1,000-hand bound
(modelled, never reached).
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
from .reference import all_fives as ref

RULES = get("all_fives")
PROFILES = {p.id: dict(p.options) for p in RULES.profiles}

#: the share of decisions at which every illegal move is tried
PROBE = 0.05
#: matches per run
QUICK = 260
SLOW = 2_600


def key(move: Move) -> ref.RefMove:
    return (
        move.kind.name,
        None if move.tile is None else pair(move.tile),
        None if move.end is None else move.end.name,
    )


@dataclass
class Feed:
    """The tiles a ``DRAW`` took in the service, handed to the reference one at a time."""

    tiles: list[ref.Pair]
    where: str
    #: the boneyard as the reference dealt it: the service's draws must come from its front
    boneyard: list[ref.Pair]

    def take(self, seat: int) -> ref.Pair:
        if not self.tiles:
            raise Mismatch(f"[A5-3] {self.where}: the reference draws one tile more")
        tile = self.tiles.pop(0)
        front = self.boneyard.pop(0)
        if tile != front:
            raise Mismatch(f"[A5-2] {self.where}: drew {tile}, the boneyard's front is {front}")
        return tile


class Lockstep(Position):
    """One match through the service and the reference."""

    def __init__(self, label: str, seed: str, players: int, values: Mapping[str, Any]) -> None:
        self.label, self.seed, self.players = label, seed, players
        self.values = dict(values)
        self.match: Match[Any, Any] = RULES.new_match(RULES.make_options(values), players, seed)
        self.ref = ref.AllFives(values, players, seed)
        self.chooser = random.Random(seed)
        self.moves: list[str] = []  # this hand's moves, for the messages
        self.tally = Tally()
        self.boneyard: list[ref.Pair] = []

    # ---- comparing --------------------------------------------------------------

    def check_state(self, seats: Iterable[int] | None = None) -> None:
        """Everything both can see after a move; the hands of ``seats`` (default: all;
        after a move, the mover's: no other hand changes)."""
        match, model = self.match, self.ref
        self.same("A5-12", "status", match.status.name, model.status)
        self.same("A5-3", "seat to act", RULES.to_act(match), model.to_act())
        h = model.hand
        assert h is not None
        table = RULES.view(match, None).table
        self.same("A5-6", "line", [(pair(t.tile), t.left, t.right) for t in table.line], h.line)
        self.same("A5-7", "spinner", table.spinner, h.spinner)
        for name, arm, mine in (("UP", table.up, h.up), ("DOWN", table.down, h.down)):
            got = [(pair(t.tile), t.inner, t.outer) for t in arm]
            self.same("A5-7", f"{name} arm", got, mine)
        ends = model.open_ends()
        got_ends = (table.left_end, table.right_end, table.up_end, table.down_end)
        want_ends = tuple(ends.get(e) for e in (ref.LEFT, ref.RIGHT, ref.UP, ref.DOWN))
        self.same("A5-7", "open ends L/R/U/D", got_ends, want_ends)
        self.same("A5-8", "count", table.count, h.count)
        self.same("A5-9", "hand points", list(table.hand_points), h.points)
        self.same("A5-4", "leader", table.leader, h.leader)
        for seat in range(self.players) if seats is None else seats:
            view = RULES.view(match, seat)
            self.same("A5-13", f"seat {seat}'s hand", sorted(map(pair, view.hand)), h.hands[seat])
        self.same("A5-13", "hand sizes", list(view.hand_sizes), [len(x) for x in h.hands])
        self.same("A5-13", "stock", view.stock, h.boneyard)
        self.same("A5-12", "match totals", list(view.match_points), model.totals())

    def check_events(self, events: Iterable[Any], mine: list[ref.RefEvent], seat: int) -> None:
        got: list[ref.RefEvent] = []
        for event in events:
            kind = event.kind
            if kind is EventKind.PLAY:
                end = None if event.end is None else event.end.name
                got.append(("PLAY", event.seat, pair(event.tile), end))
            elif kind is EventKind.PEG:
                got.append(("PEG", event.seat, event.points, event.count))
            elif kind is EventKind.DRAW:
                seen = event.for_seat(seat).tile
                got.append(("DRAW", event.seat, None if seen is None else pair(seen)))
                for other in range(self.players):
                    if other != seat:
                        self.same("A5-3", "drawn tile hidden", event.for_seat(other).tile, None)
            elif kind is EventKind.PASS:
                got.append(("PASS", event.seat))
            elif kind in (EventKind.HAND_OVER, EventKind.MATCH_OVER):
                got.append((kind.name, tuple(event.seats), tuple(event.scores)))
        self.same("A5-15", "events", got, mine)

    def check_result(self) -> None:
        """[A5-10] [A5-11] [A5-15] the finished hand in GetScore."""
        score = RULES.score(self.match)
        self.same("A5-15", "hands scored", len(score.hands), len(self.ref.history))
        got, want = score.hands[-1], self.ref.history[-1]
        self.same("A5-10", "hand end", got.end.name, want.end)
        self.same("A5-11", "seat counts", got.counts, want.counts)
        self.same("A5-11", "hand winners", got.winners, want.winners)
        self.same("A5-11", "hand points", got.points, want.points)
        self.same("A5-12", "match winners", score.winners, self.ref.winners())
        self.same("A5-12", "match totals", score.match_points, tuple(self.ref.totals()))

    # ---- playing ----------------------------------------------------------------

    def deal(self, events: Iterable[Any]) -> None:
        """Give the reference the hand just dealt, from the seats' views."""
        hands = [sorted(map(pair, RULES.view(self.match, s).hand)) for s in range(self.players)]
        stock = RULES.view(self.match, None).stock
        *dealt, self.boneyard = ref.deal(
            self.ref.opts, self.players, self.seed, self.ref.hand_number + 1
        )
        self.same("A5-2", "the deal", hands, [sorted(h) for h in dealt])
        leader = self.ref.start_hand(hands, stock)
        got = [
            ("DEAL", e.count) if e.kind is EventKind.DEAL else ("LEADER", e.seat)
            for e in events
            if e.kind in (EventKind.DEAL, EventKind.LEADER)
        ]
        self.same("A5-5", "DEAL and LEADER events", got, leader)
        self.moves = []
        lead = self.ref.hand.lead_tile if self.ref.hand else None
        if lead is not None and not ref.is_double(lead):
            self.tally.kinds["heaviest tile led (no double dealt)"] += 1

    def play(self, tally: Tally) -> None:
        self.tally = tally
        self.deal(self.match.last_events)
        self.check_state()
        while True:
            legal = RULES.legal_moves(self.match)
            mine = self.ref.legal_moves()
            if self.match.status is Status.MATCH_OVER:
                self.same("A5-12", "moves after the match", legal, ())
                self.same("A5-12", "reference moves after the match", mine, [])
                break
            by_key = {key(m): m for m in legal}
            tally.sets += 1
            self.same("A5-6", "legal moves", sorted(by_key, key=repr), sorted(mine, key=repr))
            self.same("A5-6", "distinct moves", len(by_key), len(legal))
            tally.sets_equal += 1
            if self.chooser.random() < PROBE:
                self.probe_illegal(set(mine), tally)
            choice = self.chooser.choice(sorted(by_key, key=repr))
            move = by_key[choice]
            tally.moves += 1
            self.moves.append(str(move))
            self.count_kind(move, tally)
            self.match, events = RULES.apply(self.match, move)
            if move.kind.name == ref.NEXT_HAND:
                self.deal(events)
                self.check_state()
                continue
            feed = self.drawn(events, move.seat)
            mine_events = self.ref.apply(choice, feed.take)
            self.same("A5-3", "tiles left undrawn by the reference", feed.tiles, [])
            self.check_events(events, mine_events, move.seat)
            over = self.match.status is not Status.IN_PROGRESS
            self.check_state(None if over else [move.seat])
            hand = self.ref.hand
            assert hand is not None
            in_progress = self.match.status is Status.IN_PROGRESS
            if in_progress and self.ref.play_out() and any(not x for x in hand.hands):
                tally.kinds["a partner out, play goes on"] += 1
            if self.match.status is not Status.IN_PROGRESS:
                tally.hands += 1
                end = self.ref.history[-1].end
                tally.kinds[f"end {end}"] += 1
                if move.kind.name == ref.DRAW:
                    tally.kinds["hand blocked by a DRAW"] += 1
                if self.match.status is Status.MATCH_OVER and end != ref.TARGET_REACHED:
                    tally.kinds[f"match ended by a {end} hand's last score"] += 1
                if not self.ref.history[-1].winners:
                    tally.kinds["tied hand"] += 1
                self.check_result()
        tally.matches += 1
        hands = len(self.ref.history)
        tally.kinds["1-hand match" if hands == 1 else "match of 2+ hands"] += 1
        tally.kinds["score refused (exact_target)"] += self.ref.refused

    def drawn(self, events: Iterable[Any], seat: int) -> Feed:
        """The tiles the service's ``DRAW`` events show the drawer, in order."""
        tiles = []
        for event in events:
            if event.kind is EventKind.DRAW:
                tile = event.for_seat(seat).tile
                if tile is None:
                    raise Mismatch(f"[A5-3] {self.where()}: the drawer does not see the tile")
                tiles.append(pair(tile))
        return Feed(tiles, self.where(), self.boneyard)

    def probe_illegal(self, legal: set[ref.RefMove], tally: Tally) -> None:
        """[A5-14] every other move of the seat to act (each tile of its hand on every end,
        and with none; ``DRAW``; ``PASS``; ``NEXT_HAND``) is refused and changes nothing."""
        seat = RULES.to_act(self.match)
        assert seat is not None
        tiles = sorted(set(RULES.view(self.match, seat).hand))
        candidates = [Move(seat, MoveKind[k]) for k in (ref.DRAW, ref.PASS, ref.NEXT_HAND)]
        for tile in tiles:
            candidates.append(Move(seat, MoveKind.PLAY, tile))
            candidates += [Move(seat, MoveKind.PLAY, tile, end=end) for end in End]
        for move in candidates:
            if key(move) in legal:
                continue
            before = self.match
            try:
                RULES.apply(self.match, move)
            except IllegalMoveError:
                tally.kinds["illegal move refused"] += 1
            else:
                raise Mismatch(f"[A5-14] {self.where()}: {move} was not refused")
            self.same("A5-14", "a refused move changes nothing", self.match, before)

    def count_kind(self, move: Move, tally: Tally) -> None:
        kind = move.kind.name
        if move.end is not None and move.end.name in ("UP", "DOWN"):
            kind = "PLAY UP/DOWN"
        tally.kinds[kind] += 1


# ------------------------------------------------------------------ the scenarios


def random_options(chooser: random.Random) -> tuple[int, dict[str, Any]]:
    """A valid random set of options (every option varied) and a player count."""
    while True:
        top = chooser.choice([6, 6, 6, 6, 7, 9, 12])
        partnership = chooser.random() < 0.3
        values: dict[str, Any] = {
            "set_max_pip": top,
            "partnership": partnership,
            "hand_size": chooser.choice([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 9]),
            "draw": chooser.random() < 0.65,
            "boneyard_keep": chooser.choice([0, 0, 0, 1, 2, 4]),
            "first_lead": chooser.choice(ref.ENUMS["first_lead"]),
            "next_lead": chooser.choice(ref.ENUMS["next_lead"]),
            "spinner": chooser.choice(["FIRST_DOUBLE", "FIRST_DOUBLE", "NONE"]),
            "play_scoring": chooser.choice(ref.ENUMS["play_scoring"]),
            "divide_by_five": chooser.random() < 0.25,
            "partners_play_out": chooser.random() < 0.5,
            "hand_bonus": chooser.choice(ref.ENUMS["hand_bonus"]),
            "target_score": chooser.choice([0, 20, 25, 40, 50, 61, 75, 100]),
            "finish_hand": chooser.random() < 0.25,
            "exact_target": chooser.random() < 0.3,
        }
        if values["hand_size"] == 1 and values["target_score"]:
            continue  # one tile each: hands that score nothing, a match of 1,000 hands
        try:
            opts = ref.options(values)
        except ref.BadOptions:
            continue
        low, high = ref.player_range(opts)
        if high < low:
            continue
        players = 4 if partnership else chooser.randint(low, min(high, 8))
        return players, values


def scenarios(n: int) -> list[tuple[str, int, dict[str, Any]]]:
    """``n`` matches: each profile of the registry at 2, 3 and 4 players, a set of named
    cases, then random options."""
    fixed: list[tuple[str, int, dict[str, Any]]] = []
    for name, values in PROFILES.items():
        for players in (2, 3, 4):
            opts = dict(values)
            if name == "fives_and_threes" and players == 4:
                opts["partnership"] = True  # RULES.md: with 4 players, add partnership
            if name == "pagat_two_hands" and players == 3:
                opts["hand_size"] = 7  # RULES.md: for three players pagat deals 7
            low, high = ref.player_range(ref.options(opts))
            if not low <= players <= high:
                continue  # pagat_two_hands deals 9 or 7: not 4 players of a double-six
            fixed.append((f"profile {name}", players, opts))
    named: list[tuple[str, int, dict[str, Any]]] = [
        ("defaults, target 100", 2, {"target_score": 100}),
        ("defaults, target 100", 3, {"target_score": 100}),
        ("defaults, target 100", 4, {"target_score": 100}),
        ("partnership", 4, {"partnership": True, "target_score": 100}),
        (
            "partners play out",
            4,
            {"partnership": True, "partners_play_out": True, "draw": False, "target_score": 60},
        ),
        ("fives and threes, keep 3", 3, {"play_scoring": "FIVES_AND_THREES", "boneyard_keep": 3}),
        ("no draw", 4, {"draw": False, "target_score": 0}),
        ("divide by five", 2, {"divide_by_five": True, "target_score": 30}),
        ("minus own", 3, {"hand_bonus": "OTHERS_MINUS_OWN_ROUNDED", "target_score": 80}),
        ("chip out point", 2, {"hand_bonus": "CHIP_OUT_POINT", "target_score": 31}),
        ("no bonus", 2, {"hand_bonus": "NONE", "target_score": 40}),
        ("finish hand", 2, {"finish_hand": True, "target_score": 50}),
        ("exact target", 3, {"exact_target": True, "target_score": 50}),
        ("highest double, as first", 3, {"first_lead": "HIGHEST_DOUBLE", "next_lead": "AS_FIRST"}),
        (
            "highest double, two tiles",
            2,
            {
                "first_lead": "HIGHEST_DOUBLE",
                "next_lead": "AS_FIRST",
                "hand_size": 2,
                "target_score": 100,
            },
        ),
        ("next seat", 4, {"next_lead": "NEXT_SEAT", "target_score": 60}),
        ("double-nine", 6, {"set_max_pip": 9, "target_score": 50}),
        ("double-nine", 8, {"set_max_pip": 9, "target_score": 50, "draw": False}),
        ("double-twelve", 8, {"set_max_pip": 12, "hand_size": 7, "target_score": 50}),
        ("double-seven", 3, {"set_max_pip": 7, "hand_size": 9, "target_score": 50}),
    ]
    fixed += named
    chooser = random.Random(f"all-fives-reference-{n}")
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
        "PLAY UP/DOWN",
        "DRAW",
        "PASS",
        "NEXT_HAND",
        "end DOMINOED",
        "end BLOCKED",
        "end TARGET_REACHED",
        "tied hand",
        "match of 2+ hands",
        "a partner out, play goes on",
        "score refused (exact_target)",
        "heaviest tile led (no double dealt)",
        "hand blocked by a DRAW",
        "illegal move refused",
    ):
        assert tally.kinds[kind] > 0, (kind, tally.line("coverage"))


# ------------------------------------------------------------------ the tests


def test_random_matches_agree_with_the_reference() -> None:
    """[A5-1] [A5-2] [A5-3] [A5-4] [A5-5] [A5-6] [A5-7] [A5-8] [A5-9] [A5-10] [A5-11]
    [A5-12] [A5-13] [A5-15] every profile at 2, 3 and 4 players, named cases (partnerships,
    partners_play_out, each bonus, divide_by_five, finish_hand, exact_target, sets up to
    double-twelve, up to 8 players) and random options, played through the service and the
    reference in lockstep: every legal-move set, table, hand, score and event equal."""
    start = time.monotonic()
    tally = run(QUICK, "a5ref")
    print(tally.line("quick") + f" ({time.monotonic() - start:.1f} s)")
    check_coverage(tally)
    assert tally.matches == QUICK


@pytest.mark.slow
def test_many_random_matches_agree_with_the_reference() -> None:
    """[A5-2] [A5-3] [A5-5] [A5-6] [A5-7] [A5-8] [A5-9] [A5-10] [A5-11] [A5-12] ten times
    as many matches, with other seeds."""
    start = time.monotonic()
    tally = run(SLOW, "a5ref-slow")
    print(tally.line("slow") + f" ({time.monotonic() - start:.1f} s)")
    check_coverage(tally)
    assert tally.matches == SLOW


# ------------------------------------------------------------------ the reference alone

#: RULES.md's worked examples: (plays, counts, FIVES points, FIVES_AND_THREES points).
WORKED: list[tuple[list[tuple[ref.Pair, str | None]], list[int], list[int], list[int]]] = [
    (
        [((5, 5), None), ((5, 0), "RIGHT"), ((0, 0), "RIGHT"), ((6, 5), "LEFT"), ((4, 0), "RIGHT")],
        [10, 10, 10, 6, 10],
        [10, 10, 10, 0, 10],
        [2, 2, 2, 2, 2],
    ),
    (
        [((6, 4), None), ((4, 4), "RIGHT"), ((4, 2), "RIGHT"), ((4, 1), "UP")],
        [10, 14, 8, 9],
        [10, 0, 0, 0],
        [2, 0, 0, 3],
    ),
    (
        [
            ((3, 3), None),
            ((6, 3), "LEFT"),
            ((5, 3), "RIGHT"),
            ((6, 6), "LEFT"),
            ((5, 5), "RIGHT"),
            ((4, 3), "UP"),
            ((4, 4), "UP"),
            ((3, 2), "DOWN"),
            ((5, 2), "DOWN"),
        ],
        [6, 12, 11, 17, 22, 26, 30, 32, 35],
        [0, 0, 0, 0, 0, 0, 30, 0, 35],
        [2, 4, 0, 0, 0, 0, 16, 0, 7],
    ),
    (
        [((5, 5), None), ((5, 2), "RIGHT"), ((5, 3), "LEFT"), ((5, 0), "UP"), ((6, 5), "DOWN")],
        [10, 12, 5, 5, 11],
        [10, 0, 5, 5, 0],
        [2, 4, 1, 1, 0],
    ),
    (
        [((6, 4), None), ((6, 6), "LEFT"), ((4, 4), "RIGHT")],
        [10, 16, 20],
        [10, 0, 20],
        [2, 0, 4],
    ),
]


@pytest.mark.parametrize("example", range(len(WORKED)))
@pytest.mark.parametrize("scoring", ["FIVES", "FIVES_AND_THREES"])
def test_the_reference_plays_rules_mds_worked_examples(example: int, scoring: str) -> None:
    """[A5-6] [A5-7] [A5-8] [A5-9] the reference itself, on RULES.md's worked examples: the
    count and the points of every play (a check of the second reading, not of the service)."""
    plays, counts, fives, threes = WORKED[example]
    spinners = ["FIRST_DOUBLE"] if any(end in ("UP", "DOWN") for _, end in plays) else []
    spinners += ["NONE"] if not spinners else []
    if example in (0, 4):
        spinners = ["FIRST_DOUBLE", "NONE"]  # "either"
    for spinner in spinners:
        k = len(plays)  # nobody goes out: each seat keeps spare tiles
        hands: list[list[ref.Pair]] = [[t for t, _ in plays[0::2]], [t for t, _ in plays[1::2]]]
        spare = [t for t in ref.full_set(6) if t not in hands[0] + hands[1]]
        for hand in hands:
            while len(hand) < k:
                hand.append(spare.pop())
        values = {
            "hand_size": k,
            "draw": False,
            "target_score": 0,
            "spinner": spinner,
            "play_scoring": scoring,
        }
        model = ref.AllFives(values, 2, "worked")
        model.start_hand(hands, 28 - 2 * k)
        got_counts, got_points = [], []
        for tile, end in plays:
            seat = model.to_act()
            assert seat is not None
            before = model.totals()[seat]
            model.apply((ref.PLAY, tile, end), lambda _seat: (0, 0))
            assert model.hand is not None and model.status == ref.IN_PROGRESS
            got_counts.append(model.hand.count)
            got_points.append(model.totals()[seat] - before)
        assert got_counts == counts, (example, spinner)
        assert got_points == (fives if scoring == "FIVES" else threes), (example, spinner)


def test_the_reference_rounds_and_scores_as_rules_md() -> None:
    """[A5-9] [A5-11] RULES.md's tables of Fives-and-Threes points and of bonus rounding."""
    threes = {3: 1, 5: 1, 6: 2, 9: 3, 10: 2, 12: 4, 15: 8, 18: 6, 20: 4, 21: 7}
    threes |= {24: 8, 25: 5, 27: 9, 30: 16, 35: 7, 0: 0}
    opts = ref.options({"play_scoring": "FIVES_AND_THREES"})
    assert {c: ref.play_points(c, opts) for c in threes} == threes
    assert [ref.rounded(v) for v in (1, 2, 3, 4, 5, 12, 13)] == [0, 0, 5, 5, 5, 10, 15]
    assert ref.play_points(15, ref.options({"divide_by_five": True})) == 3
    assert ref.rounded(13) // 5 == 3


# ------------------------------------------------------------------ options and players


def reference_refusal(values: Mapping[str, Any]) -> tuple[str, range | None]:
    try:
        opts = ref.options(values)
    except ref.BadOptions:
        return "BAD_OPTIONS", None
    low, high = ref.player_range(opts)
    return "OK", range(low, high + 1)


def test_options_and_player_counts_are_refused_alike() -> None:
    """[A5-1] [A5-2] [A5-14] 3,000 random option sets, in and out of range: refused alike
    (``BAD_OPTIONS``), and the same player range where accepted (``BAD_PLAYER_COUNT``
    outside it); every profile of the registry is accepted by both."""
    chooser = random.Random("a5ref-options")
    tally: Counter[str] = Counter()
    for _ in range(3_000):
        values: dict[str, Any] = {
            "set_max_pip": chooser.choice([5, 6, 6, 7, 9, 12, 18, 19]),
            "hand_size": chooser.choice([0, 0, 1, 5, 7, 14, 15, 45, 95, 96]),
            "boneyard_keep": chooser.choice([0, 2, 28, 29, 190, 191]),
            "target_score": chooser.choice([0, 7, 60, 61, 100_000, 100_001]),
            "partnership": chooser.random() < 0.3,
            "draw": chooser.random() < 0.5,
            "partners_play_out": chooser.random() < 0.3,
            "finish_hand": chooser.random() < 0.3,
            "exact_target": chooser.random() < 0.5,
            "divide_by_five": chooser.random() < 0.4,
            **{name: chooser.choice(allowed) for name, allowed in ref.ENUMS.items()},
        }
        for name in chooser.sample(sorted(values), chooser.randint(0, len(values))):
            del values[name]  # the defaults
        got, want = service_refusal(RULES, values), reference_refusal(values)
        assert got == want, values
        tally[got[0]] += 1
    for name, values in PROFILES.items():
        assert service_refusal(RULES, values)[0] == reference_refusal(values)[0] == "OK", name
    print(f"options: {dict(tally)}")
    assert min(tally.values()) > 300
