"""``lifecycle.stop_listening``: a listener stops taking connections without losing one.

A plain listening socket stands in for the gRPC server (which has no call for this):
connections it already has stay open and served, the connections waiting in its accept
queue are left for it to take first, and then new connections are refused, never reset
after they were accepted.
"""

from __future__ import annotations

import socket
import sys
import threading
import time

import pytest

from domino_rules.serving.lifecycle import stop_listening

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux sockets")


def _listener() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    return sock


def test_open_connections_stay_and_new_ones_are_refused() -> None:
    with _listener() as listener:
        port = listener.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port), timeout=5)
        served, _ = listener.accept()
        assert stop_listening(port) == 1
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=5)
        client.sendall(b"still here")  # the open connection is untouched
        assert served.recv(64) == b"still here"
        client.close()
        served.close()


def test_the_connections_already_queued_are_taken_before_the_listener_stops() -> None:
    """Connected but not yet accepted: stop_listening waits for the server to take them
    (here a thread that accepts after a while), rather than reset them."""
    with _listener() as listener:
        port = listener.getsockname()[1]
        queued = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(3)]
        taken: list[socket.socket] = []

        def server() -> None:
            stop_listening_started.wait(5)
            # a server that takes its time: the subject of the test, so a pause it is
            time.sleep(0.3)
            for _ in queued:
                taken.append(listener.accept()[0])

        stop_listening_started = threading.Event()
        thread = threading.Thread(target=server)
        thread.start()
        stop_listening_started.set()
        assert stop_listening(port, queue_wait=5) == 1
        thread.join(5)
        assert len(taken) == 3  # every queued connection reached the server
        for client, accepted in zip(queued, taken, strict=True):
            client.sendall(b"x")
            assert accepted.recv(1) == b"x"
            client.close()
            accepted.close()


def test_a_port_nothing_listens_on_is_left_alone() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))  # bound, not listening
        assert stop_listening(sock.getsockname()[1]) == 0
