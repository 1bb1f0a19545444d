"""State tokens and the state codec: round trips, compactness, refusal of bad tokens."""

from __future__ import annotations

import dataclasses
import functools
import random

import pytest

from domino_rules import rules
from domino_rules.api import ApiError, RulesService
from domino_rules.bots.playout import AnyMatch, Step, random_match
from domino_rules.rules import Status
from domino_rules.state import codec
from domino_rules.state.codec import Game
from domino_rules.state.tokens import FORMAT_VERSION, KeyRing, TokenCodec, TokenError

from ..cases import cases_for

RULESET_IDS = [r.id for r in rules.all_rulesets()]
#: DESIGN.md "State token": a mid-hand state stays well under this.
MAX_TOKEN_BYTES = 1024
GAME_ID = "0" * 24


@functools.cache
def token_states(ruleset_id: str) -> tuple[AnyMatch, ...]:
    """Every state of the ruleset's token matches (``cases.tokens``), from each deal on."""
    ruleset, setup = rules.get(ruleset_id), cases_for(ruleset_id).tokens
    options = ruleset.make_options(setup.options)
    states: list[AnyMatch] = []

    def keep(step: Step) -> None:
        states.append(step.after)

    for seed in setup.seeds:
        states.append(ruleset.new_match(options, setup.players, seed))
        random_match(ruleset, options, setup.players, seed, observe=keep)
    return tuple(states)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_state_round_trips_through_the_codec(ruleset_id: str) -> None:
    ruleset = rules.get(ruleset_id)
    states = token_states(ruleset_id)
    assert len(states) > 20 and states[-1].status is Status.MATCH_OVER
    for version, match in enumerate(states):
        game = Game(ruleset, match, GAME_ID, version)
        assert codec.decode_game(codec.encode_game(game)) == game


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_token_in_the_middle_of_a_hand_is_under_a_kibibyte(ruleset_id: str) -> None:
    """DESIGN.md "State token": every state of a hand in progress, unsealed, with as many
    players as the ruleset seats (``cases.tokens``)."""
    ruleset, service = rules.get(ruleset_id), RulesService()
    sizes = [
        len(service.encode(Game(ruleset, match, GAME_ID, 9)))
        for match in token_states(ruleset_id)
        if match.status is Status.IN_PROGRESS
    ]
    assert sizes and max(sizes) < MAX_TOKEN_BYTES


def test_unsealed_token_round_trip_and_refusals() -> None:
    tokens = TokenCodec()
    token = tokens.seal(b"payload")
    assert tokens.open(token) == b"payload"
    with pytest.raises(TokenError, match="checksum"):
        tokens.open(token[:-1] + bytes([token[-1] ^ 1]))
    with pytest.raises(TokenError, match="truncated"):
        tokens.open(token[:5])
    with pytest.raises(TokenError, match="format"):
        tokens.open(bytes([FORMAT_VERSION + 1]) + token[1:])
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
    forged = service.encode(Game(ruleset, dataclasses.replace(match, hand_state=hand), GAME_ID, 0))
    with pytest.raises(ApiError) as caught:
        service.decode(forged)
    assert caught.value.reason == "BAD_STATE_TOKEN"
    assert "one copy of the set" in caught.value.message


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


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_view_of_every_seat_fits_the_message(ruleset_id: str) -> None:
    """The ruleset's table converts to its message (names agree), for seats and spectators."""
    ruleset = rules.get(ruleset_id)
    states = token_states(ruleset_id)
    for match in random.Random(ruleset_id).sample(states, min(60, len(states))):
        for seat in [None, *range(match.players)]:
            message = codec.view_to_pb(ruleset.id, ruleset.view(match, seat))
            assert message.WhichOneof("table") == ruleset.id
