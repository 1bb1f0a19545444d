"""All Fives checked against an implementation nobody here wrote: PyPI ``all-fives-domino``
1.0.23, a two-player All Fives with house rules (RULES.md, "Cross-check").

Where the two implement the same rules, random two-player layouts are played in lockstep:
seven tiles each, no drawing, one hand, no bonus (``hand_size: 7``, ``draw: false``,
``target_score: 0``, ``hand_bonus: NONE``), each hand dealt here and given to the package as
its players' hands. After every play, the lead included, the count ``[A5-8]`` and the
points it scores ``[A5-9]`` are compared, and so is each seat's running total; before every
later play, the legal plays ``[A5-3]`` ``[A5-6]`` ``[A5-7]``, as (tile, the tile it is laid
against), the package's face-down "closed" doubles left out. Seat 0 leads ``[A5-4]``; the
three groups of RULES.md's table:

* a double led, ``spinner: FIRST_DOUBLE``: the package's spinner is its led double too;
* a tile other than a double led, ``spinner: NONE``: no spinner on either side;
* a tile other than a double led, ``spinner: FIRST_DOUBLE``: a later double spins here.

Where this ruleset offers plays the package lacks, only common plays are chosen, and each
such decision is counted by its cause, RULES.md's known differences (1) and (2), where the
package's layout stops following the rules:

1. ``UP``/``DOWN`` of a spinner that was not led: the package's only spinner is a led
   double (its first lead is always one), so a later double opens no arms there;
2. the spinner's fourth arm: the package's ``Board.play`` takes the cross off the spinner
   when its third tile is laid.

A seat whose plays are all of that kind cannot be followed, and its layout ends there
(counted by cause too). The package's own unit tests build layouts with ``Piece.append``,
which keeps the cross: 1,000 spinners are grown that way, arm by arm, and every count
compared, where difference (3), the one count rule that differs, shows: a spinner with
three arms started gets its fourth side's number counted once more (10 where pagat and
RULES.md count 5).
"""

from __future__ import annotations

import importlib.metadata
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from domino_rules.rules import EventKind, Match, Move, MoveKind, Status, Tile
from domino_rules.rules.registry import get

from .positions import dealt

pytest.importorskip("src.main.game.DominoRound", reason="needs all-fives-domino (test extra)")
from src.main.game.Board import Board
from src.main.game.Brain import RandomBrain
from src.main.game.DominoRound import DominoRound
from src.main.game.Game import Game
from src.main.game.Hand import Hand
from src.main.game.Piece import Piece
from src.main.game.Player import Player
from src.main.game.Scorer import AllFivesScorer

RULES = get("all_fives")
#: RULES.md's cross-check: two players, seven tiles each, nobody draws, one hand; no bonus
#: (the package's is another rule: unrounded, ties carried over as "eggs").
LAYOUT = {"hand_size": 7, "draw": False, "target_score": 0, "hand_bonus": "NONE"}
#: The three groups of RULES.md's table: (spinner option, whether seat 0 leads a double).
GROUPS = {
    "double_led": ("FIRST_DOUBLE", True),
    "no_spinner": ("NONE", False),
    "later_spinner": ("FIRST_DOUBLE", False),
}
LAYOUTS = 1_000
SPINNERS = 1_000
#: RULES.md's names of the known differences.
LATER_SPINNER = "(1) UP/DOWN of a spinner that was not led"
FOURTH_ARM = "(2) the spinner's fourth arm"
THREE_ARMS = "(3) three arms: the fourth side counted"

Pair = tuple[Tile, Tile | None]


@dataclass
class Tally:
    layouts: int = 0
    plays: int = 0
    counts_equal: int = 0
    points_equal: int = 0
    scored: int = 0
    after_arms: int = 0
    sets: int = 0
    sets_equal: int = 0
    known: Counter[str] = field(default_factory=Counter)
    stopped: Counter[str] = field(default_factory=Counter)

    def line(self, name: str) -> str:
        known = ", ".join(f"{n} {cause}" for cause, n in sorted(self.known.items())) or "0"
        stopped = ", ".join(f"{n} {cause}" for cause, n in sorted(self.stopped.items())) or "0"
        return (
            f"{name}: {self.layouts} layouts, {self.plays} plays, counts equal "
            f"{self.counts_equal}, points equal {self.points_equal} ({self.scored} scored, "
            f"{self.after_arms} after UP or DOWN was started), legal-play sets equal "
            f"{self.sets_equal} of {self.sets}, differing by a known difference: {known}; "
            f"layouts ended with no common play: {stopped}"
        )


# ------------------------------------------------------------------ the package


