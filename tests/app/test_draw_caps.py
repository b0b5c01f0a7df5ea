"""Every lesson page caps what it sends its step viewer (issue 15): at the page's largest run (its maximum T
with the settings that make the most mistakes and the most to draw) the spec stays under
olc_ui.shared.caps.SPEC_BUDGET_MB, and the page states its cap in one caption. The heaviest runs (seconds to a
minute each) are marked slow (``pytest --fuzz-full``); docs/robustness.md lists every size measured."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from olc_ui.shared import caps
from tests.app.pagetest import open_page, page_path, unescape, viewers

BUDGET = caps.SPEC_BUDGET_MB * 1_000_000


def cap(page: str) -> str:
    """The page's drawing cap, as its lesson (olc_ui/lessons/<page>/) states it."""
    return importlib.import_module(f"olc_ui.lessons.{page}.lesson").CAP
slow = pytest.mark.slow

#: (page, link) at each page's maximum T: CI runs the quick ones, --fuzz-full the heaviest
LARGEST = [
    ("perceptron", {"T": "10000", "d": "2"}),
    pytest.param("perceptron", {"T": "10000", "d": "3", "noise": "0.3"}, marks=slow),   # 4.3 MB measured
    ("margin_perceptron", {"T": "2000", "gamma": "0.02", "gamma_alg": "0.01", "passes": "200"}),
    pytest.param("margin_perceptron", {"T": "2000", "gamma": "0.02", "gamma_alg": "0.01", "passes": "200",
                                       "until": "0", "noise": "0.3"}, marks=slow),       # 4.9 MB measured
    ("experts", {"T": "2000", "N": "50", "alg": "wm", "update": "every_round"}),
    pytest.param("experts", {"T": "2000", "N": "50", "alg": "rwm", "runs": "500", "errors": "independent",
                             "noise": "0.3"}, marks=slow),
    ("halving", {"K": "720", "T": "500"}),
    pytest.param("halving", {"K": "720", "T": "500", "update": "every_round", "stream": "adversary"}, marks=slow),
    ("boolean_concepts", {"mode": "conj", "n": "12", "k": "12", "T": "1000", "noise": "0.3"}),
    ("boolean_concepts", {"mode": "dl", "dn": "8", "L": "9", "dT": "1000", "dnoise": "0.3"}),
    ("winnow", {"N": "100", "T": "10000", "noise": "0.3"}),
    pytest.param("winnow", {"N": "10000", "T": "10000", "beta": "0.05", "noise": "0.3"}, marks=slow),  # 4.0 MB
    ("exponentiated_update", {"N": "100", "T": "2000", "data": "continuous", "noise": "0.3"}),
    ("ftrl", {"T": "3000", "d": "2", "runs": "10"}),
    pytest.param("ftrl", {"T": "3000", "d": "2", "runs": "500", "noise": "0.3"}, marks=slow),
]


def spec_bytes(at) -> int:
    [comp] = viewers(at)
    return len(comp.proto.bytes)  # what is sent: the step viewer's data as bytes (olc_ui.viewer.component._payload)


def assert_capped(at, page: str) -> int:
    assert not at.exception, [e.value for e in at.exception]
    size = spec_bytes(at)
    assert size < BUDGET, (page, size)
    said = " ".join(unescape(c.value) for c in at.caption)
    assert cap(page) in said, said[:400]
    return size


@pytest.mark.parametrize("page,query", LARGEST)
def test_the_largest_run_stays_under_the_budget_and_the_cap_is_stated(page, query):
    at = open_page(page_path(page), timeout=600, **query)
    assert_capped(at, page)


def _upload_rows(N: int, T: int, seed: int = 0) -> bytes:
    """A file as large as the upload limits allow: T rows of N features in [−½, ½], labels half wrong."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-0.5, 0.5, size=(T, N))
    y = np.where(rng.random(T) < 0.5, 1, -1)
    head = ",".join(f"x{i + 1}" for i in range(N)) + ",label\n"
    return (head + "\n".join(",".join(f"{v:.2f}" for v in row) + f",{lab}" for row, lab in zip(X, y)) + "\n").encode()


@slow
@pytest.mark.parametrize("page,N,T", [("perceptron", 3, 10_000), ("ftrl", 3, 10_000), ("margin_perceptron", 2, 10_000),
                                      ("exponentiated_update", 100, 1_900)])
def test_the_largest_upload_stays_under_the_budget(page, N, T):
    """A file at the row limit (10,000) or the byte limit (1 MB: 1,900 rows of 100 features)."""
    raw = _upload_rows(N, T)
    at = open_page(page_path(page), timeout=600, data="upload")
    at.file_uploader[0].set_value(("big.csv", raw, "text/csv"))
    at.run()
    if not viewers(at):  # the page refused the file (with a message): nothing drawn
        assert at.error and not at.exception
        return
    assert_capped(at, page)


def test_every_page_has_a_stated_cap():
    from tests.fuzzgen import page_settings
    for page in page_settings():
        assert cap(page).startswith("Drawing cap: ") and f"{caps.SPEC_BUDGET_MB} MB" in cap(page)
