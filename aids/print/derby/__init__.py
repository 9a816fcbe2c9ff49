"""The Derby's score sheet: ``sheet``, the module the registry names."""