def _piece(tile: Tile) -> Any:
    return Piece(tile.high, tile.low)


def _tile(piece: Any) -> Tile:
    low, high = piece.sides
    return Tile(high, low)


def package_round(hands: Sequence[Iterable[Tile]]) -> Any:
    """A round of the package between two players, seat 0 its ``player1``, holding
    ``hands``: the round deals seven each at random (with the ``random`` module's own
    state, left as it was) and checks for a lead of its own unless one is named; its hands
    are then replaced by these, and its pool emptied (nobody draws)."""
    saved = random.getstate()
    try:
        game = Game(Player(RandomBrain()), Player(RandomBrain()))
        round_ = DominoRound(game.player1, game.player2, game, begins=game.player1)
    finally:
        random.setstate(saved)
    for player, hand in zip((round_.player1, round_.player2), hands, strict=True):
        player.hand = Hand(*(_piece(t) for t in hand))
    round_.pool = []
    return round_


def package_plays(round_: Any, hand: Any = None) -> set[Pair]:
    """The package's legal plays for ``hand`` (default: the player to act's), as (tile,
    tile laid against), its face-down "closed" doubles left out."""
    options = round_.valid_options(hand)
    return {(_tile(piece), _tile(origin)) for piece, origin, closed in options if not closed}


def package_play(round_: Any, tile: Tile, against: Tile | None) -> tuple[int, int]:
    """Play ``tile`` against ``against`` (``None``: the lead) for the player to act, as its
    round does; returns the board's count and the points the play scored."""
    player = round_.current_player
    piece = next(p for p in player.hand if _tile(p) == tile)
    before = player.score
    round_.play(piece, None if against is None else _piece(against))
    return AllFivesScorer.count(round_.board.origin), player.score - before


# ------------------------------------------------------------------ this ruleset


def against(table: Any, move: Move) -> Tile | None:
    """The tile a ``PLAY`` is laid against: the outermost tile of its end (``None`` on the
    lead), read from the view's ``AllFivesTable`` ``[A5-13]``."""
    if move.end is None:
        return None
    name = move.end.name
    if name in ("LEFT", "RIGHT"):
        laid = table.line[0 if name == "LEFT" else -1]
    else:
        arm = table.up if name == "UP" else table.down
        laid = arm[-1] if arm else table.line[table.spinner]
    tile: Tile = laid.tile
    return tile


def pair(table: Any, move: Move) -> Pair:
    assert move.tile is not None
    return move.tile, against(table, move)


def peg(events: Iterable[Any], seat: int, count: int) -> int:
    """The points of the play just made: its ``PEG``, whose count is the table's."""
    points = 0
    for event in events:
        if event.kind is EventKind.PEG:
            assert event.seat == seat and event.count == count, event
            points += event.points
    return points


def options_of(spinner: str) -> Any:
    return RULES.make_options({**LAYOUT, "spinner": spinner})


# ------------------------------------------------------------------ lockstep


def cause_of(table: Any, extra: set[Pair], led_double: bool, round_: Any, where: Any) -> str:
    """Which known difference explains the plays ``extra`` this ruleset offers and the
    package lacks; fails if none does. Each is laid against this ruleset's spinner, on
    ``UP`` or ``DOWN``, with its number: (2) when the spinner was led and the package's
    copy of it has three tiles against it, (1) when it was not led and the package's copy
    is an ordinary double with both sides taken."""
    assert table.spinner is not None and table.up_end is not None, (where, table, extra)
    spinner = table.line[table.spinner].tile
    assert all(a == spinner and t.has(spinner.high) for t, a in extra), (where, table, extra)
    theirs = round_.board.find_piece([spinner.low, spinner.high])
    assert theirs is not None and theirs.open_sides == [], (where, table, extra)
    if led_double:
        assert theirs is round_.board.origin and len(theirs.linked) == 3, (where, table, extra)
        return FOURTH_ARM
    assert theirs is not round_.board.origin and theirs.closed_sides == 2, (where, table, extra)
    return LATER_SPINNER


