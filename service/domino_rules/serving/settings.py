"""Settings from flags and the environment, with embedded defaults.

Every setting has a flag of ``domino-rules serve`` and an environment variable; a flag
wins over the variable (which must still be valid), and an empty variable counts as
unset. A bad value raises
:class:`SettingError`, whose message names both (``--http-workers /
DOMINO_RULES_HTTP_WORKERS must be a whole number from 1 to 64, not 'abc'``).

================================== ============== ==========================================
variable                           default        meaning
================================== ============== ==========================================
DOMINO_RULES_HOST                  127.0.0.1      the address both doors bind
DOMINO_RULES_GRPC_PORT             50051          gRPC port (0 = pick a free one)
DOMINO_RULES_HTTP_PORT             8080           REST port (0 = pick a free one)
DOMINO_RULES_GRPC_WORKERS          usable cores   gRPC server processes sharing the port
DOMINO_RULES_HTTP_WORKERS          cores, >= 2    gunicorn worker processes
DOMINO_RULES_HTTP_THREADS          16             request threads per gunicorn worker
DOMINO_RULES_HTTP_MAX_CONNECTIONS  1000           open connections per gunicorn worker
DOMINO_RULES_HTTP_IDLE_TIMEOUT     5              seconds a connection may wait silent
DOMINO_RULES_HTTP_REQUEST_TIMEOUT  10             seconds to send one whole request
DOMINO_RULES_GRPC_MAX_CALLS        64             concurrent calls per gRPC process
DOMINO_RULES_MAX_REQUEST_BYTES     1048576        largest request body or message
DOMINO_RULES_GRACE                 10             seconds calls in flight get at a stop
DOMINO_RULES_DRAIN_DELAY           5              seconds of not-ready, still serving, before
                                                  a stop (none on Ctrl-C)
DOMINO_RULES_BOT_CAPACITY          1              SuggestMove searches at once per serving
                                                  process (each in a process of its own)
DOMINO_RULES_BOT_QUEUE             2              SuggestMove calls that may wait for room;
                                                  more are refused at once (429)
DOMINO_RULES_REPLAY_CAPACITY       1              Replay calls at once per serving process
                                                  (each in a process of its own)
DOMINO_RULES_REPLAY_QUEUE          2              Replay calls that may wait for room; more
                                                  are refused at once (429)
DOMINO_RULES_MINTED_CACHE_BYTES    33554432       bytes of recently sealed games a serving
                                                  process keeps (0 = none)
DOMINO_RULES_SEAL_KEYS             (none)         ``id2:BASE64KEY,id1:BASE64KEY``: first seals
DOMINO_RULES_REQUIRE_SEALED        0              1 = refuse unsealed tokens
DOMINO_RULES_TRUST_SEALED          0              1 = take a token sealed with the service's
                                                  key without checking its game again
DOMINO_RULES_LOG_LEVEL             info           debug, info, warning or error
DOMINO_RULES_LOG_FORMAT            text           ``text`` (one readable line) or ``json``
DOMINO_RULES_METRICS_PORT          (none)         serve ``GET /metrics`` on a port of its own
                                                  (0 = pick a free one) instead of the REST
                                                  port
================================== ============== ==========================================
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..api.admission import DEFAULT_CAPACITY, DEFAULT_QUEUE, MAX_CAPACITY, MAX_QUEUE
from ..state.tokens import KeyRing, TokenCodec

if TYPE_CHECKING:  # the service pulls in the whole core: only the doors need it
    from ..api import RulesService

__all__ = ["ENV_PREFIX", "LOG_FORMATS", "LOG_LEVELS", "SettingError", "Settings", "usable_cores"]

ENV_PREFIX = "DOMINO_RULES_"
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"", "0", "false", "no", "off"}
LOG_LEVELS = ("debug", "info", "warning", "error")
LOG_FORMATS = ("text", "json")
#: gRPC takes message sizes as a C int.
_MAX_BYTES = 2**31 - 1
#: The most processes of each door (each is a whole interpreter: tens of MiB).
MAX_WORKERS = 64
#: The most request threads per gunicorn worker.
MAX_THREADS = 256
#: The most open connections per gunicorn worker (each holds a file descriptor).
MAX_CONNECTIONS = 65536
#: The most calls at once per gRPC process.
MAX_CALLS = 10000
#: The largest cache of minted games per process: 4 GiB.
MAX_CACHE_BYTES = 4 * 1024**3
#: The longest timeout, grace or drain delay: an hour.
MAX_SECONDS = 3600.0


class SettingError(ValueError):
    """A setting that cannot be used; the message names its flag and variable."""


def usable_cores() -> int:
    """The cores this process may use, at least 1: those it may run on (its CPU
    affinity), fewer if its cgroup's CPU quota (a container's CPU limit) allows less."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    quota = _cgroup_cpu_quota()
    if quota is not None:
        cores = min(cores, math.ceil(quota))
    return max(1, cores)


