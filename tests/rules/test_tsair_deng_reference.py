"""Tsair Deng checked in lockstep against a second reading of RULES.md: the clean-room
reference ``tests/rules/reference/tsair_deng.py``, written from RULES.md (and the decisions
of the service's module docstring) without reading the service's code.

``test_tsair_deng.py`` checks each rule on scripted positions; this test plays many random
matches through the service and the reference from the same deal and compares them after
every move: both sets at 2, 3 and 4 players, with and without ``must_play_if_able``,
matches of ``hands`` hands and matches to a ``target_score``.

Each hand's tiles are read from the seats' views and given to the reference; the reference
also re-deals every hand from the seed by the documented derivation (label ``deal/h/0``)
and the hands must be those, the tiles aside the rest ([TD-2]), and the first leader the
holder of ``[6-6]`` or ``below(players)`` of ``lead/1`` ([TD-3]). At every decision the
seat to act and the legal moves (kind, tile, ``open_pip``), as a set and in the
documented order, are compared; after every move the table (each of the 8 places' top
tile and depth, the open half, the number played, the viewing seat's own discards in
order, every seat's number of discards, the leader), the mover's hand, the hand sizes, the
stock (always 0), the running and match points, the settlement so far, and the move's
events (``PLAY`` with the new open half, ``DISCARD`` shown to its discarder only,
``HAND_OVER``, ``MATCH_OVER``, ``NEXT_HAND``, ``DEAL``, ``LEADER``); at each hand's end the
result (end, each seat's count and points, the winner, every hand turned up empty); at the
match end the totals, the winners and the settlement. Moves are chosen at random (seeded)
among the legal moves, each match with its own leaning towards playing rather than
discarding (so that seats without discards, [TD-8], and tied hands, [TD-9], occur); at one
decision in fifty every other move the seat could name (each tile of the set played with
either half, another pip or none as ``open_pip``, or discarded; ``DRAW``, ``PASS``,
``NEXT_HAND``; a move of another seat) is tried and must be refused.

Not compared: the hand's reason in words, the views' events as other seats see them
beyond the discarded tile being hidden, the API and its tokens, and the 1,000-hand bound
(modelled, never reached).
"""

from __future__ import annotations

import dataclasses
import itertools
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
from domino_rules.rules.registry import get

from .lockstep import Mismatch, Position, Tally, pair, service_refusal
from .reference import tsair_deng as ref

RULES = get("tsair_deng")

#: the share of decisions at which every illegal move is tried
PROBE = 0.02
#: matches per run
QUICK = 300
SLOW = 3_000


def key(move: Move) -> ref.RefMove:
    return (move.kind.name, None if move.tile is None else pair(move.tile), move.open_pip)


