"""High Tile, each time with a part missing: every variant must fail the import of the
service with a message that names the part (``test_toy_game``)."""
