"""Sound (issue 23 §3, after PhET): a short tone when the learner makes a mistake, higher as the run nears the
proof's bound. Off by default; a "Sound" switch in the sidebar of every page with the step viewer.

A viewer mode (assets/viewer_sound.js; docs/accessibility.md, "Sound"): stepping forward over a round where
the learner errs plays one tone of ≈ 0.1 s (soft attack and release), at most :data:`MAX_PER_SECOND` a second
during Play (the others are skipped); a step backward, a rebuild and the page's first draw are silent. Its
pitch goes from :data:`LOW_HZ` to :data:`HIGH_HZ` (evenly in octaves) as the potential's sandwich closes: the
position on the sandwich chart's axis (M, or the updates U) over where the proof's bounds cross (the largest
value the proof allows) — both read off the spec: the x of the chart's current-value markers (a ``point_state`` /
``point_position`` op) and the x of its ``meta: "crossing"`` trace. A page without a crossing (randomised FTRL)
sounds its mistakes at :data:`LOW_HZ`. Sound is an addition: the caption, the charts' descriptions and the
announcements say every mistake too.

The switch is bound to the URL like the other settings (``?sound=1``, written only when on): a link can turn it on (a projector in a
lecture hall), and a toggle's rerun is cheap — the run is cached (``st.cache_data``) and the viewer keeps its
round when only its modes change. The click on the switch is also the user gesture the browser asks for
before Web Audio may start.
"""
from __future__ import annotations

import math
from typing import Any

import streamlit as st

from olc_ui.shared import safe, state
from olc_ui.shared.config import Setting
from olc_ui.viewer.spec import MODES_KEY

__all__ = ["PAGE", "SETTINGS", "LOW_HZ", "HIGH_HZ", "MAX_PER_SECOND", "bind", "source", "options", "with_sound"]

PAGE = "sound"
LOW_HZ = 330.0          # a mistake far from the bound (E4)
HIGH_HZ = 880.0         # a mistake at the bound (A5)
MAX_PER_SECOND = 8      # during Play: at most this many tones a second
TONE_MS = 100           # a tone's length

SETTINGS = [Setting("sound", "Sound", "bool", False,
                    help="A short tone when the learner makes a mistake, higher as the run nears the proof's bound "
                         "(the sandwich closing). An addition only: the caption, the charts' descriptions and the "
                         "announcements say every mistake too. Off by default.")]


def bind(container=None) -> bool:
    """The switch (shared by every lesson), in the sidebar unless ``container``. Like presentation mode it is in
    the link only when on (``sound=1``, :data:`olc_ui.shared.state.URL_EXTRA_KEY`): a link without it is unchanged."""
    box = container if container is not None else st.sidebar.container(key="olc_sound_switch_side")
    on = bool(state.bind(PAGE, SETTINGS, container=box)["sound"])
    extra = {k: v for k, v in (st.session_state.get(state.URL_EXTRA_KEY) or {}).items() if k != "sound"}
    st.session_state[state.URL_EXTRA_KEY] = extra | ({"sound": "1"} if on else {})
    for problem in state.problems(PAGE):
        safe.notice("warning", "A setting in the link was not valid: ", f"{problem}.")
    return on


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def source(spec: dict) -> dict[str, Any]:
    """Where the pitch comes from: the first figure with a crossing — its current-value markers' x array
    (``x``, indexed ``by`` state or position) and the crossing's x (``bound`` > 0); {} when none.

    >>> from olc_ui.viewer.spec import minimal_spec
    >>> source(minimal_spec(T=3, mistakes=[1]))
    {}
    """
    arrays = spec.get("arrays") or {}
    for fig in spec.get("figures", []):
        data = (fig.get("figure") or {}).get("data") or []
        cross = [t for t in data if t.get("meta") == "crossing" and isinstance(t.get("x"), list) and t["x"]]
        if not cross or not _finite(cross[0]["x"][0]) or cross[0]["x"][0] <= 0:
            continue
        for op in fig.get("dynamic", []):
            xs = arrays.get(op.get("x")) if op.get("op") in ("point_state", "point_position") else None
            if isinstance(xs, list) and xs and all(v is None or _finite(v) for v in xs):
                return {"figure": fig["id"], "x": op["x"], "by": "state" if op["op"] == "point_state" else "position",
                        "bound": float(cross[0]["x"][0])}
    return {}


def options(spec: dict) -> dict[str, Any]:
    """The mode's options for ``spec``: the pitch range, the rate limit, the tone's length and :func:`source`."""
    return {"low": LOW_HZ, "high": HIGH_HZ, "per_second": MAX_PER_SECOND, "ms": TONE_MS, **source(spec)}


def with_sound(modes: dict[str, Any] | None, spec: dict, on: bool) -> dict[str, Any] | None:
    """The viewer modes of this run: ``modes`` (default: the page's, :data:`MODES_KEY`) plus ``sound`` when on."""
    if not on:
        return modes
    base = dict(modes) if modes is not None else dict(st.session_state.get(MODES_KEY) or {})
    return {**base, "sound": options(spec)}
