"""Messages to JSON objects for the REST door, as ``json_format.MessageToDict`` makes them.

The REST door writes every answer with the proto field names and every field without
presence (``preserving_proto_field_name=True, always_print_fields_with_no_presence=True``).
``json_format`` finds each message's fields and each field's conversion on every call;
here each message type gets one function, compiled on first use, that reads its fields
in order and converts each as its type requires:

- a field without presence: always (a scalar at its default included; a repeated field
  as a list, empty included);
- a field with presence (a message, a proto3 ``optional``, a ``oneof`` member): only
  when set;
- an enum by its value's name (a number with no name stays a number); ``bytes`` as
  base64; a ``double`` that is not finite as ``"NaN"``, ``"Infinity"`` or
  ``"-Infinity"``.

A message type with a field this module does not handle (maps, 64-bit integers, 32-bit
floats, extensions, well-known types) goes to ``json_format`` whole. The objects are equal
to ``MessageToDict``'s (the order of keys may differ); ``tests/test_pbjson.py`` checks it
over every message of the contract.
"""

from __future__ import annotations

import base64
import functools
import math
from collections.abc import Callable
from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

__all__ = ["to_dict"]

_T = FieldDescriptor
_PLAIN = {_T.TYPE_INT32, _T.TYPE_UINT32, _T.TYPE_SINT32, _T.TYPE_FIXED32, _T.TYPE_SFIXED32}


def to_dict(message: Message) -> dict[str, Any]:
    """``json_format.MessageToDict(message, preserving_proto_field_name=True,
    always_print_fields_with_no_presence=True)``, faster."""
    result: dict[str, Any] = _converter(message.DESCRIPTOR)(message)
    return result


def _double(value: float) -> float | str:
    if math.isfinite(value):
        return value
    if math.isnan(value):
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


def _bytes(value: bytes) -> str:
    return base64.b64encode(value).decode("utf-8")


def _fallback(message: Message) -> dict[str, Any]:
    return json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )


class _Unsupported(Exception):
    """A field this module leaves to ``json_format``."""


@functools.cache
def _converter(descriptor: Descriptor) -> Callable[[Message], dict[str, Any]]:
    try:
        return _compile(descriptor)
    except _Unsupported:
        return _fallback


def _compile(descriptor: Descriptor) -> Callable[[Message], dict[str, Any]]:
    if descriptor.full_name.startswith("google.protobuf.") or descriptor.GetOptions().map_entry:
        raise _Unsupported(descriptor.full_name)
    namespace: dict[str, Any] = {"_double": _double, "_bytes": _bytes, "str": str, "bool": bool}
    lines = ["def convert(m):", "    js = {}"]
    for index, field in enumerate(descriptor.fields):
        name = field.name
        if field.is_extension or (field.message_type and field.message_type.GetOptions().map_entry):
            raise _Unsupported(name)
        value = _value_expression(field, index, namespace)
        if field.is_repeated:
            item = value.format("x")
            lines.append(
                f"    js[{name!r}] = [{item} for x in m.{name}]"
                if item != "x"
                else f"    js[{name!r}] = list(m.{name})"
            )
        elif field.has_presence:
            lines += [
                f"    if m.HasField({name!r}):",
                f"        js[{name!r}] = {value.format(f'm.{name}')}",
            ]
        else:
            lines.append(f"    js[{name!r}] = {value.format(f'm.{name}')}")
    lines.append("    return js")
    namespace["list"] = list
    code = compile("\n".join(lines) + "\n", f"<json of {descriptor.full_name}>", "exec")
    exec(code, namespace)
    convert: Callable[[Message], dict[str, Any]] = namespace["convert"]
    return convert


def _value_expression(field: FieldDescriptor, index: int, namespace: dict[str, Any]) -> str:
    """The expression converting one value of ``field``, with ``{}`` for the value."""
    kind = field.type
    if kind == _T.TYPE_MESSAGE and field.message_type is not None:
        namespace[f"message_{index}"] = functools.partial(_nested, field.message_type)
        return f"message_{index}({{}})"
    if kind == _T.TYPE_ENUM and field.enum_type is not None:
        names = {value.number: value.name for value in field.enum_type.values}
        namespace[f"enum_{index}"] = names
        if field.enum_type.is_closed:
            raise _Unsupported(field.name)  # an unnamed number raises in json_format
        return f"enum_{index}.get({{0}}, {{0}})"
    if kind == _T.TYPE_STRING:
        return "str({})"
    if kind == _T.TYPE_BYTES:
        return "_bytes({})"
    if kind == _T.TYPE_BOOL:
        return "bool({})"
    if kind == _T.TYPE_DOUBLE:
        return "_double({})"
    if kind in _PLAIN:
        return "{}"
    raise _Unsupported(field.name)  # 64-bit integers, 32-bit floats, groups


def _nested(descriptor: Descriptor, message: Message) -> dict[str, Any]:
    return _converter(descriptor)(message)
