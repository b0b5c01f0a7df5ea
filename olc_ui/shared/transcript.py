"""The proof transcript's page side: what a page tells olc_core.transcript (its settings, the run's
title, an uploaded file's name), the file names, and the optional PNG export of a figure.

The transcript itself is built by ``olc_core.transcript`` from the trace alone (numpy only); this
module knows the pages: their declared settings (so a file name carries only the settings that
differ from the defaults) and where they keep an uploaded file.

PNG export drives the system Chromium through plotly's static export (``plotly.io.to_image`` with
kaleido ≥ 1, which finds a browser by ``BROWSER_PATH``); kaleido is optional (not a dependency of
the app): without it, :func:`png_available` is False and the page offers no PNG button.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import shutil

import streamlit as st

__all__ = ["link_settings", "changed_settings", "used_settings", "context", "png_available", "figure_png", "CHROMIUM"]

#: where the PNG export looks for a browser when BROWSER_PATH is not set
CHROMIUM = "/usr/bin/chromium"


def _upload_key(name: str) -> str | None:
    """The key under which the page that calls olc_ui.shared.common.downloads with ``name`` keeps an uploaded
    file (olc_ui.shared.uploads), or None for a page without uploads."""
    from olc_ui.lessons.exponentiated_update import lesson as eg_lesson
    from olc_ui.lessons.ftrl import lesson as ftrl_lesson
    from olc_ui.lessons.margin_perceptron import lesson as margin_lesson
    from olc_ui.lessons.perceptron import lesson as perceptron_lesson
    from olc_ui.lessons.winnow import lesson as winnow_lesson

    return {"perceptron": perceptron_lesson.PAGE, "margin_perceptron": margin_lesson.PAGE,
            "winnow": winnow_lesson.PAGE, "exponentiated_update": eg_lesson.PAGE, "ftrl": ftrl_lesson.PAGE}.get(name)


def link_settings() -> dict[str, str]:
    """Every setting of the page's link as the page last wrote it (the viewer's round ``t`` left out):
    what the transcript's setting lists."""
    from olc_ui.shared.state import URL_KEY

    got = st.session_state.get(URL_KEY) or {}
    return {str(k): str(v) for k, v in dict(got).items() if k != "t"}


def _page_settings(name: str) -> list:
    """The declared settings of the page that calls olc_ui.shared.common.downloads with ``name`` (its defaults)."""
    from olc_ui.lessons.boolean_concepts import lesson as B
    from olc_ui.lessons.compare import lesson as C
    from olc_ui.lessons.exponentiated_update import lesson as G
    from olc_ui.lessons.experts import lesson as E
    from olc_ui.lessons.ftrl import lesson as F
    from olc_ui.lessons.halving import lesson as H
    from olc_ui.lessons.margin_perceptron import lesson as M
    from olc_ui.lessons.perceptron import lesson as P
    from olc_ui.lessons.winnow import lesson as W

    table = {"perceptron": P.SETTINGS + P.TD_SETTINGS, "margin_perceptron": M.SETTINGS, "experts": E.SETTINGS,
             "halving": H.SETTINGS, "boolean": B.MODE_SETTINGS + [s for g in B.GROUPS.values() for s in g],
             "winnow": W.SETTINGS, "exponentiated_update": G.SETTINGS, "ftrl": F.SETTINGS, "compare": C.SETTINGS}
    if name in table:
        return table[name]
    return next((v for k, v in table.items() if name.startswith(k + "_")), [])


def changed_settings(name: str, settings: dict[str, str]) -> dict[str, str]:
    """The link's declared settings that differ from the page's defaults, free text left out (all of them
    for an unknown page): what a file name carries, e.g. perceptron-gamma0.2-seed3-proof.md."""
    from olc_ui.shared.config import encode

    declared = {s.key: s for s in _page_settings(name)}
    if not declared:
        return dict(settings)
    # free text (clicked points, a game's moves) identifies no setting a reader would name a file by
    return {k: v for k, v in settings.items()
            if k in declared and declared[k].kind != "text" and encode(declared[k], declared[k].default) != v}


