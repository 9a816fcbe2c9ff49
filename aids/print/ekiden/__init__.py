"""The Ekiden's sheets: ``sheet``, the module the registry names."""
