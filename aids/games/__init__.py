"""Pure rules engines, one package per game. Nothing here imports the app (UI, print, store)."""
