"""Forged states: a token may hold anything its format can carry, and the service holds.

Unsealed tokens are readable and forgeable, and a sealing key can leak. So every decoded
state is checked completely before any rule runs. These tests take real states of every
ruleset, change one field of the decoded game at a time (lengths, numbers at and past
their bounds, huge integers, tiles outside the set or twice, ``None`` for a value,
another enum member), encode the result with the service's own codec, sealed and
unsealed, and send it to every RPC that reads a state. Each answer must be a normal
answer or ``BAD_STATE_TOKEN`` (a move may also be refused by the rules), never an
internal error, and never a crash of a rule on a state the checks let through.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import random
import types
import typing
from collections.abc import Callable
from typing import Any

import pytest

from domino_rules import rules
from domino_rules.api import ApiError, RulesService
from domino_rules.bots.playout import Step, play_out
from domino_rules.rules import Match, Status, Tile
from domino_rules.state import codec
from domino_rules.state.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

from ..support.forgery import get_at, paths, set_at
from .doors import CallError, Door

#: Mutations per ruleset (each one sent to five RPCs, sealed or unsealed).
MUTATIONS = 1500
#: What a refused state or move may answer.
REFUSALS = {"BAD_STATE_TOKEN", "NOT_YOUR_TURN", "ILLEGAL_MOVE", "GAME_OVER", "MALFORMED_REQUEST"}
#: Integers a forger would try.
EDGE_INTS = (-(2**63), -(2**31), -1, 0, 1, 2, 3, 7, 24, 255, 2**31 - 1, 2**32, 2**63 - 1)

PLAIN = RulesService(TokenCodec())
SEALED = RulesService(TokenCodec(KeyRing.parse(KeyRing.generate("forge"))))


def reachable_states(ruleset_id: str, matches: int) -> list[Match[Any, Any]]:
    """States met in random matches: fresh deals, mid-hand, hands over, matches over."""
    ruleset = rules.get(ruleset_id)
    chooser = random.Random(ruleset_id)
    found: list[Match[Any, Any]] = []
    for n in range(matches):
        options = ruleset.make_options({})
        low, high = ruleset.player_range(options)
        match = ruleset.new_match(options, chooser.randint(low, min(high, 5)), f"forge-{n}")
        found.append(match)

        def keep(step: Step) -> None:
            if chooser.random() < 0.08 or step.after.status is not Status.IN_PROGRESS:
                found.append(step.after)

        play_out(ruleset, match, chooser, observe=keep)
    return found


# --------------------------------------------------------------------------- mutation


def _random_tile(chooser: random.Random) -> Tile:
    return Tile.from_code(chooser.randrange(190))


def _forge(old: Any, hint: Any, chooser: random.Random) -> Any:
    """A value of the same type as ``old`` (so that it encodes), chosen to hurt."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
        if old is not None and chooser.random() < 0.4:
            return None
        return _forge(old, inner, chooser)
    if hint is bool:
        return not old if isinstance(old, bool) else chooser.random() < 0.5
    if hint is int:
        return chooser.choice((*EDGE_INTS, chooser.randint(-50, 50)))
    if hint is str:
        return chooser.choice(("", "x" * 5000, "\u202e\U0001f600", "one_arm_joe", "0" * 24))
    if hint is Tile:
        return _random_tile(chooser)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return chooser.choice(list(hint))
    if origin is tuple:
        item = typing.get_args(hint)[0]
        items = list(old or ())
        how = chooser.randrange(6)
        if how == 0 and items:
            del items[chooser.randrange(len(items))]
        elif how == 1 and items:
            items.append(items[chooser.randrange(len(items))])
        elif how == 2:
            return ()
        elif how == 3 and items:
            return tuple(items * chooser.choice((8, 24, 200)))
        elif how == 4 and item in (int, Tile):
            make: Callable[[], Any] = (
                (lambda: _random_tile(chooser)) if item is Tile else (lambda: chooser.randint(1, 6))
            )
            return tuple(make() for _ in range(chooser.choice((4, 24, 64))))
        elif items:
            i = chooser.randrange(len(items))
            items[i] = _forge(items[i], item, chooser)
        return tuple(items)
    return old  # a nested dataclass: mutated through its own fields


def mutate(game: codec.Game, chooser: random.Random) -> codec.Game:
    hints = dict(typing.get_type_hints(Match))
    hints["options"] = game.ruleset.options_type
    hints["hand_state"] = game.ruleset.hand_state_type
    match = game.match
    places = [
        (path, hint)
        for f in dataclasses.fields(Match)
        for path, hint in paths(getattr(match, f.name), hints[f.name], (f.name,))
    ]
    what = chooser.randrange(10)
    if what == 0:
        return dataclasses.replace(game, version=chooser.choice(EDGE_INTS[2:]))
    path, hint = chooser.choice(places)
    forged = set_at(match, path, _forge(get_at(match, path), hint, chooser))
    return dataclasses.replace(game, match=forged)


