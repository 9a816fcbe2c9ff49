"""The Ekiden's parts of the table page: ``page`` (the registry names it) and its board."""
