"""Opening a token is bounded work: sizes are capped before anything is inflated, counts
before their items are read, and the history by what a match of the token's options can
reach. These tests check the mechanisms (what runs, what is refused and why); the CPU a
refusal costs is measured by ``bench/refusal.py``, never asserted here.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import random
import re
import zlib
from collections.abc import Iterator
from typing import Any

import pytest

from domino_rules import rules
from domino_rules.api import ApiError, RulesService
from domino_rules.bots.playout import play_out
from domino_rules.rules import Event, EventKind, HandEnd, HandResult, Status
from domino_rules.rules.limits import MAX_EVENTS, MAX_HANDS
from domino_rules.state import codec, packing
from domino_rules.state.tokens import KeyRing, TokenCodec

from ..support.forgery import set_field

GAME_ID = "0123456789abcdef01234567"
PLAIN = RulesService(TokenCodec(), minted=0)
SEALED = RulesService(TokenCodec(KeyRing.parse(KeyRing.generate("bound"))), minted=0)
TILE_TEXT = re.compile(r"\[\d+-\d+\]|Tile\(")


def refusal(service: RulesService, token: bytes) -> str:
    """The message of the ``BAD_STATE_TOKEN`` refusal of ``token``."""
    with pytest.raises(ApiError) as refused:
        service.decode(token)
    assert refused.value.reason == "BAD_STATE_TOKEN"
    message = refused.value.message
    assert not TILE_TEXT.search(message), message
    assert base64.b64encode(token)[:16].decode() not in message
    return message


def unsealed(payload: bytes) -> bytes:
    header = bytes((2, 0))
    return header + payload + hashlib.sha256(header + payload).digest()[:8]


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """Counts of the hand results and events the unpackers build from here on."""
    counts = {"HandResult": 0, "Event": 0}
    for ruleset in rules.all_rulesets():
        env = packing._layout_of(ruleset)[1].__globals__
        for name, value in list(env.items()):
            cls = getattr(value, "__globals__", {}).get("cls")
            if name.startswith("CLS") and cls in (HandResult, Event):

                def counting(*args: Any, _make: Any = value, _name: str = cls.__name__) -> Any:
                    counts[_name] += 1
                    return _make(*args)

                monkeypatch.setitem(env, name, counting)
    yield counts


def fresh(ruleset_id: str, options: dict[str, Any], players: int = 4) -> rules.Match[Any, Any]:
    ruleset = rules.get(ruleset_id)
    return ruleset.new_match(ruleset.make_options(options), players, "bounded")


# --------------------------------------------------------------------------- sizes


def test_an_oversized_token_is_refused_before_anything_is_inflated_or_unpacked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def must_not_run(*args: Any) -> Any:
        raise AssertionError("inflated or unpacked a token over the size limit")

    monkeypatch.setattr(zlib, "decompressobj", must_not_run)
    monkeypatch.setattr(packing, "_layout_of", must_not_run)
    payload = packing.fingerprint(rules.get("tiu_u")) + b"\x01" + zlib.compress(bytes(70_000))
    payload += bytes(64 * 1024 - len(payload))
    for service in (PLAIN, SEALED):
        token = (
            unsealed(payload) if service is PLAIN else service.tokens.seal(payload)  # sealed
        )
        assert len(token) > 64 * 1024
        assert "the limit is 65536" in refusal(service, token)


def test_a_deflate_bomb_is_refused_at_the_inflate_limit_without_unpacking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def must_not_run(*args: Any) -> Any:
        raise AssertionError("unpacked a payload that inflates past the limit")

    monkeypatch.setattr(packing, "_layout_of", must_not_run)
    bomb = zlib.compress(bytes(16 * 1024 * 1024), 9)  # 16 MiB of zeros in a few KiB
    payload = packing.fingerprint(rules.get("one_arm_joe")) + b"\x01" + bomb
    for service in (PLAIN, SEALED):
        token = unsealed(payload) if service is PLAIN else service.tokens.seal(payload)
        assert len(token) < 64 * 1024
        assert "does not inflate within its limits" in refusal(service, token)


# --------------------------------------------------------------------------- counts


@pytest.mark.parametrize(
    ("ruleset_id", "options", "players", "limit"),
    [
        ("tiu_u", {"hands": 3}, 4, 3),
        ("tsair_deng", {"hands": 4}, 4, 4),
        ("throw_up", {"hands_per_player": 2}, 3, 6),
        ("one_arm_joe", {"target_score": 0}, 4, 1),
        ("one_arm_joe", {"target_score": 100_000}, 2, MAX_HANDS),
    ],
)
def test_a_history_longer_than_the_options_allow_is_refused_before_it_is_read(
    built: dict[str, int], ruleset_id: str, options: dict[str, Any], players: int, limit: int
) -> None:
    """The history's count is checked against the hands a match of the token's own
    options can have before a single result is built, sealed or not."""
    ruleset = rules.get(ruleset_id)
    match = fresh(ruleset_id, options, players)
    zero = (0,) * players
    result = HandResult(zero, zero, (0,), next(iter(ruleset.hand_ends)), zero)
    hands = limit + 50
    forged = set_field(set_field(match, "history", (result,) * hands), "hand_number", hands + 1)
    for service in (PLAIN, SEALED):
        message = refusal(service, service.encode(codec.Game(ruleset, forged, GAME_ID, 9)))
        assert f"(history) holds {hands} items; the most is {limit}" in message
    assert built["HandResult"] == 0


def test_a_history_longer_than_the_hand_number_is_refused_before_it_is_read(
    built: dict[str, int],
) -> None:
    match = fresh("tiu_u", {"hands": 1000})
    result = HandResult((0,) * 4, (0,) * 4, (0,), HandEnd.WOODPILE_EXHAUSTED, (0,) * 4)
    forged = set_field(match, "history", (result,) * 20)  # hand 1: no hand before it
    message = refusal(PLAIN, PLAIN.encode(codec.Game(rules.get("tiu_u"), forged, GAME_ID, 9)))
    assert "(history) holds 20 items; the most is 1" in message
    assert built["HandResult"] == 0


def test_too_many_events_are_refused_before_they_are_read(built: dict[str, int]) -> None:
    match = fresh("one_arm_joe", {})
    events = (Event(EventKind.PASS, seat=0),) * (MAX_EVENTS + 1)
    forged = set_field(match, "last_events", events)
    for service in (PLAIN, SEALED):
        token = service.encode(codec.Game(rules.get("one_arm_joe"), forged, GAME_ID, 9))
        message = refusal(service, token)
        assert f"(last_events) holds {MAX_EVENTS + 1} items; the most is {MAX_EVENTS}" in message
    assert built["Event"] == 0


def test_a_hand_of_hundreds_of_tiles_is_refused_by_its_count() -> None:
    match = fresh("tiu_u", {})
    tile = match.hand_state.hands[0][0]
    state = set_field(match.hand_state, "woodpile", (tile,) * 300)
    forged = set_field(match, "hand_state", state)
    message = refusal(PLAIN, PLAIN.encode(codec.Game(rules.get("tiu_u"), forged, GAME_ID, 1)))
    assert "holds 300 tiles; the most is" in message


def test_a_sparse_list_of_a_million_numbers_is_refused_by_its_count() -> None:
    """A sparse list of numbers names its length in a varint: two bytes could ask for a
    million zeros. Its count is bounded before the list is made."""
    data = bytearray()
    packing._uvarint(data, (1_000_000 << 2) | 2)  # a million items, sparse
    packing._uvarint(data, 0)  # none of them non-zero
    with pytest.raises(packing.PackError, match="holds 1000000 items; the most is 256"):
        packing._read_ints(bytes(data), 0)


def test_every_number_list_reads_back_as_it_was_packed() -> None:
    """The fast paths of reading numbers (one byte each, sparse one-byte pairs) agree with
    the general one, at and past the one-byte boundaries."""
    chooser = random.Random("ints")
    edges = (0, 1, 63, 64, 127, 128, 255, 256, 10**6, -1, -64, -65, -128, -(10**6))
    for _ in range(3000):
        n = chooser.choice((0, 1, 3, 4, 9, 30, 256))
        items = tuple(
            chooser.choice((0, 0, 0, chooser.choice(edges), chooser.randint(-300, 300)))
            for _ in range(n)
        )
        out = bytearray()
        packing._ints(out, items)
        out += b"\x7f"  # whatever follows is not read
        assert packing._read_ints(bytes(out), 0) == (items, len(out) - 1)


# --------------------------------------------------------------------------- legal


LONGEST = {
    "tiu_u": ({"hands": 1000}, 4),
    "tsair_deng": ({"hands": 1000}, 4),
    "throw_up": ({"hands_per_player": 20}, 3),
    "one_arm_joe": ({"target_score": 100_000}, 9),
}


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", sorted(LONGEST))
def test_the_longest_legal_matches_still_open(ruleset_id: str) -> None:
    """A random match of each ruleset with the options that make it longest, played to
    its end: every state at a hand's end and the last one open, sealed and unsealed, to
    the same game."""
    ruleset = rules.get(ruleset_id)
    options, players = LONGEST[ruleset_id]
    match = fresh(ruleset_id, options, players)
    ends: list[rules.Match[Any, Any]] = []

    def keep(step: Any) -> None:
        if step.after.status is not Status.IN_PROGRESS or step.number % 997 == 0:
            ends.append(step.after)

    last = play_out(ruleset, match, random.Random(ruleset_id), observe=keep, max_moves=10**6)
    assert last.status is Status.MATCH_OVER
    assert len(last.history) == ruleset.max_hands(last.options, players) or (
        ruleset_id == "one_arm_joe" and len(last.history) < MAX_HANDS
    )
    for n, state in enumerate(ends[-60:]):
        service = SEALED if n % 2 else PLAIN
        game = codec.Game(ruleset, state, GAME_ID, 10**6)
        assert service.decode(service.encode(game)).match == state


@pytest.mark.parametrize("ruleset", rules.all_rulesets(), ids=lambda r: r.id)
def test_a_hand_number_past_the_options_last_hand_is_refused(
    ruleset: rules.Ruleset[Any, Any],
) -> None:
    match = ruleset.new_match(ruleset.make_options({}), 2 if ruleset.id != "throw_up" else 3, "s")
    last = ruleset.max_hands(match.options, match.players)
    forged = dataclasses.replace(match, hand_number=last + 1)
    with pytest.raises(rules.errors.InvalidStateError, match="hand_number"):
        ruleset.check_match(forged)


def test_the_messages_name_no_tile_and_no_seed() -> None:
    """Every refusal above says what is wrong by field and count only; checked once more
    on a forged state whose only fault is its length, whose seed is distinctive."""
    match = dataclasses.replace(fresh("tiu_u", {"hands": 2}), seed="a-distinctive-seed")
    result = HandResult((1,) * 4, (1,) * 4, (0,), HandEnd.WOODPILE_EXHAUSTED, (0,) * 4)
    forged = set_field(set_field(match, "history", (result,) * 9), "hand_number", 10)
    message = refusal(PLAIN, PLAIN.encode(codec.Game(rules.get("tiu_u"), forged, GAME_ID, 1)))
    assert "a-distinctive-seed" not in message
