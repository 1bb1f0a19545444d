"""A third party can check a finished match: re-deal every hand and re-throw every die.

Each match is played to ``MATCH_OVER`` through a door (gRPC and REST) with random legal
moves, recording only what the API shows: every seat's hand and the stock at each deal
(``GetView``), the spectator's table, and the public ``DICE``, ``REDEAL``, ``LEADER`` and
``PAIR_LAID`` events. Once the match is over ``GetScore`` reveals the seed; it must hash
to the commitment given by ``NewGame`` and must not have been shown before. Every hand is
then dealt again from the seed by the game's re-dealer (its declarations' ``redeal``),
which uses the generator and the canonical set orders written out again from the
documentation only (``domino_rules.games.redeal``), and compared.

The order of the boneyard / woodpile is never shown through the API; it is checked by
opening each deal's (unsealed) state token with ``RulesService().decode``.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections import Counter

import pytest

from domino_rules import rules
from domino_rules.api import RulesService
from domino_rules.games.redeal import (
    CHINESE,
    DOUBLE_SIX_SET,
    DOUBLE_SIX_WITHOUT_BLANK,
    TWO_CHINESE,
    Stream,
    double_n,
    shuffled,
    tiles,
)
from domino_rules.games.testing import HandRecord, MatchRecord

from ..cases import CASES, DealCase, cases_for
from .doors import JSON, Door
from .play import DoorStep, new_game, play_to_end

RULESET_IDS = [r.id for r in rules.all_rulesets()]

# ------------------------------------------------------------------ the generator, again


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


def dice_of(events: list[JSON]) -> list[tuple[int, tuple[int, ...]]]:
    return [(e["seat"], tuple(e["dice"])) for e in events if e["kind"] == "DICE"]


def check_seed_hidden(door: Door, state: str, commitment: str) -> None:
    score = door.call("GetScore", {"state": state})
    assert score["status"] != "MATCH_OVER"
    assert "seed" not in score, "the seed is shown before the match is over"
    assert score["seed_commitment"] == commitment


def record_deal(door: Door, record: MatchRecord, answer: JSON) -> None:
    """Add to ``record`` what the API shows of the deal in ``answer``."""
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


def play_and_record(
    door: Door, ruleset_id: str, case: DealCase, seed: str | None
) -> tuple[MatchRecord, str]:
    """Play to MATCH_OVER with random legal moves (seeded by the case's name); returns the
    record and the revealed seed. ``seed`` ``None``: the server chooses it."""
    game = new_game(door, ruleset_id, case.players, seed, case.options)
    assert game["status"] == "IN_PROGRESS"
    record = MatchRecord(ruleset_id, case.players, game["seed_commitment"])
    record_deal(door, record, game)

    def observe(step: DoorStep) -> None:
        hand, answer = record.hands[-1], step.answer
        if step.legal["status"] == "HAND_OVER":
            # the hand has ended: what the table showed at its end (Throw-up: the last round)
            hand.final_table = door.call("GetView", {"state": step.state})[ruleset_id]
            check_seed_hidden(door, step.state, record.commitment)
        if step.move["kind"] == "NEXT_HAND":
            first = answer["events"][0]
            assert (first["kind"], first["count"]) == ("NEXT_HAND", len(record.hands) + 1)
            record_deal(door, record, answer)
            return
        # a void deal is only ever re-dealt at the deal itself
        assert not [e for e in answer["events"] if e["kind"] in ("REDEAL", "DEAL")]
        hand.dice += dice_of(answer["events"])
        if answer["status"] == "MATCH_OVER":
            check_seed_hidden(door, step.state, record.commitment)  # the state one move before

    last = play_to_end(door, game, case.name, observe=observe)
    record.hands[-1].final_table = door.call("GetView", {"state": last["state"]})[ruleset_id]
    record.score = door.call("GetScore", {"state": last["state"]})
    revealed = record.score.get("seed")
    assert record.score["status"] == "MATCH_OVER" and isinstance(revealed, str)
    # the commitment binds the seed: hex SHA-256 of its UTF-8 bytes
    assert hashlib.sha256(revealed.encode("utf-8")).hexdigest() == record.commitment
    assert record.score["seed_commitment"] == record.commitment
    if seed is not None:
        assert revealed == seed
    assert [h["hand"] for h in record.score["hands"]] == [h.number for h in record.hands]
    return record, revealed


# ------------------------------------------------------------------ the matches

#: Every declared deal case by name: (ruleset id, case).
DEAL_CASES = {
    case.name: (ruleset_id, case) for ruleset_id in CASES for case in CASES[ruleset_id].deals
}


@pytest.mark.parametrize("name", sorted(DEAL_CASES))
def test_a_finished_match_can_be_re_dealt_from_the_revealed_seed(door: Door, name: str) -> None:
    ruleset_id, case = DEAL_CASES[name]
    record, revealed = play_and_record(door, ruleset_id, case, case.seed)
    stats = cases_for(ruleset_id).redeal(record, revealed, case.options)
    assert len(record.hands) >= 2
    for fact in case.shows:
        assert stats.get(fact, 0) > 0, f"seed {case.seed!r} no longer shows {fact}: {stats}"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_server_chosen_seed_is_revealed_and_checks_out(door: Door, ruleset_id: str) -> None:
    cases = cases_for(ruleset_id)
    record, revealed = play_and_record(door, ruleset_id, cases.deals[0], None)
    assert re.fullmatch("[0-9a-f]{32}", revealed), revealed  # 128 bits as 32 hex digits
    cases.redeal(record, revealed, cases.deals[0].options)
