"""Helpers shared by the tests (and, for the playout, by the benchmarks).

* :mod:`.playout`: seeded random legal moves until a match or a hand ends, in process.
* :mod:`.servers`: the real gRPC server and REST gateway on 127.0.0.1, port 0.
* :mod:`.waiting`: :func:`~.waiting.wait_until`, a bounded wait on a condition, in place
  of a fixed sleep.

What each game needs of the tests (its cases, what a seat may see, its deal redone from a
revealed seed) it declares in its own package (``domino_rules.games.testing``).
"""
