"""What the tests over the catalogue need of Mexican Train (see
:mod:`domino_rules.games.testing`).

What a seat sees: its own hand, the engine and every train ``[MT-14]``; not others'
hands, nor the boneyard.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from ...rules import Match, Tile
from ..redeal import as_tuples, double_n, shuffled
from ..testing import (
    DealCase,
    GameTests,
    HiddenPlace,
    Judge,
    MatchRecord,
    PlaygroundMatch,
    Setup,
    Strength,
    TileTuple,
    leak,
    own,
    seeds,
)

__all__ = ["TESTS", "forgeries", "redeal"]

#: [MT-2] the table of hand sizes, written out again: 2..8 players (0: no entry).
_SIZES = {
    9: (12, 11, 10, 0, 0, 0, 0),
    12: (15, 15, 15, 12, 12, 10, 10),
    15: (15, 15, 15, 12, 12, 10, 10),
}


def _sees(hand: Any, seat: int | None) -> list[Tile]:
    # [MT-14] the engine and every train are on the table, private trains included
    laid = [tile for train in hand.trains for tile in train]
    return [*own(hand.hands, seat), hand.engine, *laid]


def redeal(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
    """[MT-2] [MT-3] [MT-4] every hand's deal, from RULES.md and the module docstring: the
    set (less the engine [N-h, N-h] when it is set aside) shuffled with ``deal/<hand>/0``,
    k tiles a seat by the table, the rest the boneyard; seat h mod P plays first; with
    ``FROM_HAND`` the engine's holder places it and plays first, after rounds of draws
    from seat h mod P when nobody holds it."""
    n = options.get("set_max_pip", 12)
    players, stats = record.players, Counter[str]()
    from_hand = options.get("engine", "SET_ASIDE") == "FROM_HAND"
    k = options.get("hand_size", 0) or _SIZES[n][players - 2]
    for hand in record.hands:
        pip = n - (hand.number - 1)
        engine: TileTuple = (pip, pip)
        full = double_n(n)
        order = shuffled(
            seed,
            f"deal/{hand.number}/0",
            full if from_hand else tuple(t for t in full if t != engine),
        )
        hands = [list(order[k * s : k * s + k]) for s in range(players)]
        boneyard = order[k * players :]
        start = (hand.number - 1) % players
        leader = start
        if from_hand:
            holder = next((s for s, held in enumerate(hands) if engine in held), None)
            drawn = 0
            while holder is None:
                for i in range(players):
                    if drawn < len(boneyard):
                        seat, tile = (start + i) % players, boneyard[drawn]
                        hands[seat].append(tile)
                        drawn += 1
                        holder = seat if tile == engine else holder
            stats["hunts"] += drawn > 0
            hands[holder].remove(engine)
            boneyard = boneyard[drawn:]
            leader = holder
        assert hand.hands == [sorted(held) for held in hands], f"hand {hand.number}"
        assert hand.stock == len(boneyard), f"hand {hand.number}"
        assert as_tuples(hand.internal.boneyard) == list(boneyard), f"hand {hand.number}"
        assert hand.to_act == leader, f"hand {hand.number}"
    return dict(stats)


def forgeries(match: Match[Any, Any]) -> Iterator[tuple[str, Match[Any, Any]]]:
    """Forgeries of its own fields and of the invariants its docstring names."""
    state, replace = match.hand_state, dataclasses.replace

    def with_state(**fields: Any) -> Match[Any, Any]:
        return replace(match, hand_state=replace(state, **fields))

    yield "a train too many", with_state(trains=(*state.trains, ()), ends=(*state.ends, 0))
    yield (
        "an open end the train does not show",
        with_state(ends=((state.ends[0] + 1) % (state.engine.high + 1), *state.ends[1:])),
    )
    plain = [n for n, tiles in enumerate(state.trains) if not tiles or not tiles[-1].is_double]
    waiting = (*state.pending, plain[0]) if plain and plain[0] not in state.pending else (99,)
    yield "a pending train with no double", with_state(pending=waiting)
    yield "more binding doubles than pending", with_state(binding=len(state.pending) + 1)
    yield "a marker of a seat that is not there", with_state(public=1 << match.players)
    other = Tile(1, 1) if state.engine != Tile(1, 1) else Tile(2, 2)
    yield "another engine", with_state(engine=other)
    if match.options.opening.name != "CHAIN":
        yield "an opening round without CHAIN", with_state(opening=(0,))
    pip = state.engine.high
    for number, tiles in enumerate(state.trains):
        for seat, held in enumerate(state.hands):
            stray = next((t for t in held if not t.has(pip)), None)
            if tiles and stray is not None:
                # [MT-5] swapped with a hand's tile: every tile is still there once
                hands = list(state.hands)
                hands[seat] = tuple(sorted((*(t for t in held if t != stray), tiles[0])))
                lines = list(state.trains)
                lines[number] = (stray, *tiles[1:])
                yield (
                    "a train whose first tile does not show the engine's number",
                    with_state(hands=tuple(hands), trains=tuple(lines)),
                )
                return


TESTS = GameTests(
    int_values={
        "set_max_pip": (9, 12),
        "hand_size": (0, 5),
        "hands": (1, 2),
        "double_blank_points": (0, 50),
    },
    conformance_matches=200,
    players=(2, 3, 4, 6, 8),
    short=Setup(3, {"set_max_pip": 9, "hands": 2}),
    tokens=Setup(8, {"hands": 2}, seeds("rt", 2)),
    judge=Judge(
        frozenset(
            {
                "hands",
                "boneyard",
                "engine",
                "trains",
                "ends",
                "public",
                "pending",
                "binding",
                "opening",
                "to_act",
                "leader",
                "hunt",
            }
        ),
        _sees,
    ),
    leak_games=(
        leak(3, {"set_max_pip": 9, "hands": 1}, "mt3", 3),
        leak(4, {"hands": 1, "engine": "FROM_HAND", "opening": "CHAIN"}, "mtfc", 2),
        leak(
            2,
            {"set_max_pip": 9, "hands": 1, "follow_up": "ON_DOUBLE", "mexican_train": False},
            "mtod",
            2,
        ),
    ),
    private_events=True,
    redeal=redeal,
    deals=(
        DealCase("mexican_train", 3, "check-mt-0", {"set_max_pip": 9, "hands": 3}, ()),
        DealCase(
            "mexican_train_hunt",
            3,
            "check-mt-1",
            {"set_max_pip": 9, "hands": 4, "engine": "FROM_HAND"},
            ("hunts",),
        ),
    ),
    bot_setups=(
        Setup(2, {"set_max_pip": 9, "hands": 1}),
        Setup(4, {"hands": 1, "opening": "CHAIN", "engine": "FROM_HAND"}),
        Setup(3, {"set_max_pip": 9, "hands": 1, "follow_up": "ON_DOUBLE"}),
    ),
    hidden=(HiddenPlace("hands", True, True), HiddenPlace("boneyard", False, False)),
    strength=Strength(
        {"set_max_pip": 9, "hands": 1},
        greedy_over_random=600,
        why_not=(
            "STRONG's edge over GREEDY takes more matches to show than this test plays:"
            " bench/tournament.py measures it"
        ),
    ),
    playground=PlaygroundMatch(
        3,
        0,
        "GREEDY",
        "playground mexican_train",
        {"set_max_pip": "9", "hands": "2"},
    ),
    checked_int_values={
        "set_max_pip": (9, 9, 12),
        "hand_size": (0, 0, 5),
        "hands": (1, 1, 2),
        "double_blank_points": (0, 50),
    },
    forgeries=forgeries,
    golden_int_values={
        "set_max_pip": (9,),
        "hand_size": (0,),
        "hands": (1,),
        "double_blank_points": (0,),
    },
)
