"""Waiting for something to happen by watching for it, not for a fixed time.

A fixed sleep is either too short on a busy machine (the test fails for nothing) or
longer than needed everywhere else. :func:`wait_until` polls the condition itself, gives
back what it saw as soon as it holds, and fails naming what it waited for once the
bound has passed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

__all__ = ["wait_until"]

T = TypeVar("T")

#: Seconds between two looks: often enough to see a change at once, rarely enough to
#: leave the CPU to what is being waited for.
EVERY = 0.005


def wait_until(predicate: Callable[[], T], timeout: float, what: str, *, every: float = EVERY) -> T:
    """Call ``predicate`` until it returns something true, and return that.

    It is always called at least once, even with a ``timeout`` of 0 or less; after
    ``timeout`` seconds the wait fails with an :class:`AssertionError` naming ``what``
    and the last (false) value seen. ``every`` spaces the calls, for a predicate that
    costs something (a scrape of ``/metrics``)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            seen = "" if value is None or isinstance(value, bool) else f" (last seen: {value!r})"
            raise AssertionError(f"waited {max(timeout, 0):g} s for {what}, in vain{seen}")
        time.sleep(every)  # the polling interval, not a wait for anything
