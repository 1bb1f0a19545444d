"""Helpers shared by the tests (and, for the playout, by the benchmarks).

* :mod:`.playout`: seeded random legal moves until a match or a hand ends, in process.
* :mod:`.servers`: the real gRPC server and REST gateway on 127.0.0.1, port 0.
* :mod:`.visibility`: what a seat may see at the table, judged apart from the service.
* :mod:`.redeal`: the documented generator and sets written out again, and each
  ruleset's deal redone from a revealed seed.
* :mod:`.waiting`: :func:`~.waiting.wait_until`, a bounded wait on a condition, in place
  of a fixed sleep.

Which of these each ruleset uses, with which settings, is declared in ``tests/cases.py``.
"""
