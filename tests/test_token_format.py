"""The token format: old tokens mean the same game or are refused, never another game.

* Golden tokens written by this format give the views they gave when written.
* Tokens of the retired format 1 are refused with a message naming the format.
* Each ruleset's state carries a schema fingerprint: swapping two fields of a state,
  adding one or renaming an enum member changes it, and a token whose fingerprint this
  service does not know is refused (``BAD_STATE_TOKEN``) instead of being read.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import hashlib
import json
import random
import typing
from typing import Any

import pytest

from domino_rules import games, rules
from domino_rules.api import ApiError, RulesService
from domino_rules.api.service import new_seed
from domino_rules.bots.playout import Step, hand_over, play_out
from domino_rules.state import packing
from domino_rules.state.codec import Game
from domino_rules.state.tokens import FORMAT_VERSION, KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

from .golden import tokens as golden

GOLDEN: dict[str, list[dict[str, Any]]] = json.loads(golden.PATH.read_text(encoding="utf-8"))


def test_every_ruleset_has_golden_tokens() -> None:
    assert sorted(GOLDEN) == sorted(r.id for r in rules.all_rulesets())
    assert all(len(entries) >= 3 for entries in GOLDEN.values())


@pytest.mark.parametrize("ruleset_id", sorted(GOLDEN))
def test_golden_tokens_give_the_views_they_gave(ruleset_id: str) -> None:
    service = RulesService()
    for entry in GOLDEN[ruleset_id]:
        token = base64.b64decode(entry["token"])
        assert token[0] == FORMAT_VERSION
        assert golden.view(service, token, entry["seat"]) == entry["view"]
        assert golden.view(service, token, None) == entry["spectator_view"]


def _refusal(token: bytes) -> ApiError:
    with pytest.raises(ApiError) as refused:
        RulesService().GetView(pb.GetViewRequest(state=token))
    assert refused.value.reason == "BAD_STATE_TOKEN"
    return refused.value


def test_a_format_1_token_is_refused_by_name() -> None:
    payload = b"\x0a\x0bone_arm_joe"  # what format 1 began with: a protobuf GameState
    header = bytes((1, 0))
    token = header + payload + hashlib.sha256(header + payload).digest()[:8]
    error = _refusal(token)
    assert "format 1" in error.message and f"format {FORMAT_VERSION}" in error.message


def test_an_unknown_format_is_refused() -> None:
    assert "unknown state token format 9" in _refusal(bytes((9, 0)) + b"x" * 20).message


def test_fingerprints_name_the_ruleset() -> None:
    prints = {packing.fingerprint(r) for r in rules.all_rulesets()}
    assert len(prints) == len(rules.all_rulesets())


def _variant(cls: type, fields: list[tuple[str, Any]]) -> type:
    return dataclasses.make_dataclass(cls.__name__, fields, frozen=True)


@pytest.mark.parametrize("ruleset", rules.all_rulesets(), ids=lambda r: r.id)
def test_the_fingerprint_follows_the_shape_of_the_state(ruleset: rules.Ruleset[Any, Any]) -> None:
    state = ruleset.hand_state_type
    options = ruleset.options_type
    types = typing.get_type_hints(state)
    hints = [(f.name, types[f.name]) for f in dataclasses.fields(state)]
    today = packing._fingerprint_of(ruleset.id, options, state)
    assert today == packing.fingerprint(ruleset)
    same = _variant(state, hints)
    assert packing._fingerprint_of(ruleset.id, options, same) == today
    swapped = _variant(state, [hints[1], hints[0], *hints[2:]])
    added = _variant(state, [*hints, ("extra", int)])
    for changed in (swapped, added):
        assert packing._fingerprint_of(ruleset.id, options, changed) != today
    assert packing._fingerprint_of("another_game", options, state) != today


def test_renaming_an_enum_member_changes_the_fingerprint() -> None:
    ruleset = rules.get("one_arm_joe")
    options = ruleset.options_type
    types = typing.get_type_hints(options)
    hints = {f.name: types[f.name] for f in dataclasses.fields(options)}
    scoring = enum.Enum("Scoring", ["OTHERS_TOTAL", "RENAMED"])  # type: ignore[misc]
    renamed = dataclasses.make_dataclass(
        options.__name__, [(n, scoring if n == "scoring" else t) for n, t in hints.items()]
    )
    state = ruleset.hand_state_type
    assert packing._fingerprint_of(ruleset.id, renamed, state) != packing.fingerprint(ruleset)


def test_a_token_of_an_unknown_layout_is_refused() -> None:
    entry = GOLDEN["tsair_deng"][1]
    codec = TokenCodec()
    payload = bytearray(codec.open(base64.b64decode(entry["token"])))
    payload[:4] = hashlib.sha256(b"a state of another shape").digest()[:4]
    error = _refusal(codec.seal(bytes(payload)))
    assert "layout" in error.message


def test_a_token_of_another_ruleset_layout_is_never_read_as_this_one() -> None:
    """The fingerprint of one ruleset on another's packed state is refused or re-read as
    that ruleset's game only if it checks out completely: it must not crash."""
    codec = TokenCodec()
    joe = bytearray(codec.open(base64.b64decode(GOLDEN["one_arm_joe"][1]["token"])))
    joe[:4] = packing.fingerprint(rules.get("throw_up"))
    _refusal(codec.seal(bytes(joe)))


#: Each ruleset's largest table, with options that make a 50-hand match.
LONG_MATCHES = {
    game.id: (dict(game.long_match(50)[0]), game.long_match(50)[1]) for game in games.all_games()
}


def after_fifty_hands(match: rules.Match[Any, Any]) -> bool:
    return match.hand_number > 50 or match.status is rules.Status.MATCH_OVER


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", sorted(LONG_MATCHES))
def test_a_sealed_token_stays_within_a_kibibyte_for_fifty_hands(ruleset_id: str) -> None:
    """Sealed, with a server-chosen seed, at every point of 50 hands at the largest table."""

    ruleset = rules.get(ruleset_id)
    options, players = LONG_MATCHES[ruleset_id]
    service = RulesService(TokenCodec(KeyRing.parse(KeyRing.generate("2026a"))))
    match = ruleset.new_match(ruleset.make_options(options), players, new_seed())
    chooser = random.Random(ruleset_id)
    sizes = [len(service.encode(Game(ruleset, match, "ab" * 12, 0)))]

    def measure(step: Step) -> None:
        sizes.append(len(service.encode(Game(ruleset, step.after, "ab" * 12, step.number))))

    match = play_out(ruleset, match, chooser, until=after_fifty_hands, observe=measure)
    largest = max(sizes)
    assert match.hand_number > 50 or match.status is rules.Status.MATCH_OVER
    # fifty hands, or every hand a match of these options plays (Mexican Train: one a double)
    assert len(match.history) >= min(49, ruleset.max_hands(match.options, players))
    assert largest <= 1024, largest


def test_a_mid_hand_four_player_one_arm_joe_token_is_under_400_bytes() -> None:
    ruleset = rules.get("one_arm_joe")
    service = RulesService(TokenCodec(KeyRing.parse(KeyRing.generate("2026a"))))
    chooser = random.Random(4)
    sizes: list[int] = []

    def measure(step: Step) -> None:
        sizes.append(len(service.encode(Game(ruleset, step.before, "ab" * 12, 999))))

    for _ in range(20):
        match = ruleset.new_match(ruleset.make_options({}), 4, new_seed())
        play_out(ruleset, match, chooser, until=hand_over, observe=measure)
    assert len(sizes) > 100 and max(sizes) <= 400
