"""A process remembers the games it sealed lately (``domino_rules.api.minted``): their
tokens come back without being opened again, and nothing a client sees changes."""

from __future__ import annotations

import gc
import random
import tracemalloc

import pytest

from domino_rules import rules
from domino_rules.api import ApiError, RulesService
from domino_rules.api.minted import Minted
from domino_rules.state.codec import Game
from domino_rules.state.tokens import KeyRing, TokenCodec
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
    with pytest.raises(ValueError, match="0 or more"):
        Minted(max_bytes=-1)


def _long_tiu_u(hands: int) -> Game:
    """A 4-player Tiu U game after ``hands`` hands, mid-hand: a long history."""
    ruleset = rules.get("tiu_u")
    match = ruleset.new_match(ruleset.make_options({"hands": 1000}), 4, "long")
    chooser = random.Random("long")
    while match.hand_number <= hands or match.status is not rules.Status.IN_PROGRESS:
        match, _ = ruleset.apply(match, chooser.choice(ruleset.legal_moves(match)))
    return Game(ruleset, match, "ab" * 12, 5000)


def test_the_cache_is_bounded_by_its_bytes_and_weighs_its_games_honestly() -> None:
    """The attack of the issue: ApplyMove again and again on one long token, each answer
    a new sealed token whose game (a fresh copy of the whole history) the cache keeps.
    The cache's bytes stay within its budget, and they are not less than what the
    entries really hold, as tracemalloc measures it."""
    budget = 3 * 1024 * 1024
    keys = KeyRing.parse(KeyRing.generate("k1"))
    service = RulesService(TokenCodec(keys), minted_bytes=budget)
    game = _long_tiu_u(250)
    token = service.encode(game)  # made elsewhere: opened in full on every call
    move = pb.ApplyMoveRequest(state=token, move=service.GetLegalMoves(
        pb.GetLegalMovesRequest(state=token)).moves[0])  # fmt: skip
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(40):
            service.ApplyMove(move)
            if n == 4:
                assert len(service.minted) == 5  # a few fit, each a whole history
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    minted = service.minted
    assert minted.evictions > 0 and len(minted) < 40
    assert 0 < minted.bytes <= budget
    # honest: the accounted bytes are an upper bound of what the kept games hold...
    assert grown <= minted.bytes, (grown, minted.bytes)
    # ...and not a wild one
    assert minted.bytes <= 3 * grown, (grown, minted.bytes)


def test_a_game_heavier_than_the_budget_is_not_kept() -> None:
    service = RulesService(minted_bytes=64 * 1024)
    state = service.encode(_long_tiu_u(120))
    legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
    service.ApplyMove(pb.ApplyMoveRequest(state=state, move=legal.moves[0]))
    assert len(service.minted) == 0 and service.minted.bytes == 0
    small = service.NewGame(pb.NewGameRequest(ruleset="tiu_u", players=2, seed="s"))
    assert len(service.minted) == 1 and 0 < service.minted.bytes <= 64 * 1024
    service.GetView(pb.GetViewRequest(state=small.state))
    assert service.minted.hits == 1
    off = RulesService(minted_bytes=0)
    off.NewGame(pb.NewGameRequest(ruleset="tiu_u", players=2, seed="s"))
    assert len(off.minted) == 0
