"""The real servers on 127.0.0.1, port 0: the gRPC server and the REST gateway of one
:class:`RulesService`, as ``domino_rules.doors.grpc_server`` and
``domino_rules.doors.rest`` build them.

Tests get them through the fixtures of ``tests/conftest.py`` (``serve``, ``servers``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from werkzeug.serving import make_server

from domino_rules.api import RulesService
from domino_rules.doors.grpc_server import create_server
from domino_rules.doors.rest import create_app

__all__ = ["HOST", "Serve", "Servers", "serving"]

HOST = "127.0.0.1"
STOP_TIMEOUT = 10.0
#: How often the REST gateway's loop looks for a shutdown (seconds): stopping takes this.
POLL_INTERVAL = 0.05


@dataclass(frozen=True)
class Servers:
    """Where one service answers: its gRPC port and its REST base URL."""

    grpc_port: int
    http_base: str  # http://127.0.0.1:<port>, no trailing slash

    @property
    def grpc_target(self) -> str:
        return f"{HOST}:{self.grpc_port}"


#: The ``serve`` fixture: starts both doors of a service, returns where they answer.
Serve = Callable[[RulesService], Servers]


@contextmanager
def serving(service: RulesService) -> Iterator[Servers]:
    """Start both doors of ``service`` on free ports; stop them on leaving."""
    grpc_server, grpc_port = create_server(f"{HOST}:0", service)
    grpc_server.start()
    http = make_server(HOST, 0, create_app(service=service), threaded=True)
    thread = threading.Thread(
        target=http.serve_forever,
        kwargs={"poll_interval": POLL_INTERVAL},
        name="rest-gateway",
        daemon=True,
    )
    thread.start()
    try:
        yield Servers(grpc_port, f"http://{HOST}:{http.port}")
    finally:
        http.shutdown()
        http.server_close()
        thread.join(timeout=STOP_TIMEOUT)
        grpc_server.stop(grace=None).wait(timeout=STOP_TIMEOUT)
