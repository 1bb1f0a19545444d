"""Re-dealing a finished match from its revealed seed, from the documentation only.

The generator and the canonical set orders are written out again here, from
``domino_rules.rules.rng``'s module docstring and each ruleset module's docstring;
nothing of the service's own generator or deal code is imported. A test records what the
API showed of each deal (:class:`MatchRecord`); a re-dealer deals every hand again from
the seed, compares, and returns counts of the rarer events it met (so that a test can
insist its seed still shows them).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

__all__ = [
    "CHINESE",
    "DOUBLE_SIX_SET",
    "DOUBLE_SIX_WITHOUT_BLANK",
    "TWO_CHINESE",
    "HandRecord",
    "MatchRecord",
    "Redealer",
    "Stream",
    "TileTuple",
    "double_n",
    "redeal_block",
    "redeal_dancing_dragons",
    "redeal_one_arm_joe",
    "redeal_throw_up",
    "redeal_tiu_u",
    "redeal_tsair_deng",
    "shuffled",
    "throw",
    "tiles",
]

T = TypeVar("T")
TileTuple = tuple[int, int]  # (high, low)

# ------------------------------------------------------------------ the generator, again


class Stream:
    """``SHA-256(seed ‖ 0x00 ‖ label ‖ 0x00 ‖ counter)`` blocks, counter 8 bytes big-endian."""

    def __init__(self, seed: str, label: str) -> None:
        self.prefix = seed.encode("utf-8") + b"\x00" + label.encode("utf-8") + b"\x00"
        self.counter = 0
        self.pending = bytearray()

    def take(self, n: int) -> bytes:
        while len(self.pending) < n:
            self.pending += hashlib.sha256(self.prefix + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
        out = bytes(self.pending[:n])
        del self.pending[:n]
        return out

    def below(self, n: int) -> int:
        """Uniform in ``[0, n)``: 4 bytes big-endian, rejected when ``>= 2**32 - 2**32 % n``."""
        span = 2**32
        while True:
            x = int.from_bytes(self.take(4), "big")
            if x < span - span % n:
                return x % n

    def die(self) -> int:
        return 1 + self.below(6)


def shuffled(seed: str, label: str, items: Sequence[T]) -> list[T]:
    """Fisher-Yates over the canonical order: for i = len-1 down to 1, swap i and below(i+1)."""
    stream, out = Stream(seed, label), list(items)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def throw(seed: str, label: str, dice: int = 3) -> tuple[int, ...]:
    stream = Stream(seed, label)
    return tuple(stream.die() for _ in range(dice))


# ------------------------------------------------------------------ the sets, again


def double_n(n: int) -> tuple[TileTuple, ...]:
    """Western double-N, ascending by (high, low)."""
    return tuple((high, low) for high in range(n + 1) for low in range(high + 1))


DOUBLE_SIX_SET = double_n(6)
DOUBLE_SIX_WITHOUT_BLANK = tuple(t for t in DOUBLE_SIX_SET if t != (0, 0))
CIVIL: tuple[TileTuple, ...] = (
    (6, 6),
    (1, 1),
    (4, 4),
    (3, 1),
    (5, 5),
    (3, 3),
    (2, 2),
    (6, 5),
    (6, 4),
    (6, 1),
    (5, 1),
)
MILITARY: tuple[TileTuple, ...] = (
    (6, 3),
    (5, 4),
    (6, 2),
    (5, 3),
    (5, 2),
    (4, 3),
    (4, 1),
    (3, 2),
    (4, 2),
    (2, 1),
)
CHINESE = tuple(sorted(CIVIL * 2 + MILITARY))
TWO_CHINESE = tuple(sorted(CHINESE * 2))

# ------------------------------------------------------------------ what the API showed


def tiles(messages: Sequence[Mapping[str, Any]]) -> list[TileTuple]:
    """Tiles in proto3 JSON (``{"high": 6, "low": 4}``), sorted."""
    return sorted((m["high"], m["low"]) for m in messages)


def as_tuples(values: Sequence[Any]) -> list[TileTuple]:
    """The service's own tiles (from a decoded token), as tuples."""
    return [(t.high, t.low) for t in values]


@dataclass
class HandRecord:
    number: int
    to_act: int
    deal_events: list[dict[str, Any]]
    hands: list[list[TileTuple]]  # per seat, sorted, from GetView(seat)
    stock: int
    table: dict[str, Any]  # the spectator's ruleset table at the deal
    internal: Any  # the hand state, from the decoded token (white box)
    dice: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    final_table: dict[str, Any] = field(default_factory=dict)


@dataclass
class MatchRecord:
    ruleset: str
    players: int
    commitment: str
    hands: list[HandRecord] = field(default_factory=list)
    score: dict[str, Any] = field(default_factory=dict)


#: Re-deals every hand of a record from the seed (options as RULES.md names them) and
#: returns counts of the rarer events met.
Redealer = Callable[[MatchRecord, str, Mapping[str, Any]], dict[str, int]]

# ------------------------------------------------------------------ re-dealing each game