# --------------------------------------------------------------------------- calls


def _calls(token: bytes, players: int, move: pb.Move) -> list[tuple[str, Any]]:
    return [
        ("GetView", pb.GetViewRequest(state=token)),
        ("GetView", pb.GetViewRequest(state=token, seat=players - 1)),
        ("GetLegalMoves", pb.GetLegalMovesRequest(state=token)),
        ("GetScore", pb.GetScoreRequest(state=token)),
        ("ApplyMove", pb.ApplyMoveRequest(state=token, move=move)),
    ]


def _encode(service: RulesService, game: codec.Game) -> bytes | None:
    try:
        return service.encode(game)
    except (ValueError, TypeError, OverflowError):
        return None  # the format cannot even carry this value


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", [r.id for r in rules.all_rulesets()])
def test_forged_states_get_an_answer_or_bad_state_token(ruleset_id: str) -> None:
    ruleset = rules.get(ruleset_id)
    states = reachable_states(ruleset_id, 12)
    chooser = random.Random(f"forge-{ruleset_id}")
    outcomes: dict[str, int] = {}
    sent = 0
    for n in range(MUTATIONS):
        match = chooser.choice(states)
        legal = ruleset.legal_moves(match)
        move = codec.move_to_pb(chooser.choice(legal)) if legal else pb.Move(kind=pb.PASS)
        game = mutate(codec.Game(ruleset, match, "0123456789abcdef01234567", 5), chooser)
        service = SEALED if n % 2 else PLAIN
        token = _encode(service, game)
        if token is None:
            outcomes["not encodable"] = outcomes.get("not encodable", 0) + 1
            continue
        for method, request in _calls(token, match.players, move):
            sent += 1
            try:
                getattr(service, method)(request)
                outcome = "answered"
            except ApiError as error:
                assert error.reason in REFUSALS, (method, error)
                outcome = error.reason
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
    # the mutations must really reach both sides of the checks
    assert outcomes.get("BAD_STATE_TOKEN", 0) > MUTATIONS // 2, outcomes
    assert outcomes.get("answered", 0) > 0, outcomes
    assert sent >= 4 * MUTATIONS, outcomes


#: Forged tokens per ruleset sent through each real door.
THROUGH_DOORS = 150


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", [r.id for r in rules.all_rulesets()])
def test_forged_tokens_through_the_doors_get_200_or_400(door: Door, ruleset_id: str) -> None:
    """The same forgeries over the wire (unsealed, as ``make serve`` runs): REST answers
    200 or 400 with a documented reason, gRPC OK or INVALID_ARGUMENT/FAILED_PRECONDITION."""
    ruleset = rules.get(ruleset_id)
    states = reachable_states(ruleset_id, 4)
    chooser = random.Random(f"door-{ruleset_id}")
    refused = 0
    for _ in range(THROUGH_DOORS):
        match = chooser.choice(states)
        game = mutate(codec.Game(ruleset, match, "0123456789abcdef01234567", 5), chooser)
        token = _encode(PLAIN, game)
        if token is None:
            continue
        body = {"state": base64.b64encode(token).decode(), "seat": 0}
        for method in ("GetView", "GetLegalMoves", "GetScore"):
            try:
                door.call(method, body if method != "GetScore" else {"state": body["state"]})
            except CallError as error:
                assert error.reason in REFUSALS, (method, error)
                assert error.code in {"INVALID_ARGUMENT", "FAILED_PRECONDITION"}, error
                assert error.http_status in (None, 400), error
                refused += 1
    assert refused > THROUGH_DOORS // 2


def test_the_reported_forgeries_are_refused() -> None:
    """Forgeries found by hand: dice that blow up the search, versions that overflow."""
    throw_up = rules.get("throw_up")
    match = reachable_states("throw_up", 1)[1]
    many_dice = dataclasses.replace(
        match, hand_state=dataclasses.replace(match.hand_state, dice=(1,) * 24)
    )
    for forged in (
        codec.Game(throw_up, many_dice, "0123456789abcdef01234567", 1),
        codec.Game(throw_up, match, "0123456789abcdef01234567", 2**32 - 1),
        codec.Game(throw_up, match, "not hex", 1),
    ):
        token = _encode(PLAIN, forged)
        if token is None:
            continue
        with pytest.raises(ApiError) as refused:
            PLAIN.GetView(pb.GetViewRequest(state=token))
        assert refused.value.reason == "BAD_STATE_TOKEN"
