"""What a game package declares: :class:`GamePackage`, and the drawing the playground reads.

A game is one package under :mod:`domino_rules.games` (or anywhere importable, for a game
installed from outside, see :mod:`domino_rules.games`) whose module holds ``GAME``, a
:class:`GamePackage`: its ruleset (the rules), its bot (what the bots know of it), how the
playground draws it (:class:`Drawing`), the options of its shortest and longest matches
(what the tests and benchmarks play), and the title of its section in ``docs/rules.md``.
:meth:`GamePackage.check` refuses a package whose parts do not fit together, with a
message that names the part; the catalogue runs it when it installs the game.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..bots.dealing import GameBot
from ..rules import MoveKind, Ruleset
from ..rules.errors import OptionsError

__all__ = ["Drawing", "Faces", "FacesWhen", "GamePackage", "Layout", "PackageError", "SeatFact"]


class PackageError(TypeError):
    """A game package lacks a part, or its parts do not fit together."""


class Layout(enum.Enum):
    """How the table of a game is drawn: each kind reads fields of the view's table
    message by name (the fields named here); ``NONE`` draws only what every view has."""

    #: Nothing of its own: the hands, the stock, the moves and the events.
    NONE = "NONE"
    #: One arm from a lead double, one open end: ``line`` (tiles), ``open_end``,
    #: ``bonus_turn``.
    ARM = "ARM"
    #: Numbered places in rows, the top tile of each showing, one open half:
    #: ``places`` (``top``, ``depth``), ``played``, ``open_pip``, ``discards``.
    PLACES = "PLACES"
    #: A lake of face-up tiles caught by matching totals: ``lake``, ``piles``,
    #: ``drawn``, ``catches`` (``tiles``), ``catch_counts``.
    LAKE = "LAKE"
    #: A line with two open ends: ``line`` (``left``, ``right``), ``left_end``,
    #: ``right_end``, and, where the game throws dice, ``dice``, ``round``, ``qualifying``
    #: and ``idle_rounds``.
    LINE = "LINE"
    #: A line with a spinner, whose two more arms grow from it once both its sides are
    #: touched: ``line`` (``left``, ``right``), ``spinner`` (its index in ``line``, unset
    #: while there is none), ``up`` and ``down`` (``inner``, ``outer``, from the spinner
    #: outwards), ``left_end``, ``right_end``, ``up_end``, ``down_end`` (each unset while
    #: that end is not open), ``count`` (the count after the last play) and
    #: ``hand_points`` (per seat, this hand so far).
    CROSS = "CROSS"
    #: Trains from a hub: ``engine`` (the hub's double), ``trains`` (``train``, ``tiles``
    #: (``left`` towards the hub, ``right``), ``open_end``, ``public``), ``pending`` (the
    #: unsatisfied doubles, ``train`` and ``binding``) and ``opening`` (the seats still to
    #: take their opening turn).
    TRAINS = "TRAINS"
    #: Arms growing from feet: ``engine`` (the centre double), ``arms`` (``arm``, ``foot``,
    #: ``tiles`` (``left`` towards the foot, ``right``), ``open_end``, unset once the arm
    #: ends in a double), ``feet`` (each foot's number, foot 0 the centre) and
    #: ``pending_foot`` (the foot every play must go on, unset when none).
    FEET = "FEET"


class Faces(enum.Enum):
    """How tiles are painted."""

    #: Black pips.
    PLAIN = "PLAIN"
    #: Chinese tiles: the ones and fours red, and the double six half red.
    CHINESE = "CHINESE"
    #: Chinese tiles with every six red too.
    CHINESE_RED_SIXES = "CHINESE_RED_SIXES"


@dataclass(frozen=True, slots=True)
class SeatFact:
    """A number per seat shown beside the seat: ``field`` of the view's table (a list with
    one number per seat), shown as ``label`` and the number."""

    field: str
    label: str


@dataclass(frozen=True, slots=True)
class FacesWhen:
    """Tiles are painted ``faces`` when option ``option`` has the value ``value`` (its
    name, for an enum; ``true``/``false``, for a bool)."""

    option: str
    value: str
    faces: Faces


@dataclass(frozen=True, slots=True)
class Drawing:
    """What the playground needs to draw a game: nothing in the page names a game."""

    #: How the table is drawn.
    layout: Layout = Layout.NONE
    #: The field of the view's table that holds the pip a tile must match (the open end
    #: or half), if the game has one; the moves' labels name it.
    open_field: str = ""
    #: What a hand's count (``HandResult.counts``) is, in words: "pips left".
    count_label: str = "count"
    #: Numbers shown beside each seat.
    seat_facts: tuple[SeatFact, ...] = ()
    #: Labels of moves whose plain label would mislead (``DRAW`` that draws until a tile
    #: matches), by kind.
    move_labels: tuple[tuple[MoveKind, str], ...] = ()
    #: How tiles are painted, unless an option says otherwise (:attr:`faces_when`).
    faces: Faces = Faces.PLAIN
    #: Options that change how tiles are painted, the first that holds deciding.
    faces_when: tuple[FacesWhen, ...] = ()


@dataclass(frozen=True)
class GamePackage:
    """Everything the service knows of one game, declared by its package as ``GAME``."""

    #: The rules.
    ruleset: Ruleset[Any, Any]
    #: What the bots know of the game: how to deal the tiles a seat cannot see, the
    #: GREEDY heuristic (and its text, :attr:`GameBot.greedy_text`), the playouts.
    bot: GameBot
    #: How the playground draws it.
    drawing: Drawing
    #: The title of the game's section in ``docs/rules.md``.
    docs_section: str
    #: The options of the shortest match (a single hand where the game allows it).
    shortest: Mapping[str, Any]
    #: ``long_match(hands)``: the options and the number of players of the largest table
    #: that plays at least ``hands`` hands (or as many as the options allow).
    long_match: Callable[[int], tuple[Mapping[str, Any], int]]
    #: Matches per pairing that the bots' tournament (``bench/tournament.py``) plays by
    #: default: more where the levels are close and the luck of the deal weighs more.
    tournament_matches: int = 400

    @property
    def id(self) -> str:
        return self.ruleset.id

    def check(self) -> None:
        """Raise :class:`PackageError`, naming the part, unless the parts fit together."""
        ruleset = self.ruleset
        if not isinstance(ruleset, Ruleset):
            raise PackageError(f"GAME.ruleset must be a Ruleset, not {ruleset!r}")
        name = ruleset.id
        if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", name):
            raise PackageError(f"ruleset id {name!r} is not a lowercase identifier")
        if not isinstance(self.bot, GameBot) or self.bot.ruleset is not ruleset:
            raise PackageError(f"{name}: GAME.bot must be the GameBot of its ruleset")
        if not self.bot.greedy_text:
            raise PackageError(f"{name}: its bot has no greedy_text")
        if not self.docs_section:
            raise PackageError(f"{name}: GAME.docs_section names no section of docs/rules.md")
        self._check_drawing()
        try:
            ruleset.make_options(self.shortest)
            options, players = self.long_match(50)
            low, high = ruleset.player_range(ruleset.make_options(options))
        except OptionsError as exc:
            raise PackageError(f"{name}: GAME.shortest or GAME.long_match: {exc}") from None
        if not low <= players <= high:
            raise PackageError(f"{name}: GAME.long_match seats {players}, not {low} to {high}")
        self._check_profiles()

    def _check_profiles(self) -> None:
        name, seen = self.ruleset.id, set()
        for profile in self.ruleset.profiles:
            if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", profile.id) or profile.id in seen:
                raise PackageError(
                    f"{name}: profile id {profile.id!r} is not a new lowercase identifier"
                )
            seen.add(profile.id)
            if not profile.name or not profile.description:
                raise PackageError(f"{name}: profile {profile.id!r} needs a name and a description")
            try:
                self.ruleset.make_options(profile.options)
            except OptionsError as exc:
                raise PackageError(f"{name}: profile {profile.id!r}: {exc}") from None

    def _check_drawing(self) -> None:
        name, drawing, table = self.ruleset.id, self.drawing, self.ruleset.table_type
        fields = {f.name for f in dataclasses.fields(table)} if table is not None else set()
        wanted = [(f"seat_facts {fact.label!r}", fact.field) for fact in drawing.seat_facts]
        if drawing.open_field:
            wanted.append(("open_field", drawing.open_field))
        for what, field in wanted:
            if field not in fields:
                raise PackageError(f"{name}: drawing.{what} reads {field!r}, not in its table")
        specs = {spec.name: spec for spec in self.ruleset.option_specs()}
        for when in drawing.faces_when:
            spec = specs.get(when.option)
            if spec is None or when.value not in spec.allowed:
                raise PackageError(
                    f"{name}: drawing.faces_when names {when.option}={when.value}, "
                    "not an option value"
                )