def _used_keys(name: str, v: dict, trace) -> set[str] | None:
    """The settings of the page that calls olc_ui.shared.common.downloads with ``name`` that the run with the
    values ``v`` (and ``trace``) uses: the ones with a widget for these values (each page's own
    ``visible``), less those a switch turns off (the exponentiated update's η slider while the optimal
    η* is on), plus the page's own text (clicked points) when the data are those. None: unknown page."""
    from olc_ui.lessons.boolean_concepts import lesson as B
    from olc_ui.lessons.compare import lesson as C
    from olc_ui.lessons.exponentiated_update import lesson as G
    from olc_ui.lessons.experts import lesson as E
    from olc_ui.lessons.ftrl import lesson as F
    from olc_ui.lessons.halving import lesson as H
    from olc_ui.lessons.margin_perceptron import lesson as M
    from olc_ui.lessons.perceptron import lesson as P
    from olc_ui.lessons.winnow import lesson as W

    clicked = {"pts"} if v.get("data") == "click" else set()
    if name == "perceptron":
        td = set()
        if trace is not None and not trace.proof.applies:  # the page shows the TD_γ bound and its settings
            td = {"gbest"} | (set() if v.get("gbest") else {"gtd"})
        return P.visible(v) | clicked | td
    if name == "margin_perceptron":
        return M.visible(v) | clicked
    if name == "winnow":
        return W.visible_data(v) | {s.key for s in W.LEARNER_SETTINGS}
    if name == "exponentiated_update":
        return G.visible(v) | {"eta_opt"} | (set() if v.get("eta_opt") else {"eta"})
    if name == "ftrl":
        return F.visible(v)
    if name == "halving":
        return H.visible(v)
    if name.startswith("experts_"):
        return E.visible(v)
    if name.startswith("compare_"):
        return C.visible(v)
    if name == "boolean_conjunction":
        return {s.key for s in B.MODE_SETTINGS} | B.conj_visible(v)
    if name == "boolean_decision_list":
        return {s.key for s in B.MODE_SETTINGS} | B.dl_visible(v)
    return None


def used_settings(name: str, settings: dict[str, str], trace=None) -> dict[str, str]:
    """The link's settings that the run uses: a setting the run ignores (a margin δ for ±1 data whose δ is
    1/k, the η slider while the optimal η* is on, the experts' β on the compare page's sparse preset) is
    left out, so the transcript's list never contradicts the run's parameters. Settings the page does
    not declare, and every setting of a page this does not know, are kept."""
    from olc_ui.shared.config import url_values

    declared = _page_settings(name)
    if not declared:
        return dict(settings)
    values, _ = url_values(declared, settings)
    try:
        used = _used_keys(name, values, trace)
    except (KeyError, TypeError, ValueError):  # a page's values this does not understand: keep the link whole
        used = None
    if used is None:
        return dict(settings)
    keys = {s.key for s in declared}
    return {k: v for k, v in settings.items() if k not in keys or k in used}


def context(trace, spec: dict, name: str) -> dict:
    """What the transcript says about the page: its name, the run's title, the link's settings that the run
    uses (:func:`used_settings`) and an uploaded file's name. All of it is passed on as untrusted text
    (olc_core.transcript escapes it)."""
    from olc_ui.shared import uploads

    settings = used_settings(name, link_settings(), trace)
    source = None
    key = _upload_key(name) if settings.get("data") == "upload" else None
    if key is not None:
        kept = uploads.kept(key)
        source = kept["name"] if kept else None
    title = (spec.get("figures") or [{}])[0].get("title", "") if isinstance(spec, dict) else ""
    return {"page": name, "title": title, "settings": settings, "source": source}


def _browser() -> str | None:
    path = os.environ.get("BROWSER_PATH") or os.environ.get("CHROMIUM_PATH") or CHROMIUM
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else shutil.which("chromium")


@functools.lru_cache(maxsize=1)
def png_available() -> bool:
    """True when a figure can be exported as PNG here: kaleido (≥ 1) is installed and a Chromium found."""
    spec = importlib.util.find_spec("kaleido")
    if spec is None or _browser() is None:
        return False
    try:
        from importlib.metadata import version
        return int(version("kaleido").split(".")[0]) >= 1
    except Exception:  # pragma: no cover - a broken install
        return False


def figure_png(spec: dict, position: int, index: int = 0, *, width: int = 1000, height: int | None = None) -> bytes:
    """The spec's figure ``index`` at ``position`` as PNG bytes, drawn by plotly's static export in the
    system Chromium (offline: plotly.js comes from the installed plotly package)."""
    if not png_available():
        raise RuntimeError("PNG export needs the optional package kaleido (>= 1) and a Chromium "
                           f"(BROWSER_PATH, or {CHROMIUM})")
    import plotly.graph_objects as go
    import plotly.io as pio

    from olc_ui.viewer.snapshot import figures_at

    os.environ.setdefault("BROWSER_PATH", _browser())
    figs = figures_at(spec, position)
    fig = figs[index]
    fig.get("layout", {}).pop("title", None)  # as figure_html does: a plotly title sits under the legend
    h = height or int(spec["figures"][index].get("height", 600))
    return pio.to_image(go.Figure(fig), format="png", width=width, height=h)
