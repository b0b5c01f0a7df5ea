"""Every lesson page downloads its run as a Jupyter notebook (issue 36 §2): a button whose label says "notebook",
a ``.ipynb`` file written with nbformat, whose cells rebuild the page's data (the page's own ``olc_core.streams``
call for generated data, the arrays in a CSV cell otherwise), rerun the learner, assert that the trace is the
page's (its mistake rounds and final weights) and draw the sandwich and the learner's state. Each page's
notebook is executed here with nbclient, in a fresh Python kernel: its assertions must pass.

AppTest has no server, so a deferred download's bytes are never asked for: the tests watch
``download_button`` and call the data callables the page handed it."""
from __future__ import annotations

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

from olc_core._transcript.texdoc import clip, md_text
from olc_ui.shared.notebook import DataCall, data_code, literal, notebook
from tests.app.pagetest import open_page, page_path
from tests.app.test_transcript_downloads import PAGES, UPLOADS, downloads  # noqa: F401  (the fixture)
from tests.conftest import ROOT
from tests.hostile import HOSTILE

#: the pages whose default data are one olc_core.streams call (the notebook calls it), and the call
GENERATED = {"perceptron": "separable", "margin_perceptron": "separable", "ftrl": "separable", "winnow": "sparse_disjunction",
             "exponentiated_update": "sparse_simplex", "experts": "experts", "boolean_concepts": "conjunction"}


def _notebooks(seen: list[tuple]) -> list[tuple[str, str]]:
    return [(name, data()) for label, data, name in seen if "notebook" in label]


def execute(text: str) -> nbformat.NotebookNode:
    nb = nbformat.reads(text, as_version=4)
    nbformat.validate(nb)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    return nb


def _outputs(nb, start: str) -> list:
    cell = next(c for c in nb.cells if c.cell_type == "code" and c.source.startswith(start))
    return cell.outputs


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_page_downloads_a_notebook_that_reruns_its_run(page, downloads):
    _, query, stem = PAGES[page]
    at = open_page(page_path(page), **query)
    assert not at.exception, at.exception
    books = _notebooks(downloads)
    assert len(books) == (3 if page == "compare" else 1), [label for label, _, _ in downloads]
    for name, text in books:
        assert name.endswith("-run.ipynb") and name.startswith(stem.split("_")[0])
        nb = execute(text)
        i = next(i for i, c in enumerate(nb.cells) if c.cell_type == "markdown" and c.source == "## The data")
        data_cell = nb.cells[i + 1].source
        if page in GENERATED:
            assert data_cell.startswith(f"s = olc_core.streams.{GENERATED[page]}("), data_cell[:200]
            run_cell = nb.cells[i + 3].source
            for key, value in query.items():  # the link's seed is the call's (FTRL's: the learner's)
                assert f"seed={value}" in data_cell + run_cell, (data_cell, run_cell)
        else:
            assert data_cell.startswith('DATA = """'), data_cell[:200]
        printed = "".join(o.get("text", "") for o in _outputs(nb, "assert trace.T =="))
        assert printed.startswith("The run is the page's:")
        for start in ("olc_plot.sandwich(trace)", "olc_plot."):
            kinds = {k for o in _outputs(nb, start) for k in o.get("data", {})}
            assert "application/vnd.plotly.v1+json" in kinds
        assert "text/html" in {k for o in _outputs(nb, "trace = olc_core.run(") for k in o.get("data", {})}


def test_an_upload_is_embedded_and_its_name_is_inert(downloads):
    from streamlit.testing.v1 import AppTest

    key, csv = UPLOADS["perceptron"]
    at = AppTest.from_file(page_path("perceptron"), default_timeout=120)
    at.query_params["data"] = "upload"
    name = HOSTILE[0] + " " + HOSTILE[1]
    at.session_state[f"_olc_upload::{key}"] = {"name": name, "data": csv, "id": "hostile"}
    at.run()
    assert not at.exception, at.exception
    [(file, text)] = _notebooks(downloads)
    nb = nbformat.reads(text, as_version=4)
    intro = nb.cells[0].source
    assert "Uploaded file: " + md_text(clip(name, 80)) in intro
    assert all(h not in intro for h in (HOSTILE[0], HOSTILE[1]))
    assert any(c.source.startswith('DATA = """\\\nx1,x2,y\n1.0,0.0,1.0\n0.0,1.0,1.0\n-1.0,0.0,-1.0\n"""')
               for c in nb.cells), [c.source[:80] for c in nb.cells]
    execute(text)


