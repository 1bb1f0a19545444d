"""With ``trust_sealed``, a token sealed with the service's key is unpacked without
checking its game again; an unsealed token is always checked in full, and by default
(a key can leak) every token is."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from domino_rules import rules
from domino_rules.api import ApiError, RulesService
from domino_rules.serving.settings import Settings
from domino_rules.state import codec, packing
from domino_rules.state.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

KEYS = KeyRing.parse(KeyRing.generate("k1"))


def _service(*, sealed: bool, trust: bool = True) -> RulesService:
    """A service as the setting makes it (the trust is off by default)."""
    tokens = TokenCodec(KEYS) if sealed else TokenCodec()
    return RulesService(tokens, minted=0, trust_sealed=trust)


def _checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The rulesets whose ``check_match`` ran, in order."""
    ran: list[str] = []
    for ruleset in rules.all_rulesets():
        check = type(ruleset).check_match

        def counted(
            self: rules.Ruleset[Any, Any], *args: object, _check: object = check, **kw: object
        ) -> None:
            ran.append(self.id)
            _check(self, *args, **kw)  # type: ignore[operator]

        monkeypatch.setattr(type(ruleset), "check_match", counted)
    return ran


def _move(service: RulesService, state: bytes) -> pb.ApplyMoveResponse:
    legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
    return service.ApplyMove(pb.ApplyMoveRequest(state=state, move=legal.moves[0]))


@pytest.mark.parametrize(("sealed", "trust", "checked"), [
    (True, True, False), (True, False, True), (False, True, True), (False, False, True),
])  # fmt: skip
def test_only_sealed_tokens_skip_the_check(
    monkeypatch: pytest.MonkeyPatch, sealed: bool, trust: bool, checked: bool
) -> None:
    service = _service(sealed=sealed, trust=trust)
    state = service.NewGame(pb.NewGameRequest(ruleset="throw_up", players=2, seed="t")).state
    ran = _checks(monkeypatch)
    state = _move(service, state).state
    service.GetView(pb.GetViewRequest(state=state, seat=0))
    # three tokens opened: GetLegalMoves's and ApplyMove's (one token), GetView's
    assert len(ran) == (3 if checked else 0)


def _sealed_unreachable(service: RulesService) -> bytes:
    """A token sealed with the service's key around a game no play can reach (a seat
    holding a tile twice): what a token of a service whose rules differ might hold."""
    state = service.NewGame(pb.NewGameRequest(ruleset="one_arm_joe", players=2, seed="u")).state
    game = service.decode(state)
    hands = game.match.hand_state.hands
    twice = dataclasses.replace(game.match.hand_state, hands=(hands[0] + hands[0][:1], hands[1]))
    match = dataclasses.replace(game.match, hand_state=twice)
    payload = packing.pack(game.ruleset, match, game.game_id, game.version)
    return service.tokens.seal(payload)


def test_without_the_trust_a_sealed_token_is_checked_in_full() -> None:
    trusting, checking = _service(sealed=True), _service(sealed=True, trust=False)
    token = _sealed_unreachable(trusting)
    trusting.GetView(pb.GetViewRequest(state=token))  # taken as sealed: this service made it
    with pytest.raises(ApiError) as refused:
        checking.GetView(pb.GetViewRequest(state=token))
    assert refused.value.reason == "BAD_STATE_TOKEN"
    assert "does not hold a valid game" in refused.value.message


def test_an_unsealed_forgery_is_always_checked() -> None:
    sealed = _service(sealed=True)
    forged = _service(sealed=False)
    token = _sealed_unreachable(sealed)
    payload = sealed.tokens.open(token)
    unsealed = forged.tokens.seal(payload)
    with pytest.raises(ApiError) as refused:
        forged.GetView(pb.GetViewRequest(state=unsealed))
    assert refused.value.reason == "BAD_STATE_TOKEN"


def test_the_trust_is_off_unless_set() -> None:
    keys = KeyRing.generate("k1")
    assert not RulesService().trust_sealed
    assert not Settings.from_env({"DOMINO_RULES_SEAL_KEYS": keys}).service().trust_sealed
    trusting = Settings.from_env(
        {"DOMINO_RULES_SEAL_KEYS": keys, "DOMINO_RULES_TRUST_SEALED": "1"}
    ).service()
    assert trusting.trust_sealed


def test_a_trusted_game_is_the_checked_game() -> None:
    """Opening with and without the check gives the same game, move after move."""
    trusting, checking = _service(sealed=True), _service(sealed=True, trust=False)
    checking.tokens = trusting.tokens
    state = trusting.NewGame(pb.NewGameRequest(ruleset="tiu_u", players=3, seed="same")).state
    for _ in range(20):
        assert trusting.decode(state) == checking.decode(state)
        answer = _move(trusting, state)
        if answer.status != pb.IN_PROGRESS:
            break
        state = answer.state
    assert codec.decode_game(trusting.tokens.open(state), trusted=True) == checking.decode(state)
