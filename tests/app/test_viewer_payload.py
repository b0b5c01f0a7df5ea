"""The step viewer's data go to the browser as bytes (olc_ui.viewer.component._payload): Streamlit forwards bytes
as they are, where a dict would be dumped twice more on every run (its message and its identity's hash), and a
rerun of the same run sends the very same bytes, whose first line tells the browser it has parsed them already."""
from __future__ import annotations

from olc_ui.viewer.component import PAYLOAD_HEAD, decode_payload
from tests.app.pagetest import open_page, page_path, viewers


def _raw(at) -> bytes:
    [comp] = viewers(at)
    assert comp.proto.WhichOneof("data") == "bytes"
    return bytes(comp.proto.bytes)


def test_the_viewer_is_sent_bytes_and_a_rerun_sends_the_same():
    at = open_page(page_path("perceptron"), T=300, noise=0.1)
    assert not at.exception
    first = _raw(at)
    head, _, body = first.partition(b"\n")
    assert head.startswith(PAYLOAD_HEAD) and len(head) == len(PAYLOAD_HEAD) + 32
    data = decode_payload(first)
    assert data["spec"]["T"] == 300 and data["download"] == "perceptron" and "plotly" in data["assets"]
    at.run()
    assert _raw(at) == first
    at.sidebar.number_input(key="perceptron__seed").set_value(1).run()   # a new run: new bytes, a new first line
    assert _raw(at).partition(b"\n")[0] != head and decode_payload(_raw(at))["spec"]["run_id"] != data["spec"]["run_id"]
