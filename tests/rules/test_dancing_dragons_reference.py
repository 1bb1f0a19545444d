"""Dancing Dragons checked in lockstep against a second reading of RULES.md: the clean-room
reference ``tests/rules/reference/dancing_dragons.py``, written from RULES.md (README.md's
"Checkable deals", and the decisions of the service's module docstring) without reading the
service's code.

No implementation of Dancing Dragons exists outside this project, so the check is a second
reading. Many random matches are played through both: 2, 3 and 4 players, the defaults,
``must_play_if_able`` false (discarding any tile while able to play), ``hands`` from 1 to
7 and matches to a ``target_score``. The game never draws, so the reference deals every hand
itself from the seed by the documented derivation (and draws the first leader the same
way): every seat's hand, the two tiles aside with 3 players (read from the hand state as a
plain record) and the ``DEAL``/``LEADER`` events must be the service's.

At every decision the seat to act and the set of legal moves (kind, tile, end) are
compared; after every move every seat's view (its hand, its own discards in order, the line
left to right with each tile's left and right pips, the two open ends, the leader, every
seat's discard count, the hand sizes, the stock, the match totals, the hands shown after
the hand), the spectator's view (no hand, no discard faces) and the move's events, the
``DISCARD`` tile shown only to its seat; at each hand's end the result in GetScore (end,
each seat's count and points, the winner) and the settlement; at the match end the totals
and the winners. Moves are chosen at random (seeded) among the legal moves; at one decision
in thirty-three every other move the seat could name (each tile of its hand played with no end and
on every end, discarded, a tile not in hand, ``DRAW``, ``PASS``, ``NEXT_HAND``, and a legal
move by another seat) is tried and must be refused, changing nothing.

Not compared: the hand's reason in words, the views' ``events`` as other seats see them
beyond the hidden ``DISCARD`` tile, the API and its tokens, the order of the legal moves
(compared as sets), and the 1,000-hand bound of a match to a target (modelled, never
reached).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest

from domino_rules.rules import EventKind, Match, Move, MoveKind, Status, Tile
from domino_rules.rules.errors import (
    IllegalMoveError,
    NotYourTurnError,
)
from domino_rules.rules.moves import End
from domino_rules.rules.registry import get

from .lockstep import Mismatch, Position, Tally, pair, service_refusal
from .reference import dancing_dragons as ref

RULES = get("dancing_dragons")

#: the share of decisions at which every illegal move is tried
PROBE = 0.03
#: matches per run
QUICK = 100
SLOW = 1_000


def key(move: Move) -> ref.RefMove:
    return (
        move.kind.name,
        None if move.tile is None else pair(move.tile),
        None if move.end is None else move.end.name,
    )


class Lockstep(Position):
    """One match through the service and the reference."""

    def __init__(self, label: str, seed: str, players: int, values: dict[str, Any]) -> None:
        self.label, self.seed, self.players = label, seed, players
        self.match: Match[Any, Any] = RULES.new_match(RULES.make_options(values), players, seed)
        self.ref = ref.DancingDragons(values, players, seed)
        self.chooser = random.Random(seed)
        self.moves: list[str] = []  # this hand's moves, for the messages
        self.tally = Tally()

    # ---- comparing --------------------------------------------------------------

    def check_state(self) -> None:
        """Everything the seats and a spectator see, after every move."""
        match, model = self.match, self.ref
        h = model.hand
        self.same("DD-9", "status", match.status.name, model.status)
        self.same("DD-6", "seat to act", RULES.to_act(match), model.to_act())
        self.same("DD-9", "hand number", match.hand_number, model.hand_number)
        over = match.status is not Status.IN_PROGRESS
        to_act = model.to_act()
        legal = sorted(model.legal_moves())
        # what every seat and the spectator see alike: (tag, what, reference's value)
        common = (
            ("DD-10", "line", h.line),
            ("DD-10", "ends", h.ends),
            ("DD-10", "leader", h.leader),
            ("DD-10", "discard counts", [len(d) for d in h.discards]),
            ("DD-10", "hand sizes", [len(x) for x in h.hands]),
            ("DD-10", "stock", 0),
            ("DD-9", "match totals", model.totals()),
            ("DD-6", "to act", to_act),
            ("DD-10", "hands shown after the hand", h.hands if over else []),
        )
        for seat in [*range(self.players), None]:
            view = RULES.view(match, seat)
            table = view.table
            got = (
                [(pair(t.tile), t.left, t.right) for t in table.line],
                (table.left_end, table.right_end),
                table.leader,
                list(table.discard_counts),
                list(view.hand_sizes),
                view.stock,
                list(view.match_points),
                view.to_act,
                [list(map(pair, x)) for x in view.shown_hands],
            )
            own: tuple[Any, ...] = (
                list(map(pair, view.hand)),
                list(map(pair, table.discards)),
                sorted(map(key, view.legal_moves)),
            )
            if seat is None:
                mine: tuple[Any, ...] = ([], [], [])  # no hand, no discard faces, no moves
            else:
                mine = (h.hands[seat], h.discards[seat], legal if seat == to_act else [])
            if got == tuple(want for _, _, want in common) and own == mine:
                continue
            whose = "spectator" if seat is None else f"seat {seat}"
            for (tag, what, want), value in zip(common, got, strict=True):
                self.same(tag, f"{what} ({whose})", value, want)
            tags = ("DD-10", "DD-10", "DD-5")
            names = ("hand", "own discards", "legal moves")
            for tag, what, value, want in zip(tags, names, own, mine, strict=True):
                self.same(tag, f"{what} ({whose})", value, want)
        self.same("DD-1", "tiles aside", sorted(map(pair, match.hand_state.unused)), h.aside)

    def check_events(self, events: Iterable[Any], mine: list[ref.RefEvent]) -> None:
        got: list[ref.RefEvent] = []
        for event in events:
            kind = event.kind
            if kind is EventKind.PLAY:
                end = None if event.end is None else event.end.name
                got.append(("PLAY", event.seat, pair(event.tile), end))
            elif kind is EventKind.DISCARD:
                seen = event.for_seat(event.seat).tile
                got.append(("DISCARD", event.seat, None if seen is None else pair(seen)))
                for other in [*range(self.players), None]:
                    if other != event.seat:
                        hidden = event.for_seat(other)
                        self.same("DD-10", f"DISCARD tile to {other}", hidden.tile, None)
            elif kind in (EventKind.HAND_OVER, EventKind.MATCH_OVER):
                got.append((kind.name, tuple(event.seats), tuple(event.scores)))
            elif kind in (EventKind.NEXT_HAND, EventKind.DEAL):
                got.append((kind.name, event.count))
            elif kind is EventKind.LEADER:
                got.append(("LEADER", event.seat))
            else:
                got.append((kind.name, event.seat, event.tile, event.count))
        self.same("DD-11", "events", got, mine)

    def check_result(self) -> None:
        """[DD-7] [DD-8] [DD-9] [DD-11] the finished hand in GetScore."""
        score = RULES.score(self.match)
        self.same("DD-11", "hands scored", len(score.hands), len(self.ref.history))
        got, want = score.hands[-1], self.ref.history[-1]
        self.same("DD-11", "hand end", got.end.name, want.end)
        self.same("DD-11", "seat counts", list(got.counts), want.counts)
        self.same("DD-7", "hand points", list(got.points), want.points)
        self.same("DD-8", "hand winner", list(got.winners), want.winners)
        self.same("DD-11", "score's hand points", list(score.hand_points), want.points)
        self.same("DD-9", "match winners", list(score.winners), self.ref.winners())
        self.same("DD-9", "match totals", list(score.match_points), self.ref.totals())
        settlement = None if score.settlement is None else list(score.settlement)
        self.same("DD-9", "settlement", settlement, self.ref.settlement())

    # ---- playing ----------------------------------------------------------------

    def play(self, tally: Tally) -> None:
        self.tally = tally
        self.check_events(self.match.last_events, self.ref.start_events)
        self.check_state()
        while True:
            legal = RULES.legal_moves(self.match)
            mine = self.ref.legal_moves()
            if self.match.status is Status.MATCH_OVER:
                self.same("DD-9", "moves after the match", legal, ())
                self.same("DD-9", "reference moves after the match", mine, [])
                break
            by_key = {key(m): m for m in legal}
            tally.sets += 1
            self.same("DD-5", "legal moves", sorted(by_key), sorted(mine))
            self.same("DD-5", "distinct moves", len(by_key), len(legal))
            tally.sets_equal += 1
            if self.chooser.random() < PROBE:
                self.probe_illegal(set(mine), tally)
            self.count_decision(mine, tally)
            choice = self.chooser.choice(sorted(by_key))
            move = by_key[choice]
            tally.moves += 1
            tally.kinds[move.kind.name] += 1
            self.moves.append(str(move))
            self.match, events = RULES.apply(self.match, move)
            mine_events = self.ref.apply(choice)
            if move.kind is MoveKind.NEXT_HAND:
                self.moves = []
            elif self.match.status is not Status.IN_PROGRESS:
                tally.hands += 1
                self.count_result(tally)
                self.check_result()
            self.check_events(events, mine_events)
            self.check_state()
        tally.matches += 1
        hands = len(self.ref.history)
        tally.kinds["1-hand match" if hands == 1 else "match of 2+ hands"] += 1
        target = self.ref.opts["target_score"]
        if target and max(self.ref.totals()) >= target:
            tally.kinds["target reached"] += 1

    def count_decision(self, mine: list[ref.RefMove], tally: Tally) -> None:
        """What the decision shows, for the coverage check."""
        h = self.ref.hand
        if self.ref.status != ref.IN_PROGRESS:
            return
        plays = [m for m in mine if m[0] == ref.PLAY]
        if not h.line and any(t[0] == t[1] for _, t, _ in plays if t is not None):
            tally.kinds["a double may lead"] += 1
        played = [t for _, t, _ in plays]
        if h.line and len(played) != len(set(played)):
            tally.kinds["a tile fits both ends"] += 1
        if h.line and h.ends[0] == h.ends[1]:
            tally.kinds["both ends show one number"] += 1
        if plays and any(m[0] == ref.DISCARD for m in mine):
            tally.kinds["discard while able to play"] += 1
        if not plays:
            left, right = h.ends
            fits = any(left in t or right in t for x in h.hands for t in x)
            tally.kinds["no tile fits" if fits else "line blocked, discarding goes on"] += 1

    def count_result(self, tally: Tally) -> None:
        result = self.ref.history[-1]
        clean = sum(1 for d in self.ref.hand.discards if not d)
        tally.kinds["hand scores doubled" if clean else "every seat discarded"] += 1
        tally.kinds[f"winner by {result.tie_break}"] += 1

    def probe_illegal(self, legal: set[ref.RefMove], tally: Tally) -> None:
        """[DD-3] [DD-4] [DD-5] every other move the seat to act could name is refused and
        changes nothing; a legal move by another seat is refused too."""
        seat = RULES.to_act(self.match)
        assert seat is not None
        tiles = sorted(set(RULES.view(self.match, seat).hand))
        missing = [t for t in map(Tile.parse, ("[6-6]", "[2-1]", "[4-2]")) if t not in tiles]
        candidates = [Move(seat, MoveKind[k]) for k in ("DRAW", "PASS", "NEXT_HAND")]
        for tile in tiles + missing[:1]:
            candidates.append(Move(seat, MoveKind.PLAY, tile))
            candidates.append(Move(seat, MoveKind.DISCARD, tile))
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
                raise Mismatch(f"[DD-5] {self.where()}: {move} was not refused")
            self.same("DD-5", "a refused move changes nothing", self.match, before)
        some = RULES.legal_moves(self.match)[0]
        other = Move((seat + 1) % self.players, some.kind, some.tile, end=some.end)
        with pytest.raises(NotYourTurnError):
            RULES.apply(self.match, other)


# ------------------------------------------------------------------ the scenarios


def scenarios(n: int) -> list[tuple[str, int, dict[str, Any]]]:
    """``n`` matches: named cases at 2, 3 and 4 players, then random options."""
    fixed: list[tuple[str, int, dict[str, Any]]] = []
    for players in (2, 3, 4):
        fixed += [
            ("defaults", players, {}),
            ("may discard when able", players, {"must_play_if_able": False}),
            ("one hand", players, {"hands": 1}),
            ("seven hands", players, {"hands": 7, "must_play_if_able": False}),
            ("target 150", players, {"target_score": 150}),
            ("target 400, hands ignored", players, {"target_score": 400, "hands": 1}),
        ]
    chooser = random.Random(f"dancing-dragons-reference-{n}")
    out = [fixed[i % len(fixed)] for i in range(min(n, len(fixed)))]
    while len(out) < n:
        values: dict[str, Any] = {
            "must_play_if_able": chooser.random() < 0.6,
            "hands": chooser.choice([1, 2, 3, 4, 4, 6]),
            "target_score": chooser.choice([0, 0, 0, 40, 100, 250, 500]),
        }
        for name in chooser.sample(sorted(values), chooser.randint(0, len(values))):
            del values[name]  # the defaults
        out.append(("random", chooser.randint(2, 4), values))
    return out


def run(n: int, prefix: str) -> Tally:
    tally = Tally()
    for i, (label, players, values) in enumerate(scenarios(n)):
        Lockstep(label, f"{prefix}-{i}", players, values).play(tally)
    return tally


def check_coverage(tally: Tally) -> None:
    """What the run must have met, so that it compares what it says it does."""
    for kind in (
        "DISCARD",
        "NEXT_HAND",
        "a double may lead",
        "a tile fits both ends",
        "both ends show one number",
        "discard while able to play",
        "no tile fits",
        "line blocked, discarding goes on",
        "hand scores doubled",
        "every seat discarded",
        "winner by fewest points",
        "winner by fewer discarded tiles",
        "winner by lower match total",
        "winner by turn order from the leader",
        "target reached",
        "1-hand match",
        "match of 2+ hands",
        "illegal move refused",
    ):
        assert tally.kinds[kind] > 0, (kind, tally.line("coverage"))


# ------------------------------------------------------------------ the tests


def test_random_matches_agree_with_the_reference() -> None:
    """[DD-1] [DD-2] [DD-3] [DD-4] [DD-5] [DD-6] [DD-7] [DD-8] [DD-9] [DD-10] [DD-11]
    2, 3 and 4 players, the defaults, ``must_play_if_able`` off, 1 to 7 hands and targets,
    played through the service and the reference in lockstep: every deal, legal-move set,
    view, event and score equal."""
    start = time.monotonic()
    tally = run(QUICK, "ddref")
    print(tally.line("quick") + f" ({time.monotonic() - start:.1f} s)")
    check_coverage(tally)
    assert tally.matches == QUICK


@pytest.mark.slow
def test_many_random_matches_agree_with_the_reference() -> None:
    """[DD-1] [DD-2] [DD-4] [DD-5] [DD-6] [DD-7] [DD-8] [DD-9] [DD-10] [DD-11] ten times as
    many matches, with other seeds."""
    start = time.monotonic()
    tally = run(SLOW, "ddref-slow")
    print(tally.line("slow") + f" ({time.monotonic() - start:.1f} s)")
    check_coverage(tally)
    assert tally.matches == SLOW


# ------------------------------------------------------------------ options and players


def reference_refusal(values: dict[str, Any]) -> tuple[str, range | None]:
    try:
        ref.options(values)
    except ref.BadOptions:
        return "BAD_OPTIONS", None
    return "OK", range(ref.PLAYERS[0], ref.PLAYERS[1] + 1)


def test_options_and_player_counts_are_refused_alike() -> None:
    """[DD-1] [DD-9] 2,000 random option sets in and out of range (``hands`` checked also
    when ``target_score`` leaves it unused): refused alike, and 2 to 4 players accepted."""
    chooser = random.Random("ddref-options")
    tally: Counter[str] = Counter()
    for _ in range(2_000):
        values: dict[str, Any] = {
            "must_play_if_able": chooser.random() < 0.5,
            "hands": chooser.choice([-1, 0, 1, 4, 1_000, 1_001]),
            "target_score": chooser.choice([-1, 0, 50, 100_000, 100_001]),
        }
        for name in chooser.sample(sorted(values), chooser.randint(0, len(values))):
            del values[name]
        got, want = service_refusal(RULES, values), reference_refusal(values)
        assert got == want, values
        tally[got[0]] += 1
    print(f"options: {dict(tally)}")
    assert min(tally.values()) > 300
