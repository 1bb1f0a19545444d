"""Token migrations: a layout of another version is read and played as today's game.

The layouts here are made up for the test (today's hand state with a field added, or
its fields in another order): no release has needed a migration yet. Each is packed the
way that version would pack it, then opened by today's service with a
:class:`~domino_rules.state.migrations.Migration` registered, and without one.
"""

from __future__ import annotations

import dataclasses
import random
import typing
from typing import Any

import pytest

from domino_rules import rules
from domino_rules.api import ApiError, RulesService
from domino_rules.rules.limits import MAX_EVENTS
from domino_rules.state import migrations, packing
from domino_rules.state.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

KEYS = KeyRing.parse(KeyRing.generate("m1"))


def _hints(cls: type) -> list[tuple[str, Any]]:
    types = typing.get_type_hints(cls)
    return [(f.name, types[f.name]) for f in dataclasses.fields(cls)]


def _layout(ruleset: rules.Ruleset[Any, Any], kind: str) -> type:
    """Today's hand state of ``ruleset`` as another version would have it."""
    hints = _hints(ruleset.hand_state_type)
    if kind == "next":  # a field added at the end: the read-ahead case
        fields: list[Any] = [*hints, ("added_later", int, dataclasses.field(default=0))]
    else:  # the fields in another order: an old layout that today's release reorders
        fields = list(reversed(hints))
    return dataclasses.make_dataclass(ruleset.hand_state_type.__name__, fields, frozen=True)


def _to_today(ruleset: rules.Ruleset[Any, Any]) -> Any:
    def migrate(old: Any) -> rules.Match[Any, Any]:
        state = old.hand_state
        names = [f.name for f in dataclasses.fields(ruleset.hand_state_type)]
        hand_state = ruleset.hand_state_type(**{n: getattr(state, n) for n in names})
        return dataclasses.replace(old, hand_state=hand_state)

    return migrate


def _other_payload(
    ruleset: rules.Ruleset[Any, Any],
    layout: type,
    match: rules.Match[Any, Any],
    game_id: str,
    version: int,
) -> bytes:
    """``match`` packed under ``layout``, as the version that has it would pack it."""
    names = [f.name for f in dataclasses.fields(layout)]
    extra = {"added_later": 7} if "added_later" in names else {}
    other = dataclasses.replace(
        match,
        hand_state=layout(
            **{n: getattr(match.hand_state, n) for n in names if n != "added_later"}, **extra
        ),
    )
    compiler = packing._Compiler()
    compiler.env["HANDS"] = lambda players, options, hand_number: hand_number
    compiler.env["MAX_EVENTS"] = MAX_EVENTS
    packer, _ = compiler.build(
        rules.Match,
        {"options": ruleset.options_type, "hand_state": layout},
        {"history": "HANDS(f_players, f_options, f_hand_number)", "last_events": "MAX_EVENTS"},
        unread="last_events",
    )
    body = bytearray(bytes.fromhex(game_id))
    packing._uvarint(body, version)
    packer(body, other)
    fingerprint = packing._fingerprint_of(ruleset.id, ruleset.options_type, layout)
    return fingerprint + b"\x00" + bytes(body)


def _mid_hand(ruleset_id: str, moves: int) -> tuple[rules.Ruleset[Any, Any], Any, bytes]:
    service = RulesService(TokenCodec(KEYS))
    ruleset = rules.get(ruleset_id)
    low, _ = ruleset.player_range(ruleset.make_options({}))
    game = service.NewGame(pb.NewGameRequest(ruleset=ruleset_id, players=low, seed="migrate"))
    token, chooser = game.state, random.Random(ruleset_id)
    for _ in range(moves):
        legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=token))
        token = service.ApplyMove(
            pb.ApplyMoveRequest(state=token, move=chooser.choice(legal.moves))
        ).state
    return ruleset, service.decode(token), token


