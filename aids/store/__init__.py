"""Persistence of tables and their append-only event logs."""
