"""Each game's fast playouts agree with the rules core.

STRONG plays its playouts on a compact copy of each world (``GameBot.rollouts``), not
through ``Ruleset.apply``. Here both play every legal move of worlds sampled from random
positions of every setup (player counts and options), and must end the hand with the
same points; the fast one must also leave its world as it found it (a second playout of
the same move gives the same points). Playouts dealt without a world's match are that
world's own.
"""

from __future__ import annotations

import itertools
import random

import pytest

from domino_rules import rules
from domino_rules.bots import dealing
from domino_rules.bots.dealing import CoreRollouts
from domino_rules.bots.worlds import bot_for, rollouts_sampler, sample_world, world_sampler
from domino_rules.games.throw_up import bot as throw_up
from domino_rules.rules import rng

from .positions import SETUPS, positions

RULESET_IDS = sorted(SETUPS)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_fast_playouts_end_each_hand_as_the_rules_core_does(ruleset_id: str) -> None:
    played = 0
    setups: set[tuple[int, str]] = set()
    for n, position in enumerate(itertools.islice(positions(ruleset_id, matches=3), 0, None, 2)):
        ruleset = position.ruleset
        bot = bot_for(ruleset)
        assert bot is not None
        world = sample_world(
            ruleset, position.options, position.players, position.view, random.Random(n)
        )
        core, fast = CoreRollouts(bot, world), bot.rollouts(world)
        assert type(fast) is not CoreRollouts
        for move in ruleset.legal_moves(world):
            expected = core.play(move)
            assert fast.play(move) == expected, (position.options, world.hand_state, move)
            assert fast.play(move) == expected
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
