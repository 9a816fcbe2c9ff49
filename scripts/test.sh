#!/usr/bin/env bash
# Install what the tests need — Debian's chromium for the browser tests, the project with its
# [test] extras in .venv — then lint, type-check and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
if [ ! -x /usr/bin/chromium ]; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi
source scripts/_venv.sh "[test]"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"
