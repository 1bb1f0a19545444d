"""Slow clients against the real ``domino-rules serve`` (gunicorn and its workers):
idle connections and requests stuck halfway neither stop the REST door nor stay open."""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator

import pytest

from ..served import Served, accepted, serving
from ..support.waiting import wait_until

#: Times the idle and request timeouts of a real serve: alone on the machine.
pytestmark = pytest.mark.serial

IDLE_TIMEOUT = 2.0
REQUEST_TIMEOUT = 3.0
NEW_GAME = json.dumps({"ruleset": "one_arm_joe", "players": 3, "seed": "slow"}).encode()


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    with serving(
        "--grpc-workers",
        "1",
        "--http-workers",
        "2",
        "--http-idle-timeout",
        str(IDLE_TIMEOUT),
        "--http-request-timeout",
        str(REQUEST_TIMEOUT),
    ) as served:
        yield served


def _connect(port: int, sent: bytes = b"") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    if sent:
        sock.sendall(sent)
    return sock


def _new_game(port: int) -> int:
    """One NewGame from a fresh connection, answered within a second or failing."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1.0)
    try:
        connection.request("POST", "/v1/games", body=NEW_GAME)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def _read_until_closed(sock: socket.socket, within: float) -> bytes:
    """What the server sends until it closes the connection, which must happen within
    ``within`` seconds."""
    sock.settimeout(within)
    received = b""
    while True:
        data = sock.recv(65536)  # socket.timeout here: the server kept it open
        if not data:
            return received
        received += data


def test_idle_and_stuck_connections_do_not_stop_the_door(served: Served) -> None:
    """200 idle connections, 8 stuck in the request head, 8 stuck in the body: other
    clients are still answered, each within a second."""
    port = served.http_port
    idle = [_connect(port) for _ in range(200)]
    stuck = [_connect(port, b"POST /v1/games HTTP/1.1\r\nHost: x\r\n") for _ in range(8)]
    stuck += [
        _connect(port, b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        for _ in range(8)
    ]
    try:
        wait_until(
            lambda: accepted(port) >= len(idle + stuck), 10, "the server to take them all in"
        )
        for _ in range(20):
            assert _new_game(port) == 200
    finally:
        for sock in idle + stuck:
            sock.close()


def test_a_silent_connection_is_closed_after_the_idle_timeout(served: Served) -> None:
    sock = _connect(served.http_port)
    with sock:
        opened = time.monotonic()
        assert _read_until_closed(sock, within=IDLE_TIMEOUT + 10) == b""
        assert time.monotonic() - opened >= IDLE_TIMEOUT - 0.5


def test_a_kept_alive_connection_is_closed_after_the_idle_timeout(served: Served) -> None:
    sock = _connect(served.http_port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    with sock:
        answer = _read_until_closed(sock, within=IDLE_TIMEOUT + 10)
    assert answer.startswith(b"HTTP/1.1 200 ") and b"keep-alive" in answer.lower()


@pytest.mark.parametrize(
    "sent",
    [
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\n",
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{",
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n{",
    ],
    ids=["head", "body", "chunked-body"],
)
def test_a_stuck_request_gets_408_and_is_closed_after_the_request_timeout(
    served: Served, sent: bytes
) -> None:
    sock = _connect(served.http_port, sent)
    with sock:
        opened = time.monotonic()
        answer = _read_until_closed(sock, within=REQUEST_TIMEOUT + 10)
        assert time.monotonic() - opened >= REQUEST_TIMEOUT - 0.5
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ")
    error = json.loads(body)
    assert error["code"] == 4  # DEADLINE_EXCEEDED
    assert error["details"][0]["reason"] == "REQUEST_TIMEOUT"


def test_a_request_trickled_byte_by_byte_still_ends_at_the_request_timeout(
    served: Served,
) -> None:
    """The timeout counts from the request's first byte, not from the last one."""
    sock = _connect(served.http_port)
    with sock:
        opened = time.monotonic()
        request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"y" * 400
        closed = False
        for byte in request:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(0.05)  # stays: the pace of the trickle is the subject
            if time.monotonic() - opened > REQUEST_TIMEOUT + 10:
                break
        if not closed:
            assert _read_until_closed(sock, within=10).startswith(b"HTTP/1.1 408 ")
        assert time.monotonic() - opened < REQUEST_TIMEOUT + 5
