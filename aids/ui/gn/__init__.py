"""Grand National's table page: ``page`` (the registry's), setup, market, race, board, track."""