class Lockstep(Position):
    """One match through the service and the reference."""

    def __init__(
        self,
        label: str,
        seed: str,
        players: int,
        values: dict[str, Any],
        order: list[ref.Pair] | None = None,
        script: list[ref.RefMove] | None = None,
    ) -> None:
        """``order``: the first hand is dealt from this order of the set (through the
        ruleset's ``deal_from``) rather than from the seed; ``script``: moves played
        whenever legal, in turn, before any random choice."""
        self.label, self.seed, self.players = label, seed, players
        self.values = values
        self.match: Match[Any, Any] = RULES.new_match(RULES.make_options(values), players, seed)
        self.order = order
        if order is not None:
            blank = dataclasses.replace(self.match, hand_number=0, hand_state=None, last_events=())
            state, events = RULES.deal_from(blank, 1, tuple(Tile(*t) for t in order))
            self.match = dataclasses.replace(self.match, hand_state=state, last_events=events)
        self.script = list(script or [])
        self.ref = ref.TsairDeng(values, players, seed)
        self.chooser = random.Random(seed)
        #: how often a seat with a matching tile plays it rather than choosing at random
        self.lean = self.chooser.choice([0.0, 0.5, 0.8, 0.95, 1.0])
        self.moves: list[str] = []  # this hand's moves, for the messages
        self.tally = Tally()

    # ---- comparing --------------------------------------------------------------

    last_moves = 3

    def setting(self) -> str:
        return f" {self.values}"

    def check_state(self, seats: Iterable[int] | None = None) -> None:
        """Everything both can see after a move; the hands and own discards of ``seats``
        (default: all; after a move, the mover's: no other seat's change)."""
        match, model = self.match, self.ref
        self.same("TD-10", "status", match.status.name, model.status)
        self.same("TD-7", "seat to act", RULES.to_act(match), model.to_act())
        h = model.hand
        assert h is not None
        table = RULES.view(match, None).table
        places = [(None if p.top is None else pair(p.top), p.depth) for p in table.places]
        self.same("TD-6", "places (top, depth)", places, h.places())
        self.same("TD-4", "open half", table.open_pip, h.open_pip)
        self.same("TD-6", "tiles played", table.played, len(h.played))
        self.same(
            "TD-5", "discard counts", list(table.discard_counts), [len(d) for d in h.discards]
        )
        self.same("TD-5", "a spectator's discards", list(table.discards), [])
        self.same("TD-3", "leader", table.leader, h.leader)
        for seat in range(self.players) if seats is None else seats:
            view = RULES.view(match, seat)
            self.same("TD-2", f"seat {seat}'s hand", sorted(map(pair, view.hand)), h.hands[seat])
            own = [pair(t) for t in view.table.discards]
            self.same("TD-5", f"seat {seat}'s own discards", own, h.discards[seat])
        self.same("TD-7", "hand sizes", list(view.hand_sizes), [len(x) for x in h.hands])
        self.same("TD-2", "stock", view.stock, 0)
        self.same("TD-10", "match totals", list(view.match_points), model.totals())
        score = RULES.score(match)
        running = (0,) * self.players if model.status == ref.IN_PROGRESS else None
        if running is not None:
            self.same("TD-8", "points during a hand", score.hand_points, running)
        self.same("TD-10", "settlement", score.settlement, model.settlement())

    def check_events(self, events: Iterable[Any], mine: list[ref.RefEvent], seat: int) -> None:
        got: list[ref.RefEvent] = []
        for event in events:
            kind = event.kind
            if kind is EventKind.PLAY:
                got.append(("PLAY", event.seat, pair(event.tile), event.open_pip))
            elif kind is EventKind.DISCARD:
                seen = event.for_seat(seat).tile
                got.append(("DISCARD", event.seat, None if seen is None else pair(seen)))
                for other in [*range(self.players), None]:
                    if other != seat:
                        hidden = event.for_seat(other)
                        self.same(
                            "TD-5", "discard face down", (hidden.tile, hidden.hidden), (None, True)
                        )
            elif kind in (EventKind.HAND_OVER, EventKind.MATCH_OVER):
                got.append((kind.name, tuple(event.seats), tuple(event.scores)))
            else:
                got.append((kind.name, event.seat, event.count))
        self.same("TD-5", "events", got, mine)

    def check_result(self) -> None:
        """[TD-7] [TD-8] [TD-9] [TD-10] the finished hand in GetScore."""
        score = RULES.score(self.match)
        self.same("TD-10", "hands scored", len(score.hands), len(self.ref.history))
        got, want = score.hands[-1], self.ref.history[-1]
        self.same("TD-7", "hand end", got.end.name, want.end)
        self.same("TD-8", "seat counts (pips discarded)", got.counts, want.counts)
        self.same("TD-8", "hand points", got.points, want.points)
        self.same("TD-9", "hand winner", got.winners, want.winners)
        self.same("TD-10", "per-hand settlement", got.settlement, ())
        self.same("TD-8", "score's hand points", score.hand_points, want.points)
        self.same("TD-10", "match winners", score.winners, self.ref.winners())
        self.same("TD-10", "match totals", score.match_points, tuple(self.ref.totals()))
        shown = RULES.view(self.match, 0).shown_hands
        self.same("TD-7", "hands turned up", shown, ((),) * self.players)

    # ---- playing ----------------------------------------------------------------

    def deal(self, events: Iterable[Any], before: list[ref.RefEvent]) -> None:
        """Give the reference the hand just dealt, from the seats' views, and check it
        against the re-deal from the seed."""
        hands = [sorted(map(pair, RULES.view(self.match, s).hand)) for s in range(self.players)]
        tile_set = self.ref.opts.tile_set
        dealt, aside = ref.deal(tile_set, self.players, self.seed, self.ref.hand_number + 1)
        if self.order is not None and self.ref.hand_number == 0:
            k = ref.hand_size(tile_set, self.players)
            dealt = [sorted(self.order[k * s : k * s + k]) for s in range(self.players)]
            aside = sorted(self.order[k * self.players :])
        self.same("TD-2", "the deal", hands, dealt)
        # the tiles aside are in no view: read off the hand state as a plain record
        unused = sorted(map(pair, self.match.hand_state.unused))
        self.same("TD-2", "tiles aside", unused, aside)
        mine = before + self.ref.start_hand(hands, aside)
        got = [
            (e.kind.name, e.count) if e.kind is not EventKind.LEADER else ("LEADER", e.seat)
            for e in events
        ]
        self.same("TD-3", "NEXT_HAND, DEAL and LEADER events", got, mine)
        self.moves = []
        kinds = self.tally.kinds
        if aside:
            kinds["tiles aside (3 players)"] += 1
        if self.ref.hand_number == 1 and tile_set == ref.DOUBLE_SIX:
            kinds["[6-6] holder leads" if (6, 6) not in aside else "[6-6] aside: random lead"] += 1

    def play(self, tally: Tally) -> None:
        self.tally = tally
        self.deal(self.match.last_events, [])
        self.check_state()
        while True:
            legal = RULES.legal_moves(self.match)
            mine = self.ref.legal_moves()
            if self.match.status is Status.MATCH_OVER:
                self.same("TD-10", "moves after the match", legal, ())
                self.same("TD-10", "reference moves after the match", mine, [])
                break
            by_key = {key(m): m for m in legal}
            tally.sets += 1
            self.same("TD-5", "legal moves", sorted(by_key, key=repr), sorted(mine, key=repr))
            self.same("TD-5", "distinct moves", len(by_key), len(legal))
            self.same("TD-5", "legal moves in the documented order", list(by_key), mine)
            tally.sets_equal += 1
            if self.chooser.random() < PROBE:
                self.probe_illegal(set(mine), tally)
            choice = self.choose(mine)
            move = by_key[choice]
            tally.moves += 1
            self.moves.append(str(move))
            self.count_kind(choice, tally)
            self.match, events = RULES.apply(self.match, move)
            mine_events = self.ref.apply(choice)
            if choice[0] == ref.NEXT_HAND:
                self.deal(events, mine_events)
                self.check_state()
                continue
            self.check_events(events, mine_events, move.seat)
            over = self.match.status is not Status.IN_PROGRESS
            self.check_state(None if over else [move.seat])
            if over:
                self.hand_over(tally)
        tally.matches += 1
        tally.kinds["1-hand match" if len(self.ref.history) == 1 else "match of 2+ hands"] += 1
        if self.ref.opts.target_score:
            tally.kinds["match to a target"] += 1

    def choose(self, mine: list[ref.RefMove]) -> ref.RefMove:
        if self.script and self.script[0] in mine:
            return self.script.pop(0)
        plays = [m for m in mine if m[0] == ref.PLAY]
        if plays and self.chooser.random() < self.lean:
            return self.chooser.choice(plays)
        return self.chooser.choice(mine)

    def hand_over(self, tally: Tally) -> None:
        tally.hands += 1
        self.check_result()
        result, hand = self.ref.history[-1], self.ref.hand
        assert hand is not None
        kinds = tally.kinds
        if any(not d for d in hand.discards):
            kinds["[TD-8] a seat without discards (others doubled)"] += 1
            if all(not d for d in hand.discards):
                kinds["[TD-8] nobody discarded"] += 1
        if any(t == (0, 0) for d in hand.discards for t in d):
            kinds["[0-0] discarded"] += 1
        kinds[f"[TD-9] decided by {result.decided_by}"] += 1
        deepest = max(depth for _, depth in hand.places())
        kinds[f"deepest place {min(deepest, 3)}{'+' if deepest >= 3 else ''}"] += 1

    def probe_illegal(self, legal: set[ref.RefMove], tally: Tally) -> None:
        """[TD-4] [TD-5] every other move of the seat to act is refused: each tile of the
        set played with either half, another pip or none as ``open_pip``, or discarded;
        ``DRAW``, ``PASS``, ``NEXT_HAND``; and a legal move named by another seat."""
        seat = RULES.to_act(self.match)
        assert seat is not None
        tiles = sorted(set(Tile(a, b) for a, b in ref.full_set(self.ref.opts.tile_set)))
        candidates = [Move(seat, MoveKind[k]) for k in ("DRAW", "PASS", "NEXT_HAND")]
        for tile in tiles:
            candidates.append(Move(seat, MoveKind.DISCARD, tile))
            candidates.append(Move(seat, MoveKind.PLAY, tile))
            off = next(p for p in range(7) if not tile.has(p))
            pips = {tile.high, tile.low, off}  # each half, and one not on it
            candidates += [Move(seat, MoveKind.PLAY, tile, open_pip=p) for p in sorted(pips)]
        for move in candidates:
            if key(move) in legal:
                continue
            try:
                RULES.apply(self.match, move)
            except IllegalMoveError:
                tally.kinds["illegal move refused"] += 1
            else:
                raise Mismatch(f"[TD-5] {self.where()}: {move} was not refused")
        if self.match.status is Status.IN_PROGRESS:
            kind, named, open_pip = sorted(legal, key=repr)[0]
            assert named is not None
            other = Move((seat + 1) % self.players, MoveKind[kind], Tile(*named), open_pip=open_pip)
            with pytest.raises(NotYourTurnError):
                RULES.apply(self.match, other)

    def count_kind(self, move: ref.RefMove, tally: Tally) -> None:
        kind, tile, open_pip = move
        if kind == ref.PLAY and open_pip is not None:
            assert tile is not None
            if ref.is_double(tile):
                kind = "lead of a double"
            else:
                kind = (
                    "lead open on the high half"
                    if open_pip == tile[0]
                    else "lead open on the low half"
                )
        elif kind == ref.PLAY and tile is not None and ref.is_double(tile):
            kind = "PLAY of a double"
        tally.kinds[kind] += 1


