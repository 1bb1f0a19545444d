"""What a game declares for the tests that run over the whole catalogue: :class:`GameTests`.

Each game package holds a module ``testing`` whose ``TESTS`` is a :class:`GameTests`: the
option values and matches the generic tests play, what a seat may see at the table (its
:class:`Judge`), how a third party re-deals a finished match from its revealed seed (its
:data:`Redealer`), the forgeries of its state that must be refused, the positions the bot
tests start from, how its bots' levels are told apart, and the match a person plays
through the playground. :func:`declarations_of` finds it, by that convention, for a game of the
catalogue; the service itself never reads it.

These are declarations, not tests: plain data and small functions over a game's own hand
state. A re-dealer follows the documentation only (:mod:`domino_rules.games.redeal`
writes the generator and the set orders out again), never the service's own deal code.

Options are written as ``docs/rules.md`` names them, which is also how ``make_options``
and the proto3 JSON of ``NewGame`` take them (``{"tile_set": "DOUBLE_SIX"}``).
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..rules import Match, Tile
from .package import GamePackage

__all__ = [
    "DealCase",
    "Forgeries",
    "GameTests",
    "HandRecord",
    "HiddenPlace",
    "Judge",
    "MatchRecord",
    "MissingTestsError",
    "PlaygroundMatch",
    "Redealer",
    "Setup",
    "Strength",
    "TileTuple",
    "declarations_of",
    "leak",
    "own",
    "replace_at",
    "seeds",
]

#: A tile as a re-dealer writes it, apart from the service's own ``Tile``: (high, low).
TileTuple = tuple[int, int]


@dataclass(frozen=True)
class Setup:
    """Matches to start: how many players, which options, and their seeds."""

    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    seeds: tuple[str, ...] = ()


@dataclass(frozen=True)
class DealCase:
    """A match played to the end through a door, then re-dealt from its revealed seed.

    ``name`` also seeds the choice of moves; ``shows`` are the rarer events the seed is
    known to produce (counts the re-dealer returns), so that a check cannot go vacuous.
    """

    name: str
    players: int
    seed: str
    options: Mapping[str, Any]
    shows: tuple[str, ...]


@dataclass(frozen=True)
class Judge:
    """What a seat sees of one game's hand state, judged apart from the service's views.

    ``fields`` are the fields of the hand state the judge knows how to judge: a new
    field (a new place a tile can lie) must be judged here before the tests pass.
    """

    fields: frozenset[str]
    tiles: Callable[[Any, int | None], list[Tile]]

    def visible(self, hand_state: Any, seat: int | None) -> Counter[Tile]:
        """The multiset of tiles ``seat`` (``None``: a spectator) sees at the table now."""
        return Counter(self.tiles(hand_state, seat))


def own(tiles_by_seat: tuple[tuple[Tile, ...], ...], seat: int | None) -> tuple[Tile, ...]:
    """A seat's own tiles; a spectator owns none."""
    return tiles_by_seat[seat] if seat is not None else ()


@dataclass
class HandRecord:
    """What the API showed of one deal (and, white box, the hand state it dealt)."""

    number: int
    to_act: int
    deal_events: list[dict[str, Any]]
    hands: list[list[TileTuple]]  # per seat, sorted, from GetView(seat)
    stock: int
    table: dict[str, Any]  # the spectator's ruleset table at the deal
    internal: Any  # the hand state, from the decoded token (white box)
    dice: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    final_table: dict[str, Any] = field(default_factory=dict)


@dataclass
class MatchRecord:
    """What the API showed of a match played to its end."""

    ruleset: str
    players: int
    commitment: str
    hands: list[HandRecord] = field(default_factory=list)
    score: dict[str, Any] = field(default_factory=dict)


#: Forgeries of a state: (what is wrong, the forged match), each one ``check_match`` must
#: refuse.
Forgeries = Callable[[Match[Any, Any]], Iterator[tuple[str, Match[Any, Any]]]]

#: Re-deals every hand of a record from the seed (options as docs/rules.md names them),
#: asserting that each deal is the one shown, and returns counts of the rarer events met.
Redealer = Callable[[MatchRecord, str, Mapping[str, Any]], dict[str, int]]


class HiddenPlace(NamedTuple):
    """A field of the hand state that holds tiles a seat may not see."""

    name: str
    #: One tuple per seat (hidden from every other seat), or one for the table.
    per_seat: bool
    #: The rules keep it sorted.
    keep_sorted: bool


@dataclass(frozen=True)
class Strength:
    """How the bots' levels are told apart in a few seeded 2-player matches, each deal
    played twice with the seats swapped (the bench measures them at length).

    A count of 0 is a pair of levels not tested here, and ``why_not`` says why (an edge
    too small to show in so few deals)."""

    #: The options of the matches: short, a single hand where the game allows it.
    options: Mapping[str, Any]
    #: Deals on which GREEDY must win more than half against RANDOM.
    greedy_over_random: int = 0
    #: Deals on which STRONG (at a small budget) must win more than half against GREEDY.
    strong_over_greedy: int = 0
    #: Why a pair of levels is not tested; required when a count is 0.
    why_not: str = ""