def lockstep(seed: str, spinner: str, led_double: bool, tally: Tally) -> bool:
    """One random layout in both, seat 0 leading a double or not (``led_double``); returns
    False, having compared nothing, when seat 0 was dealt no such lead."""
    match: Match[Any, Any] = RULES.new_match(options_of(spinner), 2, seed)
    hands = [RULES.view(match, seat).hand for seat in (0, 1)]
    legal = RULES.legal_moves(match)
    leads = [m for m in legal if m.tile is not None and m.tile.is_double is led_double]
    if not leads:
        return False
    chooser = random.Random(seed)
    round_ = package_round(hands)
    players = (round_.player1, round_.player2)
    tally.layouts += 1
    move = chooser.choice(leads)
    table = RULES.view(match, None).table
    moves: list[Move] = []  # for the messages: the seed and these moves replay the layout
    while True:
        moves.append(move)
        seat = move.seat
        assert round_.current_player is players[seat] and move.tile is not None, seed
        laid_against = against(table, move)
        match, events = RULES.apply(match, move)
        table = RULES.view(match, None).table
        count, points = package_play(round_, move.tile, laid_against)
        ours = peg(events, seat, table.count)
        tally.plays += 1
        tally.counts_equal += table.count == count
        tally.points_equal += ours == points
        tally.scored += points > 0
        tally.after_arms += bool(table.up or table.down)
        assert (table.count, ours) == (count, points), (seed, moves, table, count, points)
        if match.status is not Status.IN_PROGRESS:
            break
        assert list(table.hand_points) == [p.score for p in players], (seed, moves, table)
        legal = RULES.legal_moves(match)
        if legal[0].kind is MoveKind.PASS:
            assert round_.current_player is players[legal[0].seat], seed
            assert not package_plays(round_), (seed, moves, table)
            moves.append(legal[0])
            match, _ = RULES.apply(match, legal[0])
            round_.swap_current_player()
            legal = RULES.legal_moves(match)
            assert legal[0].kind is MoveKind.PLAY, seed  # a PASS never blocks a hand
        assert round_.current_player is players[legal[0].seat], seed
        ours_pairs = {pair(table, m) for m in legal}
        theirs = package_plays(round_)
        assert theirs <= ours_pairs, (seed, moves, table, theirs - ours_pairs)
        tally.sets += 1
        extra = ours_pairs - theirs
        if not extra:
            tally.sets_equal += 1
        else:
            cause = cause_of(table, extra, led_double, round_, (seed, moves))
            tally.known[cause] += 1
            if not theirs:
                tally.stopped[cause] += 1
                return True
        move = chooser.choice([m for m in legal if pair(table, m) in theirs])
    # the hand is over in both: one player is out, or neither can play
    if all(len(p.hand) for p in players):
        assert not any(package_plays(round_, p.hand) for p in players), seed
    return True


@pytest.mark.parametrize("group", list(GROUPS))
def test_random_layouts_agree_with_all_fives_domino(group: str) -> None:
    """[A5-3] [A5-4] [A5-6] [A5-7] [A5-8] [A5-9] 1,000 random layouts of one group of
    RULES.md's cross-check, play by play: every count and its points equal, and every
    legal-play set equal or apart by a known difference only."""
    spinner, led_double = GROUPS[group]
    tally = Tally()
    n = 0
    while tally.layouts < LAYOUTS:
        lockstep(f"a5-{group}-{n}", spinner, led_double, tally)
        n += 1
    print(tally.line(group))
    assert tally.counts_equal == tally.points_equal == tally.plays > LAYOUTS * 8
    assert tally.scored > tally.plays // 10
    assert tally.sets_equal + sum(tally.known.values()) == tally.sets
    if group == "no_spinner":
        assert not tally.known and tally.after_arms == 0
    else:
        cause = FOURTH_ARM if led_double else LATER_SPINNER
        assert set(tally.known) == {cause} and tally.known[cause] > LAYOUTS // 10
        assert tally.sets_equal > tally.sets // 2
    if group == "double_led":
        assert tally.after_arms > tally.plays // 10


# ------------------------------------------------------------------ spinners, arm by arm


def spinner_layout(
    spinner: Tile, arms: Sequence[Tile], ends: Sequence[str], seed: str
) -> list[int]:
    """This ruleset's count after each play of a layout grown arm by arm: seat 0 leads the
    ``spinner``, then the seats lay ``arms`` in turn against it, at ``ends``. The deal: the
    spinner and the arms in the seats' hands, each hand filled up with tiles that cannot
    touch the spinner, the rest undealt."""
    chooser = random.Random(seed)
    full = RULES.full_set(options_of("FIRST_DOUBLE"))
    others = [t for t in full if not t.has(spinner.high)]
    fill = chooser.sample(others, 14 - 1 - len(arms))
    seats: list[list[Tile]] = [[spinner], []]
    for k, tile in enumerate(arms):
        seats[(k + 1) % 2].append(tile)
    need = 7 - len(seats[0])
    seats[0] += fill[:need]
    seats[1] += fill[need:]
    rest = [t for t in full if t not in seats[0] and t not in seats[1]]
    chooser.shuffle(rest)
    options = {**LAYOUT, "spinner": "FIRST_DOUBLE"}
    match = dealt(RULES, 2, (*seats[0], *seats[1], *rest), options=options)
    counts = []
    for tile, end in zip((spinner, *arms), (None, *ends), strict=True):
        legal = RULES.legal_moves(match)
        (move,) = [m for m in legal if m.tile == tile and (m.end and m.end.name) == end]
        match, _ = RULES.apply(match, move)
        counts.append(RULES.view(match, None).table.count)
    return counts


