"""``bots.suggest``: a legal move at every level, the same move for the same view and
seed, the same move for two states that give the seat the same view, and clear errors.
"""

from __future__ import annotations

import dataclasses
import doctest
import inspect
import itertools
import random
from typing import Any

import pytest

from domino_rules import bots, rules
from domino_rules.bots import (
    MAX_PLAYOUTS,
    BotError,
    Estimate,
    Level,
    Suggestion,
    default_playouts,
    suggest,
)
from domino_rules.bots.worlds import bot_for
from domino_rules.rules import Match, MoveKind, Status, Tile, View

from .positions import SETUPS, Position, positions, shuffled_hidden

RULESET_IDS = sorted(SETUPS)
#: A small budget keeps the tests fast; the search is the same.
BUDGET = 12


def sampled(ruleset_id: str, every: int, matches: int = 2) -> list[Position]:
    return list(itertools.islice(positions(ruleset_id, matches=matches), 0, None, every))


def assert_best_first(suggestion: Suggestion, view: View) -> None:
    """STRONG's estimates: every legal move once, the move suggested first, the moves the
    search played before the others, the moves not played in the order of the legal
    moves."""
    moves = [e.move for e in suggestion.estimates]
    assert sorted(map(str, moves)) == sorted(map(str, view.legal_moves))
    assert len(set(moves)) == len(moves)
    assert moves[0] == suggestion.move
    played = [e.playouts > 0 for e in suggestion.estimates[1:]]
    assert played == sorted(played, reverse=True)
    unplayed = [e.move for e in suggestion.estimates if not e.playouts]
    assert unplayed == [m for m in view.legal_moves if m in unplayed]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_level_suggests_a_legal_move(ruleset_id: str) -> None:
    checked = 0
    for n, position in enumerate(sampled(ruleset_id, every=4)):
        view = position.view
        for level in Level:
            suggestion = suggest(
                position.ruleset,
                position.options,
                position.players,
                view,
                level,
                seed=str(n),
                playouts=BUDGET,
            )
            assert suggestion.move in view.legal_moves
            if level is Level.STRONG:
                assert_best_first(suggestion, view)
                assert all(0.0 <= e.value <= 1.0 for e in suggestion.estimates)
            else:
                assert suggestion.estimates == ()
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_same_view_and_seed_give_the_same_suggestion(ruleset_id: str) -> None:
    chosen = [p for p in sampled(ruleset_id, every=9) if len(p.view.legal_moves) > 1][:4]
    assert chosen
    for position in chosen:
        args = (position.ruleset, position.options, position.players, position.view)
        for level in Level:
            for seed in (None, "table-7"):
                first = suggest(*args, level, seed=seed, playouts=BUDGET)
                # a copy of the view, not the same object, gives the same answer
                copy = dataclasses.replace(position.view)
                again = suggest(*args[:3], copy, level, seed=seed, playouts=BUDGET)
                assert first == again


def test_seeds_vary_the_random_choice() -> None:
    position = next(p for p in positions("tsair_deng", matches=1) if len(p.view.legal_moves) > 8)
    args = (position.ruleset, position.options, position.players, position.view)
    moves = {suggest(*args, Level.RANDOM, seed=str(n)).move for n in range(30)}
    assert len(moves) > 3


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_two_states_with_the_same_view_get_the_same_suggestion(ruleset_id: str) -> None:
    """Fair by construction: the hidden tiles dealt differently change nothing."""
    rng = random.Random(ruleset_id)
    checked = 0
    for position in sampled(ruleset_id, every=5):
        if len(position.view.legal_moves) < 2:
            continue
        try:
            other = shuffled_hidden(position, rng)
        except LookupError:
            continue
        ruleset, seat = position.ruleset, position.seat
        assert other.hand_state != position.match.hand_state
        other_view = ruleset.view(other, seat)
        assert other_view == position.view
        for level in Level:
            answers = [
                suggest(ruleset, position.options, position.players, v, level, seed="s", playouts=8)
                for v in (position.view, other_view)
            ]
            assert answers[0] == answers[1]
        checked += 1
    assert checked >= 5


