# Shared by run.sh and test.sh: a virtual environment in .venv with the project installed.
# Usage: source scripts/_venv.sh EXTRAS [--warm-later]   (EXTRAS: "" or "[test]")
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
if [ ! -x .venv/bin/python ]; then
  if ! python3 -m venv .venv 2>/dev/null; then
    # Debian's own python3 ships venv separately
    rm -rf .venv
    as_root apt-get update -qq && as_root apt-get install -y -qq python3-venv
    python3 -m venv .venv
  fi
fi
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${1:-}"
# The live chances' compiled playout loops (aids/games/*/fast_jit.py), compiled once into their
# disk cache: about 20 s the first time on a machine, a second once cached. Where no folder
# passes the cache's check (aids/games/jit_folder.py: the user's own, no one else can write
# it), there is nothing to keep: the check's warning is logged and the compiling left to the
# tracker's workers. A caller that has other work meanwhile gives "--warm-later" and calls
# warm_jit itself (scripts/test.sh runs it beside the lint and type checks).
warm_jit() {
  .venv/bin/python - <<'PY'
from aids.games.chances import warm
from aids.games.jit import cache_dir
from aids.registry import engines

if cache_dir() is not None:
    warm(engines().values())
PY
}
if [ "${2:-}" != "--warm-later" ]; then
  warm_jit
fi
