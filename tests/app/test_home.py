from streamlit.testing.v1 import AppTest

from olc_ui.catalog import available
from tests.conftest import ROOT


def test_home_shows_protocol_live_run_and_links_to_every_lesson():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30).run()
    assert not at.exception
    assert at.title[0].value == "Online linear classification"
    text = " ".join(m.value for m in at.markdown)
    assert "receives" in text and "predicts" in text and "updates" in text
    # the live example: 6 rounds of the Perceptron, numbers from the run
    df = at.dataframe[0].value
    assert len(df) == 6
    assert "2 mistakes" in text and "6 rounds" in text and "R^2/\\gamma^2" in text
    at.slider(key="home__round").set_value(2).run()
    assert len(at.dataframe[0].value) == 2
    at.slider(key="home__round").set_value(1).run()   # singular nouns for a count of one
    assert "After 1 round: **1 mistake**" in " ".join(m.value for m in at.markdown)
    assert list(at.dataframe[0].value["ŷ_t"]) == ["0 (on the line)"]
    links = [el.proto.page for el in at.main.get("page_link")]   # the sidebar's are the lesson menu
    assert len(links) == len(available()) - 1 >= 2
    assert any("perceptron" in p for p in links)
    # each lesson's summary in full under its link (a page link is one line and cuts a long label)
    captions = [c.value for c in at.caption]
    for row in available()[1:]:
        assert row[5] in captions


def test_every_page_lists_the_sources_its_citations_name():
    """Each page's sidebar holds the Sources expander, and every bracketed citation a page shows is in it."""
    import re

    from olc_ui.shared.page import SOURCES
    keys = {k for k, _ in SOURCES}
    seen = set()
    for _, script, _, _, path, _ in available():  # home needs the router (its links name the pages)
        at = AppTest.from_file(str(ROOT / ("app.py" if path == "home" else script)), default_timeout=120).run()
        assert not at.exception, script
        [exp] = [e for e in at.sidebar.expander if e.label.startswith("Sources")]
        listed = " ".join(m.value for m in exp.markdown)
        assert all(k in listed for k in keys) and "Kitani" in listed and "Balcan" in listed
        shown = " ".join([m.value for m in at.markdown] + [h.value for h in at.header] + [s.value for s in at.subheader]
                         + [c.value for c in at.caption])
        cited = set(re.findall(r"\[\d{3}\]", shown))
        assert cited <= keys, (script, cited - keys)
        seen |= cited
    assert seen, "no page cites a source: the check above checked nothing"
