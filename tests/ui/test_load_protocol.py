"""bench/load.py speaks Streamlit's browser protocol correctly: a short smoke run against a live server.

Two simulated students open the Perceptron lesson, move the γ slider, step through
mistakes and switch pages over the websocket; every answer is checked by the bench
itself (the page wrote the new γ and position into its URL, the page switch landed).
Negative controls show those checks bite: a position sent under the wrong key, or a
slider value in the wrong protobuf field, is reported as an error, not counted as a
success. Bounded in time (a few seconds of load, each request ≤ 60 s).
"""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
import load  # noqa: E402
import stproto  # noqa: E402
from stbrowser import StreamlitServer  # noqa: E402
from tests.conftest import run_async  # noqa: E402


@pytest.fixture(scope="module")
def server():
    with StreamlitServer(ROOT / "app.py", cwd=ROOT) as srv:
        yield srv


def _student(url: str) -> load.Student:
    args = load.parse_args(["--students", "1", "--url", url, "--timeout", "60"])
    return load.Student(0, args, load.Stats(), deadline=float("inf"))


def test_two_students_every_interaction_checked(server, capsys):
    argv = ["--students", "2", "--duration", "6", "--think", "0.3", "--ramp", "0.5", "--timeout", "60",
            "--url", server.url, "--server-pid", str(server.pid)]
    args = load.parse_args(argv)
    res = run_async(asyncio.wait_for(load.hall(args, args.server_pid), 240))
    st = res["stats"]
    assert {k: v for k, v in st.errors.items() if v} == {}
    for kind in load.KINDS:
        assert st.latencies[kind], f"no {kind} interaction completed in the smoke run"
    assert res["cpu"] > 0 and res["rss0"] > 50 * 2**20      # /proc of the server was read
    p95 = load.report(args, res, 1, None)
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == f"load: students=2 p95_ms={1000 * p95:.0f} errors=0"


def test_the_first_run_gives_widget_ids_pages_and_the_viewer(server):
    async def go():
        s = _student(server.url)
        await s.open()
        await s.client.close()
        return s
    s = run_async(go())
    assert any(w.endswith("-perceptron__gamma") for w in s.states)
    gamma = next(st for w, st in s.states.items() if w.endswith("-perceptron__gamma"))
    assert gamma.WhichOneof("value") == "double_array_value" and list(gamma.double_array_value.data) == [0.1]
    data = next(st for w, st in s.states.items() if w.endswith("-perceptron__data"))
    assert data.string_value == "Generated"                 # radio: the option's text, as the browser sends
    assert {"perceptron", "winnow"} <= set(s.pages) and s.page_hash == s.pages["perceptron"]
    assert s.stops and s.stops == sorted(s.stops) and s.T == 200


def test_a_position_under_the_wrong_key_is_an_error(server):
    async def go():
        s = _student(server.url)
        await s.open()
        vid = next(w for w in s.elements if w.endswith("-perceptron_viewer"))
        s.states[vid] = stproto.WidgetState(id=vid, json_value='{"pos": 3}')
        run = await s.client.rerun(query=s.query, page_hash=s.page_hash, widgets=list(s.states.values()))
        ok = await s.timed("step", s.step())
        await s.client.close()
        return s, run, ok
    s, run, ok = run_async(go())
    assert s.url_params(run).get("t") == "0"                 # the page ignored it ...
    assert ok and s.stats.latencies["step"]                   # ... and the right key works


def test_a_step_reruns_the_viewer_alone_and_a_slider_the_whole_page(server):
    """The viewer lives in a fragment (olc_ui/shared/page.py ``_viewer_part``): a step, sent as the browser sends it
    (the viewer's fragment id), reruns only the viewer and the URL it stands for; the slider then reruns the page,
    and the page's offline download reads the round the fragment's run returned (``live_positions``)."""
    async def go():
        s = _student(server.url)
        await s.open()
        vid = next(w for w in s.elements if w.endswith("-perceptron_viewer"))
        frag = s.fragments.get(vid)
        assert frag, "the step viewer is drawn in no fragment"
        assert not any(w.endswith("-perceptron__gamma") for w in s.fragments)   # the sidebar is not in it
        target = s.stops[1]
        s.states[vid] = stproto.WidgetState(id=vid, json_value=f'{{"position":{target}}}')
        step = await s.client.rerun(query=s.query, page_hash=s.page_hash, widgets=list(s.states.values()),
                                    fragment_id=frag)
        whole = await s.client.rerun(query=s.query, page_hash=s.page_hash, widgets=list(s.states.values()))
        await s.client.close()
        return target, step, whole
    target, step, whole = run_async(go())
    assert step.status == stproto.ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY and not step.exceptions
    assert load.Student.url_params(None, step).get("t") == str(target)
    kinds = {kind for kind, _ in step.elements.values()}
    assert kinds == {"bidi_component"}, kinds          # the viewer and the URL's component: no widget of the page
    assert len(step.elements) == 2 and not step.headings
    assert whole.status == stproto.ForwardMsg.FINISHED_SUCCESSFULLY
    assert any(w.endswith("-perceptron__gamma") for w in whole.elements) and whole.headings
    assert load.Student.url_params(None, whole).get("t") == str(target)


def test_a_slider_value_in_the_wrong_field_is_reported(server, monkeypatch):
    def wrong_field(self):                     # double_value: not what a slider's state is read from
        st, el = self.client_el(load.SLIDER)
        st.ClearField("double_array_value")
        st.double_value = el.default[0] + 2 * el.step
        return self.client.rerun(query=self.query, page_hash=self.page_hash, widgets=list(self.states.values()))

    async def go():
        s = _student(server.url)
        await s.open()
        run = await wrong_field(s)
        gamma = s.url_params(run).get("gamma", "0.1")
        await s.client.close()
        return gamma
    assert float(run_async(go())) == pytest.approx(0.1)   # the server did not take the value


def test_only_the_loopback_is_loaded():
    with pytest.raises(SystemExit, match="loopback"):
        stproto.check_loopback("http://example.org:8501")
    with pytest.raises(SystemExit, match="loopback"):
        load.main(["--students", "1", "--url", "http://10.0.0.1:8501"])


def test_no_full_garbage_collection_after_every_run():
    """Streamlit's default runner.postScriptGC = true runs gc.collect() after every script run;
    with numpy, plotly and numba loaded that was ~90 % of the server's CPU per rerun
    (bench/load.py, docs/load.md). The app's config turns it off."""
    import tomllib

    cfg = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert cfg["runner"]["postScriptGC"] is False
