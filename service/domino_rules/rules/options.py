"""Typed options: declared on a ruleset's options dataclass with :func:`option`,
described by :class:`OptionSpec`, checked when made."""

from __future__ import annotations

import dataclasses
import enum
import functools
import typing
from dataclasses import dataclass, field
from typing import Any

from .checks import (
    shown,
)
from .errors import (
    OptionsError,
)

__all__ = ["OptionSpec", "option"]


def option(
    default: Any, doc: str, *, minimum: int | None = None, maximum: int | None = None
) -> Any:
    """A field of an options dataclass, with what ``ListRulesets`` says of it."""
    return field(default=default, metadata={"doc": doc, "min": minimum, "max": maximum})


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    type: str  # "int", "bool" or "enum"
    default: Any
    doc: str
    allowed: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    @property
    def default_text(self) -> str:
        if isinstance(self.default, bool):
            return "true" if self.default else "false"
        if isinstance(self.default, enum.Enum):
            return self.default.name
        return str(self.default)


@functools.cache
def _option_specs(options_type: type) -> tuple[OptionSpec, ...]:
    hints = typing.get_type_hints(options_type)
    specs = []
    for f in dataclasses.fields(options_type):
        kind = hints[f.name]
        meta = f.metadata
        if kind is bool:
            specs.append(OptionSpec(f.name, "bool", f.default, meta["doc"], ("false", "true")))
        elif kind is int:
            specs.append(
                OptionSpec(f.name, "int", f.default, meta["doc"], (), meta["min"], meta["max"])
            )
        elif isinstance(kind, type) and issubclass(kind, enum.Enum):
            specs.append(
                OptionSpec(f.name, "enum", f.default, meta["doc"], tuple(kind.__members__))
            )
        else:  # pragma: no cover - a ruleset author's mistake, caught by the registry tests
            raise TypeError(f"option {f.name} of {options_type.__name__}: unsupported type {kind}")
    return tuple(specs)


@functools.cache
def _option_hints(options_type: type) -> dict[str, Any]:
    return typing.get_type_hints(options_type)


def _checked_option(spec: OptionSpec, enum_type: Any, value: Any, *, by_name: bool) -> Any:
    """``value`` for option ``spec``, or :class:`OptionsError`; enum members may be given
    by name when ``by_name``."""
    name = spec.name
    if spec.type == "bool":
        if type(value) is not bool:
            raise OptionsError(f"option {name} must be true or false, not {value!r}")
    elif spec.type == "int":
        if type(value) is not int:
            raise OptionsError(f"option {name} must be an integer, not {value!r}")
        if (spec.minimum is not None and value < spec.minimum) or (
            spec.maximum is not None and value > spec.maximum
        ):
            raise OptionsError(
                f"option {name} must be from {spec.minimum} to {spec.maximum}, not {shown(value)}"
            )
    else:
        if by_name and isinstance(value, str) and value in enum_type.__members__:
            value = enum_type[value]
        if type(value) is not enum_type:
            raise OptionsError(f"option {name} must be one of {list(spec.allowed)}, not {value!r}")
    return value


@functools.cache
def _int_option_ranges(options_type: type) -> tuple[tuple[str, int | None, int | None], ...]:
    """``(name, minimum, maximum)`` of each int option."""
    return tuple(
        (spec.name, spec.minimum, spec.maximum)
        for spec in _option_specs(options_type)
        if spec.type == "int"
    )