# ------------------------------------------------------------------ the scenarios


def random_options(chooser: random.Random) -> tuple[int, dict[str, Any]]:
    """A random set of options (every option varied) and a player count."""
    values: dict[str, Any] = {
        "tile_set": chooser.choice([ref.CHINESE, ref.DOUBLE_SIX]),
        "must_play_if_able": chooser.random() < 0.4,
        "hands": chooser.choice([1, 1, 2, 3, 4, 5]),
        "target_score": chooser.choice([0, 0, 0, 1, 40, 100, 250]),
    }
    for name in chooser.sample(sorted(values), chooser.randint(0, 2)):
        del values[name]  # the defaults
    return chooser.randint(2, 4), values


def scenarios(n: int) -> list[tuple[str, int, dict[str, Any]]]:
    """``n`` matches: named cases at 2, 3 and 4 players, then random options."""
    fixed: list[tuple[str, int, dict[str, Any]]] = []
    for players in (2, 3, 4):
        fixed += [
            ("defaults", players, {}),
            ("double-six", players, {"tile_set": "DOUBLE_SIX"}),
            ("must play", players, {"must_play_if_able": True}),
            (
                "double-six, must play",
                players,
                {"tile_set": "DOUBLE_SIX", "must_play_if_able": True},
            ),
            ("one hand", players, {"hands": 1}),
            ("target 150", players, {"target_score": 150, "hands": 1}),
            ("double-six, target 60", players, {"tile_set": "DOUBLE_SIX", "target_score": 60}),
        ]
    chooser = random.Random(f"tsair-deng-reference-{n}")
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
        "PLAY",
        "PLAY of a double",
        "DISCARD",
        "NEXT_HAND",
        "lead of a double",
        "lead open on the high half",
        "lead open on the low half",
        "tiles aside (3 players)",
        "[6-6] holder leads",
        "[6-6] aside: random lead",
        "[TD-8] a seat without discards (others doubled)",
        "[TD-9] decided by points",
        "[TD-9] decided by discards",
        "[0-0] discarded",
        "deepest place 3+",
        "match to a target",
        "match of 2+ hands",
        "1-hand match",
        "illegal move refused",
    ):
        assert tally.kinds[kind] > 0, (kind, tally.line("coverage"))


