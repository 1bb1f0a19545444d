"""``domino-rules``: the command line.

``domino-rules serve`` starts both doors with embedded defaults: gRPC on
127.0.0.1:50051 and the REST gateway (under gunicorn) on 127.0.0.1:8080. Port 0 picks a
free port; the chosen ports are printed at start-up, one line each::

    gRPC listening on 127.0.0.1:50051
    REST listening on http://127.0.0.1:8080

SIGTERM or SIGINT stops both gracefully. Flags override the environment variables of
:mod:`domino_rules.settings`. ``domino-rules keygen`` prints a new sealing key entry.
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import logging
import os
import signal
import socket
import subprocess
import sys
import threading

from . import __version__
from .settings import Settings
from .tokens import KeyRing

__all__ = ["main"]

log = logging.getLogger("domino_rules")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="domino-rules", description="The domino rules service.")
    parser.add_argument("--version", action="version", version=f"domino-rules {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve gRPC and REST")
    serve.add_argument("--host", help="address to bind (env DOMINO_RULES_HOST, default 127.0.0.1)")
    serve.add_argument(
        "--grpc-port", type=int, help="env DOMINO_RULES_GRPC_PORT, default 50051; 0 = any"
    )
    serve.add_argument(
        "--http-port", type=int, help="env DOMINO_RULES_HTTP_PORT, default 8080; 0 = any"
    )
    serve.add_argument("--http-workers", type=int, help="env DOMINO_RULES_HTTP_WORKERS, default 2")
    serve.add_argument(
        "--seal-keys", help="env DOMINO_RULES_SEAL_KEYS: 'id2:BASE64KEY,id1:BASE64KEY'"
    )
    serve.add_argument(
        "--require-sealed",
        action="store_true",
        default=None,
        help="refuse unsealed tokens (env DOMINO_RULES_REQUIRE_SEALED=1)",
    )
    keygen = commands.add_parser("keygen", help="print a new sealing key entry ID:BASE64KEY")
    keygen.add_argument("--id", default="k1", help="the key id (default k1)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "keygen":
        print(KeyRing.generate(args.id))
        return 0
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        settings = Settings.from_env()
        overrides = {
            name: getattr(args, name)
            for name in (
                "host",
                "grpc_port",
                "http_port",
                "http_workers",
                "seal_keys",
                "require_sealed",
            )
            if getattr(args, name) is not None
        }
        settings = dataclasses.replace(settings, **overrides)
        settings.tokens()
    except ValueError as exc:
        print(f"domino-rules: {exc}", file=sys.stderr)
        return 2
    return serve(settings)


def _end_with_parent() -> None:
    """In the REST gateway's process, before it runs: on Linux, ask for SIGTERM when
    ``serve`` ends, however it ends (even SIGKILL), so the gateway never outlives it."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


_PR_SET_PDEATHSIG = 1


def serve(settings: Settings) -> int:
    from .grpc_server import create_server  # grpc starts threads: import only to serve

    # Handlers first: a SIGTERM that arrives while starting must still stop both doors,
    # never leave the REST workers running without their parent.
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    if not settings.seal_keys.strip():
        log.warning(
            "no sealing keys (DOMINO_RULES_SEAL_KEYS): state tokens are NOT sealed, and anyone "
            "holding one can read every hand; set keys before exposing tokens to players"
        )
    server, grpc_port = create_server(f"{settings.host}:{settings.grpc_port}", settings.service())
    http_socket = socket.socket(socket.AF_INET6 if ":" in settings.host else socket.AF_INET)
    http_socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    http_socket.bind((settings.host, settings.http_port))
    http_socket.listen(128)
    http_port = http_socket.getsockname()[1]
    os.set_inheritable(http_socket.fileno(), True)

    env = dict(os.environ)
    env.update(
        DOMINO_RULES_SEAL_KEYS=settings.seal_keys,
        DOMINO_RULES_REQUIRE_SEALED="1" if settings.require_sealed else "0",
    )
    gunicorn = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"fd://{http_socket.fileno()}",
            "--workers",
            str(settings.http_workers),
            # threaded workers keep connections alive; the sync worker closes each one
            "--worker-class",
            "gthread",
            "--threads",
            "4",
            "--graceful-timeout",
            "10",
            "--log-level",
            "warning",
            "domino_rules.rest:create_app()",
        ],
        pass_fds=(http_socket.fileno(),),
        env=env,
        preexec_fn=_end_with_parent,
    )
    http_socket.close()  # gunicorn holds it now
    server.start()
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    print(f"gRPC listening on {host}:{grpc_port}", flush=True)
    print(f"REST listening on http://{host}:{http_port}", flush=True)

    while not stop.wait(0.5):
        if gunicorn.poll() is not None:
            log.error("the REST gateway exited with %s; stopping", gunicorn.returncode)
            break
    log.info("stopping")
    if gunicorn.poll() is None:
        gunicorn.send_signal(signal.SIGTERM)
    server.stop(grace=5).wait()
    try:
        gunicorn.wait(timeout=15)
    except subprocess.TimeoutExpired:
        gunicorn.kill()
    return 0 if stop.is_set() else 1


if __name__ == "__main__":
    sys.exit(main())
