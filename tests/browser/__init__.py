"""The playground (``GET /play``) driven in a real browser."""
