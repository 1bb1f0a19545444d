"""Logging of every process of ``domino-rules serve``: one line per record, on stderr.

Two formats, chosen by ``--log-format`` / ``DOMINO_RULES_LOG_FORMAT``:

- ``text`` (the default), readable, with the fields of an access line as ``key=value``::

    2026-11-22T07:05:00.123Z INFO domino_rules.access: door=grpc rpc=ApplyMove status=OK ...

- ``json``, one object per line: ``time``, ``level``, ``logger``, ``pid``, ``message``
  (when there is one), the fields of an access line, and ``exception`` (a traceback, as
  one string) for the rare record that has one.

A record whose message is *structured* (an object with a ``fields()`` method, such as an
access line) is written as its text (``str``) by the text format, and as its fields by
the JSON format; any other handler sees its text, like any message.

Times are UTC, to the millisecond. ``--log-level`` / ``DOMINO_RULES_LOG_LEVEL`` sets
the level of every logger of the service. This module uses nothing but the standard
library, so that the supervisor can log without loading anything else.

With ``json``, every line a process writes is JSON, not only its log records: the
``listening`` lines ``serve`` prints on stdout (:func:`announce`), a start-up error that
stops it (:func:`fatal`), Python's warnings (logger ``py.warnings``) and an exception
that nothing caught (logger ``domino_rules``, with its ``exception``). The text format
leaves those as Python and ``serve`` have always written them.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import re
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any, Protocol

__all__ = [
    "JsonFormatter",
    "LineFormatter",
    "LineHandler",
    "Structured",
    "TextFormatter",
    "announce",
    "configure",
    "fatal",
    "logfmt",
    "logfmt_value",
    "relay_native_stderr",
    "utc_time",
    "write",
]

#: Python's level for each ``--log-level``.
LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}


class Structured(Protocol):
    """A message made of fields: ``str()`` gives its text."""

    def fields(self) -> Mapping[str, object]: ...


_second = -1
_second_text = ""


def utc_time(created: float) -> str:
    """``2026-11-22T07:05:00.123Z`` (the text of each second is made once)."""
    global _second, _second_text
    second = int(created)
    if second != _second:
        _second_text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        _second = second
    return f"{_second_text}.{int((created - second) * 1000):03d}Z"


#: A value written as it is: printable ASCII but for space, ``"``, ``=`` and ``\\``.
_BARE = re.compile(r"[!#-<>-\[\]-~]+")


def logfmt_value(value: object) -> str:
    """``value`` as a logfmt value (see :func:`logfmt`)."""
    if value is None:
        return "-"
    text = str(value)
    return text if _BARE.fullmatch(text) else json.dumps(text)


def logfmt(fields: Mapping[str, object]) -> str:
    """``key=value`` pairs; ``None`` is ``-``; a value with anything but printable ASCII,
    or with a space, quote, ``=`` or backslash, is quoted as JSON would.

    >>> logfmt({"door": "rest", "reason": None, "path": "/a b", "n": 3})
    'door=rest reason=- path="/a b" n=3'
    """
    return " ".join([f"{key}={logfmt_value(value)}" for key, value in fields.items()])


class LineFormatter(logging.Formatter):
    """A formatter that also makes a line from its parts alone, with no record."""

    def line(self, created: float, level: str, name: str, message: object) -> str:
        raise NotImplementedError


class TextFormatter(LineFormatter):
    """``TIME LEVEL LOGGER: MESSAGE``; a traceback, if any, on the lines after (only an
    internal error has one)."""

    def line(self, created: float, level: str, name: str, message: object) -> str:
        return f"{utc_time(created)} {level} {name}: {message}"

    def format(self, record: logging.LogRecord) -> str:
        line = self.line(record.created, record.levelname, record.name, record.getMessage())
        if record.exc_info:
            line = f"{line}\n{self.formatException(record.exc_info)}"
        return line


_JSON = json.JSONEncoder(default=str)
_pid = os.getpid()


def _new_pid() -> None:
    global _pid
    _pid = os.getpid()


os.register_at_fork(after_in_child=_new_pid)


class JsonFormatter(LineFormatter):
    """One JSON object per record, on one line."""

    @staticmethod
    def _object(created: float, level: str, name: str, message: object) -> dict[str, Any]:
        out: dict[str, Any] = {
            "time": utc_time(created),
            "level": level,
            "logger": name,
            "pid": _pid,
        }
        fields = getattr(message, "fields", None)
        if fields is not None:
            out.update(fields())
        else:
            out["message"] = str(message)
        return out

    def line(self, created: float, level: str, name: str, message: object) -> str:
        return _JSON.encode(self._object(created, level, name, message))

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage() if record.args else record.msg
        out = self._object(record.created, record.levelname, record.name, message)
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return _JSON.encode(out)


class LineHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The handler :func:`configure` installs: a stream handler that can also write a
    line with no record made (:func:`write`)."""

    formatter: LineFormatter

    def write_line(self, level: str, name: str, message: object) -> None:
        try:
            line = self.formatter.line(time.time(), level, name, message)
            with self.lock:  # type: ignore[union-attr]
                self.stream.write(line + "\n")
                self.stream.flush()
        except RecursionError:
            raise
        except Exception:
            self.handleError(logging.makeLogRecord({"name": name, "msg": str(message)}))


