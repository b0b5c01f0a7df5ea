"""Shared test set-up: the repository root on sys.path, and its location."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Hypothesis: a quick default profile for every run, a thorough one on demand
# (HYPOTHESIS_PROFILE=thorough bash scripts/test.sh tests/core).
import os  # noqa: E402

from hypothesis import settings  # noqa: E402

settings.register_profile("thorough", max_examples=2000, deadline=None)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])


def run_async(coro):
    """``asyncio.run(coro)`` in a thread of its own: the browser tests' sync Playwright keeps an event loop
    running in the main thread for the whole session, and asyncio.run refuses to start inside one."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def pytest_addoption(parser):
    """``--fuzz-full``: hundreds of random links per page in tests/app/test_fuzz_pages.py (also OLC_FUZZ=full)."""
    parser.addoption("--fuzz-full", action="store_true", default=False,
                     help="run the long fuzz of every page (tests/app/test_fuzz_pages.py)")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` (the 10⁶-round runs) run only with ``--fuzz-full`` or ``OLC_FUZZ=full``."""
    import pytest

    from tests.fuzzgen import fuzz_full

    if fuzz_full(config):
        return
    skip = pytest.mark.skip(reason="a long run: pytest --fuzz-full (or OLC_FUZZ=full)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def node_eval(tmp_path, module: str, expression: str, data=None):
    """Import ``olc_ui/viewer/assets/<module>`` under node as ``m``, bind ``data`` (JSON), evaluate ``expression`` and
    return its JSON value (the viewer's JS tested against Python's numbers)."""
    import json
    import shutil
    import subprocess

    script = tmp_path / "eval.mjs"
    script.write_text("const m = await import(process.argv[2]);\n"
                      "const data = JSON.parse(await new Promise(r => { let s = '';"
                      " process.stdin.on('data', d => s += d); process.stdin.on('end', () => r(s)); }));\n"
                      f"console.log(JSON.stringify({expression}));\n")
    js = (ROOT / "olc_ui" / "viewer" / "assets" / module).as_uri()
    out = subprocess.run([shutil.which("node"), str(script), js], input=json.dumps(data), capture_output=True,
                         text=True, timeout=60, check=True)
    return json.loads(out.stdout)
