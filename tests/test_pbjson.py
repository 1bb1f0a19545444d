"""The REST door's JSON (``pbjson.to_dict``) is ``json_format.MessageToDict``'s, for every
message of the contract: random messages of every type, and every answer of seeded games."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from domino_rules import rules
from domino_rules.api import RulesService
from domino_rules.api.errors import ApiError, to_status
from domino_rules.state import pbjson
from domino_rules.v1 import domino_rules_pb2 as pb

T = FieldDescriptor


def reference(message: Message) -> dict[str, Any]:
    return json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )


def message_types(descriptor: Any = pb.DESCRIPTOR) -> Iterator[Descriptor]:
    nested = descriptor.message_types_by_name.values()
    for message in nested:
        yield message
        yield from message_types_of(message)


def message_types_of(message: Descriptor) -> Iterator[Descriptor]:
    for inner in message.nested_types:
        yield inner
        yield from message_types_of(inner)


CONTRACT = sorted(message_types(), key=lambda d: d.full_name)


def scalar(field: Any, chooser: random.Random) -> Any:
    kind = field.type
    if kind == T.TYPE_ENUM:
        numbers = [value.number for value in field.enum_type.values]
        return chooser.choice([*numbers, 57, -3])  # open enums hold numbers without names
    if kind == T.TYPE_STRING:
        return chooser.choice(["", "x", "ünïcödé ✓", 'a\nb"c', "\u0000"])
    if kind == T.TYPE_BYTES:
        return bytes(chooser.randrange(256) for _ in range(chooser.randrange(40)))
    if kind == T.TYPE_BOOL:
        return chooser.random() < 0.5
    if kind == T.TYPE_DOUBLE:
        return chooser.choice([0.0, -1.5, 1e300, 0.1, math.inf, -math.inf, math.nan])
    if kind == T.TYPE_UINT32:
        return chooser.choice([0, 1, 2**32 - 1])
    if kind == T.TYPE_INT32:
        return chooser.choice([0, 1, -1, 2**31 - 1, -(2**31)])
    raise AssertionError(f"a field type the contract does not use: {field.full_name}")


def randomize(message: Message, chooser: random.Random, depth: int = 0) -> Message:
    """Set a random subset of ``message``'s fields (oneofs: the last set wins)."""
    for field in message.DESCRIPTOR.fields:
        if chooser.random() < 0.3:
            continue
        if field.is_repeated:
            for _ in range(chooser.randrange(4 if depth < 3 else 1)):
                target = getattr(message, field.name)
                if field.type == T.TYPE_MESSAGE:
                    randomize(target.add(), chooser, depth + 1)
                else:
                    target.append(scalar(field, chooser))
        elif field.type == T.TYPE_MESSAGE:
            if depth < 3:
                randomize(getattr(message, field.name), chooser, depth + 1)
                getattr(message, field.name).SetInParent()
        else:
            setattr(message, field.name, scalar(field, chooser))
    return message


def test_every_message_of_the_contract_has_a_compiled_converter() -> None:
    """None falls back to json_format: the speed is not lost to a new field type."""
    assert len(CONTRACT) >= 30
    fallbacks = [d.full_name for d in CONTRACT if pbjson._converter(d) is pbjson._fallback]
    assert not fallbacks


@pytest.mark.parametrize("descriptor", CONTRACT, ids=lambda d: d.name)
def test_random_messages_give_the_same_json(descriptor: Descriptor) -> None:
    message_class: Any = pb
    for part in descriptor.full_name.removeprefix("domino_rules.v1.").split("."):
        message_class = getattr(message_class, part)
    chooser = random.Random(descriptor.full_name)
    for _ in range(60):
        message = randomize(message_class(), chooser)
        assert pbjson.to_dict(message) == reference(message)
    assert pbjson.to_dict(message_class()) == reference(message_class())


@pytest.mark.parametrize("ruleset_id", [r.id for r in rules.all_rulesets()])
def test_every_answer_of_a_played_game_gives_the_same_json(ruleset_id: str) -> None:
    service = RulesService()
    chooser = random.Random(ruleset_id)
    answers: list[Message] = [service.ListRulesets(pb.ListRulesetsRequest())]
    game = service.NewGame(pb.NewGameRequest(ruleset=ruleset_id, players=3, seed="json"))
    state, answers = game.state, [*answers, game]
    for _ in range(150):
        legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        if not legal.moves:
            break
        view = service.GetView(pb.GetViewRequest(state=state, seat=legal.moves[0].seat))
        score = service.GetScore(pb.GetScoreRequest(state=state))
        moved = service.ApplyMove(
            pb.ApplyMoveRequest(state=state, move=chooser.choice(list(legal.moves)))
        )
        answers += [legal, view, score, moved]
        state = moved.state
    hint = service.SuggestMove(
        pb.SuggestMoveRequest(state=game.state, seat=game.to_act, level=pb.STRONG)
    )
    answers.append(hint)
    assert len(answers) > 100
    for answer in answers:
        assert pbjson.to_dict(answer) == reference(answer)


def test_an_error_body_gives_the_same_json() -> None:
    """google.rpc.Status with its ErrorInfo detail (an Any): the REST error body."""
    status = to_status(ApiError(3, "BAD_SEAT", "seat 9 is not at the table", seat="9"))
    assert pbjson.to_dict(status) == reference(status)
    assert pbjson.to_dict(status)["details"][0]["reason"] == "BAD_SEAT"
