"""The core's dataclasses and the public messages agree, field by field.

The codec copies core values into messages by field name. A core field with no message
field would silently vanish from every answer, so it is an error
(:class:`~domino_rules.state.codec.ContractError`) unless :data:`codec.NOT_IN_MESSAGES` says
why it stays private. These tests walk every ruleset's table and the shared types.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

import pytest
from google.protobuf.descriptor import Descriptor

from domino_rules import rules
from domino_rules.rules import Event, HandResult, Move, View
from domino_rules.state import codec
from domino_rules.v1 import domino_rules_pb2 as pb


def _dataclass_in(hint: Any) -> type | None:
    """The dataclass a field's type holds (``X``, ``X | None``, ``tuple[X, ...]``)."""
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return hint
    if typing.get_origin(hint) in (tuple, types.UnionType, typing.Union):
        for arg in typing.get_args(hint):
            found = _dataclass_in(arg)
            if found is not None:
                return found
    return None


def check_tree(descriptor: Any, cls: type) -> list[str]:
    """Check ``cls`` against ``descriptor``, and nested dataclasses against their messages;
    returns the pairs checked."""
    checked = [f"{cls.__name__} -> {descriptor.full_name}"]
    fields = codec._field_map(descriptor, cls)
    hints = typing.get_type_hints(cls)
    for name, desc in fields:
        inner = _dataclass_in(hints[name])
        if inner is not None:
            assert desc.message_type is not None, f"{cls.__name__}.{name} is not a message field"
            checked += check_tree(desc.message_type, inner)
    return checked


def table_type(ruleset: rules.Ruleset[Any, Any]) -> type:
    hint = typing.get_type_hints(ruleset.table)["return"]
    assert dataclasses.is_dataclass(hint), f"{ruleset.id}.table must declare its dataclass"
    return typing.cast(type, hint)


@pytest.mark.parametrize("ruleset", rules.all_rulesets(), ids=lambda r: r.id)
def test_every_ruleset_table_fits_its_view_message(ruleset: rules.Ruleset[Any, Any]) -> None:
    view_field = pb.GetViewResponse.DESCRIPTOR.fields_by_name.get(ruleset.id)
    assert view_field is not None, f"GetViewResponse has no field {ruleset.id}"
    message = view_field.message_type
    assert message is not None
    checked = check_tree(message, table_type(ruleset))
    assert checked[0].startswith(table_type(ruleset).__name__)


@pytest.mark.parametrize(
    ("cls", "descriptor"),
    [
        (Move, pb.Move.DESCRIPTOR),
        (Event, pb.Event.DESCRIPTOR),
        (View, pb.GetViewResponse.DESCRIPTOR),
    ],
    ids=lambda x: getattr(x, "__name__", ""),
)
def test_shared_types_fit_their_messages(cls: type, descriptor: Descriptor) -> None:
    check_tree(descriptor, cls)


def test_every_hand_result_field_reaches_the_score() -> None:
    names = set(pb.HandScore.DESCRIPTOR.fields_by_name)
    assert {f.name for f in dataclasses.fields(HandResult)} <= names


def test_a_core_field_without_a_message_field_is_an_error() -> None:
    @dataclasses.dataclass(frozen=True)
    class Stray:
        high: int
        colour: str

    with pytest.raises(codec.ContractError, match=r"Stray\.colour has no field in domino_rules"):
        codec.fill(pb.Tile(), Stray(6, "red"))


def test_private_fields_are_listed_with_a_reason() -> None:
    for cls_name, field_name in codec.NOT_IN_MESSAGES:
        cls = getattr(rules, cls_name)
        assert field_name in {f.name for f in dataclasses.fields(cls)}, (cls_name, field_name)