_installed: LineHandler | None = None


def write(logger: logging.Logger, level: int, message: object) -> None:
    """Log ``message`` at ``level`` (checked already: enabled), as ``logger.log`` would.

    When the record would reach nothing but the handler :func:`configure` installed
    (no handler or filter on the way), the line is written with no record made: an
    access line costs a third of what a record would.
    """
    handler = _installed
    root = logging.root
    if (
        handler is not None
        and not logger.handlers
        and not logger.filters
        and logger.propagate
        and logger.parent is root
        and len(root.handlers) == 1
        and root.handlers[0] is handler
        and not root.filters
        and not handler.filters
        and level >= handler.level
    ):
        handler.write_line(logging.getLevelName(level), logger.name, message)
        return
    logger.handle(logger.makeRecord(logger.name, level, "", 0, message, (), None))


#: The logger of lines that are not a module's own (start-up, uncaught exceptions).
SERVICE_LOGGER = "domino_rules"
#: The format :func:`configure` set: ``text`` or ``json``.
_format = "text"


def configure(level: str = "info", log_format: str = "text") -> None:
    """Send every record of this process to stderr, one line each, in ``log_format``
    (``text`` or ``json``), from ``level`` up; replaces the root logger's handlers.

    With ``json``, Python's warnings and uncaught exceptions (of the main thread and of
    any other) become records too, so that no line of the process is anything but JSON.

    Records carry no thread or process names (nobody reads them, and each costs time
    on every access line).
    """
    global _installed, _format
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    handler = LineHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(LEVELS[level])
    _installed = handler
    _format = log_format
    if log_format == "json":
        logging.captureWarnings(True)
        sys.excepthook = _log_uncaught
        threading.excepthook = _log_uncaught_in_thread


def _log_uncaught(kind: type[BaseException], value: BaseException, tb: Any) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, value, tb)
        return
    logging.getLogger(SERVICE_LOGGER).critical(
        "uncaught exception: %s", value or kind.__name__, exc_info=(kind, value, tb)
    )


def _log_uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit:
        return
    name = args.thread.name if args.thread is not None else "?"
    logging.getLogger(SERVICE_LOGGER).critical(
        "uncaught exception in thread %s: %s",
        name,
        args.exc_value or args.exc_type.__name__,
        exc_info=(args.exc_type, args.exc_value or args.exc_type(), args.exc_traceback),
    )


def _json_line(level: str, message: str, fields: Mapping[str, object]) -> str:
    out: dict[str, object] = {
        "time": utc_time(time.time()),
        "level": level,
        "logger": SERVICE_LOGGER,
        "pid": _pid,
        "message": message,
    }
    out.update(fields)
    return _JSON.encode(out)


