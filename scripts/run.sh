#!/usr/bin/env bash
# Install the tracker into .venv and start it on the embedded SQLite store (data/aids.sqlite3).
# Prints the URL to open. Extra arguments go to `aids serve` (e.g. --port 8600).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh ""
exec .venv/bin/aids serve "$@"
