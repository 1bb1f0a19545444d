"""A third party can check a finished match: re-deal every hand and re-throw every die.

The generator and the canonical set orders are written out again here, from the
documentation only (``domino_rules.rules.rng``'s module docstring and each ruleset
module's docstring); nothing of the service's own generator or deal code is imported.
Each match is played to ``MATCH_OVER`` through a door (gRPC and REST) with random legal
moves, recording only what the API shows: every seat's hand and the stock at each deal
(``GetView``), the spectator's table, and the public ``DICE``, ``REDEAL``, ``LEADER`` and
``PAIR_LAID`` events. Once the match is over ``GetScore`` reveals the seed; it must hash
to the commitment given by ``NewGame`` and must not have been shown before. Every hand is
then dealt again from the seed and compared.

The order of the boneyard / woodpile is never shown through the API; it is checked by
opening each deal's (unsealed) state token with ``RulesService().decode``.
"""

from __future__ import annotations

import base64
import hashlib
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest

from domino_rules.api import RulesService

T = TypeVar("T")
Tile = tuple[int, int]  # (high, low)

MAX_MOVES = 5_000

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


def double_n(n: int) -> tuple[Tile, ...]:
    """Western double-N, ascending by (high, low)."""
    return tuple((high, low) for high in range(n + 1) for low in range(high + 1))


