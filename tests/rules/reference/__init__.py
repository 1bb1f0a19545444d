"""Reference implementations of games, written from RULES.md alone, for the oracle tests."""
