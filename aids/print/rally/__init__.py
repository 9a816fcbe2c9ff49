"""Japan Rally's log sheets: ``sheet`` (the registry names it) and its side column."""