# ------------------------------------------------------------------ the tests


def test_random_matches_agree_with_the_reference() -> None:
    """[TD-1] [TD-2] [TD-3] [TD-4] [TD-5] [TD-6] [TD-7] [TD-8] [TD-9] [TD-10] both sets at
    2, 3 and 4 players, with and without must_play_if_able, matches of hands and to a
    target, played through the service and the reference in lockstep: every deal, leader,
    legal-move set, table, hand, discard, score, settlement and event equal."""
    start = time.monotonic()
    tally = run(QUICK, "tdref")
    print(tally.line("quick") + f" ({time.monotonic() - start:.1f} s)")
    check_coverage(tally)
    assert tally.matches == QUICK


@pytest.mark.slow
def test_many_random_matches_agree_with_the_reference() -> None:
    """[TD-2] [TD-3] [TD-4] [TD-5] [TD-6] [TD-7] [TD-8] [TD-9] [TD-10] ten times as many
    matches, with other seeds; the rarer tie-breaks of [TD-9] must occur too."""
    start = time.monotonic()
    tally = run(SLOW, "tdref-slow")
    print(tally.line("slow") + f" ({time.monotonic() - start:.1f} s)")
    check_coverage(tally)
    assert tally.kinds["[TD-9] decided by total"] > 0, tally.line("coverage")
    assert tally.kinds["[TD-9] decided by turn"] > 0, tally.line("coverage")
    assert tally.matches == SLOW


