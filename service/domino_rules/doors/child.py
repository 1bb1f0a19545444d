"""The entry point of the processes that ``domino-rules serve`` starts: one door each.

``python -m domino_rules.doors.child grpc --parent PID --ready-fd N [--drain-fd M]`` serves
gRPC (:func:`domino_rules.doors.grpc_server.serve_process`); ``python -m domino_rules.doors.child
rest --parent PID --listen-fd N [--listen-fd ...] [--drain-fd M]`` runs the REST gateway
under gunicorn (:mod:`domino_rules.doors.gateway`). Settings come from the ``DOMINO_RULES_*``
variables, which the supervisor has already checked.

Before anything else, and before any thread exists, the child asks to end with its
parent (:func:`domino_rules.serving.lifecycle.end_with_parent`); only then does it load gRPC or
gunicorn.
"""

from __future__ import annotations

import argparse
import sys

from ..observability import logs
from ..serving.lifecycle import end_with_parent

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="domino_rules.doors.child")
    parser.add_argument("door", choices=("grpc", "rest"))
    parser.add_argument("--parent", type=int, required=True)
    parser.add_argument("--ready-fd", type=int)
    parser.add_argument("--drain-fd", type=int)
    parser.add_argument("--listen-fd", type=int, action="append", default=[])
    args = parser.parse_args(argv)
    end_with_parent(args.parent)

    from ..serving.settings import Settings

    settings = Settings.from_env()
    if args.door == "grpc":
        # gRPC's C core writes its own lines straight to stderr: in the log's format too
        # (the gateway's arbiter must start no thread, and its gRPC is a client's)
        logs.relay_native_stderr()
    logs.configure(settings.log_level, settings.log_format)
    if args.door == "grpc":
        from .grpc_server import serve_process

        return serve_process(settings, ready_fd=args.ready_fd, drain_fd=args.drain_fd)
    from .gateway import run_gateway

    return run_gateway(
        settings,
        listen_fds=args.listen_fd,
        drain_fd=args.drain_fd,
        ready_fd=args.ready_fd,
        supervisor=args.parent,
    )


if __name__ == "__main__":
    sys.exit(main())
