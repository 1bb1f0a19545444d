"""``domino-rules``: the command line.

``domino-rules serve`` starts both doors with embedded defaults: gRPC on
127.0.0.1:50051 and the REST gateway (under gunicorn) on 127.0.0.1:8080. Port 0 picks a
free port; the chosen ports are printed once both doors answer, one line each::

    gRPC listening on 127.0.0.1:50051
    REST listening on http://127.0.0.1:8080

SIGTERM or SIGINT stops both gracefully. Flags override the environment variables of
:mod:`domino_rules.serving.settings`; a bad setting stops start-up with exit status 2 and one
line on stderr; so does a game that cannot be installed (``DOMINO_RULES_GAMES``, see
:mod:`domino_rules.games`). ``serve`` itself is a supervisor
(:mod:`domino_rules.serving.supervisor`) that never loads gRPC. ``domino-rules keygen``
prints a new sealing key entry. ``domino-rules replay FILE``, ``record RULESET`` and
``convert FILE`` work with match records (:mod:`domino_rules.record_commands`).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from . import __version__, record_commands
from .observability import logs
from .state.tokens import KeyRing

if TYPE_CHECKING:
    from .serving.settings import Settings

__all__ = ["main"]

#: Help for each setting's flag: (metavar, what it is; the default is the module's).
_HELP = {
    "host": ("ADDRESS", "address both doors bind (default 127.0.0.1)"),
    "grpc_port": ("PORT", "gRPC port (default 50051; 0 = any free port)"),
    "http_port": ("PORT", "REST port (default 8080; 0 = any free port)"),
    "grpc_workers": ("N", "gRPC processes sharing the port (default: usable cores; at most 64)"),
    "http_workers": ("N", "gunicorn workers (default: usable cores, at least 2; at most 64)"),
    "http_threads": ("N", "request threads per gunicorn worker (default 16; at most 256)"),
    "http_max_connections": ("N", "open connections per gunicorn worker (default 1000)"),
    "http_idle_timeout": ("SECONDS", "close a connection silent this long (default 5)"),
    "http_request_timeout": ("SECONDS", "time to send one whole request (default 10)"),
    "grpc_max_calls": ("N", "concurrent calls per gRPC process; more are refused (default 64)"),
    "max_request_bytes": ("BYTES", "largest request body or message (default 1048576)"),
    "grace": ("SECONDS", "time calls in flight get to finish at a stop (default 10)"),
    "drain_delay": (
        "SECONDS",
        "time reported not ready, still serving, before a stop (default 5; none on Ctrl-C)",
    ),
    "bot_capacity": ("N", "SuggestMove searches at once per serving process (default 1)"),
    "bot_queue": ("N", "SuggestMove calls that may wait for a search; more get 429 (default 2)"),
    "replay_capacity": ("N", "Replay calls at once per serving process (default 1)"),
    "replay_queue": ("N", "Replay calls that may wait for room; more get 429 (default 2)"),
    "minted_cache_bytes": (
        "BYTES",
        "recently sealed games kept per serving process (default 33554432; 0 = none)",
    ),
    "seal_keys": ("KEYS", "sealing keys 'id2:BASE64KEY,id1:BASE64KEY' (first seals)"),
    "log_level": ("LEVEL", "debug, info (default), warning or error"),
    "log_format": ("FORMAT", "text (default: one readable line per record) or json"),
    "metrics_port": ("PORT", "serve /metrics on this port only (default: on the REST port)"),
}


def _parser(settings: type[Settings]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="domino-rules", description="The domino rules service.")
    parser.add_argument("--version", action="version", version=f"domino-rules {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve gRPC and REST")
    for name, (metavar, text) in _HELP.items():
        # values stay text here: Settings checks them, with messages naming flag and variable
        serve.add_argument(
            settings.flag(name),
            dest=name,
            metavar=metavar,
            help=f"{text}; env {settings.variable(name)}",
        )
    serve.add_argument(
        "--require-sealed",
        action="store_true",
        default=None,
        help="refuse unsealed tokens (env DOMINO_RULES_REQUIRE_SEALED=1)",
    )
    serve.add_argument(
        "--trust-sealed",
        action="store_true",
        default=None,
        help="take a token sealed with the service's key without checking its game again "
        "(env DOMINO_RULES_TRUST_SEALED=1)",
    )
    keygen = commands.add_parser("keygen", help="print a new sealing key entry ID:BASE64KEY")
    keygen.add_argument("--id", default="k1", help="the key id (default k1)")
    record_commands.add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        # installs every game and checks it against the contract: one that cannot be
        # installed (DOMINO_RULES_GAMES) stops here
        from .serving.settings import SettingError, Settings
        from .state import codec  # noqa: F401
    except Exception as exc:
        logs.fatal(f"the games could not be installed: {type(exc).__name__}: {exc}")
        return 2
    args = _parser(Settings).parse_args(argv)
    if args.command == "keygen":
        try:
            print(KeyRing.generate(args.id))
        except ValueError as exc:
            logs.fatal(f"--id: {exc}")
            return 2
        return 0
    if args.command in ("replay", "record", "convert"):
        logs.configure("warning", "text")
        return record_commands.run(args)
    try:
        settings = Settings.load({name: getattr(args, name) for name in Settings.names()})
    except SettingError as exc:
        # the log format may be the bad setting: asked for JSON, the one line is JSON
        asked = args.log_format or os.environ.get(Settings.variable("log_format")) or ""
        if asked.strip().lower() == "json":
            logs.configure("error", "json")
        logs.fatal(str(exc))
        return 2
    logs.configure(settings.log_level, settings.log_format)
    from .serving.supervisor import serve

    return serve(settings)


if __name__ == "__main__":
    sys.exit(main())
