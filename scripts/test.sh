#!/usr/bin/env bash
# Run the whole test suite on a fresh machine: installs Debian's chromium (for the
# browser tests), pdflatex (for the LaTeX transcripts) and python3-venv when missing,
# creates .venv, installs the app and test packages and the project itself (editable), then
# runs pytest over tests/ and the doctests in olc_core/ and olc_ui/.
#   bash scripts/test.sh [extra pytest args, e.g. -k perceptron]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Debian packages: chromium for the browser tests; pdflatex (texlive-latex-base: ~40 MB of
# archives with its dependencies, ~125 MB installed; the transcripts need only amsmath and
# amssymb) to compile the proof transcripts' LaTeX (tests/core/test_transcript.py skips that
# check without it).
NEED_CHROMIUM=0; NEED_TEX=0
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then NEED_CHROMIUM=1; fi
if ! command -v pdflatex >/dev/null 2>&1; then NEED_TEX=1; fi
if [ $NEED_CHROMIUM -eq 1 ] || [ $NEED_TEX -eq 1 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  if [ $NEED_CHROMIUM -eq 1 ]; then $SUDO apt-get install -y -qq chromium >/dev/null; fi
  if [ $NEED_TEX -eq 1 ]; then
    $SUDO apt-get install -y -qq --no-install-recommends texlive-latex-base >/dev/null
  fi
fi
source scripts/setup_venv.sh
"$VENV_PY" -m pip install -q --disable-pip-version-check -r requirements.txt -r requirements-test.txt
"$VENV_PY" -m pip install -q --disable-pip-version-check --no-deps -e .
exec "$VENV_PY" -m pytest "$@"