def test_a_call_that_does_not_give_the_pages_arrays_is_not_written():
    import olc_core

    s = olc_core.streams.separable(T=30, d=2, gamma=0.1, radius=1.0, seed=1)
    how, code, _ = data_code(s.X, s.y, DataCall("separable", {"T": 30, "d": 2, "gamma": 0.1, "seed": 2}))
    assert how == "embedded" and code.startswith('DATA = """')
    how, code, stream = data_code(s.X, s.y, DataCall("separable", {"T": 30, "d": 2, "gamma": 0.1, "seed": 1}))
    assert how == "generated" and stream is not None and "seed=1" in code
    # the embedded floats read back to the same floats
    ns = {"np": np, "io": __import__("io")}
    exec(data_code(s.X, s.y, None)[1], ns)
    assert np.array_equal(ns["X"], s.X) and np.array_equal(ns["y"], s.y) and ns["X"].dtype == s.X.dtype


def test_literals_build_equal_values():
    from olc_core.hypotheses import HalfPlanes
    from olc_core.proofs.boolean import Conjunction

    values = [None, True, 3, -0.1, float("inf"), "a'b\"c", (1, 2), [1.5, None], {"k": 2},
              np.array([[1, 2]], dtype=np.int8), np.float64(0.30000000000000004), np.uint8,
              Conjunction(n=4, literals=(-1, 2)), HalfPlanes(K=3)]
    ns = {"np": np, "Conjunction": Conjunction, "HalfPlanes": HalfPlanes}
    for v in values:
        got = eval(literal(v), ns)  # noqa: S307  (our own literals)
        assert (np.array_equal(got, v) and got.dtype == v.dtype) if isinstance(v, np.ndarray) else got == v, v
    with pytest.raises(ValueError, match="cannot write"):
        literal(object())


def test_a_notebook_too_large_to_carry_its_data_says_so():
    import olc_core
    from olc_ui.shared import notebook as N

    s = olc_core.streams.separable(T=50, d=2, gamma=0.1, radius=1.0, seed=0)
    tr = olc_core.run("perceptron", s.X, s.y)
    old = N.MAX_EMBEDDED
    try:
        N.MAX_EMBEDDED = 10
        nb = nbformat.reads(notebook(tr, s.X, s.y, page="perceptron"), as_version=4)
    finally:
        N.MAX_EMBEDDED = old
    assert [c.cell_type for c in nb.cells] == ["markdown", "markdown"]
    assert "more than a notebook embeds" in nb.cells[1].source and "smaller T" in nb.cells[1].source


#: other data sources whose data are one olc_core.streams call: the page's settings, and the call
VARIANTS = {"perceptron": ({"data": "tight", "td": "6"}, "tight_perceptron"),
            "winnow": ({"data": "adversary", "seed": "2"}, "winnow_adversary"),
            "experts": ({"data": "adversary", "seed": "3"}, "adversary"),
            "boolean_concepts": ({"mode": "dl", "dseed": "4"}, "decision_list"),
            "exponentiated_update": ({"data": "continuous", "seed": "5"}, "simplex_continuous")}


@pytest.mark.parametrize("page", sorted(VARIANTS))
def test_other_generated_sources_are_rebuilt_by_their_call(page, downloads):
    query, generator = VARIANTS[page]
    at = open_page(page_path(page), **query)
    assert not at.exception, at.exception
    [(name, text)] = _notebooks(downloads)
    nb = execute(text)
    i = next(i for i, c in enumerate(nb.cells) if c.cell_type == "markdown" and c.source == "## The data")
    assert nb.cells[i + 1].source.startswith(f"s = olc_core.streams.{generator}("), nb.cells[i + 1].source[:200]
    printed = "".join(o.get("text", "") for o in _outputs(nb, "assert trace.T =="))
    assert printed.startswith("The run is the page's:")
