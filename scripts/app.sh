#!/usr/bin/env bash
# Start the olc app: creates .venv (first time), installs requirements.txt, runs Streamlit.
#   bash scripts/app.sh [extra streamlit args, e.g. --server.port 8600]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
exec .venv/bin/python -m streamlit run app.py --browser.gatherUsageStats false "$@"
