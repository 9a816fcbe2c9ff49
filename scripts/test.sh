#!/usr/bin/env bash
# Install what the tests need — Debian's chromium for the browser tests (with Japanese and
# emoji fonts), Debian's postgresql server binaries for the PostgreSQL store's tests, nginx
# for the proxy's test, the project with its [test] extras in .venv — then lint, type-check
# and run the whole test suite. The tests start a throwaway PostgreSQL server of their own (a temporary folder, a
# free port; stopped at the end: tests/conftest.py), or use AIDS_TEST_DATABASE_URL if set.
set -euo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || missing+=(postgresql)
# Japanese and emoji glyphs for the browser tests' screenshots and measured layouts (without
# them chromium draws empty boxes of another width)
[ -e /usr/share/fonts/opentype/ipafont-gothic ] || missing+=(fonts-ipafont-gothic)
[ -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing+=(fonts-noto-color-emoji)
# nginx for the test of two trackers behind the venue guide's proxy (docs/venue/)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ ${#missing[@]} -gt 0 ]; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
source scripts/_venv.sh "[test]" --warm-later
# the playout loops compile on one core while the lint and type checks use the other
warm_jit &
warming=$!
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
wait "$warming"
# In parallel (pytest-xdist): AIDS_TEST_WORKERS processes (default 3: the browser tests wait
# on the page much of the time, so a third worker fills a 2-core machine), each running whole
# files (--dist loadfile) so a file's tracker server and browser stay in one worker. Each
# worker has its own temporary folders, ports and throwaway PostgreSQL server. "-n 0" after
# the command (bash scripts/test.sh -n 0) runs everything in this one process.
exec .venv/bin/python -m pytest -n "${AIDS_TEST_WORKERS:-3}" --dist loadfile "$@"