def announce(message: str, **fields: object) -> None:
    """A line for whoever started ``serve``, on stdout (the ``listening`` lines): the
    message as it is, or with ``--log-format json`` one JSON object (level INFO) with the
    message and ``fields``.

    >>> announce("REST listening on http://127.0.0.1:8080", door="rest", port=8080)
    REST listening on http://127.0.0.1:8080
    """
    line = _json_line("INFO", message, fields) if _format == "json" else message
    print(line, flush=True)


def fatal(message: str) -> None:
    """The one line of an error that stops ``serve`` before it serves, on stderr:
    ``domino-rules: MESSAGE``, or with ``--log-format json`` one JSON object (level
    ERROR)."""
    text = f"domino-rules: {message}"
    print(_json_line("ERROR", message, {}) if _format == "json" else text, file=sys.stderr)


#: A line of Abseil's log format, as gRPC's C core writes them: ``E1125 20:51:59.135506``.
_NATIVE_LEVEL = re.compile(rb"([IWEF])\d{4} ")
_NATIVE_LEVELS = {b"I": "INFO", b"W": "WARNING", b"E": "ERROR", b"F": "CRITICAL"}


#: Lines of the C core that the service itself causes, as what they mean: when a drain
#: begins, the gRPC door shuts its listener down (``lifecycle.stop_listening``), and
#: the core reports that its acceptor failed.
_EXPECTED_NATIVE = {
    b"Closing acceptor. Failed accept4: Invalid argument": (
        "INFO",
        "gRPC: the listener is closed, no new connection is taken (the drain has begun)",
    ),
}


def _native_line(out: int, line: bytes) -> None:
    line = line.rstrip()
    if not line:
        return
    if not line.startswith(b"{"):
        found = _NATIVE_LEVEL.match(line)
        level = _NATIVE_LEVELS[found.group(1)] if found else "WARNING"
        text = line.decode("utf-8", "backslashreplace")
        for known, meaning in _EXPECTED_NATIVE.items():
            if line.endswith(known):
                level, text = meaning
        now = utc_time(time.time())
        if _format == "json":
            record = {"time": now, "level": level, "logger": "native", "pid": _pid}
            line = _JSON.encode({**record, "message": text}).encode()
        else:
            line = f"{now} {level} native: {text}".encode()
    with contextlib.suppress(OSError):
        os.write(out, line + b"\n")


#: Written by this process to its own end of the stderr pipe at exit: the relay stops at it.
_RELAY_END = b"\x00domino-rules: end of this process's native stderr\x00"


def relay_native_stderr() -> None:
    """Make what native code writes straight to file descriptor 2 (gRPC's C core: an
    error while stopping, say) lines of this process's log format too (logger
    ``native``), each at its level; lines the service itself causes say what they mean.

    Python's own ``sys.stderr`` goes on writing to the real stderr directly; descriptor 2
    becomes a pipe that a thread reads, wrapping each line, and that is read to its end
    at exit. Call it before :func:`configure`, in a process that never forks (a thread
    is started): the gRPC door does.
    """
    original = os.dup(2)
    read_end, write_end = os.pipe()  # neither is inherited; descriptor 2 is
    os.dup2(write_end, 2)
    sys.stderr = open(  # noqa: SIM115  (for the process's life)
        original, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False
    )

    def relay() -> None:
        pending = b""
        ended = False
        while not ended:
            try:
                data = os.read(read_end, 65536)
            except InterruptedError:
                continue
            except OSError:
                break
            if not data:
                break
            pending += data
            end = pending.find(_RELAY_END)
            if end >= 0:  # everything this process wrote has been read
                pending, ended = pending[:end], True
            *lines, pending = pending.split(b"\n")
            for line in lines:
                _native_line(original, line)
        _native_line(original, pending)

    thread = threading.Thread(target=relay, name="stderr-relay", daemon=True)
    thread.start()

    def drain() -> None:
        sys.stderr.flush()
        os.dup2(original, 2)
        # The processes this one started (the searches', multiprocessing's tracker) hold
        # descriptor 2 too, so the pipe does not end while they live, and they end with
        # this process: the relay reads to a mark written after everything else instead.
        with contextlib.suppress(OSError):
            os.write(write_end, _RELAY_END)
        thread.join(timeout=2.0)

    atexit.register(drain)
