"""Requests at the edges of HTTP, against the real ``domino-rules serve`` (gunicorn): each
gets a JSON error ``{code, message, details}`` with a 4xx status, and the server logs at
most one line for it, never a traceback."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domino_rules.doors import rest

from ..served import Served, serving
from ..support.waiting import wait_until

#: One serve and its log for the module: its tests share them on one worker.
pytestmark = pytest.mark.one_worker

LIMIT = 1024 * 1024
POST_PATHS = [path for _, verb, path, _ in rest.routes() if verb == "POST"]


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("serve") / "stderr.log"


@pytest.fixture(scope="module")
def served(log: Path) -> Iterator[Served]:
    with (
        log.open("w") as stderr,
        serving("--grpc-workers", "1", "--http-workers", "1", stderr=stderr) as served,
    ):
        yield served


class LogTail:
    """The lines the server logs from the start of one test on."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.start = log.stat().st_size

    def lines(self) -> list[str]:
        with self.log.open() as stream:
            stream.seek(self.start)
            return stream.read().splitlines()


@pytest.fixture
def new_log_lines(log: Path) -> LogTail:
    return LogTail(log)


def exchange(port: int, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes, read one response; (status, lower-cased headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        with contextlib.suppress(OSError):  # the server may answer and close first
            sock.sendall(data)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = sock.recv(65536)
            assert chunk, f"closed without an answer: {received!r}"
            received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.lower().split(": ", 1) for line in lines[1:])
        length = int(headers["content-length"])
        while len(body) < length:
            chunk = sock.recv(65536)
            assert chunk, "closed in the middle of the body"
            body += chunk
        return int(lines[0].split()[1]), headers, body[:length]


def post(port: int, path: str, body: bytes, headers: bytes = b"") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n".encode()
        + headers
        + b"\r\n"
        + body
    )


def chunked(path: str, body: bytes, size: int = 65536) -> bytes:
    parts = [
        b"%x\r\n%s\r\n" % (len(body[i : i + size]), body[i : i + size])
        for i in range(0, len(body), size)
    ]
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
    return head + b"".join(parts) + b"0\r\n\r\n"


def error_of(status: int, headers: dict[str, str], body: bytes) -> dict[str, Any]:
    """The JSON error of a 4xx answer, checked for its shape."""
    assert 400 <= status < 500 or status == 501, (status, body)
    assert headers["content-type"].startswith("application/json")
    error: dict[str, Any] = json.loads(body)
    assert set(error) == {"code", "message", "details"}
    assert error["details"][0]["@type"] == "type.googleapis.com/google.rpc.ErrorInfo"
    return error


def reason(error: dict[str, Any]) -> str:
    return str(error["details"][0]["reason"])


def no_traceback(tail: LogTail, requests: int = 1) -> list[str]:
    """The server logged exactly one access line per request, and nothing else."""
    wait_until(  # written after the answer
        lambda: len(tail.lines()) >= requests, 5, f"the log lines of {requests} requests"
    )
    # A pause that stays: nothing more may come after them, and an absence gives no
    # signal to wait on.
    time.sleep(0.1)
    lines = tail.lines()
    assert not any("Traceback" in line or "Error handling" in line for line in lines), lines
    assert len(lines) == requests, lines
    return lines


LONE_SURROGATES = [
    b'{"\\ud800": 1}',
    b'{"state": "", "\\udfff": {"x": 1}}',
    b'{"ruleset": "one_arm_joe", "players": 2, "options": {"\\ud800": 1}}',
    b'{"ruleset": "one_arm_joe", "players": 2, "options": {"one_arm_joe": {"\\ud83d": 1}}}',
    b'{"ruleset": "\\ud800", "players": 2}',
    b'{"ruleset": "one_arm_joe", "players": 2, "seed": "x\\udc00"}',
]


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize("body", LONE_SURROGATES)
def test_a_lone_surrogate_is_a_bad_request(
    served: Served, new_log_lines: LogTail, path: str, body: bytes
) -> None:
    error = error_of(*exchange(served.http_port, post(served.http_port, path, body)))
    assert reason(error) == "MALFORMED_REQUEST" and error["code"] == 3
    assert "surrogate" in error["message"]
    no_traceback(new_log_lines)


def test_an_invalid_chunk_size_is_a_bad_request(served: Served, new_log_lines: LogTail) -> None:
    data = b"POST /v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n"
    status, headers, body = exchange(served.http_port, data)
    error = error_of(status, headers, body)
    assert status == 400 and reason(error) == "MALFORMED_REQUEST"
    assert "chunk" in error["message"].lower() and headers["connection"] == "close"
    no_traceback(new_log_lines)


def test_a_chunked_body_within_the_limit_is_read(served: Served) -> None:
    game = json.dumps({"ruleset": "one_arm_joe", "players": 2, "seed": "chunked"}).encode()
    status, _, body = exchange(served.http_port, chunked("/v1/games", game, size=7))
    assert status == 200 and json.loads(body)["status"] == "IN_PROGRESS"


