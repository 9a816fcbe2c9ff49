"""Grand National's sheets: ``sheet`` (the registry's), stable, odds_board, money, parts."""