def redeal_one_arm_joe(
    record: MatchRecord, seed: str, options: Mapping[str, Any]
) -> dict[str, int]:
    assert options.get("set_max_pip", 6) == 6, "the re-dealer knows the double-six set only"
    players, stats = record.players, Counter[str]()
    for hand in record.hands:
        attempt = 0
        while True:  # [OAJ-3] void while no seat holds a double
            order = shuffled(seed, f"deal/{hand.number}/{attempt}", DOUBLE_SIX_SET)
            dealt = [sorted(order[3 * s : 3 * s + 3]) for s in range(players)]
            if any(high == low for seat in dealt for high, low in seat):
                break
            attempt += 1
        redeals = [e for e in hand.deal_events if e["kind"] == "REDEAL"]
        assert [e["count"] for e in redeals] == list(range(1, attempt + 1)), f"hand {hand.number}"
        assert hand.hands == dealt, f"hand {hand.number}"
        assert hand.stock == len(DOUBLE_SIX_SET) - 3 * players
        assert as_tuples(hand.internal.boneyard) == order[3 * players :]
        # the highest double leads
        leader = max((t, s) for s, seat in enumerate(dealt) for t in seat if t[0] == t[1])[1]
        assert hand.to_act == leader
        stats["redeals"] += attempt
    return dict(stats)


def redeal_tsair_deng(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
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


def redeal_tiu_u(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
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


def redeal_throw_up(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
    rethrow = bool(options.get("rethrow_repeats", False))
    players, stats = record.players, Counter[str]()
    leader = -1
    for hand in record.hands:
        order = shuffled(seed, f"deal/{hand.number}/0", DOUBLE_SIX_WITHOUT_BLANK)
        assert hand.hands == [sorted(order[7 * s : 7 * s + 7]) for s in range(players)]
        assert hand.stock == len(DOUBLE_SIX_WITHOUT_BLANK) - 7 * players
        assert as_tuples(hand.internal.boneyard) == order[7 * players :]
        expected: list[tuple[int, tuple[int, ...]]] = []
        if hand.number == 1:  # the throw-off
            contenders, attempt = list(range(players)), 0
            while True:
                totals = {}
                for seat in contenders:
                    dice = throw(seed, f"lead/{attempt}/{seat}")
                    expected.append((seat, dice))
                    totals[seat] = sum(dice)
                contenders = [s for s in contenders if totals[s] == max(totals.values())]
                if len(contenders) == 1:
                    break
                attempt += 1
                stats["throw-off rethrows"] += 1
            leader = contenders[0]
        else:
            leader = (leader + 1) % players
        assert hand.to_act == leader
        assert [e["seat"] for e in hand.deal_events if e["kind"] == "LEADER"] == [leader]
        previous: tuple[int, ...] | None = None
        for round_number in range(1, hand.final_table["round"] + 1):
            t = 0
            while True:
                dice = throw(seed, f"dice/{hand.number}/{round_number}/{t}")
                expected.append((leader, dice))
                repeat = previous is not None and sorted(dice) == sorted(previous)
                if not (rethrow and repeat):
                    stats["repeats kept"] += repeat
                    break
                t += 1
                stats["rethrows"] += 1
            previous = dice
        stats["rounds"] += hand.final_table["round"]
        assert hand.dice == expected, f"hand {hand.number}"
    return dict(stats)


def _rank(tile: TileTuple) -> tuple[int, int, int]:
    """[BLK-4] doubles first, highest first; then by pip total, then the higher high half."""
    high, low = tile
    return (1, high, 0) if high == low else (0, high + low, high)


def redeal_block(record: MatchRecord, seed: str, options: Mapping[str, Any]) -> dict[str, int]:
    """[BLK-2] [BLK-4] the deal and the first lead, from RULES.md and the module docstring:
    k tiles a seat from ``deal/<hand>/0`` (7 for two players and a partnership Block game,
    5 otherwise), the rest the boneyard; under ``HIGHEST_DOUBLE`` (every hand led as the
    first) the holder of the highest-ranked tile leads."""
    assert options.get("set_max_pip", 6) == 6, "the re-dealer knows the double-six set only"
    assert options.get("next_lead", "AS_FIRST") == "AS_FIRST", "it re-deals AS_FIRST leads"
    players, stats = record.players, Counter[str]()
    partnership, draw = options.get("partnership", False), options.get("draw", False)
    k = options.get("hand_size", 0) or (7 if players == 2 or (partnership and not draw) else 5)
    for hand in record.hands:
        order = shuffled(seed, f"deal/{hand.number}/0", DOUBLE_SIX_SET)
        dealt = [sorted(order[k * s : k * s + k]) for s in range(players)]
        assert hand.hands == dealt, f"hand {hand.number}"
        assert hand.stock == len(DOUBLE_SIX_SET) - k * players
        assert as_tuples(hand.internal.boneyard) == order[k * players :]
        if options.get("first_lead", "HIGHEST_DOUBLE") == "HIGHEST_DOUBLE":
            top = max((t for seat in dealt for t in seat), key=_rank)
            leader = next(s for s, seat in enumerate(dealt) if top in seat)
            stats["leads without a double"] += top[0] != top[1]
        else:
            leader = 0
        assert hand.to_act == leader, f"hand {hand.number}"
    return dict(stats)


def redeal_dancing_dragons(
    record: MatchRecord, seed: str, options: Mapping[str, Any]
) -> dict[str, int]:
    """[DD-1] [DD-2] k tiles a seat of the Chinese set from ``deal/<hand>/0`` (16, 10 or 8),
    the last two aside with 3 players; the first leader ``Stream(seed, "lead/1")``'s draw
    below the player count, later ones the last hand's winner."""
    players = record.players
    k = {2: 16, 3: 10, 4: 8}[players]
    for hand in record.hands:
        order = shuffled(seed, f"deal/{hand.number}/0", CHINESE)
        assert hand.hands == [sorted(order[k * s : k * s + k]) for s in range(players)]
        assert hand.stock == 0
        assert as_tuples(hand.internal.unused) == sorted(order[k * players :])
        if hand.number == 1:
            assert hand.to_act == Stream(seed, "lead/1").below(players)
    return {}