@dataclass(frozen=True)
class PlaygroundMatch:
    """A match a person plays through the playground's form, bots filling the other seats
    (tests/browser/): short, with a non-default option typed in, and two hands at least
    where the game has more than one (so that the next hand is clicked)."""

    players: int
    #: The person's seat.
    seat: int
    #: The other seats' bot: ``RANDOM`` or ``GREEDY``.
    level: str
    seed: str
    #: Options as typed into their fields.
    form: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class GameTests:
    """Everything the tests that run over the catalogue need to know of one game."""

    # -- random matches in process (tests/rules/test_conformance.py)
    #: Values tried for each integer option (others keep their default; every bool and
    #: enum value is tried).
    int_values: Mapping[str, tuple[int, ...]]
    #: Matches played, spread over the option combinations.
    conformance_matches: int
    #: Player counts drawn from (those the options allow).
    players: tuple[int, ...]
    # -- whole matches through the doors (tests/api/test_play.py)
    #: A short match: to MATCH_OVER through each door, and the same through both.
    short: Setup
    # -- state tokens (tests/api/test_tokens_codec.py)
    #: Matches whose every state goes through the codec and the token, and must fit.
    tokens: Setup
    # -- hidden information (tests/api/test_hidden_information.py)
    #: What a seat sees at the table, judged apart from the service.
    judge: Judge
    #: Matches checked after every move: the option combinations that change what is
    #: hidden (set size, tile set, forced play, declining, rethrows), kept short.
    leak_games: tuple[Setup, ...]
    #: Whether the game has private events (a draw into a hand, a face-down discard):
    #: the leak runs must then meet one, so that the redaction check is not vacuous.
    private_events: bool
    # -- checkable deals (tests/api/test_checkable_deals.py)
    #: Re-deals a recorded match from its seed, from the documentation only.
    redeal: Redealer
    #: Matches re-dealt; the first is also played with a seed the server chooses.
    deals: tuple[DealCase, ...]
    # -- the bots (tests/bots/)
    #: The matches the bot tests play (no seeds: each test seeds its own): the ones that
    #: change what is hidden or inferred.
    bot_setups: tuple[Setup, ...]
    #: The fields of the hand state that hold hidden tiles: another state with these
    #: dealt again gives the seat to act the same view.
    hidden: tuple[HiddenPlace, ...]
    #: How its levels are told apart (tests/bots/test_strength.py).
    strength: Strength
    # -- the golden corpus (tests/golden/corpus.py)
    #: Values recorded for each integer option (others keep their default; every bool
    #: and enum value is recorded).
    golden_int_values: Mapping[str, tuple[int, ...]]
    # -- the playground (tests/browser/)
    #: The match a person plays through the page.
    playground: PlaygroundMatch
    # -- states from outside (tests/rules/test_framework.py)
    #: Values drawn at random for each integer option (repeats weigh more; others keep
    #: their default; bools and enum values are drawn too) for the random matches whose
    #: states are checked and forged.
    checked_int_values: Mapping[str, tuple[int, ...]]
    #: Forgeries of the game's own fields and of the invariants its docstring names, on
    #: top of those every game gets (none: only those).
    forgeries: Forgeries | None
    # -- a finished hand in words (tests/rules/test_hand_reasons.py)
    #: Words of the game's own that a hand's reason says in place of what only the hand's
    #: final state told, once the match no longer holds it (the kernel's are known).
    reasons_later_say: tuple[str, ...] = ()


def replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``items`` with ``value`` at ``index``."""
    return (*items[:index], value, *items[index + 1 :])


def seeds(prefix: str, count: int) -> tuple[str, ...]:
    """``count`` seeds: ``prefix-0``, ``prefix-1``, ..."""
    return tuple(f"{prefix}-{n}" for n in range(count))


def leak(players: int, options: Mapping[str, Any], prefix: str, count: int) -> Setup:
    """A hidden-information setup: its seeds are ``leak-<prefix>-<n>``."""
    return Setup(players, options, seeds(f"leak-{prefix}", count))


class MissingTestsError(LookupError):
    """A game of the catalogue declares no :class:`GameTests`, or a broken one."""


def declarations_of(game: GamePackage) -> GameTests:
    """The declarations of ``game``: ``TESTS`` in the module ``testing`` of its package
    (the package of its ruleset's module). Raises :class:`MissingTestsError`, naming the
    game and the part it lacks."""
    package = type(game.ruleset).__module__.rpartition(".")[0]
    name = f"{package}.testing"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        raise MissingTestsError(
            f"game {game.id!r} declares no test data: its package {package} has no module"
            " testing (with TESTS = GameTests(...), see docs/ARCHITECTURE.md)"
        ) from None
    declared = getattr(module, "TESTS", None)
    if not isinstance(declared, GameTests):
        raise MissingTestsError(f"game {game.id!r}: {name}.TESTS is not a GameTests")
    strength = declared.strength
    tested = strength.greedy_over_random and strength.strong_over_greedy
    if not tested and not strength.why_not:
        raise MissingTestsError(
            f"game {game.id!r}: {name}.TESTS.strength leaves a pair of levels untested"
            " and says not why (why_not)"
        )
    return declared
