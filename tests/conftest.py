"""Fixtures shared by every test: real servers on 127.0.0.1, port 0."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from domino_rules.api import RulesService

from .support.servers import Serve, Servers, serving


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
