"""Real servers on 127.0.0.1, port 0: gRPC and the REST gateway, one of each per session."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from werkzeug.serving import make_server

from domino_rules.api import RulesService
from domino_rules.grpc_server import create_server
from domino_rules.rest import create_app

from .doors import GrpcDoor, RestDoor


@pytest.fixture(scope="session")
def grpc_port() -> Iterator[int]:
    server, port = create_server("127.0.0.1:0", RulesService())
    server.start()
    yield port
    server.stop(grace=None)


@pytest.fixture(scope="session")
def http_base() -> Iterator[str]:
    server = make_server("127.0.0.1", 0, create_app(service=RulesService()), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.port}"
    server.shutdown()


@pytest.fixture(scope="session")
def grpc_door(grpc_port: int) -> GrpcDoor:
    return GrpcDoor(grpc_port)


@pytest.fixture(scope="session")
def rest_door(http_base: str) -> RestDoor:
    return RestDoor(http_base)


@pytest.fixture(params=["grpc", "rest"])
def door(request: pytest.FixtureRequest) -> GrpcDoor | RestDoor:
    return request.getfixturevalue(f"{request.param}_door")  # type: ignore[no-any-return]
