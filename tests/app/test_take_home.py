"""The take-home downloads of the two pages without a lesson's run (issue 36): the Bound explorer's sweep as a notebook
(its olc_core.sweep call, the check that the table is the page's, the two charts drawn with plotly — executed here
with nbclient) and as one offline file (opened in Chromium: tests/e2e/test_offline_file.py); Home's six-round
Perceptron run as every lesson page's run (the trace, the proof, a notebook executed here, the offline file)."""
from __future__ import annotations

import json

import nbformat
import pytest
from nbclient.exceptions import CellExecutionError

from tests.app.pagetest import open_page, page_path
from tests.app.test_chart_names import _named
from tests.app.test_notebook_downloads import _notebooks, _outputs, execute
from tests.app.test_transcript_downloads import LABELS, NOTEBOOK, OFFLINE, downloads  # noqa: F401  (the fixture)
from tests.conftest import ROOT

EXPLORER_NOTEBOOK = "Download this sweep as a notebook (.ipynb)"
EXPLORER_OFFLINE = "Download this sweep as one offline file (HTML)"

#: sweeps whose notebooks are executed: the default one; one crossing from one theorem to another (two bound
#: series); one where an assumption fails (no bound: NaN); the expected mistakes of RWM on a log-spaced N
SWEEPS = {
    "default": {},
    "two theorems": {"alg": "perceptron", "param": "noise", "noise_lo": "0", "noise_hi": "0.3", "points": "4",
                     "seeds": "3"},
    "no bound": {"alg": "halving", "param": "noise", "noise_lo": "0", "noise_hi": "0.2", "points": "2",
                 "scale": "linear", "seeds": "2", "N": "16", "T": "200"},
    "rwm, log N": {"alg": "randomized_weighted_majority", "param": "N", "N_lo": "2", "N_hi": "64", "points": "4",
                   "scale": "log", "seeds": "2", "T": "300"},
}


def _charts(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def _plotted(outputs) -> list[dict]:
    return [o["data"]["application/vnd.plotly.v1+json"] for o in outputs
            if "application/vnd.plotly.v1+json" in o.get("data", {})]


@pytest.mark.parametrize("case", sorted(SWEEPS))
def test_the_explorers_sweep_as_a_notebook_reruns_it_and_draws_the_pages_charts(case, downloads):
    at = open_page(page_path("bound_explorer"), timeout=300, **SWEEPS[case])
    assert not at.exception and not at.error
    labels = [label for label, _, _ in downloads]
    assert labels == ["Download the table (CSV: one row per run)", EXPLORER_NOTEBOOK, EXPLORER_OFFLINE]
    [(name, text)] = _notebooks(downloads)
    assert name.endswith(".ipynb") and name.startswith("sweep_")
    nb = execute(text)
    call = next(c.source for c in nb.cells if c.cell_type == "code" and c.source.startswith("table = olc_core.sweep("))
    alg = SWEEPS[case].get("alg", "perceptron")
    assert call.startswith(f"table = olc_core.sweep({alg!r}, ")
    printed = "".join(o.get("text", "") for o in _outputs(nb, "assert len(table) =="))
    assert printed.startswith("The sweep is the page's:")
    drawn = _plotted(_outputs(nb, "XLABEL = "))
    page = _charts(at)
    assert len(drawn) == len(page) == 2
    for got, want in zip(drawn, page):  # the page's series, by name, with the page's numbers
        assert [d.get("name") for d in got["data"]] == [d.get("name") for d in want["data"]]
        for g, w in zip(got["data"], want["data"]):
            assert g.get("y") == w.get("y") and g.get("x") == w.get("x"), g.get("name")
        assert got["layout"]["xaxis"]["title"]["text"] == want["layout"]["xaxis"]["title"]["text"]
        assert got["layout"]["yaxis"].get("type", "linear") == want["layout"]["yaxis"].get("type", "linear")


def test_the_explorers_notebook_fails_on_another_table(downloads):
    """The check cell bites: the page's notebook with its call changed (one seed fewer) stops at the assertions."""
    at = open_page(page_path("bound_explorer"), timeout=300, **SWEEPS["no bound"])
    assert not at.exception
    [(_, text)] = _notebooks(downloads)
    nb = nbformat.reads(text, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "code" and c.source.startswith("table = olc_core.sweep("))
    assert "seeds=2" in cell.source
    cell.source = cell.source.replace("seeds=2", "seeds=1")
    with pytest.raises(CellExecutionError, match="AssertionError"):
        execute(nbformat.writes(nb))


def test_the_explorers_offline_file_carries_the_pages_names_descriptions_and_table(downloads):
    at = open_page(page_path("bound_explorer"), timeout=300, **SWEEPS["two theorems"])
    assert not at.exception
    [(name, html)] = [(n, d()) for label, d, n in downloads if label == EXPLORER_OFFLINE]
    assert name == "sweep_perceptron_noise-offline.html"
    import html as h
    for chart in _named(at):
        assert h.escape(chart["name"]) in html and h.escape(chart["text"]) in html
    assert html.count("<tr>") == 1 + 4     # the header and one row per swept value
    assert "Content-Security-Policy" in html and "default-src 'none'" in html


def test_home_takes_its_six_round_run_home(downloads):
    at = open_page(str(ROOT / "app.py"), timeout=120, round="3")
    assert not at.exception
    assert [label for label, _, _ in downloads][:5] == LABELS + [NOTEBOOK, OFFLINE]
    files = {name: data for _, data, name in downloads}
    assert set(files) >= {"home-trace.csv", "home-proof.md", "home-proof.tex", "home-run.ipynb", "home-offline.html"}
    nb = execute(files["home-run.ipynb"]())
    assert any(c.source.startswith('DATA = """\\\nx1,x2,y\n0.8,0.4,1\n') for c in nb.cells)
    printed = "".join(o.get("text", "") for o in _outputs(nb, "assert trace.T =="))
    assert printed.startswith("The run is the page's: 2 mistakes on rounds [1, 3]")
    assert "# Proof transcript: " in files["home-proof.md"]()
