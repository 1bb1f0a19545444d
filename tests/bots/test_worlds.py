"""Sampled worlds agree with the view they come from, and with the rules.

A world built from a seat's view (``bots.worlds.sample_world``) passes ``check_match``,
gives that seat the very same view (its events aside: a world keeps none), the same legal
moves, and keeps every inference the sampler claims: a seat known to hold no tile of a
pip holds none in any world.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from domino_rules import rules
from domino_rules.bots import dealing
from domino_rules.bots.worlds import NoWorldError, bot_for, fabricated_history, sample_world
from domino_rules.games.one_arm_joe.bot import voids
from domino_rules.games.throw_up.bot import layable, stuck_seats
from domino_rules.games.tiu_u.bot import lake_before_pass
from domino_rules.games.tiu_u.rules import matches
from domino_rules.games.tsair_deng.bot import covered_chain
from domino_rules.rules import EventKind, HandEnd, Match, Tile, View

from .positions import SETUPS, Position, positions

RULESET_IDS = sorted(SETUPS)


def without_events(view: View) -> View:
    return dataclasses.replace(view, events=())


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_world_passes_check_match_and_gives_the_same_view(ruleset_id: str) -> None:
    seen = 0
    for n, position in enumerate(positions(ruleset_id, matches=3)):
        ruleset, view, seat = position.ruleset, position.view, position.seat
        world = sample_world(ruleset, position.options, position.players, view, random.Random(n))
        ruleset.check_match(world)
        assert without_events(ruleset.view(world, seat)) == without_events(view)
        assert ruleset.legal_moves(world) == view.legal_moves
        assert world.seed != position.match.seed
        seen += 1
    assert seen > 50


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_greedy_plays_the_same_from_the_view_and_in_a_world(ruleset_id: str) -> None:
    """The rollouts' policy is the GREEDY level, seen from inside a world."""
    for n, position in enumerate(itertools.islice(positions(ruleset_id, matches=2), 0, None, 3)):
        bot = bot_for(position.ruleset)
        assert bot is not None
        view = position.view
        rng = random.Random(n)
        world = sample_world(position.ruleset, position.options, position.players, view, rng)
        legal = position.ruleset.legal_moves(world)
        assert bot.heuristic(world, legal) == bot.greedy(view, position.options)


def test_worlds_of_one_view_differ_and_repeat_with_the_rng() -> None:
    position = next(p for p in positions("tiu_u", matches=1) if p.view.stock > 10)
    ruleset, options, players, view = (
        position.ruleset,
        position.options,
        position.players,
        position.view,
    )
    first = [sample_world(ruleset, options, players, view, random.Random(k)) for k in range(5)]
    again = [sample_world(ruleset, options, players, view, random.Random(k)) for k in range(5)]
    assert first == again
    assert len({repr(w.hand_state) for w in first}) == 5


def _holds(world: Match[Any, Any], seat: int, pip: int) -> bool:
    """Does ``seat`` hold a tile with ``pip`` in ``world``?"""
    return any(tile.has(pip) for tile in world.hand_state.hands[seat])


def _worlds(position: Position, count: int) -> list[Match[Any, Any]]:
    return [
        sample_world(
            position.ruleset, position.options, position.players, position.view, random.Random(k)
        )
        for k in range(count)
    ]


def test_one_arm_joe_a_seat_that_drew_or_passed_holds_no_tile_of_that_pip() -> None:
    """[OAJ-7] [OAJ-6]: the drawer had, and kept, no tile matching the pip it drew on."""
    checked = 0
    for position in positions("one_arm_joe", matches=6):
        lacking = voids(position.view)
        if not lacking:
            continue
        for world in _worlds(position, 4):
            for seat, pip in lacking.items():
                assert not _holds(world, seat, pip)
        # and the rules agree: the real state has no such tile either
        for seat, pip in lacking.items():
            assert not _holds(position.match, seat, pip)
        checked += 1
    assert checked > 10


def test_tsair_deng_a_forced_discard_rules_out_the_open_half() -> None:
    """[TD-5] under must_play_if_able a discard means no matching tile."""
    checked = 0
    for position in positions("tsair_deng", matches=4):
        view = position.view
        if not position.options.must_play_if_able:
            continue
        discards = [e for e in view.events if e.kind is EventKind.DISCARD and e.hidden]
        if not discards or view.table.open_pip is None:
            continue
        seat, pip = discards[0].seat, view.table.open_pip
        assert seat is not None
        for world in _worlds(position, 4):
            assert not _holds(world, seat, pip)
            assert not world.hand_state.discards[seat][-1].has(pip)
        checked += 1
    assert checked > 5


def _is_chain(tiles: list[Tile], open_pip: int) -> bool:
    """[TD-4] [TD-5] can ``tiles``, in the order played, leave ``open_pip`` open?"""
    possible = {tiles[0].high, tiles[0].low}
    for tile in tiles[1:]:
        possible = {tile.other(p) for p in possible if tile.has(p)}
    return open_pip in possible


