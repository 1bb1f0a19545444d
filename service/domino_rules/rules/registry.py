"""The catalogue of rulesets, by id. Each ruleset module ends with ``register(...)``."""

from __future__ import annotations

from typing import Any

from .base import Ruleset
from .errors import UnknownRulesetError

__all__ = ["all_rulesets", "get", "register"]

_RULESETS: dict[str, Ruleset[Any, Any]] = {}


def register(ruleset: Ruleset[Any, Any]) -> Ruleset[Any, Any]:
    if ruleset.id in _RULESETS:
        raise ValueError(f"ruleset {ruleset.id!r} is registered twice")
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
