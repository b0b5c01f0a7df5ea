"""scripts/setup_venv.sh (used by the README's two commands) on a machine whose python3 cannot make a
venv (Debian without python3-venv): it installs the Debian package first, then makes .venv."""
from __future__ import annotations

import os
import subprocess

from tests.conftest import ROOT

FAKE_PY = """#!/bin/sh
# a python3 without ensurepip until python3-venv is "installed" (the marker file)
if [ "$1" = "-c" ] && echo "$2" | grep -q ensurepip; then [ -f "$MARK" ] && exit 0 || exit 1; fi
if [ "$1" = "-c" ]; then echo 3.11; exit 0; fi
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  [ -f "$MARK" ] || exit 1
  mkdir -p "$3/bin" && printf '#!/bin/sh\\nexit 0\\n' > "$3/bin/python" && chmod +x "$3/bin/python"; exit 0
fi
exit 2
"""
FAKE_APT = """#!/bin/sh
echo "$@" >> "$LOG"
case "$*" in *python3-venv*) touch "$MARK";; esac
"""


def _fake(tmp_path, name, text):
    p = tmp_path / "bin" / name
    p.parent.mkdir(exist_ok=True)
    p.write_text(text)
    p.chmod(0o755)
    return p


def test_installs_python3_venv_when_venv_cannot_be_made(tmp_path):
    py = _fake(tmp_path, "python3", FAKE_PY)
    _fake(tmp_path, "apt-get", FAKE_APT)
    _fake(tmp_path, "sudo", '#!/bin/sh\nexec "$@"\n')
    work = tmp_path / "repo"
    (work / "scripts").mkdir(parents=True)
    (work / "scripts" / "setup_venv.sh").write_text((ROOT / "scripts" / "setup_venv.sh").read_text())
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin", "PYTHON": str(py),
           "MARK": str(tmp_path / "installed"), "LOG": str(tmp_path / "apt.log")}
    out = subprocess.run(["bash", "-c", "set -euo pipefail; source scripts/setup_venv.sh; echo $VENV_PY"],
                         cwd=work, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ".venv/bin/python" and (work / ".venv" / "bin" / "python").exists()
    log = (tmp_path / "apt.log").read_text()
    assert "update" in log and "install -y -qq python3-venv" in log
    # a second run finds .venv and installs nothing
    (tmp_path / "apt.log").unlink()
    out = subprocess.run(["bash", "-c", "source scripts/setup_venv.sh"], cwd=work, env=env, timeout=60)
    assert out.returncode == 0 and not (tmp_path / "apt.log").exists()


def test_both_commands_use_it():
    for script in ("app.sh", "test.sh"):
        text = (ROOT / "scripts" / script).read_text()
        assert "source scripts/setup_venv.sh" in text and "-e ." in text
