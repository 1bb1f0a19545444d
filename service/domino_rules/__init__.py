"""domino-rules: the authoritative rules service for traditional domino games."""

__version__ = "0.2.0"
