from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT


def test_home_shows_protocol_and_live_run():
    at = AppTest.from_file(str(ROOT / "pages/home.py"), default_timeout=30).run()
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
