"""Every game of the catalogue plays its playthrough again, word for word.

A game keeps a seeded match written out step by step (``playthrough.txt`` in its
package, :mod:`domino_rules.games.playthrough`): a change in what a player or a caller
sees shows here as a diff, and once reviewed the files are written anew by one command.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from domino_rules import games
from domino_rules.games import playthrough
from domino_rules.games.package import GamePackage

ROOT = Path(__file__).resolve().parents[1]


def _mismatch(game: GamePackage, path: Path, old: str, new: str) -> str:
    diff = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        f"{path.name} of {game.id} (kept)",
        f"{path.name} of {game.id} (played now)",
    )
    return (
        f"{game.id} no longer plays its playthrough. If the change is meant, write it anew"
        f" and review the diff:\n  {playthrough.COMMAND} {game.id}\n\n{''.join(diff)}"
    )


@pytest.mark.parametrize("game", games.all_games(), ids=lambda g: g.id)
def test_a_game_plays_its_playthrough(game: GamePackage) -> None:
    path = playthrough.path_of(game)
    assert path.exists(), f"{game.id} has no playthrough: {playthrough.COMMAND} {game.id}"
    kept = path.read_text(encoding="utf-8")
    played = playthrough.playthrough(game)
    assert played == kept, _mismatch(game, path, kept, played)


def test_a_playthrough_stays_short() -> None:
    """A reviewer reads a playthrough whole: a few hundred lines, none too wide."""
    for game in games.all_games():
        lines = playthrough.path_of(game).read_text(encoding="utf-8").splitlines()
        assert 50 <= len(lines) <= 600, (game.id, len(lines))
        wide = [line for line in lines if len(line) > playthrough.WIDTH]
        assert not wide, (game.id, wide[:3])


def test_the_command_writes_only_what_changed() -> None:
    """``--write`` leaves a file that is up to date alone and says so, and without it the
    text goes to stdout and no file is touched."""
    game = games.get("block")
    path = playthrough.path_of(game)
    before = path.stat().st_mtime_ns
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "service"), str(ROOT)])}
    module = [sys.executable, "-m", "domino_rules.games.playthrough"]
    wrote = subprocess.run(
        [*module, "--write", "block"], capture_output=True, text=True, env=env, check=True
    )
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert wrote.stdout == f"playthrough.txt of block: {lines} lines, unchanged\n"
    assert path.stat().st_mtime_ns == before
    # another hash seed orders no set or dict differently in the text
    printed = subprocess.run(
        [*module, "block", "tiu_u"],
        capture_output=True,
        text=True,
        env={**env, "PYTHONHASHSEED": "12345"},
        check=True,
    )
    assert printed.stdout == "".join(
        playthrough.playthrough(games.get(i)) for i in ("block", "tiu_u")
    )
    assert path.stat().st_mtime_ns == before
