"""Game-independent core: errors, messages, the table service."""