def euler_chain(tiles: list[ref.Pair], start: int, rng: random.Random) -> list[int]:
    """Hierholzer: the pips of a chain through every tile of ``tiles`` from ``start``
    (``len(tiles) + 1`` pips; tile ``i`` joins pips ``i`` and ``i + 1``)."""
    ids = list(range(len(tiles)))
    rng.shuffle(ids)
    adj: dict[int, list[int]] = {}
    for i in ids:
        a, b = tiles[i]
        adj.setdefault(a, []).append(i)
        adj.setdefault(b, []).append(i)
    used = [False] * len(tiles)
    stack, path = [start], []
    while stack:
        v = stack[-1]
        while adj[v] and used[adj[v][-1]]:
            adj[v].pop()
        if adj[v]:
            i = adj[v].pop()
            used[i] = True
            stack.append(ref.other_half(tiles[i], v))
        else:
            path.append(stack.pop())
    assert all(used), "no chain through every tile"
    return path[::-1]


def chained(
    tile_set: str, players: int, seed: str, rng: random.Random
) -> tuple[list[ref.Pair], list[ref.RefMove]]:
    """An order of the set whose deal lets every seat play every tile, one chain in turn
    order from the leader ([TD-3]: the [6-6] holder, or ``lead/1``), and that chain's
    moves. The double-six set's pips all have even degree (a circuit through [6-6]); the
    Chinese set's 2 and 5 are odd (a path from 5 to 2)."""
    tiles = ref.full_set(tile_set)
    if tile_set == ref.DOUBLE_SIX:
        pips = euler_chain(tiles, 6, rng)
        at = next(i for i in range(len(pips) - 1) if pips[i] == pips[i + 1] == 6)
        pips = pips[at:-1] + pips[:at] + [6]  # the circuit from its [6-6]
        leader = 0
    else:
        pips = euler_chain(tiles, 5, rng)
        leader = ref.random_leader(seed, 1, players)
    chain = [(max(a, b), min(a, b)) for a, b in itertools.pairwise(pips)]
    by_seat: list[list[ref.Pair]] = [[] for _ in range(players)]
    for n, tile in enumerate(chain):
        by_seat[(leader + n) % players].append(tile)
    order = [t for seat in by_seat for t in seat]
    script: list[ref.RefMove] = [(ref.PLAY, chain[0], pips[1])]
    script += [(ref.PLAY, t, None) for t in chain[1:]]
    return order, script


