#!/usr/bin/env python3
"""The token path against the door's floor: ``python bench/doors.py floor``, by its own name.

Server CPU per ApplyMove over the same door's *canned* ApplyMove (the same answer bytes,
no rules work), per door, client count and ruleset, with the cache of minted games off
(as behind a balancer), off with sealed tokens trusted (``--trust-sealed``), and on;
target 1.5x, stretch 1.25x. ``python bench/floor.py --help`` lists the options; the
``floor`` mode of ``bench/doors.py`` says what is measured and how.

Usage::

    python bench/floor.py [--seconds 1.5] [--rounds 3] [--clients 1 8]
                          [--doors grpc rest] [--json]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import doors

if __name__ == "__main__":
    sys.exit(doors.main(["floor", *sys.argv[1:]]))
