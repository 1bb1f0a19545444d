"""Fixtures shared by every test: real servers on 127.0.0.1, port 0; and how the suite
runs in parallel.

The suite runs in worker processes (pytest-xdist, ``-n auto --dist loadgroup``, see
``pyproject.toml``), each with its own session fixtures: its own servers on ports of its
own. Tests are handed out one by one, except:

- tests marked ``serial`` (they time things, bind fixed resources, drive Chromium or
  nginx, or start fleets of ``domino-rules serve``) run on one worker, one after the
  other, in the group ``serial``; the largest group is handed out first, so it starts at
  once while the other workers take the rest;
- the tests of a module marked ``one_worker`` (its module fixtures, a build or a
  ``serve``, cost too much to make on every worker) run on one worker, in order.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from domino_rules.api import RulesService

from .support import summary
from .support.servers import Serve, Servers, serving

#: The group of the tests that cannot share the machine (marked ``serial``).
SERIAL = "serial"


@pytest.fixture(scope="session")
def serve() -> Iterator[Serve]:
    """A factory: ``serve(service)`` starts the gRPC server and the REST gateway of
    ``service`` and returns where they answer; all are stopped at the end of the session."""
    with ExitStack() as running:
        yield lambda service: running.enter_context(serving(service))


@pytest.fixture(scope="session")
def servers(serve: Serve) -> Servers:
    """Both doors of a default service (unsealed tokens), shared by the whole session."""
    return serve(RulesService())


# --------------------------------------------------------------------------- in parallel


@pytest.hookimpl(tryfirst=True)  # before xdist names each test's group from its marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put ``serial`` tests in one group, and each ``one_worker`` module in its own."""
    if not config.pluginmanager.has_plugin("xdist"):
        return
    for item in items:
        if item.get_closest_marker("serial") is not None:
            item.add_marker(pytest.mark.xdist_group(SERIAL))
        elif item.get_closest_marker("one_worker") is not None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker hands what it noted for the summary to the controller."""
    handed = getattr(session.config, "workeroutput", None)
    if handed is not None:
        handed[summary.WORKER_KEY] = summary.notes(session.config)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """The controller takes what a worker noted for the summary (xdist's hook)."""
    handed = getattr(node, "workeroutput", None) or {}
    config = getattr(node, "config", None)
    if isinstance(config, pytest.Config):
        summary.merge(config, handed.get(summary.WORKER_KEY))


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """What the tests noted for the end of the run (the playground's screenshots, what
    axe-core found), from every worker."""
    for line in summary.printed(config):
        terminalreporter.write_line(line)
