"""Japan Rally's table page: ``page`` (the registry's), board, map, presets, travel."""
