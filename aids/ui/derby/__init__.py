"""The Derby's parts of the table page: ``page``, the module the registry names."""
