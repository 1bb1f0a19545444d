"""State tokens and the state codec: round trips, compactness, refusal of bad tokens."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domino_rules import codec, rules
from domino_rules.api import RulesService
from domino_rules.api.service import Game
from domino_rules.rules import Status
from domino_rules.tokens import KeyRing, TokenCodec, TokenError
from domino_rules.v1 import domino_rules_pb2 as pb


def _matches(ruleset_id: str, count: int):
    ruleset = rules.get(ruleset_id)
    for n in range(count):
        chooser = random.Random(n)
        match = ruleset.new_match(
            ruleset.make_options({}), ruleset.player_range(ruleset.make_options({}))[1], f"rt-{n}"
        )
        yield match
        while match.status is not Status.MATCH_OVER:
            match, _ = ruleset.apply(match, chooser.choice(ruleset.legal_moves(match)))
            yield match


@pytest.mark.parametrize("ruleset_id", ["one_arm_joe", "tsair_deng", "tiu_u", "throw_up"])
def test_every_state_round_trips_through_the_codec(ruleset_id: str) -> None:
    ruleset = rules.get(ruleset_id)
    seen = 0
    for match in _matches(ruleset_id, 3):
        assert codec.decode_match(ruleset, codec.encode_match(ruleset, match)) == match
        seen += 1
    assert seen > 20


def test_mid_hand_four_player_token_is_well_under_a_kibibyte() -> None:
    service = RulesService()
    ruleset = rules.get("one_arm_joe")
    sizes = []
    for match in _matches("one_arm_joe", 5):
        if match.status is Status.IN_PROGRESS and match.players >= 4:
            sizes.append(len(service.encode(Game(ruleset, match, "0" * 24, 9))))
    assert sizes and max(sizes) < 1024
    tsair = rules.get("tsair_deng")
    for match in _matches("tsair_deng", 2):
        assert len(service.encode(Game(tsair, match, "0" * 24, 9))) < 1024


def test_unsealed_token_round_trip_and_refusals() -> None:
    tokens = TokenCodec()
    token = tokens.seal(b"payload")
    assert tokens.open(token) == b"payload"
    with pytest.raises(TokenError, match="checksum"):
        tokens.open(token[:-1] + bytes([token[-1] ^ 1]))
    with pytest.raises(TokenError, match="truncated"):
        tokens.open(token[:5])
    with pytest.raises(TokenError, match="format"):
        tokens.open(bytes([2]) + token[1:])
    with pytest.raises(TokenError, match="limit"):
        TokenCodec(max_token_bytes=10).open(token + b"x" * 20)


def test_decoded_state_must_hold_one_set_of_tiles() -> None:
    """A token whose state is self-consistent protobuf but not a game is refused."""
    service = RulesService()
    ruleset = rules.get("one_arm_joe")
    match = ruleset.new_match(ruleset.make_options({}), 3, "forged")
    hand = dataclasses.replace(
        match.hand_state, boneyard=match.hand_state.boneyard[1:]
    )  # a tile vanished
    forged = service.encode(Game(ruleset, dataclasses.replace(match, hand_state=hand), "x", 0))
    with pytest.raises(Exception) as caught:
        service.decode(forged)
    assert getattr(caught.value, "reason", "") == "BAD_STATE_TOKEN"
    assert "one set" in str(caught.value)


def test_key_ring_parse_errors_say_what_is_wrong() -> None:
    good = KeyRing.generate("a")
    assert KeyRing.parse(f"{KeyRing.generate('b')},{good}").keys[1][0] == "a"
    for text, fragment in [
        ("", "empty"),
        (f"{good},", "empty"),
        (f"{good},{good}", "twice"),
        ("bad id:" + good.split(":")[1], "id"),
        ("a:@@@", "base64"),
        ("a:" + "AAAA", "32"),
    ]:
        with pytest.raises(ValueError, match=fragment):
            KeyRing.parse(text)


def test_view_of_every_seat_fits_the_message() -> None:
    """Every ruleset's table converts to its message (names agree), for seats and spectators."""
    for ruleset in rules.all_rulesets():
        for match in list(_matches(ruleset.id, 1))[:60]:
            for seat in [None, *range(match.players)]:
                message = codec.view_to_pb(ruleset.id, ruleset.view(match, seat))
                assert message.WhichOneof("table") == ruleset.id
                assert isinstance(message, pb.GetViewResponse)
