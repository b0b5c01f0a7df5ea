#!/usr/bin/env bash
# Run the whole test suite on a fresh machine: installs Debian's chromium (for the
# browser tests), nginx and redis-server (for scripts/serve.sh's test and the class session's Redis store), pdflatex (texlive-latex-base, for the LaTeX
# transcripts) and python3-venv when missing (apt-get: as root, or with sudo), creates .venv, installs the app and test packages and the project
# itself (editable), then runs pytest over tests/ and the doctests in olc_core/, olc_ui/ and olc_plot/.
#   bash scripts/test.sh [extra pytest args, e.g. -k perceptron]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Debian packages: chromium for the browser tests; nginx for tests/ui/test_serve_script.py; redis-server
# for tests/classroom/ (the Redis store's tests start their own server) and scripts/serve.sh; pdflatex
# (texlive-latex-base without recommends: ~40 MB of archives, ~125 MB installed; the transcripts need
# only amsmath and amssymb) to compile the proof transcripts' LaTeX (tests/core/test_transcript.py
# skips that check without it).
DEB=(); TEX=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || DEB+=(chromium)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || DEB+=(nginx)
# nginx's brotli_static module (scripts/serve.sh sends a first visit's files brotli-compressed with it)
[ -f /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ] || DEB+=(libnginx-mod-http-brotli-static)
# and its headers-more module (serve.sh drops Last-Modified and Server from the year-cached files with it)
[ -f /usr/lib/nginx/modules/ngx_http_headers_more_filter_module.so ] || DEB+=(libnginx-mod-http-headers-more-filter)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || DEB+=(redis-server)
command -v pdflatex >/dev/null 2>&1 || TEX+=(texlive-latex-base)
if [ ${#DEB[@]} -gt 0 ] || [ ${#TEX[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  if [ ${#DEB[@]} -gt 0 ]; then $SUDO apt-get install -y -qq "${DEB[@]}" >/dev/null; fi
  if [ ${#TEX[@]} -gt 0 ]; then $SUDO apt-get install -y -qq --no-install-recommends "${TEX[@]}" >/dev/null; fi
fi
source scripts/setup_venv.sh
"$VENV_PY" -m pip install -q --disable-pip-version-check -r requirements.txt -r requirements-test.txt
"$VENV_PY" -m pip install -q --disable-pip-version-check --no-deps -e .
exec "$VENV_PY" -m pytest "$@"
