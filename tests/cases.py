"""The test cases of each game, read from the game's own declarations.

Every test that runs over the catalogue (``domino_rules.games.all_games()``) reads a
game's cases here, through :func:`cases_for` or :data:`CASES`: the conformance test, the
hidden-information and checkable-deal tests, whole matches through the doors, the token
tests and the bot tests. Each game declares them in its own package, as ``TESTS`` in its
module ``testing`` (a :class:`~domino_rules.games.testing.GameTests`); a game installed
without them fails those tests, with a message that names the game and what it lacks.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from domino_rules import games
from domino_rules.games.testing import DealCase, GameTests, Setup, declarations_of

__all__ = ["CASES", "DealCase", "GameTests", "Setup", "cases_for"]


def cases_for(ruleset_id: str) -> GameTests:
    """The declarations of the game ``ruleset_id``; an error naming the game and the part
    it lacks if it declares none."""
    return declarations_of(games.get(ruleset_id))


class _Cases(Mapping[str, GameTests]):
    """Every game's declarations by id, read from the catalogue when asked."""

    def __getitem__(self, ruleset_id: str) -> GameTests:
        return cases_for(ruleset_id)

    def __iter__(self) -> Iterator[str]:
        return iter([game.id for game in games.all_games()])

    def __len__(self) -> int:
        return len(games.all_games())


#: Every installed game's declarations, by id.
CASES: Mapping[str, GameTests] = _Cases()
