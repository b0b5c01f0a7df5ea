"""A step of the viewer reruns the viewer alone (issue 34 §2; olc_ui/shared/page.py ``_viewer_part``): what lies
outside it — the download buttons — is not built again, so the offline file reads the round on screen when it is
clicked (``olc_ui.viewer.component.live_positions``), not the round of the page's last whole run. The protocol side
(a step as the browser sends it is a fragment's run) is tests/ui/test_load_protocol.py."""
from __future__ import annotations

import base64
import gzip
import json
import re

from olc_ui.viewer.component import LIVE_KEY
from tests.app.pagetest import open_page, page_path, viewer_spec
from tests.app.test_transcript_downloads import downloads  # noqa: F401  (the fixture)


def _spec_in(text: str) -> dict:
    b64 = re.search(r'<script type="application/octet-stream" id="olc-payload">([^<]*)</script>', text).group(1)
    return json.loads(gzip.decompress(base64.b64decode(b64)))["spec"]


def test_the_offline_file_opens_at_the_round_the_viewer_last_returned(downloads):
    at = open_page(page_path("perceptron"))
    assert not at.exception, at.exception
    spec = viewer_spec(at)
    run_id = str(spec["run_id"])
    live = at.session_state[LIVE_KEY]
    assert live[run_id] == spec["position"] == 0          # the page's run wrote where its viewer stands
    [data] = [d for label, d, _ in downloads if "offline" in label]
    assert _spec_in(data())["position"] == 0
    later = int(spec["mistake_rounds"][2]) + 1
    live[run_id] = later        # what a run of the viewer's fragment alone leaves (the buttons are not built again)
    assert _spec_in(data())["position"] == later
    live.pop(run_id)            # no run of this viewer known: the round of the page's run
    assert _spec_in(data())["position"] == 0
