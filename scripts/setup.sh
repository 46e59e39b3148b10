#!/usr/bin/env bash
# Install everything The Last Tether pipeline needs on a fresh Debian machine.
#   bash scripts/setup.sh          # the tool (content, engine, print outputs)
#   bash scripts/setup.sh --test   # the tool plus the test extras
set -euo pipefail
cd "$(dirname "$0")/.."

# System libraries: WeasyPrint needs Pango; pdftoppm (poppler-utils) is for looking at pages.
need=()
ldconfig -p 2>/dev/null | grep -q libpango-1.0 || need+=(libpango-1.0-0 libpangoft2-1.0-0)
# WeasyPrint subsets fonts with HarfBuzz when libharfbuzz-subset is present: ~10x faster card
# faces than its fontTools fallback, and the bytes the README's figures were measured with.
ldconfig -p 2>/dev/null | grep -q libharfbuzz-subset || need+=(libharfbuzz-subset0)
command -v pdftoppm >/dev/null || need+=(poppler-utils)
# The native engine (tether_build/engine/native, C++) is compiled here: ~10x faster random games.
command -v g++ >/dev/null || need+=(g++)
fc-list 2>/dev/null | grep -q . || need+=(fontconfig)
# The preview's browser test drives Debian's Chromium through its chromedriver.
if [ "${1:-}" = "--test" ]; then
  command -v chromium >/dev/null || need+=(chromium)
  command -v chromedriver >/dev/null || need+=(chromium-driver)
fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "please install: ${need[*]} (Debian packages)" >&2
    exit 1
  fi
fi

# The native engine: built from its C++ sources (about 58 CPU-s: its 8 files compiled side by
# side, one per core, about 30 s on 2 idle cores, then linked); without a compiler
# the Python engine plays every game (the same games, slower), so a failed build is a warning
# only. It needs nothing but Python's standard library, so it compiles while pip installs.
# A library built before on this machine from the same sources, flags and compiler is taken
# from ~/.cache/tether-native instead (a fresh clone, CI): the engine checks the digest of the
# sources it was built from when it loads it, and builds it again if that differs.
native_build() {
  local cache="${XDG_CACHE_HOME:-$HOME/.cache}/tether-native" key lib
  read -r key lib < <(python3 - <<'PY'
import platform, subprocess
from tether_build.engine.native import LIBRARY, compiler, source_digest
cxx = compiler()
version = subprocess.run([cxx, "-dumpfullversion", "-dumpversion"], capture_output=True,
                         text=True, check=False).stdout.split() if cxx else []
print(f"{source_digest()}-{platform.machine()}-{''.join(version[:1]) or 'none'}", LIBRARY)
PY
  )
  if [ -f "$cache/$key.so" ]; then
    cp "$cache/$key.so" "$lib.cached" && mv -f "$lib.cached" "$lib"
  fi
  python3 -m tether_build.engine.native --optional || return
  if python3 -c "from tether_build.engine import native; raise SystemExit(not native.available())"
  then
    mkdir -p "$cache" && cp "$lib" "$cache/$key.so.$$" && mv -f "$cache/$key.so.$$" "$cache/$key.so"
  fi
}
native_log="$(mktemp)"
native_build >"$native_log" 2>&1 &
native=$!
trap 'kill "$native" 2>/dev/null; rm -f "$native_log"' EXIT   # pip failed: stop it too

extras="print,balance"
[ "${1:-}" = "--test" ] && extras="print,balance,test"
# requirements.lock pins every Python package to the exact version the figures were measured
# with (scripts/lock.sh regenerates it after a deliberate upgrade).
PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check \
  -c requirements.lock -e ".[${extras}]"
# The tool's own bytecode, written once: pip compiles the packages it installs, not the
# sources of an editable install, and where PYTHONDONTWRITEBYTECODE is set (many containers
# and CI images) Python would otherwise compile about 80 of the tool's modules again in
# every command: about 0.3 s of each `tether build`.
python3 -m compileall -q tether_build
status=0
wait "$native" || status=$?
trap - EXIT
cat "$native_log"
rm -f "$native_log"
[ "$status" = 0 ] || exit "$status"
python3 -c "import tether_build"