def _reachable(value: Any, seen: set[int]) -> list[Any]:
    """Every object reachable from ``value`` through dataclass fields and tuples."""
    if id(value) in seen:
        return []
    seen.add(id(value))
    found = [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            found += _reachable(getattr(value, f.name), seen)
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            found += _reachable(item, seen)
    return found


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_view_holds_no_state_and_no_seed(ruleset_id: str) -> None:
    """The bot is given a view, the ruleset, the options and the player count only: the
    state and the game's seed cannot be reached from them (``stop`` is the caller's
    deadline: a function of no argument, which the bot only asks whether to give up)."""
    parameters = list(inspect.signature(suggest).parameters)
    assert parameters == [
        "ruleset", "options", "players", "view", "level", "seed", "playouts", "stop",
    ]  # fmt: skip
    for position in sampled(ruleset_id, every=7, matches=1):
        hand_type = position.ruleset.hand_state_type
        for item in _reachable(position.view, set()):
            assert not isinstance(item, Match | hand_type)
            assert item != position.match.seed
        assert position.match.seed not in repr(position.view)


def test_a_forced_move_is_suggested_without_a_search() -> None:
    position = next(
        p
        for p in positions("one_arm_joe", matches=3)
        if p.view.legal_moves[0].kind is MoveKind.DRAW
    )
    args = (position.ruleset, position.options, position.players, position.view)
    (draw,) = position.view.legal_moves
    assert suggest(*args, Level.STRONG) == Suggestion(draw, (Estimate(draw, 0.0, 0),))
    assert suggest(*args, Level.GREEDY) == Suggestion(draw)


def test_next_hand_is_suggested_to_seat_zero() -> None:
    ruleset = rules.get("tiu_u")
    options = ruleset.make_options({"hands": 2})
    match = ruleset.new_match(options, 2, "next")
    chooser = random.Random(0)
    while match.status is Status.IN_PROGRESS:
        match, _ = ruleset.apply(match, chooser.choice(ruleset.legal_moves(match)))
    view = ruleset.view(match, 0)
    for level in Level:
        assert suggest(ruleset, options, 2, view, level).move.kind is MoveKind.NEXT_HAND


def test_strong_spends_the_budget_on_the_moves() -> None:
    position = next(p for p in positions("tsair_deng", matches=1) if len(p.view.legal_moves) > 10)
    args = (position.ruleset, position.options, position.players, position.view)
    suggestion = suggest(*args, Level.STRONG, playouts=100)
    spent = sum(e.playouts for e in suggestion.estimates)
    assert 100 - len(position.view.legal_moves) <= spent <= 100
    chosen = next(e for e in suggestion.estimates if e.move == suggestion.move)
    assert chosen.playouts == max(e.playouts for e in suggestion.estimates)
    # the search plays the GREEDY heuristic's favourite moves only, each at least once
    # (also with a budget below the number of moves)
    bot = bot_for(position.ruleset)
    assert bot is not None
    searched = min(len(position.view.legal_moves), bot.candidates)
    small = suggest(*args, Level.STRONG, playouts=1)
    for found in (suggestion, small):
        assert sum(e.playouts > 0 for e in found.estimates) == searched
        assert all(e.value == 0.0 for e in found.estimates if not e.playouts)
    greedy = suggest(*args, Level.GREEDY).move
    assert next(e for e in small.estimates if e.move == greedy).playouts > 0


def test_strong_lists_the_estimates_best_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The move suggested first, then the moves played by their mean utility, then the
    moves not played; ties in the order of the legal moves. With no weight on the margin
    and a hand that ends the match (2 players: shares 0, 1/2 or 1, exact sums), the
    utility of a playout is its share of the win, so the order is that of the values."""
    bot = bot_for(rules.get("tsair_deng"))
    assert bot is not None
    monkeypatch.setattr(bot, "margin_weight", 0.0)
    chosen = [
        p
        for p in itertools.islice(positions("tsair_deng", matches=2), 0, None, 3)
        if p.players == 2 and len(p.view.legal_moves) > 3
    ]
    assert len(chosen) > 10
    reordered = 0
    for n, position in enumerate(chosen):
        view = position.view
        assert bot.hands_after(position.options, 2, view.hand_number, [0, 0]) == 0
        args = (position.ruleset, position.options, 2, view)
        suggestion = suggest(*args, Level.STRONG, seed=str(n), playouts=60)
        assert_best_first(suggestion, view)
        index = {move: i for i, move in enumerate(view.legal_moves)}
        rest = [e for e in suggestion.estimates[1:] if e.playouts]
        assert rest == sorted(rest, key=lambda e: (-e.value, index[e.move]))
        moves = tuple(e.move for e in suggestion.estimates)
        reordered += moves != view.legal_moves
    # the order of the legal moves is not the order of the estimates
    assert reordered > len(chosen) // 2


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_strong_spends_the_rulesets_default_budget(ruleset_id: str) -> None:
    position = next(p for p in positions(ruleset_id, matches=1) if len(p.view.legal_moves) > 1)
    args = (position.ruleset, position.options, position.players, position.view)
    spent = sum(e.playouts for e in suggest(*args, Level.STRONG).estimates)
    budget = default_playouts(position.ruleset)
    assert budget - len(position.view.legal_moves) <= spent <= budget


# --------------------------------------------------------------------------- errors


@pytest.fixture(scope="module")
def midgame() -> Position:
    return next(p for p in positions("throw_up", matches=1) if len(p.view.legal_moves) > 1)


def _args(position: Position) -> tuple[Any, Any, int, View]:
    return position.ruleset, position.options, position.players, position.view


@pytest.mark.parametrize("level", ["STRONG", 2, None])
def test_an_unknown_level_is_refused(midgame: Position, level: Any) -> None:
    with pytest.raises(BotError, match="unknown level"):
        suggest(*_args(midgame), level)


@pytest.mark.parametrize("playouts", [0, -1, MAX_PLAYOUTS + 1, True, 1.5, "10"])
def test_a_budget_out_of_range_is_refused(midgame: Position, playouts: Any) -> None:
    with pytest.raises(BotError, match=f"playouts must be an integer from 1 to {MAX_PLAYOUTS}"):
        suggest(*_args(midgame), Level.STRONG, playouts=playouts)
    # a caller that catches the bad values of a request as ValueError catches it too
    with pytest.raises(ValueError):
        suggest(*_args(midgame), Level.STRONG, playouts=playouts)


def test_the_budget_bounds_are_accepted(midgame: Position) -> None:
    for playouts in (1, 3):
        suggest(*_args(midgame), Level.STRONG, playouts=playouts)


def test_a_view_of_another_seat_is_refused(midgame: Position) -> None:
    ruleset, options, players, view = _args(midgame)
    other = (midgame.seat + 1) % players
    with pytest.raises(
        BotError, match=f"the view must be of the seat to act \\(seat {view.to_act}"
    ):
        suggest(ruleset, options, players, ruleset.view(midgame.match, other), Level.GREEDY)
    with pytest.raises(BotError, match="not of a spectator"):
        suggest(ruleset, options, players, ruleset.view(midgame.match, None), Level.RANDOM)


def test_a_view_of_a_finished_match_is_refused() -> None:
    ruleset = rules.get("one_arm_joe")
    options = ruleset.make_options({"target_score": 0})
    match = ruleset.new_match(options, 2, "over")
    chooser = random.Random(1)
    while match.status is not Status.MATCH_OVER:
        match, _ = ruleset.apply(match, chooser.choice(ruleset.legal_moves(match)))
    for seat in (0, 1):
        with pytest.raises(BotError, match="the match is over"):
            suggest(ruleset, options, 2, ruleset.view(match, seat), Level.STRONG)


def test_a_view_without_legal_moves_is_refused(midgame: Position) -> None:
    view = dataclasses.replace(midgame.view, legal_moves=())
    with pytest.raises(BotError, match="has no legal move"):
        suggest(midgame.ruleset, midgame.options, midgame.players, view, Level.RANDOM)


def test_a_request_that_does_not_fit_is_refused(midgame: Position) -> None:
    ruleset, options, players, view = _args(midgame)
    with pytest.raises(BotError, match="takes 2 to 3 players"):
        suggest(ruleset, options, 4, view, Level.GREEDY)
    with pytest.raises(BotError, match="the view is of a 2-player match, not 3"):
        suggest(ruleset, options, 3, view, Level.GREEDY)
    joe = rules.get("one_arm_joe")
    with pytest.raises(BotError, match="options must be ThrowUpOptions"):
        suggest(ruleset, joe.make_options({}), players, view, Level.GREEDY)
    with pytest.raises(BotError, match="a suggestion is made from a View, not a Match"):
        suggest(ruleset, options, players, midgame.match, Level.GREEDY)  # type: ignore[arg-type]
    with pytest.raises(BotError, match="the seed must be text"):
        suggest(ruleset, options, players, view, Level.GREEDY, seed=7)  # type: ignore[arg-type]


def test_a_view_that_does_not_fit_the_options_is_refused() -> None:
    position = next(p for p in positions("one_arm_joe", matches=1) if p.view.table.line)
    ruleset, view = position.ruleset, position.view
    forged = dataclasses.replace(view, hand=(*view.hand, Tile(0, 0), Tile(0, 0)))
    legal = position.view.legal_moves
    if len(legal) < 2:
        forged = dataclasses.replace(forged, legal_moves=legal * 2)
    with pytest.raises(BotError, match="does not fit"):
        suggest(ruleset, position.options, position.players, forged, Level.STRONG)


def test_the_example_in_the_package_docstring_runs() -> None:
    failed, attempted = doctest.testmod(bots)
    assert failed == 0 and attempted > 5


def test_hands_after_says_when_a_hand_ends_the_match() -> None:
    """STRONG weighs a margin by the hands still to play (``GameBot.hands_after``)."""
    ids = ("one_arm_joe", "tsair_deng", "tiu_u", "throw_up")
    joe, tsair, tiu, throw = (bot_for(rules.get(r)) for r in ids)
    assert joe is not None and tsair is not None and tiu is not None and throw is not None
    # [OAJ-10] to the target score, or a single hand
    options = joe.ruleset.make_options({})
    assert joe.hands_after(options, 2, 1, [60, 0]) > 0
    assert joe.hands_after(options, 2, 3, [100, 40]) == 0
    assert joe.hands_after(joe.ruleset.make_options({"target_score": 0}), 2, 1, [0, 9]) == 0
    # [TD-10] hands, or a target score; [TU-10] hands; [THR-11] hands per player
    assert tsair.hands_after(tsair.ruleset.make_options({}), 2, 1, [0, 0]) == 3
    assert tsair.hands_after(tsair.ruleset.make_options({}), 2, 4, [0, 0]) == 0
    assert tsair.hands_after(tsair.ruleset.make_options({"target_score": 50}), 2, 2, [60, 9]) == 0
    assert tiu.hands_after(tiu.ruleset.make_options({}), 2, 1, [0, 0]) == 0
    assert tiu.hands_after(tiu.ruleset.make_options({"hands": 3}), 2, 1, [0, 0]) == 2
    assert throw.hands_after(throw.ruleset.make_options({}), 3, 2, [0, 0, 0]) == 4
