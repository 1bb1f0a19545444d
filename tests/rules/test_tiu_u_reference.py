"""Tiu U checked in lockstep against a second reading of RULES.md: the clean-room
reference ``tests/rules/reference/tiu_u.py``, written from RULES.md (and the decisions of
the service's module docstring) without reading the service's code.

Tiu U has no outside implementation to compare with, so this is its cross-check: many
random matches are played through both, for 2, 3 and 4 players, with the defaults, with
``may_decline``, with ``red_sixes`` ``ALL_SIXES`` and with matches of several ``hands``.
The reference re-deals every hand from the seed by the documented derivation
(docs/rules.md "Randomness", label ``deal/<h>/0``): every seat's hand and the lake must be
the service's, after the pairs of ``[6-6]`` are laid out. Each tile the draw step turns
up is read from the service's ``REVEAL`` event and fed to the reference, and must be the
top of the woodpile the reference dealt. At every decision the seat to act and the set of
legal moves (kind, tile, target) are compared; after every move the table (the lake, the
piles, every catch in the order taken, each catch's count, the drawn tile awaiting a
choice, the leader), every seat's hand, the hand sizes, the stock, the match totals, and
the move's events (``DEAL``, ``PAIR_LAID``, ``LEADER``, ``CAPTURE``, ``PILE``, ``PASS``,
``REVEAL``, ``CHOICE``, ``TO_LAKE``, ``HAND_OVER``, ``MATCH_OVER``, ``NEXT_HAND``); at each
hand's end the result in ``GetScore`` (end, each seat's count, points, winners and
settlement); at the match end the totals, the winners and the settlement. Moves are
chosen at random (seeded) among the legal moves, with a lean towards ``PILE`` so that
piles are often built and taken; at one decision in twenty every other move the seat
could name (each hand tile on each lake tile and pile, ``PILE`` of each, ``PASS``, the
drawn tile on each tile) is tried and must be refused.

Not compared: the hand's reason in words, the views' ``events`` as each seat sees them
(no Tiu U event is private), the API and its tokens, options out of range and player
counts outside 2..4, and the 1,000-hand bound.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from domino_rules.rules import EventKind, Match, Move, MoveKind, Status, Tile
from domino_rules.rules.errors import IllegalMoveError
from domino_rules.rules.registry import get
from domino_rules.rules.tiles import two_chinese_sets

from .lockstep import Mismatch, Position, Tally, pair
from .reference import tiu_u as ref

RULES = get("tiu_u")

#: the share of decisions at which every illegal move is tried
PROBE = 0.05
#: matches per run
QUICK = 150
SLOW = 1_500


def opt_pair(tile: Tile | None) -> ref.Pair | None:
    return None if tile is None else pair(tile)


def key(move: Move) -> ref.RefMove:
    return (move.kind.name, opt_pair(move.tile), opt_pair(move.target))


class Lockstep(Position):
    """One match through the service and the reference."""

    def __init__(self, label: str, seed: str, players: int, values: Mapping[str, Any]) -> None:
        self.label, self.seed, self.players = label, seed, players
        self.match: Match[Any, Any] = RULES.new_match(RULES.make_options(values), players, seed)
        self.ref = ref.TiuU(values, players, seed)
        self.chooser = random.Random(seed)
        self.moves: list[str] = []  # this hand's moves, for the messages
        self.woodpile: list[ref.Pair] = []  # the reference's deal, still to draw

    # ---- comparing --------------------------------------------------------------

    last_moves = 3

    def check_state(self) -> None:
        match, model = self.match, self.ref
        self.same("TU-10", "status", match.status.name, model.status)
        self.same("TU-5", "seat to act", RULES.to_act(match), model.to_act())
        h = model.hand
        assert h is not None
        table = RULES.view(match, None).table
        self.same("TU-6", "lake", sorted(map(pair, table.lake)), h.lake)
        self.same("TU-7", "piles", sorted(map(pair, table.piles)), h.piles)
        catches = [[pair(t) for t in c.tiles] for c in table.catches]
        self.same("TU-5", "catches", catches, h.catches)
        counts = [ref.count(c, model.opts["red_sixes"]) for c in h.catches]
        self.same("TU-9", "catch counts", list(table.catch_counts), counts)
        self.same("TU-6", "drawn tile awaiting a choice", opt_pair(table.drawn), h.drawn)
        self.same("TU-5", "leader", table.leader, h.leader)
        for seat in range(self.players):
            view = RULES.view(match, seat)
            self.same("TU-2", f"seat {seat}'s hand", sorted(map(pair, view.hand)), h.hands[seat])
        self.same("TU-2", "hand sizes", list(view.hand_sizes), [len(x) for x in h.hands])
        self.same("TU-8", "stock", view.stock, h.woodpile)
        self.same("TU-10", "match totals", list(view.match_points), model.totals())

    def check_events(self, events: Iterable[Any], mine: list[ref.RefEvent]) -> None:
        got: list[ref.RefEvent] = []
        for e in events:
            kind = e.kind.name
            seat = 0 if e.seat is None else e.seat
            tiles = tuple(map(pair, e.tiles))
            if kind == "CAPTURE":
                got.append((kind, seat, pair(e.tile), pair(e.target), tiles))
            elif kind == "PILE":
                got.append((kind, seat, pair(e.tile), tiles))
            elif kind == "CHOICE":
                got.append((kind, seat, pair(e.tile), tuple(sorted(tiles))))
            elif kind in ("REVEAL", "TO_LAKE"):
                got.append((kind, seat, pair(e.tile)))
            elif kind == "PAIR_LAID":
                got.append((kind, seat, tiles))
            elif kind in ("PASS", "LEADER"):
                got.append((kind, seat))
            elif kind in ("DEAL", "NEXT_HAND"):
                got.append((kind, e.count))
            elif kind in ("HAND_OVER", "MATCH_OVER"):
                got.append((kind, tuple(e.seats), tuple(e.scores)))
            else:
                got.append((kind,))
            if e.hidden or e.private_to is not None:
                raise Mismatch(f"[TU-6] {self.where()}: a private event {e}")
        self.same("TU-6", "events", got, mine)

    def check_result(self) -> None:
        """[TU-8] [TU-9] [TU-10] the finished hand in GetScore."""
        score = RULES.score(self.match)
        self.same("TU-10", "hands scored", len(score.hands), len(self.ref.history))
        got, want = score.hands[-1], self.ref.history[-1]
        self.same("TU-8", "hand end", got.end.name, want.end)
        self.same("TU-9", "seat counts", got.counts, want.counts)
        self.same("TU-10", "hand points", got.points, want.points)
        self.same("TU-10", "hand winners", got.winners, want.winners)
        self.same("TU-10", "hand settlement", got.settlement, want.settlement)
        self.same("TU-10", "match winners", score.winners, self.ref.winners())
        self.same("TU-10", "match totals", score.match_points, tuple(self.ref.totals()))
        self.same("TU-10", "match settlement", score.settlement, tuple(self.ref.settlement()))

    # ---- playing ----------------------------------------------------------------

    def deal(self, events: Iterable[Any], mine: list[ref.RefEvent]) -> None:
        """The reference has just dealt the same hand from the seed."""
        assert self.ref.dealt is not None
        self.woodpile = list(self.ref.dealt.woodpile)
        self.moves = []
        self.check_events(events, mine)
        if any(e[0] == "PAIR_LAID" for e in mine):
            self.tally.kinds["[6-6] pair laid at the deal"] += 1

    def take(self, events: Iterable[Any]) -> ref.Draw:
        """The tiles the service's ``REVEAL`` events turned up, handed to the reference
        one at a time; each must be the top of the woodpile the reference dealt."""
        tiles = [pair(e.tile) for e in events if e.kind is EventKind.REVEAL]

        def draw(_seat: int) -> ref.Pair:
            if not tiles:
                raise Mismatch(f"[TU-6] {self.where()}: the reference draws one tile more")
            tile, top = tiles.pop(0), self.woodpile.pop(0)
            if tile != top:
                raise Mismatch(f"[TU-2] {self.where()}: drew {tile}, the woodpile's top is {top}")
            return tile

        self.feed = tiles
        return draw

    def choose(self, keys: list[ref.RefMove]) -> ref.RefMove:
        piles = [k for k in keys if k[0] == ref.PILE]
        if piles and self.chooser.random() < 0.5:
            return self.chooser.choice(piles)
        return self.chooser.choice(keys)

    def play(self, tally: Tally) -> None:
        self.tally = tally
        self.deal(self.match.last_events, self.ref.start_hand())
        self.check_state()
        while True:
            legal = RULES.legal_moves(self.match)
            mine = self.ref.legal_moves()
            if self.match.status is Status.MATCH_OVER:
                self.same("TU-10", "moves after the match", legal, ())
                self.same("TU-10", "reference moves after the match", mine, [])
                break
            by_key = {key(m): m for m in legal}
            tally.sets += 1
            if set(by_key) != set(mine):
                only = sorted(set(by_key) - set(mine)), sorted(set(mine) - set(by_key))
                raise Mismatch(
                    f"[TU-5] {self.where()}: legal moves: only the service {only[0]}, "
                    f"only the reference {only[1]}"
                )
            self.same("TU-5", "legal moves", sorted(by_key, key=repr), sorted(mine, key=repr))
            self.same("TU-5", "distinct moves", len(by_key), len(legal))
            tally.sets_equal += 1
            self.count_position(mine)
            if self.chooser.random() < PROBE:
                self.probe_illegal(set(mine))
            choice = self.choose(sorted(by_key, key=repr))
            move = by_key[choice]
            tally.moves += 1
            self.moves.append(str(move))
            tally.kinds[move.kind.name] += 1
            self.match, events = RULES.apply(self.match, move)
            if choice[0] == ref.NEXT_HAND:
                self.deal(events, self.ref.apply(choice, self.take(events)))
                self.check_state()
                continue
            mine_events = self.ref.apply(choice, self.take(events))
            self.same("TU-6", "tiles left unread by the reference", self.feed, [])
            self.check_events(events, mine_events)
            self.count_events(choice, mine_events)
            self.check_state()
            if self.match.status is not Status.IN_PROGRESS:
                tally.hands += 1
                self.check_result()
                result = self.ref.history[-1]
                if len(result.winners) > 1:
                    tally.kinds["equal highest counts"] += 1
        tally.matches += 1

    def count_position(self, mine: list[ref.RefMove]) -> None:
        kinds = {m[0] for m in mine}
        if ref.PASS in kinds and len(kinds) > 1:
            self.tally.kinds["PASS beside a capture (may_decline)"] += 1
        if ref.PILE in kinds and ref.CAPTURE in kinds:
            self.tally.kinds["PILE beside a CAPTURE"] += 1
        if any(m[0] == ref.CAPTURE and m[1] == m[2] and m[2] in self.pile_tiles() for m in mine):
            self.tally.kinds["a pile can be taken from hand"] += 1
        if any(m[0] == ref.CAPTURE and m[1] in ref.SUPREME and m[2] != m[1] for m in mine):
            self.tally.kinds["supreme pair capture offered"] += 1

    def pile_tiles(self) -> list[ref.Pair]:
        return self.ref.hand.piles if self.ref.hand else []

    def count_events(self, move: ref.RefMove, events: list[ref.RefEvent]) -> None:
        for i, e in enumerate(events):
            self.tally.kinds[f"event {e[0]}"] += 1
            if e[0] == "CAPTURE" and len(e[4]) == 4:
                from_hand = i == 0 and move[0] == ref.CAPTURE
                self.tally.kinds["pile taken from hand" if from_hand else "pile taken"] += 1
            if e[0] == "CHOICE" and e[2] in self.pile_tiles():
                self.tally.kinds["drawn tile may take a pile or a lake tile"] += 1
        if move[0] == ref.CAPTURE_DRAWN and len(events[0][4]) == 4:
            self.tally.kinds["drawn tile chose the pile"] += 1

    def probe_illegal(self, legal: set[ref.RefMove]) -> None:
        """[TU-5] [TU-6] [TU-7] every other move the seat could name is refused and changes
        nothing."""
        seat = RULES.to_act(self.match)
        assert seat is not None
        view = RULES.view(self.match, seat)
        table = view.table
        tiles = sorted(set(view.hand))
        targets = sorted(set(table.lake) | set(table.piles))
        candidates = [Move(seat, MoveKind.PASS), Move(seat, MoveKind.NEXT_HAND)]
        for tile in tiles:
            candidates.append(Move(seat, MoveKind.PILE, tile))
            candidates += [Move(seat, MoveKind.CAPTURE, tile, t) for t in targets]
        if table.drawn is not None:
            drawn = table.drawn
            candidates += [Move(seat, MoveKind.CAPTURE_DRAWN, drawn, t) for t in targets]
            candidates += [Move(seat, MoveKind.CAPTURE, drawn, t) for t in targets]
        for move in candidates:
            if key(move) in legal:
                continue
            before = self.match
            try:
                RULES.apply(self.match, move)
            except IllegalMoveError:
                self.tally.kinds["illegal move refused"] += 1
            else:
                raise Mismatch(f"[TU-5] {self.where()}: {move} was not refused")
            self.same("TU-5", "a refused move changes nothing", self.match, before)


# ------------------------------------------------------------------ scenarios

NAMED: list[tuple[str, dict[str, Any]]] = [
    ("defaults", {}),
    ("may_decline", {"may_decline": True}),
    ("ALL_SIXES", {"red_sixes": "ALL_SIXES"}),
    ("3 hands", {"hands": 3}),
    ("all options", {"may_decline": True, "red_sixes": "ALL_SIXES", "hands": 2}),
]


def scenarios(n: int, prefix: str) -> list[tuple[str, str, int, dict[str, Any]]]:
    """``n`` matches: each named option set at 2, 3 and 4 players, then random options."""
    out = [
        (label, f"{prefix}-{label}-{players}", players, values)
        for label, values in NAMED
        for players in (2, 3, 4)
    ]
    chooser = random.Random(f"tiu-u-reference-{prefix}")
    i = 0
    while len(out) < n:
        values: dict[str, Any] = {
            "may_decline": chooser.random() < 0.3,
            "red_sixes": chooser.choice(["DOUBLE_SIX_ONLY", "ALL_SIXES"]),
            "hands": chooser.choice([1, 1, 2, 4]),
        }
        for name in chooser.sample(sorted(values), chooser.randint(0, len(values))):
            del values[name]  # the defaults
        out.append(("random", f"{prefix}-{i}", chooser.randint(2, 4), values))
        i += 1
    return out[:n]


def run(n: int, prefix: str) -> Tally:
    tally = Tally()
    for label, seed, players, values in scenarios(n, prefix):
        Lockstep(label, seed, players, values).play(tally)
    return tally


def check_coverage(tally: Tally) -> None:
    """What the run must have met, so that it compares what it says it does."""
    for kind in (
        "CAPTURE",
        "CAPTURE_DRAWN",
        "PILE",
        "PASS",
        "NEXT_HAND",
        "event CHOICE",
        "event TO_LAKE",
        "pile taken",
        "pile taken from hand",
        "PILE beside a CAPTURE",
        "PASS beside a capture (may_decline)",
        "supreme pair capture offered",
        "[6-6] pair laid at the deal",
        "drawn tile may take a pile or a lake tile",
        "drawn tile chose the pile",
        "equal highest counts",
        "illegal move refused",
    ):
        assert tally.kinds[kind] > 0, (kind, tally.line("coverage"))


# ------------------------------------------------------------------ the tests


def test_random_matches_agree_with_the_reference() -> None:
    """[TU-1] [TU-2] [TU-3] [TU-4] [TU-5] [TU-6] [TU-7] [TU-8] [TU-9] [TU-10] the defaults,
    ``may_decline``, ``ALL_SIXES`` and several ``hands``, at 2, 3 and 4 players, played
    through the service and the reference in lockstep: every deal, legal-move set, table,
    hand, event, count, settlement and match total equal."""
    start = time.monotonic()
    tally = run(QUICK, "turef")
    print(tally.line("quick") + f" ({time.monotonic() - start:.1f} s)")
    check_coverage(tally)
    assert tally.matches == QUICK
    assert tally.sets_equal == tally.sets


@pytest.mark.slow
def test_many_random_matches_agree_with_the_reference() -> None:
    """[TU-2] [TU-3] [TU-5] [TU-6] [TU-7] [TU-8] [TU-9] [TU-10] ten times as many
    matches, with other seeds."""
    start = time.monotonic()
    tally = run(SLOW, "turef-slow")
    print(tally.line("slow") + f" ({time.monotonic() - start:.1f} s)")
    check_coverage(tally)
    assert tally.matches == SLOW


# ------------------------------------------------------------------ the reference alone


def test_the_reference_set_and_scoring_follow_rules_md() -> None:
    """[TU-1] [TU-3] [TU-9] [TU-10] the reference itself on RULES.md's own examples (a
    check of the second reading): the 64 tiles are the service's set, the supreme pair's
    matches, a small-fish total of 13 rounds to 20, ``[6-1]`` has 4 red pips with
    ``ALL_SIXES``, and ties at the top collect from every lower seat."""
    tiles = ref.two_chinese_sets()
    assert len(tiles) == 64
    assert tiles == [pair(t) for t in two_chinese_sets()]
    lake = sorted(set(tiles))
    assert [t for t in lake if ref.matches((4, 2), t)] == [(2, 1), (3, 3), (4, 2), (5, 1)]
    assert [t for t in lake if ref.matches((2, 1), t)] == [(2, 1), (4, 2)]
    assert ref.red_pips((6, 1), "ALL_SIXES") == 4
    assert ref.red_pips((6, 1), "DOUBLE_SIX_ONLY") == 1
    assert ref.red_pips((6, 6), "DOUBLE_SIX_ONLY") == 6
    # small fish [4-1] 5, [4-3] 4, [4-2] 4: 13 red pips -> 20; big [5-5] 2 x 10 = 20
    assert ref.count([(4, 1), (4, 3), (4, 2), (5, 5)], "DOUBLE_SIX_ONLY") == 40
    assert ref.count([(3, 3), (3, 2)], "DOUBLE_SIX_ONLY") == 0
    assert ref.settle([50, 20, 10]) == [70, -30, -40]
    assert ref.settle([50, 50, 10]) == [40, 40, -80]
    assert ref.settle([0, 0]) == [0, 0]
