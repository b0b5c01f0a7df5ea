from streamlit.testing.v1 import AppTest

from olc_ui.lessons import available
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
    assert "mistake(s)" in text and "R^2/\\gamma^2" in text
    at.slider(key="home_round").set_value(2).run()
    assert len(at.dataframe[0].value) == 2
    links = [el.proto.page for el in at.get("page_link")]
    assert len(links) == len(available()) - 1 >= 2
    assert any("perceptron" in p for p in links)
