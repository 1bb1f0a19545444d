"""The kernel's speed layer: fast constructors and copies of frozen dataclasses, and the
type checks of a state from outside, compiled once per type.

The rules build a hand state, a match and events on every move, and check every state a
client sends: these skip the dataclass ``__init__`` where it only sets fields, copy a
frozen value's fields to change a few, and write each type check out as straight code.
This is the one module of the rules core (and of the games) that generates code or
reaches into an instance dict; the rest of the kernel and every game use what it makes.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Callable
from typing import Any, TypeVar

from .tiles import Tile

__all__ = [
    "TypeOk",
    "dict_init",
    "fields_of",
    "frozen_builder",
    "made_of",
    "next_seat",
    "replace_at",
    "type_ok",
]


T = TypeVar("T")
_new = object.__new__
_set_dict = object.__setattr__


def frozen_builder(cls: type[T]) -> Callable[..., T]:
    """A fast positional constructor of the frozen dataclass ``cls``.

    ``build(*values)`` equals ``cls(*values)`` with every field given, in field order.
    A frozen dataclass's ``__init__`` sets each field with its own
    ``object.__setattr__`` call; the builder sets the instance dict at once, which makes
    it about three times cheaper. The rules build a hand state and a match on every
    move. Only for classes without slots and without ``__post_init__`` (whose instances
    keep their fields in their dict, and whose ``__init__`` does nothing else).

    >>> from domino_rules.rules import Match, Status
    >>> build = frozen_builder(Match)
    >>> match = build(2, None, "seed", 1, None, (), Status.IN_PROGRESS, ())
    >>> match == Match(2, None, "seed", 1, None)
    True
    """
    if "__slots__" in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has slots or a __post_init__: use its constructor")
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    items = ", ".join(f"{name!r}: {name}" for name in names)
    source = (
        f"def build({', '.join(names)}):\n"
        f"    obj = new(cls)\n"
        f"    set_dict(obj, '__dict__', {{{items}}})\n"
        f"    return obj\n"
    )
    namespace: dict[str, Any] = {"new": _new, "set_dict": _set_dict, "cls": cls}
    exec(compile(source, f"<builder of {cls.__name__}>", "exec"), namespace)
    build: Callable[..., T] = namespace["build"]
    return build


def next_seat(seat: int, players: int) -> int:
    """The seat after ``seat`` in turn order (increasing seat numbers, wrapping around)."""
    return (seat + 1) % players


def fields_of(value: Any) -> dict[str, Any]:
    """A new dict of the fields of ``value``, a frozen dataclass without slots, to change
    and pass to :func:`made_of`: a copy that changes a few fields costs less than
    building every field again. (A match's dict may also hold its legal moves, which are
    no field: drop them.)"""
    fields: dict[str, Any] = value.__dict__.copy()
    return fields


def made_of(cls: type[T]) -> Callable[[dict[str, Any]], T]:
    """``make(fields)``: the instance of the frozen dataclass ``cls`` (without slots or
    ``__post_init__``) whose fields are ``fields``, a dict no one else holds, with exactly
    its fields. No ``__init__`` runs, as with :func:`frozen_builder`.

    >>> from domino_rules.rules import Match
    >>> match = Match(2, None, "seed", 1, None)
    >>> fields = fields_of(match)
    >>> fields["hand_number"] = 2
    >>> made_of(Match)(fields) == dataclasses.replace(match, hand_number=2)
    True
    """
    set_dict = cls.__dict__["__dict__"].__set__  # the instance dict, set at once

    def make(fields: dict[str, Any]) -> T:
        obj = _new(cls)
        set_dict(obj, fields)
        return obj

    return make


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with item ``index`` replaced by ``value`` (states are immutable tuples)."""
    return (*items[:index], value, *items[index + 1 :])


def dict_init(cls: type) -> Any:
    """An ``__init__`` for the frozen dataclass ``cls`` (no slots, no ``__post_init__``)
    that takes the same arguments, defaults included, and sets the instance dict at once
    instead of each field with its own ``object.__setattr__`` (about four times cheaper:
    events are made on every move). Install it as the class's ``__init__``."""
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {"set": _set_dict}
    params = []
    for f in fields:
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"default_{f.name}"] = f.default
            params.append(f"{f.name}=default_{f.name}")
    items = ", ".join(f"{f.name!r}: {f.name}" for f in fields)
    source = f"def __init__(self, {', '.join(params)}):\n    set(self, '__dict__', {{{items}}})\n"
    exec(compile(source, f"<__init__ of {cls.__name__}>", "exec"), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    own = cls.__dict__["__init__"]
    init.__doc__, init.__annotations__ = own.__doc__, own.__annotations__
    return init


TypeOk = Callable[[Any], bool]
_UNION = type(int | None)  # ``X | None``


@functools.cache
def type_ok(hint: Any) -> TypeOk:
    """A function true exactly when :func:`type_check` of ``hint`` passes: the same walk,
    written out once per type as straight code (no call per level, no message), so that a
    valid value is checked fast. On a false answer, run :func:`type_check` for the message.

    >>> type_ok(tuple[int, ...])((1, 2)), type_ok(tuple[int, ...])((1, None))
    (True, False)
    """
    lines: list[str] = []
    names: dict[str, Any] = {}
    _emit_type_ok(hint, "value", 1, lines, names)
    source = "def ok(value):\n" + "\n".join(lines) + "\n    return True\n"
    exec(compile(source, f"<type_ok of {hint!r}>", "exec"), names)
    ok: TypeOk = names["ok"]
    return ok


def _emit_type_ok(hint: Any, var: str, depth: int, lines: list[str], names: dict[str, Any]) -> None:
    """Append to ``lines`` the statements that ``return False`` unless ``var`` has the type
    ``hint``, mirroring :func:`type_check` case by case."""
    pad = "    " * depth
    origin = typing.get_origin(hint)
    if origin is _UNION or origin is typing.Union:
        (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
        lines.append(f"{pad}if {var} is not None:")
        _emit_type_ok(inner, var, depth + 1, lines, names)
        return
    if origin is tuple:
        item = typing.get_args(hint)[0]
        lines.append(f"{pad}if type({var}) is not tuple: return False")
        x = f"x{len(names)}"
        names[x] = None  # reserve the name
        lines.append(f"{pad}for {x} in {var}:")
        if item is Tile or item is int:
            kind = _type_name(item, names)
            lines.append(f"{pad}    if type({x}) is not {kind}: return False")
        else:
            _emit_type_ok(item, x, depth + 1, lines, names)
        return
    if not isinstance(hint, type):  # pragma: no cover - a ruleset author's mistake
        raise TypeError(f"unsupported type {hint!r}")
    lines.append(f"{pad}if type({var}) is not {_type_name(hint, names)}: return False")
    if dataclasses.is_dataclass(hint) and hint is not Tile:
        own = typing.get_type_hints(hint)
        for f in dataclasses.fields(hint):
            field_var = f"f{len(names)}"
            names[field_var] = None
            lines.append(f"{pad}{field_var} = {var}.{f.name}")
            _emit_type_ok(own[f.name], field_var, depth, lines, names)


def _type_name(kind: type, names: dict[str, Any]) -> str:
    """The name the generated code uses for ``kind``."""
    for name, value in names.items():
        if value is kind:
            return name
    name = f"T{len(names)}"
    names[name] = kind
    return name