#: Late layouts of Tsair Deng hands where random walks mostly run out of copies (and a
#: search without memory of dead ends took over 20,000 steps): tiles played, the visible
#: tops by number, the open half, the hidden tiles.
TIGHT_LAYOUTS = [
    (
        23,
        {9: "6-4", 17: "4-3", 18: "3-1", 19: "6-1", 20: "6-3", 21: "3-3", 22: "3-1", 23: "1-1"},
        1,
        "1-1 2-2 4-1 4-2 4-4 5-1 5-1 5-2 5-3 5-5 6-1 6-2 6-4 6-5 6-5 6-6 6-6",
    ),
    (
        26,
        {17: "6-2", 18: "6-4", 19: "6-4", 20: "6-1", 21: "1-1", 22: "4-1", 25: "3-2", 26: "3-3"},
        3,
        "2-2 2-2 3-1 3-1 4-2 4-3 4-4 4-4 5-1 5-1 5-2 5-3 5-4 5-5 5-5 6-1 6-5 6-5 6-6 6-6",
    ),
]


@pytest.mark.parametrize(("played", "tops", "open_pip", "hidden"), TIGHT_LAYOUTS)
def test_tsair_deng_a_tight_layout_still_gets_a_chain(
    played: int, tops: dict[int, str], open_pip: int, hidden: str
) -> None:
    """The covered tiles of a late layout, where nearly every hidden tile is covered: the
    backtracking search finds a chain for every generator."""
    fixed = {number: Tile.parse(text) for number, text in tops.items()}
    pool = [Tile.parse(text) for text in hidden.split(" ")]
    for n in range(40):
        chain = covered_chain(played, fixed, open_pip, pool, random.Random(n))
        assert chain is not None
        assert len(chain) == played and _is_chain(chain, open_pip)
        assert all(chain[k - 1] == tile for k, tile in fixed.items())
        covered = Counter(t for k, t in enumerate(chain, 1) if k not in fixed)
        assert not covered - Counter(pool)


def test_tsair_deng_a_layout_no_chain_fits_has_none() -> None:
    assert covered_chain(2, {1: Tile(6, 6)}, 1, [Tile(5, 4)], random.Random(0)) is None


def test_tiu_u_a_seat_that_passed_could_not_mate() -> None:
    """[TU-5] a pass (without may_decline) means no hand tile matched the lake."""
    checked = 0
    for position in positions("tiu_u", matches=6):
        passed = lake_before_pass(position.view)
        if passed is None or position.options.may_decline:
            continue
        seat, lake, piles = passed
        real = position.match.hand_state.hands[seat]
        assert not any(matches(t, x) for t in real for x in lake)
        for world in _worlds(position, 3):
            hand = world.hand_state.hands[seat]
            assert not any(matches(t, x) for t in hand for x in lake)
            assert not set(hand) & piles
        checked += 1
    assert checked > 3


def test_throw_up_a_seat_that_drew_or_passed_could_lay_nothing() -> None:
    """[THR-7]: of a drawer's hand only the tile drawn may be layable now."""
    checked = 0
    for position in positions("throw_up", matches=6):
        stuck = stuck_seats(position.view)
        if not stuck:
            continue
        table = position.view.table
        totals = frozenset(table.qualifying)

        ends = (table.left_end, table.right_end)
        for seat, most in stuck.items():
            assert _layable(position.match.hand_state.hands[seat], totals, ends) <= most
            for world in _worlds(position, 3):
                assert _layable(world.hand_state.hands[seat], totals, ends) <= most
        checked += 1
    assert checked > 10


def _layable(
    hand: tuple[Tile, ...], totals: frozenset[int], ends: tuple[int | None, int | None]
) -> int:
    return sum(layable(t, totals, *ends) for t in hand)


def test_the_fabricated_history_adds_up_to_the_match_points() -> None:
    ruleset = rules.get("tiu_u")
    for position in positions("tiu_u", matches=2):
        if position.match.hand_number > 1:
            break
    else:
        pytest.fail("no second hand played")
    view = position.view
    history = fabricated_history(ruleset, view, position.players, (0,) * position.players)
    assert len(history) == view.hand_number - 1
    totals = [sum(r.points[s] for r in history) for s in range(position.players)]
    assert tuple(totals) == view.match_points
    assert all(r.end is HandEnd.WOODPILE_EXHAUSTED for r in history)


def test_a_view_that_does_not_fit_its_options_has_no_world() -> None:
    position = next(positions("one_arm_joe", matches=1))
    ruleset = position.ruleset
    bigger = ruleset.make_options({"target_score": 0, "set_max_pip": 9})
    view = position.view
    line = view.table.line
    # a view whose arm repeats a tile of the hand does not fit any set
    forged = dataclasses.replace(view, table=dataclasses.replace(view.table, line=line + view.hand))
    with pytest.raises(NoWorldError, match="seen more often"):
        sample_world(ruleset, bigger, position.players, forged, random.Random(0))
    with pytest.raises(NoWorldError, match="do not fit hand"):
        sample_world(
            ruleset,
            position.options,
            position.players,
            dataclasses.replace(view, match_points=(5,) * position.players),
            random.Random(0),
        )


def test_shuffled_draws_what_random_sample_draws() -> None:
    """The worlds' shuffle is ``Random.sample`` of the whole pool without a call per draw:
    the same list and the generator left in the same state, for every size a pool of
    hidden tiles can have (a Python whose ``sample`` draws otherwise fails here)."""
    for seed in range(300):
        for n in (0, 1, 2, 3, 5, 6, 7, 21, 22, 27, 44, 64, 100, 190):
            ours, theirs = random.Random(seed), random.Random(seed)
            items = [Tile.from_code(code % 190) for code in range(n)]
            assert dealing.shuffled(items, ours) == theirs.sample(items, n), (seed, n)
            assert ours.getstate() == theirs.getstate()
