"""Playthroughs: one seeded match of each game, every step written out as plain text.

A playthrough pins a game's behaviour in a file a reviewer reads as a diff: the deal,
then at each step the view of the seat to act, its legal moves, the move chosen and the
events it made, and the score whenever a hand ends. Each game keeps its own,
``playthrough.txt`` beside the module of its ruleset (for a game package,
``games/<id>/playthrough.txt``); ``tests/test_playthroughs.py`` plays every game of the
catalogue again and compares. After a change in behaviour, write them anew and review
the diff::

    python -m domino_rules.games.playthrough --write          # every game
    python -m domino_rules.games.playthrough --write tiu_u    # one game
    python -m domino_rules.games.playthrough tiu_u            # print, write nothing

The match is the game's shortest (``GAME.shortest`` options, the fewest players), dealt
from :data:`SEED`, and the moves are chosen by a generator seeded with the game's id.
Only the library's public calls are used (``rules.get``, ``make_options``,
``new_match``, ``legal_moves``, ``apply``, ``view``, ``score``), and everything is
written field by field in a fixed order, so the text changes only when what a player or
a caller sees changes. Where a match would run long, only its first :data:`MAX_STEPS`
steps are written in full; the later ones are written as the move and its events.

>>> from domino_rules import games
>>> text = playthrough(games.get("one_arm_joe"))
>>> text.splitlines()[0]
'# Playthrough of One Arm Joe (one_arm_joe)'
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import random
import sys
import textwrap
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from .. import rules
from ..rules import Event, Move, Score, Status, Tile, View
from . import all_games, get
from .package import GamePackage

__all__ = ["COMMAND", "FILE_NAME", "MAX_STEPS", "SEED", "WIDTH", "main", "path_of", "playthrough"]

#: The seed of every playthrough's deal.
SEED = "playthrough"
#: The file each game keeps beside the module of its ruleset.
FILE_NAME = "playthrough.txt"
#: The command that writes them anew.
COMMAND = "python -m domino_rules.games.playthrough --write"
#: Steps written in full (view and legal moves); later steps are written in short.
MAX_STEPS = 60
#: The widest line, where the words allow.
WIDTH = 96
#: A space that no line is broken at (inside a move), until the line is wrapped.
_UNBROKEN = "\x00"


def path_of(game: GamePackage) -> Path:
    """Where ``game`` keeps its playthrough: beside the module that defines its ruleset
    (the game's package, for a game of this catalogue)."""
    module = sys.modules[type(game.ruleset).__module__]
    if module.__file__ is None:  # pragma: no cover - a module always has a file here
        raise ValueError(f"{game.id}: its ruleset's module has no file")
    return Path(module.__file__).resolve().parent / FILE_NAME


def playthrough(game: GamePackage) -> str:
    """The playthrough of ``game``, as the text of its file."""
    return "".join(f"{line}\n" for line in _lines(game))


def _lines(game: GamePackage) -> Iterator[str]:
    """The lines of the playthrough, each wrapped at :data:`WIDTH`."""
    for line in _logical_lines(game):
        if len(line) <= WIDTH:
            yield line.replace(_UNBROKEN, " ")
            continue
        head = line[: len(line) - len(line.lstrip())]
        for wrapped in textwrap.wrap(
            line.lstrip(),
            WIDTH,
            initial_indent=head,
            subsequent_indent=head + ("# " if line.startswith("#") else "    "),
            break_long_words=False,
            break_on_hyphens=False,
        ):
            yield wrapped.replace(_UNBROKEN, " ")


def _logical_lines(game: GamePackage) -> Iterator[str]:
    ruleset = rules.get(game.id)
    options = ruleset.make_options(game.shortest)
    players = ruleset.player_range(options)[0]
    chooser = random.Random(game.id)
    yield f"# Playthrough of {ruleset.name} ({ruleset.id})"
    yield f"# Written by `{COMMAND} {ruleset.id}`, never by hand."
    yield (
        "# The game's shortest match (GAME.shortest) at its fewest players, dealt from seed"
        f" {SEED!r}; each move is chosen among the legal moves by random.Random({game.id!r})."
        " A step shows the view of the seat to act, its legal moves, the move and its events"
        f" (every tile, hidden or not); a hand's end, the score. Steps after the first"
        f" {MAX_STEPS} show only the move and its events."
    )
    yield ""
    yield f"ruleset: {ruleset.id}"
    yield f"players: {players}"
    yield f"seed: {SEED}"
    yield f"options: {_fields(options)}"
    match = ruleset.new_match(options, players, SEED)
    yield ""
    yield "deal"
    yield from _events(match.last_events)
    step = 0
    while match.status is not Status.MATCH_OVER:
        step += 1
        legal = ruleset.legal_moves(match)
        move = legal[chooser.randrange(len(legal))]
        yield ""
        yield f"step {step}: hand {match.hand_number}, seat {move.seat} to act"
        if step <= MAX_STEPS:
            yield from _view(ruleset.view(match, move.seat))
            moves = " | ".join(str(m).replace(" ", _UNBROKEN) for m in legal)
            yield f"  legal ({len(legal)}): {moves}"
        yield f"  move: {move}"
        match, events = ruleset.apply(match, move)
        yield from _events(events)
        if match.status is not Status.IN_PROGRESS:
            yield from _score(ruleset.score(match))
    yield ""
    yield f"end after {step} steps"


def _view(view: View) -> Iterator[str]:
    yield f"  hand: {_text(view.hand)}"
    yield (
        f"  hand sizes: {_text(view.hand_sizes)}; stock: {view.stock};"
        f" match points: {_text(view.match_points)}"
    )
    if view.table is not None:
        yield f"  table: {_fields(view.table)}"
    for seat, hand in enumerate(view.shown_hands):
        yield f"  shown hand {seat}: {_text(hand)}"


def _events(events: Sequence[Event]) -> Iterator[str]:
    for event in events:
        words = [event.kind.value]
        for field in dataclasses.fields(Event):
            value = getattr(event, field.name)
            if field.name != "kind" and value != field.default:
                words.append(f"{field.name}={_text(value)}")
        yield f"  > {' '.join(words)}"


def _score(score: Score) -> Iterator[str]:
    yield f"  score: {score.status.value}"
    yield f"    hand points: {_text(score.hand_points)}"
    yield f"    match points: {_text(score.match_points)}"
    if score.hands:
        yield f"    last hand: {_fields(score.hands[-1])}"
        yield f"    why: {score.reasons[-1]}"
    if score.winners:
        yield f"    winners: {_text(score.winners)}"
    if score.settlement is not None:
        yield f"    settlement: {_text(score.settlement)}"


def _fields(value: Any) -> str:
    """A dataclass's fields as ``name=value``, in the order it declares them."""
    return " ".join(f"{f.name}={_text(getattr(value, f.name))}" for f in dataclasses.fields(value))


def _text(value: Any) -> str:
    """``value`` as text that depends only on its value: tiles as ``[6-4]``, enum members
    by name, sequences in order, dataclasses field by field."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Tile | Move | int | str):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, tuple | list):
        return f"({' '.join(_text(item) for item in value)})"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        text = f"{{{_fields(value)}}}"
        # a short one is never broken across lines
        return text.replace(" ", _UNBROKEN) if len(text) <= WIDTH // 3 else text
    raise TypeError(f"no text form for a {type(value).__name__} in a playthrough")


def main(argv: Sequence[str] | None = None) -> int:
    """Print the playthroughs of the games named (every game if none), or write each to
    its file with ``--write``."""
    parser = argparse.ArgumentParser(
        prog="python -m domino_rules.games.playthrough", description=main.__doc__
    )
    parser.add_argument("ids", nargs="*", metavar="ID", help="ruleset ids (default: all)")
    parser.add_argument("--write", action="store_true", help="write each game's file")
    args = parser.parse_args(argv)
    chosen = [get(i) for i in args.ids] if args.ids else list(all_games())
    for game in chosen:
        text = playthrough(game)
        if not args.write:
            sys.stdout.write(text)
            continue
        path = path_of(game)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            path.write_text(text, encoding="utf-8")
        state = "unchanged" if old == text else "written"
        print(f"{path.name} of {game.id}: {text.count(chr(10))} lines, {state}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
