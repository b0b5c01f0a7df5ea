"""olc_core in a notebook (issue 36 §3): a trace and a sweep table show themselves (``__repr__``,
``_repr_html_``), iterate as rows and convert to pandas — and olc_core still imports and shows itself with
numpy alone (pandas and plotly blocked in a subprocess), saying ``pip install pandas`` when asked for a
DataFrame without it."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import olc_core
from olc_core._support.tables import PANDAS_MISSING
from olc_core.sweep import COLUMNS
from tests.conftest import ROOT
from tests.core.cases import all_cases

CASES = {c.id: c for c in all_cases()}


@pytest.mark.parametrize("cid", sorted(CASES))
def test_every_learner_shows_T_M_its_bound_or_why_none_and_its_checks(cid):
    case = CASES[cid]
    X, y, params = case.make(0)
    tr = olc_core.run(case.algorithm, X, y, **params)
    p = tr.proof
    text, page = repr(tr), tr._repr_html_()
    assert text.startswith(f"Trace({tr.algorithm!r}, T={tr.T}, d={tr.d}, mistakes={tr.n_mistakes}, proof=")
    assert "\n" not in text and len(text) < 300
    assert f"<td>rounds T</td><td>{tr.T}</td>" in page and f"<td>{p.event}s</td><td>{tr.n_mistakes}</td>" in page
    S = p.summary()
    if p.mistake_bound is not None:
        assert f"mistake_bound={p.mistake_bound!r}" in text and f"<td>bound</td><td>{p.mistake_bound!r}</td>" in page
    else:
        names = [a.name for a in p.failed_assumptions]
        assert names and "mistake_bound=None (failing: " + ", ".join(names) in text
        assert "<td>bound</td><td>none: " + "; ".join(f"{n} fails" for n in names) in page
    if S.all_hold:
        assert f"checks='all {S.checks} hold'" in text
    else:
        held = S.count("holds") + S.count("tol")
        assert (f"{held} hold" in text) == bool(held) and ("FAIL" in text) == S.defect
    assert "<h4>Conclusion</h4>" in page and "<h4>Checks over the whole run</h4>" in page
    # the rows are the trace's rounds
    rows = list(tr.rows())
    assert len(rows) == tr.T and [r.round for r in rows] == list(range(tr.T))
    assert [r.round for r in rows if r.is_mistake] == tr.mistakes.tolist()
    assert rows[-1].mistakes_so_far == tr.n_mistakes if tr.T else True


def test_a_failed_assumption_says_so_and_names_no_bound():
    s = olc_core.streams.separable(T=200, d=2, gamma=0.1, radius=1.0, seed=0, noise=0.1)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    assert tr.proof.mistake_bound is None
    assert "mistake_bound=None (failing: margin)" in repr(tr) and "n/a" in repr(tr)
    page = tr._repr_html_()
    assert "<td>bound</td><td>none: margin fails</td>" in page
    assert "Perceptron, non-separable data" in page  # the proof whose assumptions hold, written out


def test_to_pandas_is_the_rows_and_the_columns():
    pd = pytest.importorskip("pandas")
    s = olc_core.streams.sparse_disjunction(T=120, N=30, k=2, seed=1)
    tr = olc_core.run("winnow", s.X, s.y)
    df = tr.to_pandas(weights=True)
    assert isinstance(df, pd.DataFrame) and df.index.name == "round" and len(df) == tr.T
    assert np.flatnonzero(df["is_mistake"].to_numpy()).tolist() == tr.mistakes.tolist()
    assert np.array_equal(df["score"].to_numpy(), tr.columns["score"])
    t = 57
    assert np.array_equal(df.loc[t, [f"w{j + 1}" for j in range(tr.d)]].to_numpy(float), tr.weights_at(t + 1))
    assert [tuple(r) for r in tr.rows(weights=True)] == [tuple(r) for r in df.reset_index().itertuples(index=False)]
    table = olc_core.sweep("perceptron", "gamma", [0.1, 0.2], seeds=2, T=200, d=2)
    frame = table.to_pandas()
    assert list(frame.columns) == list(COLUMNS) and len(frame) == len(table)
    assert frame["bound"].tolist() == table["bound"].tolist()
    assert [c.mistakes for c in table] == table["mistakes"].tolist()
    summ = table.to_pandas(summary=True)
    assert summ["value"].tolist() == [0.1, 0.2] and summ["seeds"].tolist() == [2, 2]


def test_the_sweep_table_shows_its_summary():
    table = olc_core.sweep("winnow", "noise", [0.0, 0.2], seeds=2, T=300)
    text, page = repr(table), table._repr_html_()
    held = int(table["holds"].sum())
    assert text.startswith("<SweepTable winnow, noise over 2 values × 2 seeds: 4 cells")
    assert f"assumptions failed in {4 - held} of 4 cells" in text
    summ = table.summary()
    assert page.count("<tr>") == 1 + len(summ["value"])
    assert "<td>0.2</td><td>2</td>" in page and "<td>n/a</td><td>n/a</td><td>no</td>" in page


BLOCKED = textwrap.dedent("""
    import importlib.abc, sys
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("pandas", "plotly"):
                raise ImportError(f"{name} is blocked for this test")
    sys.meta_path.insert(0, Block())
""")

NUMPY_ONLY = BLOCKED + textwrap.dedent("""
    import olc_core
    s = olc_core.streams.separable(T=300, d=2, gamma=0.1, radius=1.0, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
    assert repr(tr).startswith("Trace('perceptron', T=300") and "<h4>Conclusion</h4>" in tr._repr_html_()
    assert len(list(tr.rows())) == 300
    table = olc_core.sweep("perceptron", "gamma", [0.1], seeds=2, T=100, d=2)
    assert "SweepTable" in repr(table) and "<table>" in table._repr_html_() and len(list(table)) == 2
    for convert in (tr.to_pandas, table.to_pandas):
        try:
            convert()
        except ImportError as e:
            print("message:", e)
        else:
            raise SystemExit("to_pandas worked without pandas")
    assert not any(m.split(".")[0] in ("pandas", "plotly", "streamlit") for m in sys.modules), sorted(sys.modules)
    print("ok")
""")


def test_numpy_alone_shows_everything_and_names_pip_install_pandas():
    out = subprocess.run([sys.executable, "-c", NUMPY_ONLY], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == "ok" and lines[:2] == ["message: " + PANDAS_MISSING] * 2
    assert "pip install pandas" in PANDAS_MISSING


def test_importing_olc_core_imports_no_pandas_even_when_installed():
    code = "import sys, olc_core; print(sorted(m for m in sys.modules if m.split('.')[0] in ('pandas', 'plotly')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "[]", out.stderr + out.stdout
