#!/usr/bin/env bash
# Run the whole test suite on a fresh machine: installs Debian's chromium (for the
# browser tests) when missing, creates .venv, installs the app and test packages,
# then runs pytest over tests/ and the doctests in olc_core/.
#   bash scripts/test.sh [extra pytest args, e.g. -k perceptron]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq chromium >/dev/null
fi
PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt -r requirements-test.txt
exec .venv/bin/python -m pytest "$@"
