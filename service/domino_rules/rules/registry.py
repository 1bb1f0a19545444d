"""The catalogue of rulesets, by id. Each ruleset module ends with ``register(...)``."""

from __future__ import annotations

from typing import Any

from .errors import UnknownRulesetError
from .ruleset import Ruleset

__all__ = ["all_rulesets", "get", "register"]

_RULESETS: dict[str, Ruleset[Any, Any]] = {}


def register(ruleset: Ruleset[Any, Any]) -> Ruleset[Any, Any]:
    known = _RULESETS.get(ruleset.id)
    if known is not None and type(known).__qualname__ != type(ruleset).__qualname__:
        raise ValueError(f"ruleset id {ruleset.id!r} is taken by {type(known).__qualname__}")
    if known is not None:
        return known  # the same module imported a second time (doctest collection)
    _RULESETS[ruleset.id] = ruleset
    return ruleset


def get(ruleset_id: str) -> Ruleset[Any, Any]:
    try:
        return _RULESETS[ruleset_id]
    except KeyError:
        raise UnknownRulesetError(
            f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(_RULESETS))}"
        ) from None


def all_rulesets() -> tuple[Ruleset[Any, Any], ...]:
    return tuple(_RULESETS[k] for k in sorted(_RULESETS))
