"""Match records: their notation (:mod:`.notation`) and their two written forms
(:mod:`.form`). The replay of a record is the API's (:mod:`domino_rules.api.replay`);
``docs/records.md`` describes the format."""

from .form import (
    FORMAT,
    MAX_EVENTS,
    MAX_MOVES,
    MAX_RECORD_BYTES,
    RecordError,
    RecordTooLarge,
    check,
    check_json,
    from_json,
    from_text,
    parse,
    to_json,
    to_text,
)
from .notation import (
    NotationError,
    event_text,
    move_text,
    parse_event,
    parse_move,
    parse_tile,
    tile_text,
)

__all__ = [
    "FORMAT",
    "MAX_EVENTS",
    "MAX_MOVES",
    "MAX_RECORD_BYTES",
    "NotationError",
    "RecordError",
    "RecordTooLarge",
    "check",
    "check_json",
    "event_text",
    "from_json",
    "from_text",
    "move_text",
    "parse",
    "parse_event",
    "parse_move",
    "parse_tile",
    "tile_text",
    "to_json",
    "to_text",
]
