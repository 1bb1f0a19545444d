"""Walking and rewriting a decoded match, for the tests that forge states.

:func:`paths` lists every place below a value (dataclass fields and tuple items, with the
type hint each must have); :func:`get_at` and :func:`set_at` read and replace one place.
``set_at`` builds copies without running any check (``object.__setattr__`` on a copy),
so a forger can put any value anywhere.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterator
from typing import Any

from domino_rules.rules import Tile

__all__ = ["Path", "get_at", "paths", "set_at", "set_field"]

Path = tuple[Any, ...]


def paths(value: Any, hint: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every (path, type hint) below ``value``: dataclass fields and tuple items; a tile
    is one place (replaced whole, never half by half)."""
    yield path, hint
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        if value is not None:
            (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
            yield from paths(value, inner, path)
    elif origin is tuple:
        item = typing.get_args(hint)[0]
        for i, x in enumerate(value):
            yield from paths(x, item, (*path, i))
    elif dataclasses.is_dataclass(value) and not isinstance(value, type | Tile):
        own = typing.get_type_hints(type(value))
        for f in dataclasses.fields(value):
            yield from paths(getattr(value, f.name), own[f.name], (*path, f.name))


def get_at(value: Any, path: Path) -> Any:
    for step in path:
        value = value[step] if isinstance(step, int) else getattr(value, step)
    return value


def set_field(value: Any, name: str, new: Any) -> Any:
    """A copy of a frozen dataclass with one field set to anything (no checks run)."""
    copy = dataclasses.replace(value)
    object.__setattr__(copy, name, new)
    return copy


def set_at(value: Any, path: Path, new: Any) -> Any:
    """``value`` with the place at ``path`` replaced by ``new``."""
    if not path:
        return new
    step, rest = path[0], path[1:]
    if isinstance(step, int):
        return (*value[:step], set_at(value[step], rest, new), *value[step + 1 :])
    return set_field(value, step, set_at(getattr(value, step), rest, new))
