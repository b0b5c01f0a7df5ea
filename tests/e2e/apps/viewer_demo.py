"""Test-only demo of the step viewer on a real Perceptron run (run from the repo root).

    streamlit run tests/e2e/apps/viewer_demo.py        # then open ?T=300&data=separable&t=40

Query parameters: ``T`` (rounds, default 300), ``data`` (separable | noisy), ``seed``
and ``t`` (the position, mirrored by the viewer). The widgets below the viewer make
reruns (same run) and change the run (new run_id) for the browser tests.
"""
import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import olc_core  # noqa: E402
from olc_ui.shared.position import start_position  # noqa: E402
from olc_ui.viewer.component import viewer  # noqa: E402
from perceptron_spec import build_spec  # noqa: E402

st.set_page_config(page_title="viewer demo", layout="wide")


def _int(name: str, default: int, lo: int, hi: int) -> int:
    try:
        return max(lo, min(hi, int(st.query_params.get(name, default))))
    except ValueError:
        return default


@st.cache_resource(max_entries=8)
def spec_for(kind: str, T: int, seed: int) -> dict:
    if kind == "noisy":
        s = olc_core.streams.noisy(T=T, d=2, gamma=0.05, noise=0.1, seed=seed)
    else:
        s = olc_core.streams.separable(T=T, d=2, gamma=0.05, seed=seed)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    return build_spec(tr, s.X, s.y, run_id=f"perceptron-{kind}-T{T}-seed{seed}",
                      title=f"Perceptron on {kind} data (T = {T}, γ = 0.05)")


T = _int("T", 300, 1, 100_000)
kind = st.query_params.get("data", "separable")
kind = kind if kind in ("separable", "noisy") else "separable"
seed = st.radio("Seed", [0, 1, 2], index=_int("seed", 0, 0, 2), key="seed", horizontal=True)

spec = spec_for(kind, T, seed)
p0 = start_position("viewer", T, "t")   # the viewer's last position, else the URL's ?t=
if p0 != spec["position"]:
    spec = {**spec, "position": p0}
position = viewer(spec, key="viewer")

st.button("Rerun the script", key="rerun")
st.markdown(f"Python sees position **{position}** (run `{spec['run_id']}`)")
