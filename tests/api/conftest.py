"""The doors of the session's servers (``tests/conftest.py``): one client of each kind."""

from __future__ import annotations

import pytest

from ..support.servers import Servers
from .doors import Door, GrpcDoor, RestDoor


@pytest.fixture(scope="session")
def grpc_door(servers: Servers) -> GrpcDoor:
    return GrpcDoor(servers.grpc_port)


@pytest.fixture(scope="session")
def rest_door(servers: Servers) -> RestDoor:
    return RestDoor(servers.http_base)


@pytest.fixture(params=["grpc", "rest"])
def door(request: pytest.FixtureRequest, grpc_door: GrpcDoor, rest_door: RestDoor) -> Door:
    """Each test that takes ``door`` runs once through gRPC and once through REST."""
    return grpc_door if request.param == "grpc" else rest_door