@pytest.mark.parametrize("kind", ["next", "previous"])
@pytest.mark.parametrize("ruleset_id", sorted(r.id for r in rules.all_rulesets()))
def test_a_token_of_another_layout_plays_as_today_s_once_a_migration_reads_it(
    ruleset_id: str, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset, game, today_token = _mid_hand(ruleset_id, 4)
    layout = _layout(ruleset, kind)
    payload = _other_payload(ruleset, layout, game.match, game.game_id, game.version)
    assert payload[:4] != packing.fingerprint(ruleset)
    codec = TokenCodec(KEYS)
    token = codec.seal(payload)
    service = RulesService(TokenCodec(KEYS))

    with pytest.raises(ApiError) as refused:
        service.GetView(pb.GetViewRequest(state=token, seat=0))
    assert refused.value.reason == "BAD_STATE_TOKEN" and "layout" in refused.value.message

    monkeypatch.setattr(
        migrations,
        "MIGRATIONS",
        [
            migrations.Migration(
                ruleset_id, "test", ruleset.options_type, layout, _to_today(ruleset)
            )
        ],
    )
    for seat in (0, None):
        request = pb.GetViewRequest(state=token)
        expected = pb.GetViewRequest(state=today_token)
        if seat is not None:
            request.seat = expected.seat = seat
        assert service.GetView(request) == service.GetView(expected)
    legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=token))
    assert legal == service.GetLegalMoves(pb.GetLegalMovesRequest(state=today_token))
    answer = service.ApplyMove(
        pb.ApplyMoveRequest(state=token, move=legal.moves[0], expected_version=game.version)
    )
    # the next token is of today's layout
    assert codec.open(answer.state)[:4] == packing.fingerprint(ruleset)
    assert answer.version == game.version + 1
    # unsealed, the same
    plain = TokenCodec().seal(payload)
    unsealed = RulesService()
    assert unsealed.GetScore(pb.GetScoreRequest(state=plain)) == service.GetScore(
        pb.GetScoreRequest(state=today_token)
    )


def test_a_migration_that_fails_refuses_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset, game, _ = _mid_hand("tiu_u", 3)
    layout = _layout(ruleset, "next")

    def broken(old: Any) -> rules.Match[Any, Any]:
        raise ValueError("no")

    monkeypatch.setattr(
        migrations,
        "MIGRATIONS",
        [migrations.Migration("tiu_u", "9.9.0", ruleset.options_type, layout, broken)],
    )
    token = TokenCodec().seal(_other_payload(ruleset, layout, game.match, game.game_id, 3))
    with pytest.raises(ApiError) as refused:
        RulesService().GetView(pb.GetViewRequest(state=token))
    assert refused.value.reason == "BAD_STATE_TOKEN"
    assert "release 9.9.0" in refused.value.message


def test_a_migrated_game_is_checked_like_any_other(monkeypatch: pytest.MonkeyPatch) -> None:
    """A migration that makes a game the rules could not reach gets it refused."""
    ruleset, game, _ = _mid_hand("one_arm_joe", 3)
    layout = _layout(ruleset, "next")
    today = _to_today(ruleset)

    def cheat(old: Any) -> rules.Match[Any, Any]:
        return dataclasses.replace(today(old), hand_number=old.hand_number + 5)

    monkeypatch.setattr(
        migrations,
        "MIGRATIONS",
        [migrations.Migration("one_arm_joe", "test", ruleset.options_type, layout, cheat)],
    )
    token = TokenCodec().seal(_other_payload(ruleset, layout, game.match, game.game_id, 3))
    with pytest.raises(ApiError) as refused:
        RulesService().GetView(pb.GetViewRequest(state=token))
    assert refused.value.reason == "BAD_STATE_TOKEN"


def test_this_release_needs_no_migration() -> None:
    """No state changed shape since 0.1.0 (tests/upgrade proves its tokens play)."""
    assert migrations.MIGRATIONS == []
