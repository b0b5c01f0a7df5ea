"""Every lesson that takes an uploaded CSV keeps it for the session: switch the data source away and back
(through the sidebar widget) and the file is still used; its name shows as plain text; "Clear" forgets it
(real app, headless Chromium). The Perceptron page's own test: test_perceptron_inputs.py."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from viewerpage import VIEWER  # noqa: E402

#: page → (a valid file's text, the other source's label, the upload source's label, a select box?)
CASES = {
    "margin_perceptron": ("x1,x2,label\n0.5,0.9,1\n-0.4,0.3,-1\n0.8,-0.2,1\n-0.7,-0.6,-1\n",
                          "Generated", "Upload a CSV", False),
    "winnow": ("a,b,c,d,label\n1,0,0,1,1\n0,0,1,0,0\n1,1,0,0,1\n0,1,0,0,0\n0,0,1,1,1\n",
               "Random, labelled by a k-variable disjunction", "Upload a 0/1 CSV", False),
    "exponentiated_update": ("x1,x2,x3,label\n1,-1,1,1\n-1,1,-1,-1\n1,1,-1,1\n-1,-1,1,-1\n",
                             "±1 features, majority of k (δ = 1/k)", "Upload a CSV", True),
    "ftrl": ("x1,x2,label\n0.5,0.5,1\n-0.4,0.3,-1\n0.6,-0.2,1\n-0.7,-0.6,-1\n0.1,0.2,1\n",
             "Generated stream", "Upload a CSV", False),
}


@pytest.fixture(scope="module")
def url(streamlit_app) -> str:
    return streamlit_app("app.py")


def choose(page, label: str, select: bool) -> None:
    sidebar = page.locator('[data-testid="stSidebar"]')
    if select:
        # Streamlit 1.67's select box is a react-aria combobox: a click focuses it, ↓ shows the options
        box = sidebar.get_by_role("combobox", name="Data")
        box.click()
        box.press("ArrowDown")
        page.get_by_role("option", name=label).click()
    else:
        sidebar.get_by_text(label, exact=True).click()


def run_id(page) -> str:
    page.wait_for_selector(f'{VIEWER}[data-ready="true"]', timeout=90_000)
    return page.get_attribute(VIEWER, "data-run-id")


@pytest.mark.parametrize("name", list(CASES))
def test_an_uploaded_file_stays_when_the_source_is_switched_away_and_back(page, url, tmp_path, name):
    text, other, upload, select = CASES[name]
    page.goto(f"{url}/{name}?data=upload")
    f = tmp_path / "my <data>.csv"
    f.write_text(text)
    page.locator('input[type="file"]').first.set_input_files(str(f), timeout=60_000)
    mine = run_id(page)
    choose(page, other, select)
    page.wait_for_function("r => { const v = document.querySelector('.olc-viewer');"
                           " return v && v.dataset.ready === 'true' && v.dataset.runId !== r; }", arg=mine,
                           timeout=90_000)
    choose(page, upload, select)
    page.wait_for_function("r => { const v = document.querySelector('.olc-viewer');"
                           " return v && v.dataset.ready === 'true' && v.dataset.runId === r; }", arg=mine,
                           timeout=90_000)
    sidebar = page.locator('[data-testid="stSidebar"]')
    expect(sidebar.get_by_text("using my <data>.csv", exact=True)).to_be_visible()
    sidebar.get_by_role("button", name="Clear the uploaded file").click()
    page.wait_for_function("() => !document.querySelector('.olc-viewer')", timeout=60_000)