@pytest.mark.parametrize("size", [LIMIT + 1, 2 * LIMIT, 8 * LIMIT])
def test_a_chunked_body_over_the_limit_gets_413(
    served: Served, new_log_lines: LogTail, size: int
) -> None:
    body = b'{"seed": "' + b"x" * (size - 12) + b'"}'
    status, headers, answer = exchange(served.http_port, chunked("/v1/games", body))
    error = error_of(status, headers, answer)
    assert status == 413 and reason(error) == "REQUEST_TOO_LARGE" and error["code"] == 8
    assert headers["connection"] == "close"
    no_traceback(new_log_lines)


def test_a_body_with_a_length_over_the_limit_gets_413(served: Served) -> None:
    data = post(served.http_port, "/v1/games", b"x" * (LIMIT + 1))
    status, headers, body = exchange(served.http_port, data)
    assert status == 413 and reason(error_of(status, headers, body)) == "REQUEST_TOO_LARGE"


@pytest.mark.parametrize(
    ("data", "status", "reason_"),
    [
        (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "REQUEST_TOO_LARGE"),
        (
            b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
            + b"".join(b"X-%d: y\r\n" % i for i in range(200))
            + b"\r\n",
            431,
            "REQUEST_TOO_LARGE",
        ),
        (
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 9000 + b"\r\n\r\n",
            431,
            "REQUEST_TOO_LARGE",
        ),
        (b"NOT HTTP AT ALL\r\n\r\n", 400, "MALFORMED_REQUEST"),
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400, "MALFORMED_REQUEST"),
        (
            b"POST /v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
            400,
            "MALFORMED_REQUEST",
        ),
    ],
    ids=["request-line", "many-headers", "long-header", "request-line-garbage", "header", "te"],
)
def test_what_the_http_parser_refuses_is_answered_in_json(
    served: Served, new_log_lines: LogTail, data: bytes, status: int, reason_: str
) -> None:
    answer = exchange(served.http_port, data)
    error = error_of(*answer)
    assert answer[0] == status and reason(error) == reason_
    assert answer[1]["connection"] == "close"
    lines = no_traceback(new_log_lines)
    assert all(re.search(r"invalid request from 127\.0\.0\.1", line) for line in lines), lines


def test_the_door_still_answers_afterwards(served: Served) -> None:
    status, _, body = exchange(served.http_port, b"GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 200 and json.loads(body) == {"status": "SERVING"}


def test_pipelined_requests_and_an_unread_body_keep_the_connection_in_step(
    served: Served,
) -> None:
    """Three requests sent at once on one connection, the first with a body no route
    reads: three answers, in order."""
    data = (
        b"GET /v1/rulesets HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        b"GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", served.http_port), timeout=30) as sock:
        sock.sendall(data)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    assert received.count(b"HTTP/1.1 200 ") == 3
    assert received.rstrip().endswith(b'{"status":"SERVING"}')


@pytest.mark.parametrize("path", ["//v1//games", "/v1/games/", "/v1//rulesets", "/v1/rulesets/x"])
def test_odd_paths_get_the_json_404_and_no_redirect(served: Served, path: str) -> None:
    """No redirect is ever built from the request (its Host header names anything)."""
    request = f"GET {path} HTTP/1.1\r\nHost: evil.example\r\n\r\n".encode()
    status, headers, body = exchange(served.http_port, request)
    if path == "/v1/games/":  # the same route as /v1/games, which takes POST only
        assert (status, reason(error_of(status, headers, body))) == (405, "METHOD_NOT_ALLOWED")
    else:
        assert (status, reason(error_of(status, headers, body))) == (404, "NOT_FOUND")
    assert "location" not in headers


def test_a_trailing_slash_names_the_same_page(served: Served) -> None:
    request = b"GET /v1/rulesets/ HTTP/1.1\r\nHost: x\r\n\r\n"
    status, headers, _ = exchange(served.http_port, request)
    assert status == 200 and "location" not in headers
    # the docs page's one redirect: a path, whatever the Host header says
    request = b"GET /docs/ HTTP/1.1\r\nHost: evil.example\r\n\r\n"
    status, headers, _ = exchange(served.http_port, request)
    assert status == 308 and headers["location"] == "/docs"


@pytest.mark.parametrize("options", [{"tiu_u": {"red_sixes": False}}, {"tiu_u": {"hands": True}}])
def test_a_bool_where_an_enum_or_a_number_goes_is_malformed(
    served: Served, options: dict[str, Any]
) -> None:
    body = json.dumps({"ruleset": "tiu_u", "players": 2, "options": options}).encode()
    status, headers, answer = exchange(served.http_port, post(served.http_port, "/v1/games", body))
    error = error_of(status, headers, answer)
    assert (status, reason(error)) == (400, "MALFORMED_REQUEST")
    assert "takes no" in error["message"]


@pytest.mark.parametrize("timeout", ["0", "-1", "soon", "nan", "1e9"])
def test_a_bad_request_timeout_header_is_malformed(served: Served, timeout: str) -> None:
    body = b'{"ruleset": "tiu_u", "players": 2}'
    header = f"x-request-timeout: {timeout}\r\n".encode()
    status, headers, answer = exchange(
        served.http_port, post(served.http_port, "/v1/games", body, header)
    )
    error = error_of(status, headers, answer)
    assert (status, reason(error)) == (400, "MALFORMED_REQUEST")
    assert "x-request-timeout" in error["message"]
