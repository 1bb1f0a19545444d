"""A process remembers the games it sealed lately (``domino_rules.api.minted``): their
tokens come back without being opened again, and nothing a client sees changes."""

from __future__ import annotations

import random

import pytest

from domino_rules import rules
from domino_rules.api import ApiError, RulesService
from domino_rules.api.minted import Minted
from domino_rules.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

RULESET_IDS = [r.id for r in rules.all_rulesets()]


def _play(service: RulesService, ruleset_id: str, seed: str, moves: int) -> list[bytes]:
    """Every answer, serialized, of a seeded random game: NewGame, then per move the
    legal moves, every seat's view, the score and the move applied."""
    chooser = random.Random(seed)
    answers: list[bytes] = []
    game = service.NewGame(pb.NewGameRequest(ruleset=ruleset_id, players=3, seed=seed))
    answers.append(game.SerializeToString())
    state = game.state
    for _ in range(moves):
        legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        answers.append(legal.SerializeToString())
        for seat in range(3):
            view = service.GetView(pb.GetViewRequest(state=state, seat=seat))
            answers.append(view.SerializeToString())
        answers.append(service.GetScore(pb.GetScoreRequest(state=state)).SerializeToString())
        if not legal.moves:
            break
        move = chooser.choice(legal.moves)
        applied = service.ApplyMove(pb.ApplyMoveRequest(state=state, move=move))
        answers.append(applied.SerializeToString())
        state = applied.state
    return answers


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_remembered_games_answer_as_opened_tokens_do(ruleset_id: str) -> None:
    """Unsealed tokens are the same bytes for the same game, so every answer of a game
    played with the cache must equal, byte for byte, the game played without it."""
    cached = RulesService()
    plain = RulesService(minted=0)
    assert _play(cached, ruleset_id, "minted", 80) == _play(plain, ruleset_id, "minted", 80)
    assert cached.minted.hits > 100  # the calls really took the remembered games
    assert plain.minted.hits == 0 and len(plain.minted) == 0


def test_another_process_opens_the_token_in_full() -> None:
    """A token made by one process means the same game to a process that never saw it."""
    keys = KeyRing.parse(KeyRing.generate("k1"))
    one, other = RulesService(TokenCodec(keys)), RulesService(TokenCodec(keys))
    game = one.NewGame(pb.NewGameRequest(ruleset="tiu_u", players=2, seed="s"))
    legal = one.GetLegalMoves(pb.GetLegalMovesRequest(state=game.state))
    assert one.minted.hits == 1
    assert other.GetLegalMoves(pb.GetLegalMovesRequest(state=game.state)) == legal
    assert other.minted.misses == 1 and other.minted.hits == 0


def test_an_altered_token_is_never_taken_for_a_remembered_one() -> None:
    """Flipping any byte of a remembered sealed token gives BAD_STATE_TOKEN, as it would
    in a process that never saw it."""
    service = RulesService(TokenCodec(KeyRing.parse(KeyRing.generate("k1"))))
    state = service.NewGame(pb.NewGameRequest(ruleset="one_arm_joe", players=2, seed="s")).state
    for i in range(len(state)):
        altered = bytearray(state)
        altered[i] ^= 0x01
        with pytest.raises(ApiError) as caught:
            service.GetLegalMoves(pb.GetLegalMovesRequest(state=bytes(altered)))
        assert caught.value.reason == "BAD_STATE_TOKEN"
    assert service.minted.hits == 0


def test_a_game_encoded_by_hand_is_not_remembered() -> None:
    """Only games the rules made are remembered: ``encode`` of any game (a test's forgery)
    gives a token that is opened and checked in full."""
    service = RulesService()
    state = service.NewGame(pb.NewGameRequest(ruleset="one_arm_joe", players=2, seed="s")).state
    game = service.decode(state)
    assert len(service.minted) == 1
    service.decode(service.encode(game))  # the same bytes: unsealed tokens are deterministic
    assert service.minted.hits == 2
    other = RulesService()
    other.encode(game)
    assert len(other.minted) == 0


def test_the_cache_holds_at_most_its_size() -> None:
    service, fresh = RulesService(minted=3), RulesService(minted=0)
    states = [
        service.NewGame(pb.NewGameRequest(ruleset="tsair_deng", players=2, seed=f"s{n}")).state
        for n in range(5)
    ]
    assert len(service.minted) == 3
    # the oldest have left the cache and are opened again, to the same game
    for state in states:
        request = pb.GetViewRequest(state=state, seat=1)
        assert service.GetView(request) == fresh.GetView(request)
    assert service.minted.misses == 2 and service.minted.hits == 3
    with pytest.raises(ValueError, match="0 or more"):
        Minted(-1)
