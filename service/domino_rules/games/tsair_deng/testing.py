"""What the tests over the catalogue need of Tsair Deng (see :mod:`domino_rules.games.testing`).

What a seat sees: its own hand, its own face-down discards and the top tile of each of
the 8 places of the serpentine ``[TD-6]``, computed here from the order of play; not
others' hands, others' discards (only their number), covered tiles, nor the tiles left
over ``[TD-2]``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from ...rules import Match, Tile
from ..redeal import CHINESE, Stream, as_tuples, shuffled
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
    replace_at,
    seeds,
)

__all__ = ["PLACES", "TESTS", "forgeries", "redeal", "serpentine_tops"]

#: [TD-6] the serpentine has 8 places.
PLACES = 8


def serpentine_tops(played: tuple[Tile, ...]) -> list[tuple[Tile | None, int]]:
    """[TD-6] (top tile, depth) of each of the 8 places, from the order of play.

    Tiles 1-8 lie left to right; tile 9 covers tile 8, tile 16 covers tile 1, tile 17
    covers tile 16, and so on: even rows run left to right, odd rows right to left.

    >>> tops = serpentine_tops(tuple(Tile(n, 0) for n in range(1, 10)))
    >>> tops[0], tops[7]
    ((Tile(1, 0), 1), (Tile(9, 0), 2))
    """
    places: list[tuple[Tile | None, int]] = [(None, 0)] * PLACES
    for index, tile in enumerate(played):
        row, column = divmod(index, PLACES)
        place = column if row % 2 == 0 else PLACES - 1 - column
        places[place] = (tile, places[place][1] + 1)
    return places


def _sees(hand: Any, seat: int | None) -> list[Tile]:
    tops = [top for top, _ in serpentine_tops(hand.played) if top is not None]
    return [*own(hand.hands, seat), *own(hand.discards, seat), *tops]


def redeal(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
    """k tiles a seat of the Chinese set from ``deal/<hand>/0`` (16, 10 or 8), the rest
    aside; the first leader drawn by ``Stream(seed, "lead/1")``, later ones the last
    hand's winner."""
    assert options.get("tile_set", "CHINESE") == "CHINESE", "the re-dealer knows CHINESE only"
    players = record.players
    k = {2: 16, 3: 10, 4: 8}[players]  # the Chinese set
    for hand in record.hands:
        order = shuffled(seed, f"deal/{hand.number}/0", CHINESE)
        assert hand.hands == [sorted(order[k * s : k * (s + 1)]) for s in range(players)]
        assert hand.stock == 0
        assert sorted(as_tuples(hand.internal.unused)) == sorted(order[k * players :])
        if hand.number == 1:
            leader = Stream(seed, "lead/1").below(players)  # drawn at random
        else:
            leader = record.score["hands"][hand.number - 2]["winners"][0]
        assert hand.to_act == leader, f"hand {hand.number}"
    return {"aside": len(CHINESE) - k * players}


def forgeries(match: Match[Any, Any]) -> Iterator[tuple[str, Match[Any, Any]]]:
    """Forgeries of its own fields and of the invariants its docstring names."""
    state, replace = match.hand_state, dataclasses.replace

    def with_state(**fields: Any) -> Match[Any, Any]:
        return replace(match, hand_state=replace(state, **fields))

    yield "discards one more seat", with_state(discards=(*state.discards, ()))
    yield "the wrong seat to act", with_state(to_act=(state.to_act + 1) % match.players)
    yield "an open half of 19", with_state(open_pip=19)
    yield "open half None", with_state(open_pip=None)
    if state.unused:
        moved = tuple(sorted(state.hands[0] + state.unused))
        yield (
            "unused tiles moved to a hand",
            with_state(unused=(), hands=replace_at(state.hands, 0, moved)),
        )
    yield "played twice as long", with_state(played=state.played * 2 + (Tile(6, 6),))


TESTS = GameTests(
    int_values={"hands": (1, 3), "target_score": (0, 120)},
    conformance_matches=300,
    players=(2, 3, 4),
    short=Setup(4, {"hands": 2}),
    tokens=Setup(4, {}, seeds("rt", 3)),
    judge=Judge(
        frozenset({"hands", "discards", "played", "open_pip", "to_act", "leader", "unused"}),
        _sees,
    ),
    leak_games=(
        leak(2, {"tile_set": "CHINESE", "hands": 2}, "tdc2", 3),
        leak(3, {"tile_set": "CHINESE", "hands": 2}, "tdc3", 3),
        leak(4, {"tile_set": "CHINESE", "hands": 2, "must_play_if_able": True}, "tdc4", 3),
        leak(2, {"tile_set": "DOUBLE_SIX", "hands": 2}, "td62", 3),
        leak(3, {"tile_set": "DOUBLE_SIX", "hands": 2}, "td63", 3),
        leak(4, {"tile_set": "DOUBLE_SIX", "hands": 2, "must_play_if_able": True}, "td64", 3),
    ),
    private_events=True,
    redeal=redeal,
    deals=(DealCase("tsair_deng", 3, "check-tsair_deng-0", {"hands": 2}, ("aside",)),),
    bot_setups=(
        Setup(2, {"hands": 1}),
        Setup(3, {"hands": 2, "tile_set": "DOUBLE_SIX"}),
        Setup(4, {"hands": 1, "must_play_if_able": True}),
    ),
    hidden=(
        HiddenPlace("hands", True, True),
        HiddenPlace("discards", True, False),
        HiddenPlace("unused", False, True),
    ),
    # STRONG's edge over GREEDY, about 0.2, is some three standard errors of 20 deals
    strength=Strength({"hands": 1}, greedy_over_random=100, strong_over_greedy=20),
    playground=PlaygroundMatch(
        3, 0, "RANDOM", "playground tsair deng", {"hands": "2", "tile_set": "DOUBLE_SIX"}
    ),
    checked_int_values={"hands": (1, 2), "target_score": (0, 0, 40)},
    forgeries=forgeries,
    golden_int_values={"hands": (1, 2), "target_score": (0, 60)},
)
