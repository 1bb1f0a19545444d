"""domino-rules: the authoritative rules service for traditional domino games."""

__version__ = "0.1.0"
