"""Checks of a state that came from outside, for ``Ruleset.check_match`` and the
rulesets' ``check_hand_state`` hooks: each raises :class:`InvalidStateError` with a
message that names the field, never a tile (a state holds hidden tiles).

>>> check_range(7, 0, 3, "to_act")
Traceback (most recent call last):
...
domino_rules.rules.errors.InvalidStateError: to_act is 7; it must be from 0 to 3
>>> type_check(tuple[int, ...])((1, None), "dice")
Traceback (most recent call last):
...
domino_rules.rules.errors.InvalidStateError: dice must be a tuple of int values
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Callable
from typing import Any, NoReturn

from .errors import InvalidStateError
from .tiles import Tile

__all__ = [
    "TypeCheck",
    "check_length",
    "check_range",
    "check_seat",
    "check_sorted",
    "fail",
    "is_sorted",
    "require",
    "shown",
    "type_check",
]


def shown(value: int) -> str:
    """An integer for a message: a forged one may be too long to print."""
    return str(value) if -(10**18) < value < 10**18 else "far out of range"


def fail(message: str) -> NoReturn:
    raise InvalidStateError(message)


def require(ok: bool, message: str) -> None:
    """Raise :class:`InvalidStateError` with ``message`` unless ``ok``."""
    if not ok:
        raise InvalidStateError(message)


def check_range(value: int, low: int, high: int, what: str) -> None:
    """``low <= value <= high``, or :class:`InvalidStateError`."""
    if not low <= value <= high:
        fail(f"{what} is {shown(value)}; it must be from {low} to {high}")


def check_seat(value: int, players: int, what: str) -> None:
    """``value`` is a seat at a table of ``players``."""
    check_range(value, 0, players - 1, what)


def check_length(items: tuple[Any, ...], low: int, high: int, what: str) -> None:
    """``items`` holds ``low`` to ``high`` values."""
    if not low <= len(items) <= high:
        fail(f"{what} holds {len(items)} values; it must hold {low} to {high}")


def check_sorted(tiles: tuple[Tile, ...], what: str) -> None:
    """``tiles`` are in ascending order (hands, the lake, the tiles aside)."""
    if not is_sorted(tiles):
        fail(f"{what} is not in ascending order")


def is_sorted(tiles: tuple[Tile, ...]) -> bool:
    """Are ``tiles`` in ascending order (:func:`check_sorted` without a message to build).

    >>> is_sorted((Tile(1, 0), Tile(1, 1))), is_sorted((Tile(1, 1), Tile(1, 0)))
    (True, False)
    """
    last = -1
    for tile in tiles:
        code = tile.code
        if code < last:
            return False
        last = code
    return True


TypeCheck = Callable[[Any, str], None]  # (value, what it is) -> None, or raise
_UNION = type(int | None)  # ``X | None``


@functools.cache
def type_check(hint: Any) -> TypeCheck:
    """A function that checks a value has exactly the type ``hint`` declares, all the way
    down (built once per type: this runs on every request)."""
    origin = typing.get_origin(hint)
    if origin is _UNION or origin is typing.Union:
        (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
        inner_check = type_check(inner)

        def check_optional(value: Any, what: str) -> None:
            if value is not None:
                inner_check(value, what)

        return check_optional
    if origin is tuple:
        item = typing.get_args(hint)[0]
        if item is Tile or item is int:

            def check_flat(value: Any, what: str) -> None:
                if type(value) is not tuple or not all(type(x) is item for x in value):
                    fail(f"{what} must be a tuple of {item.__name__} values")

            return check_flat
        item_check = type_check(item)

        def check_items(value: Any, what: str) -> None:
            if type(value) is not tuple:
                fail(f"{what} must be a tuple")
            item_what = f"an item of {what}"
            for x in value:
                item_check(x, item_what)

        return check_items
    if not isinstance(hint, type):  # pragma: no cover - a ruleset author's mistake
        raise TypeError(f"unsupported type {hint!r}")
    if dataclasses.is_dataclass(hint) and hint is not Tile:
        own = typing.get_type_hints(hint)
        fields = tuple((f.name, type_check(own[f.name])) for f in dataclasses.fields(hint))

        def check_fields(value: Any, what: str) -> None:
            if type(value) is not hint:
                fail(f"{what} must be a {hint.__name__}, not a {type(value).__name__}")
            for name, field_check in fields:
                field_check(getattr(value, name), f"{what}.{name}")

        return check_fields

    def check_exact(value: Any, what: str) -> None:
        if type(value) is not hint:
            fail(f"{what} must be a {hint.__name__}, not a {type(value).__name__}")

    return check_exact
