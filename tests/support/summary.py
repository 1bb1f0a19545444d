"""Lines printed at the end of the run, whichever process ran the tests that wrote them.

A fixture notes a line with :func:`note`, or gets a list to append lines to under a
heading with :func:`lines`; the end of the run prints them in the order first noted (a
heading only when lines follow it). Run in parallel (pytest-xdist), the tests run in
worker processes whose own end-of-run summary nobody sees: each worker hands its notes
to the controller when it finishes, and the controller prints them all (the hooks in
``tests/conftest.py``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

__all__ = ["WORKER_KEY", "lines", "merge", "note", "notes", "printed"]

#: By heading: the lines under it, or ``None`` for a line printed on its own.
Notes = dict[str, list[str] | None]

_NOTES = pytest.StashKey[Notes]()
#: The key of the notes in what a worker hands back (``config.workeroutput``).
WORKER_KEY = "summary"


def notes(config: pytest.Config) -> Notes:
    """The notes of this process so far."""
    return config.stash.setdefault(_NOTES, {})


def note(config: pytest.Config, line: str) -> None:
    """Print ``line`` at the end of the run (once, however often it is noted)."""
    notes(config).setdefault(line, None)


def lines(config: pytest.Config, heading: str) -> list[str]:
    """The lines under ``heading``, a list to append to; printed at the end of the run
    after the heading, and nothing at all while there are none."""
    kept = notes(config).setdefault(heading, [])
    if kept is None:
        raise ValueError(f"{heading!r} was noted as a line of its own")
    return kept


def merge(config: pytest.Config, handed: object) -> None:
    """Add the notes a worker handed back (:func:`notes`) to this process's."""
    if not isinstance(handed, dict):
        return
    for heading, more in handed.items():
        if more is None:
            note(config, str(heading))
        else:
            lines(config, str(heading)).extend(str(line) for line in more)


def printed(config: pytest.Config) -> Iterator[str]:
    """The lines to print at the end of the run."""
    for heading, under in notes(config).items():
        if under is None:
            yield heading
        elif under:
            yield heading
            yield from (f"  {line}" for line in under)
