"""The bots' playouts play each hand as the service plays it.

STRONG plays its playouts in sampled worlds (``GameBot.rollouts``): through the rules'
own hooks (:meth:`Ruleset.play_hand`), or, in a game that still keeps them, on a compact
copy of the world. Here, from worlds sampled at random positions of every setup (player
counts and options) of every game in the catalogue, each legal move is played out both
ways: by the playouts, and move by move through ``Ruleset.apply`` (the call the
service's ApplyMove makes, with its checks), every seat choosing by the bot's heuristic
on the match ``apply`` returned. Both must end the hand with the same points; where the
playouts run through the rules, they must make the same choices on the way; and a second
playout of the same move gives the same points (a playout leaves its world as it found
it). Playouts dealt without a world's match are that world's own.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest

from domino_rules import games, rules
from domino_rules.bots import dealing
from domino_rules.bots.dealing import GameBot, HandPlayouts
from domino_rules.bots.worlds import bot_for, rollouts_sampler, sample_world, world_sampler
from domino_rules.games.throw_up import bot as throw_up
from domino_rules.rules import Match, Move, Ruleset, Status, rng

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
        playouts = bot.rollouts(world)
        through_rules = isinstance(playouts, HandPlayouts)
        for move in ruleset.legal_moves(world):
            expected, choices = service_playout(ruleset, bot, world, move)
            assert playouts.play(move) == expected, (position.options, world.hand_state, move)
            assert playouts.play(move) == expected
            if through_rules:
                made: Choices = []
                result = ruleset.play_hand(world, move, recording(bot, made))
                assert (result.points, made) == (expected, choices), (world.hand_state, move)
            played += 1
        setups.add((position.players, repr(position.options)))
    assert played > 150
    assert len(setups) == len(SETUPS[ruleset_id])


def test_throw_ups_playouts_throw_the_dice_the_rules_throw() -> None:
    """Throw-up's playouts read each throw from the seed's stream themselves (see
    ``throw_up._throw``): the same dice as ``rng.throw``, for any seed and label."""
    chooser = random.Random("dice")
    for _ in range(2000):
        seed = f"bot-world-{chooser.getrandbits(64):016x}"
        label = f"dice/{chooser.randrange(1, 41)}/{chooser.randrange(1, 60)}/{chooser.randrange(3)}"
        dice = throw_up._throw(f"{seed}\x00{label}".encode())
        assert dice is not None  # a rejected draw: about one in 700 million
        assert dice == rng.throw(seed, label, 3), (seed, label)


@pytest.mark.parametrize("rejection_tries", [dealing.REJECTION_TRIES, 0])
def test_playouts_dealt_without_a_match_are_the_worlds_own(
    rejection_tries: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game bot that deals its worlds' playouts straight (``rollouts_dealer``, which the
    search uses after its first world) makes the very draws the worlds' own deal makes,
    and its playouts are those of that world: the same fields, the same points for every
    legal move. With no rejection tries, every constrained deal fills its slots first."""
    monkeypatch.setattr(dealing, "REJECTION_TRIES", rejection_tries)
    ruleset_ids = [
        rid
        for rid in RULESET_IDS
        if (bot := bot_for(rules.get(rid))) is not None
        and type(bot).rollouts_dealer is not dealing.GameBot.rollouts_dealer
    ]
    assert "throw_up" in ruleset_ids
    for ruleset_id in ruleset_ids:
        compared = inferred = 0
        for n, position in enumerate(positions(ruleset_id, matches=4)):
            ruleset, options, players, view = (
                position.ruleset,
                position.options,
                position.players,
                position.view,
            )
            bot = bot_for(ruleset)
            assert bot is not None
            straight = rollouts_sampler(ruleset, options, players, view)
            assert straight is not None
            sample = world_sampler(ruleset, options, players, view)
            ours, theirs = random.Random(n), random.Random(n)
            for _ in range(3):
                fast, world = straight(ours), sample(theirs)
                assert ours.getstate() == theirs.getstate()
                expected = bot.rollouts(world)
                assert vars(fast) == vars(expected), (ruleset_id, n)
                for move in ruleset.legal_moves(world):
                    assert fast.play(move) == expected.play(move)
                compared += 1
            inferred += ruleset_id == "throw_up" and bool(throw_up.stuck_seats(view))
        assert compared > 100
        assert ruleset_id != "throw_up" or inferred > 10
