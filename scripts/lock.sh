#!/usr/bin/env bash
# Regenerate requirements.lock: resolve pyproject.toml's dependencies (with the print and test
# extras) in a fresh virtual environment and pin every package to the version pip chose.
# Run after a deliberate upgrade, then run the benchmarks and the tests:
#   bash scripts/lock.sh && bash scripts/setup.sh --test && python3 -m pytest
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install -q --disable-pip-version-check ".[print,balance,test]"
{
  echo "# Exact versions of every Python package the tool installs (scripts/lock.sh writes this)."
  "$tmp/venv/bin/pip" freeze --exclude tether_build --exclude tether-build | sort -f
} > requirements.lock
echo "wrote requirements.lock ($(grep -vc '^#' requirements.lock) packages)"
