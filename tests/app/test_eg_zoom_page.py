"""AppTest: the exponentiated update's zoom on the run, on its page, in normal and presentation mode."""
from __future__ import annotations

import pytest

from olc_ui.viewer.snapshot import figures_at
from tests.app.pagetest import open_page, page_path, viewer_spec
from tests.ui.test_eg_view import zoom_clear_of_curves

PAGE = page_path("exponentiated_update")


@pytest.mark.parametrize("present", ["0", "1"])
def test_the_zoom_covers_no_curve_and_no_legend_on_the_page(present):
    """Defect (as on the Compare page, presentation mode): the zoom's title lay over its curves and its ticks on the
    main plot's ln N − C·M line. On the page (N = 100, k = 9, T = 600: the crossing far), mid-run and at the end."""
    at = open_page(PAGE, timeout=120, N=100, k=9, T=600, present=present)
    assert not at.exception and not at.error
    spec = viewer_spec(at)
    for p in (200, spec["T"]):
        [fig] = [f for f in figures_at(spec, p) if "xaxis2" in f["layout"]]
        zoom_clear_of_curves(fig)
