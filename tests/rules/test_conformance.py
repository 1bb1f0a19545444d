"""Random full matches over every registered ruleset and its option combinations.

After every move: the tiles of the set are all accounted for, a move's tile came from
the actor's hand, ``apply`` left its input unchanged, legal moves belong to the seat to
act, views agree with the state; every match ends, and settlements sum to zero.

Which options, player counts and how many matches: each game's declarations (its module
``testing``, read through ``tests/cases.py``).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from domino_rules import games, rules
from domino_rules.bots.playout import AnyMatch, AnyRuleset, Step, random_match
from domino_rules.games.package import GamePackage
from domino_rules.games.testing import MissingTestsError, declarations_of
from domino_rules.rules import MoveKind, OptionsError, Status

from ..cases import DealCase, Setup, cases_for

RULESET_IDS = [r.id for r in rules.all_rulesets()]
#: Kinds whose tile must come from the actor's hand.
FROM_HAND = {MoveKind.PLAY, MoveKind.DISCARD, MoveKind.CAPTURE, MoveKind.PILE}


def combinations(ruleset: AnyRuleset) -> list[dict[str, Any]]:
    """Every valid combination of the declared int values, bools and enum values (the
    combinations a game refuses, ``[A5-14]``'s, are its own tests')."""
    int_values = cases_for(ruleset.id).int_values
    axes = []
    for spec in ruleset.option_specs():
        if spec.type == "int":
            values: tuple[Any, ...] = int_values.get(spec.name, (spec.default,))
        elif spec.type == "bool":
            values = (False, True)
        else:
            values = spec.allowed
        axes.append([(spec.name, v) for v in values])
    return [dict(c) for c in itertools.product(*axes) if _valid(ruleset, dict(c))]


def _valid(ruleset: AnyRuleset, values: dict[str, Any]) -> bool:
    try:
        ruleset.make_options(values)
    except OptionsError:
        return False
    return True


class Conformance:
    """The checks of one match: on every state, and on every move (a playout observer)."""

    def __init__(self, ruleset: AnyRuleset, options: Any) -> None:
        self.ruleset = ruleset
        self.full = Counter(ruleset.full_set(options))
        self.last_repr = ""
        self.moves = 0

    def state(self, match: AnyMatch) -> None:
        ruleset = self.ruleset
        assert Counter(ruleset.all_tiles(match.hand_state)) == self.full, "tiles not conserved"
        self.last_repr = repr(match)
        if match.status is Status.MATCH_OVER:
            return
        legal = ruleset.legal_moves(match)
        to_act = ruleset.to_act(match)
        assert legal, f"no legal move in {match.status}"
        assert to_act is not None and all(m.seat == to_act for m in legal)
        assert len(set(legal)) == len(legal), "duplicate legal moves"
        view = ruleset.view(match, to_act)
        assert view.legal_moves == legal
        assert view.hand == ruleset.hand_tiles(match.hand_state, to_act)
        spectator = ruleset.view(match, None)
        assert spectator.hand == () and spectator.legal_moves == ()
        for seen in (view, spectator):
            for event in seen.events:
                # another seat's secret is redacted: no tile, marked hidden
                assert event.private_to in (None, seen.seat)
                if event.hidden:
                    assert event.tile is None and event.target is None and not event.tiles

    def step(self, step: Step) -> None:
        move, before = step.move, step.before
        # apply never changes its input: the state is as it was when it was made
        assert repr(before) == self.last_repr, "apply changed its input"
        if move.kind in FROM_HAND and before.status is Status.IN_PROGRESS:
            held = self.ruleset.hand_tiles(before.hand_state, move.seat)
            assert move.tile in held, f"{move} not from hand"
        assert step.after.last_events == step.events
        self.moves += 1
        self.state(step.after)

    def end(self, match: AnyMatch) -> None:
        ruleset = self.ruleset
        assert match.status is Status.MATCH_OVER
        score = ruleset.score(match)
        assert score.winners, "a finished match has winners"
        assert len(score.hands) == match.hand_number
        assert sum(score.match_points) == sum(sum(h.points) for h in score.hands)
        if score.settlement is not None:
            assert sum(score.settlement) == 0
        assert ruleset.legal_moves(match) == () and ruleset.to_act(match) is None


def play_match(
    ruleset: AnyRuleset, options: Any, players: int, seed: str, chooser: random.Random
) -> int:
    """One random match under every check; returns the moves it took."""
    checks = Conformance(ruleset, options)
    first = ruleset.new_match(options, players, seed)
    checks.state(first)
    end = random_match(ruleset, options, players, seed, chooser=chooser, observe=checks.step)
    checks.end(end)
    return checks.moves


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_random_matches(ruleset_id: str) -> None:
    ruleset, cases = rules.get(ruleset_id), cases_for(ruleset_id)
    combos = combinations(ruleset)
    chooser = random.Random(ruleset_id)
    total = 0
    for n in range(cases.conformance_matches):
        options = ruleset.make_options(combos[n % len(combos)])
        low, high = ruleset.player_range(options)
        players = chooser.choice([p for p in cases.players if low <= p <= high])
        total += play_match(ruleset, options, players, f"conformance-{n}", chooser)
    assert total > cases.conformance_matches


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_game_declares_its_cases(ruleset_id: str) -> None:
    """A game of the catalogue without its declarations (``TESTS`` in its package's module
    ``testing``) fails here, and in every test that needs them."""
    declarations_of(games.get(ruleset_id))


def test_a_game_without_its_cases_is_named() -> None:
    """The failure names the game and the part it lacks."""
    toy = games.get(RULESET_IDS[0])

    class Undeclared(type(toy.ruleset)):  # type: ignore[misc]
        id = "undeclared"

    ruleset = Undeclared()
    game = GamePackage(ruleset, type(toy.bot)(ruleset), toy.drawing, "none", {}, toy.long_match)
    with pytest.raises(MissingTestsError, match=r"game 'undeclared' .* has no module testing"):
        declarations_of(game)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_declared_cases_fit_the_ruleset(ruleset_id: str) -> None:
    """Every option named in the cases exists and takes the value given; every player
    count is one the ruleset seats with those options."""
    ruleset, cases = rules.get(ruleset_id), cases_for(ruleset_id)
    specs = {spec.name: spec for spec in ruleset.option_specs()}
    for int_values in (cases.int_values, cases.golden_int_values, cases.checked_int_values):
        for name, values in int_values.items():
            assert specs[name].type == "int", name
            for value in values:
                ruleset.make_options({name: value})
    low, high = ruleset.player_range(ruleset.make_options({}))
    assert cases.players and all(low <= p <= high for p in cases.players)
    strength = Setup(2, cases.strength.options)
    setups: list[Setup | DealCase] = [
        cases.short,
        cases.tokens,
        *cases.leak_games,
        *cases.deals,
        *cases.bot_setups,
        strength,
    ]
    for setup in setups:
        low, high = ruleset.player_range(ruleset.make_options(setup.options))
        assert low <= setup.players <= high, setup
    assert cases.tokens.seeds and all(setup.seeds for setup in cases.leak_games)
    assert cases.deals, "a ruleset's deals must be checkable"
    playground = cases.playground
    assert set(playground.form) <= set(specs) and 0 <= playground.seat < playground.players
    assert playground.level in ("RANDOM", "GREEDY")
    fields = {f.name for f in dataclasses.fields(ruleset.hand_state_type)}
    assert {place.name for place in cases.hidden} <= fields, "hidden: not fields of the state"