def test_chained_deals_agree_with_the_reference() -> None:
    """[TD-3] [TD-5] [TD-6] [TD-8] [TD-9] deals (through the ruleset's ``deal_from``) in
    which every tile can be played in one chain: with the whole chain played nobody
    discards (every score 0) and the leader wins on turn order; cut short at a random move,
    some seats keep no discard and double the others. Both sets at 2 and 4 players (every
    tile dealt), then matches go on from the seed."""
    rng = random.Random("tdref-chains")
    tally = Tally()
    for i in range(24):
        tile_set = [ref.CHINESE, ref.DOUBLE_SIX][i % 2]
        players = [2, 4][i // 2 % 2]
        seed = f"tdref-chain-{i}"
        order, script = chained(tile_set, players, seed, rng)
        if i >= 8:
            script = script[: rng.randrange(len(script) // 2, len(script))]
        values = {"tile_set": tile_set, "hands": 2, "must_play_if_able": i % 3 == 0}
        Lockstep("chain", seed, players, values, order, script).play(tally)
    print(tally.line("chains"))
    assert tally.kinds["[TD-8] nobody discarded"] >= 8, tally.line("chains")
    assert tally.kinds["[TD-9] decided by turn"] >= 8, tally.line("chains")
    assert tally.kinds["[TD-8] a seat without discards (others doubled)"] >= 16


# ------------------------------------------------------------------ the reference alone


def test_the_reference_reads_the_serpentine_and_the_scores_as_rules_md() -> None:
    """[TD-6] [TD-8] [TD-9] the reference itself on RULES.md's words (a check of the second
    reading, not of the service): tiles 1-8 left to right, 9 covers 8, 16 covers 1, 17
    covers 16; a seat without discards doubles the others; the tie-breaks in order."""
    assert [ref.place(n) for n in range(1, 9)] == list(range(8))
    assert ref.covered_by(9) == 8 and ref.covered_by(10) == 7 and ref.covered_by(16) == 1
    assert ref.covered_by(17) == 16 and ref.place(17) == 0 and ref.place(24) == 7
    assert ref.place(25) == 7 and ref.place(32) == 0

    def hand(discards: list[list[ref.Pair]], leader: int = 0) -> ref.Hand:
        return ref.Hand(len(discards), 0, [[]] * len(discards), [], leader, leader, 1, [], discards)

    got = ref.score_hand(hand([[(6, 5)], [], [(2, 1), (1, 1)]]), [0, 0, 0])
    assert (got.counts, got.points, got.winners) == ((11, 0, 5), (22, 0, 10), (1,))
    got = ref.score_hand(hand([[(0, 0)], [(6, 6)]]), [0, 0])  # [0-0] is a discard
    assert (got.points, got.winners) == ((0, 12), (0,))
    got = ref.score_hand(hand([[(3, 1), (1, 1)], [(5, 1)]]), [0, 0])
    assert (got.points, got.winners, got.decided_by) == ((6, 6), (1,), "discards")
    got = ref.score_hand(hand([[(5, 1)], [(6, 0)]]), [9, 4])
    assert (got.winners, got.decided_by) == ((1,), "total")
    got = ref.score_hand(hand([[(5, 1)], [(6, 0)], [(4, 2)]], leader=1), [0, 0, 0])
    assert (got.winners, got.decided_by) == ((1,), "turn")
    got = ref.score_hand(hand([[], []], leader=1), [0, 0])
    assert (got.points, got.winners) == ((0, 0), (1,))


# ------------------------------------------------------------------ options and players


def reference_refusal(values: dict[str, Any]) -> tuple[str, range | None]:
    try:
        opts = ref.options(values)
    except ref.BadOptions:
        return "BAD_OPTIONS", None
    low, high = ref.player_range(opts)
    return "OK", range(low, high + 1)


def test_options_and_player_counts_are_refused_alike() -> None:
    """[TD-1] [TD-2] [TD-10] 1,000 random option sets, in and out of range: refused alike
    (``BAD_OPTIONS``), and the same player range, 2 to 4, where accepted."""
    chooser = random.Random("tdref-options")
    tally: Counter[str] = Counter()
    for _ in range(1_000):
        values: dict[str, Any] = {
            "tile_set": chooser.choice(["CHINESE", "DOUBLE_SIX", "DOUBLE_NINE"]),
            "must_play_if_able": chooser.random() < 0.5,
            "hands": chooser.choice([0, 1, 4, 1000, 1001, -1]),
            "target_score": chooser.choice([0, 1, 500, 100_000, 100_001, -1]),
        }
        for name in chooser.sample(sorted(values), chooser.randint(0, len(values))):
            del values[name]
        got, want = service_refusal(RULES, values), reference_refusal(values)
        assert got == want, values
        tally[got[0]] += 1
    print(f"options: {dict(tally)}")
    assert min(tally.values()) > 200
