"""What the tests over the catalogue need of Tiu U (see :mod:`domino_rules.games.testing`).

What a seat sees: its own hand, the lake, every pile (3 tiles each), every catch and the
drawn tile waiting for its capture; not others' hands, nor the woodpile (its contents or
its order).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from ...rules import Match, Tile
from ..redeal import TWO_CHINESE, as_tuples, shuffled, tiles
from ..testing import (
    DealCase,
    GameTests,
    HiddenPlace,
    Judge,
    MatchRecord,
    PlaygroundMatch,
    Setup,
    Strength,
    leak,
    own,
    seeds,
)

__all__ = ["TESTS", "forgeries", "redeal"]


def _sees(hand: Any, seat: int | None) -> list[Tile]:
    piles = [tile for tile in hand.piles for _ in range(3)]
    catches = [tile for caught in hand.catches for tile in caught]
    drawn = [hand.drawn] if hand.drawn is not None else []
    return [*own(hand.hands, seat), *hand.lake, *piles, *catches, *drawn]


def redeal(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
    """Two Chinese sets from ``deal/<hand>/0``: the lake the first 16 tiles, each seat's
    stacks from the end, a pair of [6-6] laid out at once [TU-4], the rest the woodpile,
    drawn from the hands' end."""
    players, stats = record.players, Counter[str]()
    size = 4 * {2: 3, 3: 2, 4: 1}[players]
    top = len(TWO_CHINESE)
    for hand in record.hands:
        order = shuffled(seed, f"deal/{hand.number}/0", TWO_CHINESE)
        # the lake is stacks 0..3, face up
        assert tiles(hand.table["lake"]) == sorted(order[:16]), f"hand {hand.number}"
        assert hand.table["piles"] == []
        laid_events = [e for e in hand.deal_events if e["kind"] == "PAIR_LAID"]
        for seat in range(players):
            stacks = sorted(order[top - size * (seat + 1) : top - size * seat])
            pairs = stacks.count((6, 6)) // 2  # [TU-4] a pair of [6-6] is laid out at once
            laid = [(6, 6)] * (2 * pairs)
            mine = [e for e in laid_events if e["seat"] == seat]
            assert [tiles(e["tiles"]) for e in mine] == [[(6, 6), (6, 6)]] * pairs
            assert tiles(hand.table["catches"][seat]["tiles"]) == laid
            assert sorted(hand.hands[seat] + laid) == stacks, f"hand {hand.number} seat {seat}"
            stats["pairs laid"] += pairs
        rest = order[16 : top - size * players]
        assert hand.stock == len(rest)
        assert as_tuples(hand.internal.woodpile) == rest[::-1]  # drawn from the hands' end
        assert hand.to_act == (hand.number - 1) % players
    return dict(stats)


def forgeries(match: Match[Any, Any]) -> Iterator[tuple[str, Match[Any, Any]]]:
    """Forgeries of its own fields and of the invariants its docstring names."""
    state, replace = match.hand_state, dataclasses.replace

    def with_state(**fields: Any) -> Match[Any, Any]:
        return replace(match, hand_state=replace(state, **fields))

    yield "the wrong seat to act", with_state(to_act=(state.to_act + 1) % match.players)
    yield "the wrong leader", with_state(leader=(state.leader + 1) % match.players)
    yield "catches one fewer", with_state(catches=state.catches[:-1])
    yield "a lake out of order", with_state(lake=(*reversed(state.lake), Tile(1, 1)))
    yield "a pile of a tile outside the set", with_state(piles=(Tile(0, 0),))
    if state.woodpile:
        yield (
            "a drawn tile with no choice",
            with_state(drawn=state.woodpile[0], woodpile=state.woodpile[1:]),
        )
    if state.woodpile:
        yield "woodpile of 200", with_state(woodpile=state.woodpile * 200)


TESTS = GameTests(
    int_values={"hands": (1, 2)},
    conformance_matches=300,
    players=(2, 3, 4),
    short=Setup(3, {"hands": 1}),
    tokens=Setup(4, {}, seeds("rt", 3)),
    judge=Judge(
        frozenset({"hands", "woodpile", "lake", "piles", "catches", "to_act", "leader", "drawn"}),
        _sees,
    ),
    leak_games=(
        leak(2, {"hands": 1}, "tu2", 4),
        leak(3, {"hands": 2, "may_decline": True}, "tu3", 2),
        leak(4, {"hands": 1}, "tu4", 4),
        leak(4, {"hands": 1, "may_decline": True, "red_sixes": "ALL_SIXES"}, "tu4d", 2),
    ),
    private_events=False,
    redeal=redeal,
    deals=(
        # a pair of [6-6] laid at a deal
        DealCase("tiu_u", 3, "check-tiu_u-3", {"hands": 2}, ("pairs laid",)),
    ),
    bot_setups=(
        Setup(2, {"hands": 1}),
        Setup(3, {"hands": 2, "may_decline": True}),
        Setup(4, {"hands": 1, "red_sixes": "ALL_SIXES"}),
    ),
    hidden=(HiddenPlace("hands", True, True), HiddenPlace("woodpile", False, False)),
    # GREEDY's edge over RANDOM, about 0.1, is some four standard errors of 100 deals
    strength=Strength(
        {"hands": 1},
        greedy_over_random=100,
        why_not=(
            "STRONG's edge over GREEDY is a few points in a hundred: it takes thousands of"
            " matches to show, which bench/tournament.py plays"
        ),
    ),
    playground=PlaygroundMatch(
        2, 1, "GREEDY", "playground tiu u", {"hands": "2", "may_decline": "true"}
    ),
    checked_int_values={"hands": (1, 2)},
    forgeries=forgeries,
    golden_int_values={"hands": (1, 2)},
)
