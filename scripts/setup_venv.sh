#!/usr/bin/env bash
# Shared by app.sh and test.sh: a Python venv at .venv with pip, on a fresh Debian machine too.
#   source scripts/setup_venv.sh        (sets VENV_PY)
# Debian's python3 ships without ensurepip (the python3-venv package): install it when missing.
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  if ! "$PY" -c "import ensurepip, venv" >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    ver=$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    $SUDO apt-get install -y -qq python3-venv >/dev/null || $SUDO apt-get install -y -qq "python${ver}-venv" >/dev/null
  fi
  "$PY" -m venv .venv
fi
VENV_PY=.venv/bin/python
