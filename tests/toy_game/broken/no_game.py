"""A module that declares no ``GAME``."""

from ..rules import HighTile

RULESET = HighTile()