def appended_counts(spinner: Tile, arms: Sequence[Tile]) -> list[int]:
    """The package's count after each tile, the layout built as its own unit tests build
    it: ``Piece.append`` to the spinner."""
    origin = _piece(spinner)
    counts = [AllFivesScorer.count(origin)]
    for tile in arms:
        origin.append(_piece(tile))
        counts.append(AllFivesScorer.count(origin))
    return counts


def played_counts(spinner: Tile, arms: Sequence[Tile]) -> list[int]:
    """The same with the package's ``Board.play``, as its game lays tiles (up to three
    arms: it never opens a fourth)."""
    board = Board()
    board.play(_piece(spinner))
    counts = [AllFivesScorer.count(board.origin)]
    for tile in arms[:3]:
        board.play(_piece(tile), _piece(spinner))
        counts.append(AllFivesScorer.count(board.origin))
    return counts


def test_spinners_grown_arm_by_arm_agree_with_all_fives_domino() -> None:
    """[A5-7] [A5-8] 1,000 spinners, each led and then given one to four arms of one tile
    (the first two against its sides, ``LEFT`` and ``RIGHT`` in either order, then ``UP``
    and ``DOWN``): every count equal to the package's, built with ``Piece.append``, but
    with three arms started, where the package's is the spinner's number more (3); and
    equal to its ``Board.play`` up to three arms."""
    counts: Counter[int] = Counter()
    equal: Counter[int] = Counter()
    apart: Counter[str] = Counter()
    played = 0
    for n in range(SPINNERS):
        chooser = random.Random(f"spinner-{n}")
        d = chooser.randrange(7)
        spinner = Tile(d, d)
        arms = chooser.sample([Tile.of(d, x) for x in range(7) if x != d], chooser.randint(1, 4))
        ends = [*chooser.sample(["LEFT", "RIGHT"], 2), *chooser.sample(["UP", "DOWN"], 2)]
        ours = spinner_layout(spinner, arms, ends[: len(arms)], f"spinner-{n}")
        theirs = appended_counts(spinner, arms)
        for started, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            counts[started] += 1
            if a == b:
                equal[started] += 1
            else:
                assert started == 3 and b - a == d, (spinner, arms, ends, ours, theirs)
                apart[THREE_ARMS] += 1
        by_play = played_counts(spinner, arms)
        assert ours[: len(by_play)] == by_play, (spinner, arms, ours, by_play)
        played += len(by_play)
    total = sum(counts.values())
    print(
        f"spinners: {SPINNERS}, {total} counts ({dict(sorted(counts.items()))} by arms "
        f"started), equal {sum(equal.values())} ({dict(sorted(equal.items()))}), apart "
        f"{dict(apart)}; Board.play: {played} counts, all equal"
    )
    assert all(equal[k] == counts[k] for k in (0, 1, 2, 4))
    assert apart[THREE_ARMS] + equal[3] == counts[3] and apart[THREE_ARMS] > counts[3] // 2


def test_the_packages_own_spinner_test_against_the_three_arms_example() -> None:
    """[A5-7] [A5-8] the package's unit test of the count (``test_open_double_score``) is
    RULES.md's worked example "three arms": [5-5]; [5-2] RIGHT; [5-3] LEFT; [5-0] UP;
    [6-5] DOWN. This ruleset counts 10, 12, 5, 5, 11; the package, 10, 12, 5, 10, 11."""
    spinner = Tile(5, 5)
    arms = [Tile(5, 2), Tile(5, 3), Tile(5, 0), Tile(6, 5)]
    ours = spinner_layout(spinner, arms, ["RIGHT", "LEFT", "UP", "DOWN"], "three-arms")
    assert ours == [10, 12, 5, 5, 11]
    assert appended_counts(spinner, arms) == [10, 12, 5, 10, 11]
    assert played_counts(spinner, arms) == [10, 12, 5, 5]


def test_the_package_is_the_version_compared() -> None:
    """The differences above are those of 1.0.23: another version is compared anew."""
    assert importlib.metadata.version("all-fives-domino") == "1.0.23"
