"""The bots' playouts play each hand as the service plays it.

STRONG plays its playouts in sampled worlds (:class:`HandPlayouts`) through the rules'
own hooks (:meth:`Ruleset.play_hand`). Here, from worlds sampled at random positions of
every setup (player counts and options) of every game in the catalogue, each legal move
is played out both ways: by the playouts, and move by move through ``Ruleset.apply``
(the call the service's ApplyMove makes, with its checks), every seat choosing by the
bot's heuristic on the match ``apply`` returned. Both must end the hand with the same
points after the same choices on the way, and a second playout of the same move gives
the same points (a playout leaves its world as it found it).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest

from domino_rules import games
from domino_rules.bots.dealing import GameBot, HandPlayouts
from domino_rules.bots.worlds import bot_for, sample_world
from domino_rules.rules import Match, Move, Ruleset, Status

from .positions import SETUPS, positions

RULESET_IDS = [game.id for game in games.all_games() if game.id in SETUPS]

Choices = list[tuple[tuple[Move, ...], Move]]


def service_playout(
    ruleset: Ruleset[Any, Any], bot: GameBot, world: Match[Any, Any], first: Move
) -> tuple[tuple[int, ...], Choices]:
    """``first``, then the heuristic's moves through ``Ruleset.apply`` to the end of the
    hand: the hand's points and every choice made (the legal moves and the one chosen)."""
    match, _ = ruleset.apply(world, first)
    choices: Choices = []
    while match.status is Status.IN_PROGRESS:
        legal = ruleset.legal_moves(match)
        move = legal[0] if len(legal) == 1 else bot.heuristic(match, legal)
        if len(legal) > 1:
            choices.append((legal, move))
        match, _ = ruleset.apply(match, move)
    return match.history[-1].points, choices


def recording(bot: GameBot, made: Choices) -> Callable[[Match[Any, Any], tuple[Move, ...]], Move]:
    """The bot's heuristic, each choice it makes added to ``made``."""

    def choose(match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        chosen = bot.heuristic(match, legal)
        made.append((legal, chosen))
        return chosen

    return choose


def test_every_game_in_the_catalogue_has_bot_positions() -> None:
    assert sorted(RULESET_IDS) == sorted(game.id for game in games.all_games())


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_playouts_end_each_hand_as_the_service_does(ruleset_id: str) -> None:
    played = 0
    setups: set[tuple[int, str]] = set()
    for n, position in enumerate(itertools.islice(positions(ruleset_id, matches=3), 0, None, 2)):
        ruleset = position.ruleset
        bot = bot_for(ruleset)
        assert bot is not None
        world = sample_world(
            ruleset, position.options, position.players, position.view, random.Random(n)
        )
        playouts = HandPlayouts(bot, world)
        for move in ruleset.legal_moves(world):
            expected, choices = service_playout(ruleset, bot, world, move)
            assert playouts.play(move) == expected, (position.options, world.hand_state, move)
            assert playouts.play(move) == expected
            made: Choices = []
            result = ruleset.play_hand(world, move, recording(bot, made))
            assert (result.points, made) == (expected, choices), (world.hand_state, move)
            played += 1
        setups.add((position.players, repr(position.options)))
    assert played > 150
    assert len(setups) == len(SETUPS[ruleset_id])