DOUBLE_SIX_SET = double_n(6)
DOUBLE_SIX_WITHOUT_BLANK = tuple(t for t in DOUBLE_SIX_SET if t != (0, 0))
CIVIL: tuple[Tile, ...] = (
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
MILITARY: tuple[Tile, ...] = (
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


def test_the_independent_sets_have_the_documented_sizes() -> None:
    assert (len(DOUBLE_SIX_SET), len(DOUBLE_SIX_WITHOUT_BLANK), len(CHINESE), len(TWO_CHINESE)) == (
        28,
        27,
        32,
        64,
    )
    assert double_n(18)[-1] == (18, 18) and len(double_n(18)) == 190
    assert CHINESE[:3] == ((1, 1), (1, 1), (2, 1)) and CHINESE[-2:] == ((6, 6), (6, 6))
    assert Counter(TWO_CHINESE)[(6, 6)] == 4 and Counter(TWO_CHINESE)[(4, 2)] == 2


def test_the_independent_generator_is_a_uniform_permutation_source() -> None:
    assert sorted(shuffled("x", "deal/1/0", TWO_CHINESE)) == list(TWO_CHINESE)
    assert shuffled("x", "deal/1/0", DOUBLE_SIX_SET) == shuffled("x", "deal/1/0", DOUBLE_SIX_SET)
    assert shuffled("x", "deal/1/0", DOUBLE_SIX_SET) != shuffled("x", "deal/2/0", DOUBLE_SIX_SET)
    stream = Stream("x", "d")
    dice = [stream.die() for _ in range(600)]
    assert set(dice) == {1, 2, 3, 4, 5, 6}
    # 4 bytes big-endian from the first SHA-256 block; with n = 2**31 + 1 a word of at
    # least 2**32 - 2**32 % n = 2**31 + 1 is rejected and the next word is tried
    n = 2**31 + 1
    for k in range(100):
        block = hashlib.sha256(f"s\x00l{k}\x00".encode() + bytes(8)).digest()
        first, second = (int.from_bytes(block[i : i + 4], "big") for i in (0, 4))
        if first >= n and second < n:
            assert Stream("s", f"l{k}").below(n) == second % n
            break
    else:
        raise AssertionError("no label with a rejected first word")


# ------------------------------------------------------------------ recording a match


def tile(message: dict[str, Any]) -> Tile:
    return (message["high"], message["low"])


def tiles(messages: list[dict[str, Any]]) -> list[Tile]:
    return sorted(tile(m) for m in messages)


def as_tuples(values: Sequence[Any]) -> list[Tile]:
    return [(t.high, t.low) for t in values]


@dataclass
class HandRecord:
    number: int
    to_act: int
    deal_events: list[dict[str, Any]]
    hands: list[list[Tile]]  # per seat, sorted, from GetView(seat)
    stock: int
    table: dict[str, Any]  # the spectator's ruleset table at the deal
    internal: Any  # the hand dataclass, from the decoded token (white box)
    dice: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    final_table: dict[str, Any] = field(default_factory=dict)


@dataclass
class MatchRecord:
    ruleset: str
    players: int
    commitment: str
    hands: list[HandRecord] = field(default_factory=list)
    score: dict[str, Any] = field(default_factory=dict)


def dice_of(events: list[dict[str, Any]]) -> list[tuple[int, tuple[int, ...]]]:
    return [(e["seat"], tuple(e["dice"])) for e in events if e["kind"] == "DICE"]


def check_seed_hidden(door: Any, state: str, commitment: str) -> None:
    score = door.call("GetScore", {"state": state})
    assert score["status"] != "MATCH_OVER"
    assert "seed" not in score, "the seed is shown before the match is over"
    assert score["seed_commitment"] == commitment


def record_deal(door: Any, record: MatchRecord, answer: dict[str, Any]) -> HandRecord:
    state = answer["state"]
    spectator = door.call("GetView", {"state": state})
    views = [door.call("GetView", {"state": state, "seat": s}) for s in range(record.players)]
    assert {v["stock"] for v in views} == {spectator["stock"]}
    assert all(v["to_act"] == answer["to_act"] for v in views)
    check_seed_hidden(door, state, record.commitment)
    hand = HandRecord(
        number=spectator["hand_number"],
        to_act=answer["to_act"],
        deal_events=answer["events"],
        hands=[tiles(v["hand"]) for v in views],
        stock=spectator["stock"],
        table=spectator[record.ruleset],
        internal=RulesService().decode(base64.b64decode(state)).match.hand_state,
        dice=dice_of(answer["events"]),
    )
    assert hand.number == len(record.hands) + 1
    record.hands.append(hand)
    return hand


def play_and_record(
    door: Any,
    ruleset: str,
    players: int,
    seed: str | None,
    options: dict[str, Any],
    moves_seed: str,
) -> tuple[MatchRecord, str]:
    """Play to MATCH_OVER with random legal moves; returns the record and the revealed seed."""
    body: dict[str, Any] = {"ruleset": ruleset, "players": players, "options": {ruleset: options}}
    if seed is not None:
        body["seed"] = seed
    game = door.call("NewGame", body)
    assert game["status"] == "IN_PROGRESS"
    record = MatchRecord(ruleset, players, game["seed_commitment"])
    hand = record_deal(door, record, game)
    chooser = random.Random(moves_seed)
    state, version = game["state"], game["version"]
    for _ in range(MAX_MOVES):
        legal = door.call("GetLegalMoves", {"state": state})
        if legal["status"] != "IN_PROGRESS":
            # the hand just ended: what the table showed at its end (Throw-up: the last round)
            hand.final_table = door.call("GetView", {"state": state})[ruleset]
        if legal["status"] == "MATCH_OVER":
            break
        if legal["status"] == "HAND_OVER":
            check_seed_hidden(door, state, record.commitment)
        move = chooser.choice(legal["moves"])
        answer = door.call("ApplyMove", {"state": state, "move": move, "expected_version": version})
        if move["kind"] == "NEXT_HAND":
            first = answer["events"][0]
            assert (first["kind"], first["count"]) == ("NEXT_HAND", len(record.hands) + 1)
            hand = record_deal(door, record, answer)
        else:
            # a void deal is only ever re-dealt at the deal itself
            assert not [e for e in answer["events"] if e["kind"] in ("REDEAL", "DEAL")]
            hand.dice += dice_of(answer["events"])
            if answer["status"] == "MATCH_OVER":
                check_seed_hidden(door, state, record.commitment)  # the state one move before
        state, version = answer["state"], answer["version"]
    else:
        raise AssertionError("the match did not end")
    record.score = door.call("GetScore", {"state": state})
    revealed = record.score.get("seed")
    assert record.score["status"] == "MATCH_OVER" and revealed
    # the commitment binds the seed: hex SHA-256 of its UTF-8 bytes
    assert hashlib.sha256(revealed.encode("utf-8")).hexdigest() == record.commitment
    assert record.score["seed_commitment"] == record.commitment
    if seed is not None:
        assert revealed == seed
    assert [h["hand"] for h in record.score["hands"]] == [h.number for h in record.hands]
    return record, revealed


# ------------------------------------------------------------------ re-dealing each game


def redeal_one_arm_joe(record: MatchRecord, seed: str) -> dict[str, int]:
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


def redeal_tsair_deng(record: MatchRecord, seed: str) -> dict[str, int]:
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


def redeal_tiu_u(record: MatchRecord, seed: str) -> dict[str, int]:
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


def redeal_throw_up(record: MatchRecord, seed: str, rethrow: bool) -> dict[str, int]:
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


# ------------------------------------------------------------------ the matches

#: Short matches: (ruleset, players, seed, options, what this seed is known to show).
#: The seeds were picked so that the rarer cases do occur: a void One Arm Joe deal, a
#: pair of [6-6] laid at a Tiu U deal, a tied throw-off and a repeated round throw kept
#: (rethrow_repeats false), and a repeated throw thrown again (rethrow_repeats true).
CASES: dict[str, tuple[str, int, str, dict[str, Any], tuple[str, ...]]] = {
    "one_arm_joe": ("one_arm_joe", 2, "check-one_arm_joe-0", {"target_score": 30}, ("redeals",)),
    "tsair_deng": ("tsair_deng", 3, "check-tsair_deng-0", {"hands": 2}, ("aside",)),
    "tiu_u": ("tiu_u", 3, "check-tiu_u-3", {"hands": 2}, ("pairs laid",)),
    "throw_up": (
        "throw_up",
        3,
        "check-throw_up-20",
        {"hands_per_player": 1},
        ("throw-off rethrows", "repeats kept"),
    ),
    "throw_up_rethrow": (
        "throw_up",
        3,
        "check-throw_up_rethrow-0",
        {"hands_per_player": 1, "rethrow_repeats": True},
        ("rethrows",),
    ),
}


def redeal(record: MatchRecord, seed: str, options: dict[str, Any]) -> dict[str, int]:
    if record.ruleset == "one_arm_joe":
        return redeal_one_arm_joe(record, seed)
    if record.ruleset == "tsair_deng":
        return redeal_tsair_deng(record, seed)
    if record.ruleset == "tiu_u":
        return redeal_tiu_u(record, seed)
    return redeal_throw_up(record, seed, options.get("rethrow_repeats", False))


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_finished_match_can_be_re_dealt_from_the_revealed_seed(door: Any, case: str) -> None:
    ruleset, players, seed, options, shows = CASES[case]
    record, revealed = play_and_record(door, ruleset, players, seed, options, moves_seed=case)
    stats = redeal(record, revealed, options)
    assert len(record.hands) >= 2
    for fact in shows:
        assert stats.get(fact, 0) > 0, f"seed {seed!r} no longer shows {fact}: {stats}"


@pytest.mark.parametrize("case", ["one_arm_joe", "tsair_deng", "tiu_u", "throw_up"])
def test_a_server_chosen_seed_is_revealed_and_checks_out(door: Any, case: str) -> None:
    ruleset, players, _, options, _ = CASES[case]
    record, revealed = play_and_record(door, ruleset, players, None, options, moves_seed=case)
    assert len(revealed) == 32 and int(revealed, 16) >= 0  # 128 bits as 32 hex digits
    redeal(record, revealed, options)
