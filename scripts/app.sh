#!/usr/bin/env bash
# Start the olc app: creates .venv (first time; installs Debian's python3-venv if needed),
# installs requirements.txt and the project itself (editable), runs Streamlit.
#   bash scripts/app.sh [extra streamlit args, e.g. --server.port 8600]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup_venv.sh
"$VENV_PY" -m pip install -q --disable-pip-version-check -r requirements.txt
"$VENV_PY" -m pip install -q --disable-pip-version-check --no-deps -e .
exec "$VENV_PY" -m streamlit run app.py "$@"