def _cgroup_cpu_quota() -> float | None:
    """CPUs allowed by the cgroup quota (v2 ``cpu.max`` or v1 ``cpu.cfs_quota_us``), or
    ``None`` without a quota."""
    try:
        with open("/sys/fs/cgroup/cpu.max") as v2:
            quota, period = v2.read().split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    try:
        with open("/sys/fs/cgroup/cpu/cpu.cfs_quota_us") as v1_quota:
            quota_us = int(v1_quota.read())
        with open("/sys/fs/cgroup/cpu/cpu.cfs_period_us") as v1_period:
            period_us = int(v1_period.read())
    except (OSError, ValueError):
        return None
    return None if quota_us <= 0 or period_us <= 0 else quota_us / period_us


def _whole(minimum: int, maximum: int | None = None) -> Callable[[str, str], int]:
    def parse(name: str, text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            value = None
        if value is None or value < minimum or (maximum is not None and value > maximum):
            span = f">= {minimum}" if maximum is None else f"from {minimum} to {maximum}"
            raise SettingError(f"{name} must be a whole number {span}, not {text!r}")
        return value

    return parse


def _seconds(minimum: float, maximum: float, *, inclusive: bool) -> Callable[[str, str], float]:
    def parse(name: str, text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            value = math.nan
        low_ok = value >= minimum if inclusive else value > minimum
        if not (math.isfinite(value) and low_ok and value <= maximum):
            bound = f">= {minimum:g}" if inclusive else f"> {minimum:g}"
            raise SettingError(
                f"{name} must be a number of seconds {bound} and <= {maximum:g}, not {text!r}"
            )
        return value

    return parse


def _port(name: str, text: str) -> int:
    return _whole(0, 65535)(name, text)


def _flag(name: str, text: str) -> bool:
    value = text.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise SettingError(f"{name} must be 1 or 0, not {text!r}")


def _host(name: str, text: str) -> str:
    host = text.strip()
    if not host:
        raise SettingError(f"{name} must be a host name or address, not {text!r}")
    return host


def _text(name: str, text: str) -> str:
    return text


def _choice(*choices: str) -> Callable[[str, str], str]:
    def parse(name: str, text: str) -> str:
        value = text.strip().lower()
        if value not in choices:
            raise SettingError(f"{name} must be one of {', '.join(choices)}, not {text!r}")
        return value

    return parse


def _cores_default() -> int:
    return usable_cores()


def _http_workers_default() -> int:
    return max(2, usable_cores())


def _field(parse: Callable[[str, str], Any], **kwargs: Any) -> Any:
    return dataclasses.field(metadata={"parse": parse}, **kwargs)


@dataclass(frozen=True)
class Settings:
    host: str = _field(_host, default="127.0.0.1")
    grpc_port: int = _field(_port, default=50051)
    http_port: int = _field(_port, default=8080)
    grpc_workers: int = _field(_whole(1, MAX_WORKERS), default_factory=_cores_default)
    http_workers: int = _field(_whole(1, MAX_WORKERS), default_factory=_http_workers_default)
    http_threads: int = _field(_whole(1, MAX_THREADS), default=16)
    http_max_connections: int = _field(_whole(1, MAX_CONNECTIONS), default=1000)
    http_idle_timeout: float = _field(_seconds(0, MAX_SECONDS, inclusive=False), default=5.0)
    http_request_timeout: float = _field(_seconds(0, MAX_SECONDS, inclusive=False), default=10.0)
    grpc_max_calls: int = _field(_whole(1, MAX_CALLS), default=64)
    max_request_bytes: int = _field(_whole(1024, _MAX_BYTES), default=1024 * 1024)
    grace: float = _field(_seconds(0, MAX_SECONDS, inclusive=True), default=10.0)
    drain_delay: float = _field(_seconds(0, MAX_SECONDS, inclusive=True), default=5.0)
    bot_capacity: int = _field(_whole(1, MAX_CAPACITY), default=DEFAULT_CAPACITY)
    bot_queue: int = _field(_whole(0, MAX_QUEUE), default=DEFAULT_QUEUE)
    replay_capacity: int = _field(_whole(1, MAX_CAPACITY), default=DEFAULT_CAPACITY)
    replay_queue: int = _field(_whole(0, MAX_QUEUE), default=DEFAULT_QUEUE)
    minted_cache_bytes: int = _field(_whole(0, MAX_CACHE_BYTES), default=32 * 1024 * 1024)
    seal_keys: str = _field(_text, default="")
    require_sealed: bool = _field(_flag, default=False)
    trust_sealed: bool = _field(_flag, default=False)
    log_level: str = _field(_choice(*LOG_LEVELS), default="info")
    log_format: str = _field(_choice(*LOG_FORMATS), default="text")
    #: ``None``: ``/metrics`` is served on the REST port
    metrics_port: int | None = _field(_port, default=None)

    @staticmethod
    def flag(name: str) -> str:
        """``grpc_port`` -> ``--grpc-port``."""
        return "--" + name.replace("_", "-")

    @staticmethod
    def variable(name: str) -> str:
        """``grpc_port`` -> ``DOMINO_RULES_GRPC_PORT``."""
        return ENV_PREFIX + name.upper()

    @classmethod
    def label(cls, name: str) -> str:
        """How messages name a setting: ``--grpc-port / DOMINO_RULES_GRPC_PORT``."""
        return f"{cls.flag(name)} / {cls.variable(name)}"

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``env`` (default ``os.environ``); :class:`SettingError` says what
        is wrong."""
        return cls.load(env=env)

    @classmethod
    def load(
        cls, flags: Mapping[str, object] | None = None, env: Mapping[str, str] | None = None
    ) -> Settings:
        """Settings from ``flags`` (setting name -> text, ``None`` = not given; a bool for
        ``require_sealed`` and ``trust_sealed``) over ``env`` (default ``os.environ``)
        over the defaults."""
        env = os.environ if env is None else env
        flags = flags or {}
        values: dict[str, Any] = {}
        for field in dataclasses.fields(cls):
            parse = field.metadata["parse"]
            label = cls.label(field.name)
            if env.get(cls.variable(field.name), "") != "":  # checked even if a flag wins
                values[field.name] = parse(label, env[cls.variable(field.name)])
            given = flags.get(field.name)
            if isinstance(given, bool):
                values[field.name] = given
            elif given is not None:
                values[field.name] = parse(label, str(given))
        settings = cls(**values)
        settings.tokens()  # fail now, with a clear message, on a bad key setting
        return settings

    def to_env(self) -> dict[str, str]:
        """The ``DOMINO_RULES_*`` variables that give these settings back."""
        out = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value is None:
                text = ""  # an empty variable counts as unset
            elif isinstance(value, bool):
                text = "1" if value else "0"
            else:
                text = str(value)
            out[self.variable(field.name)] = text
        return out

    def tokens(self) -> TokenCodec:
        try:
            keys = KeyRing.parse(self.seal_keys) if self.seal_keys.strip() else None
        except ValueError as exc:
            raise SettingError(f"{self.label('seal_keys')}: {exc}") from None
        try:
            return TokenCodec(keys, require_sealed=self.require_sealed)
        except ValueError as exc:
            raise SettingError(f"{self.label('require_sealed')}: {exc}") from None

    def service(self) -> RulesService:
        """The service of a serving process: its SuggestMove searches and its replays run
        in processes of their own, each in its own room (:mod:`domino_rules.api.admission`),
        and those processes end with it."""
        from ..api import RulesService
        from ..api.admission import Admission
        from .lifecycle import end_with_parent

        admission = Admission(
            self.bot_capacity, self.bot_queue, processes=True, on_start=end_with_parent
        )
        replays = Admission(
            self.replay_capacity,
            self.replay_queue,
            processes=True,
            what="replays",
            on_start=end_with_parent,
        )
        return RulesService(
            self.tokens(),
            minted_bytes=self.minted_cache_bytes,
            admission=admission,
            replays=replays,
            trust_sealed=self.trust_sealed,
        )
