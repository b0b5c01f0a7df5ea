"""The proof transcript's page side: what a page tells olc_core.transcript (its settings, the run's
title, an uploaded file's name), the file names, and the optional PNG export of a figure.

The transcript itself is built by ``olc_core.transcript`` from the trace alone (numpy only); each lesson
hands this module its :class:`PageSettings`: its declared settings (so a file name carries only the settings
that differ from the defaults), the ones a run uses, and where it keeps an uploaded file.

PNG export drives the system Chromium through plotly's static export (``plotly.io.to_image`` with
kaleido ≥ 1, which finds a browser by ``BROWSER_PATH``); kaleido is optional (not a dependency of
the app): without it, :func:`png_available` is False and the page offers no PNG button.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import shutil
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any, Callable

import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from olc_ui.shared import uploads
from olc_ui.shared.config import Setting, encode, url_values
from olc_ui.shared.state import URL_KEY
from olc_ui.viewer.snapshot import figures_at

__all__ = ["PageSettings", "link_settings", "changed_settings", "used_settings", "context", "data_call", "png_available",
           "figure_png", "CHROMIUM"]

#: where the PNG export looks for a browser when BROWSER_PATH is not set
CHROMIUM = "/usr/bin/chromium"


@dataclass(frozen=True)
class PageSettings:
    """What a page tells the transcript about its settings: the ones it declares (with their defaults);
    ``used(values, trace)``, the keys of those a run with these values uses (None: all of them); the key
    under which it keeps an uploaded file (olc_ui.shared.uploads; None: a page without uploads); and
    ``recipe(values)``, the ``olc_core.streams`` call its data come from with these values
    (olc_ui.shared.notebook.DataCall; None: not one call — the notebook then embeds the data)."""
    declared: list[Setting]
    used: Callable[[dict[str, Any], Any], set[str]] | None = None
    upload_key: str | None = None
    recipe: Callable[[dict[str, Any]], Any] | None = None


def link_settings() -> dict[str, str]:
    """Every setting of the page's link as the page last wrote it (the viewer's round ``t`` left out):
    what the transcript's setting lists."""
    got = st.session_state.get(URL_KEY) or {}
    return {str(k): str(v) for k, v in dict(got).items() if k != "t"}


def changed_settings(page: PageSettings | None, settings: dict[str, str]) -> dict[str, str]:
    """The link's declared settings that differ from the page's defaults, free text left out (all of them
    for a page that declares none): what a file name carries, e.g. perceptron-gamma0.2-seed3-proof.md."""
    declared = {s.key: s for s in (page.declared if page else [])}
    if not declared:
        return dict(settings)
    # free text (clicked points, a game's moves) identifies no setting a reader would name a file by
    return {k: v for k, v in settings.items()
            if k in declared and declared[k].kind != "text" and encode(declared[k], declared[k].default) != v}


def used_settings(page: PageSettings | None, settings: dict[str, str], trace=None) -> dict[str, str]:
    """The link's settings that the run uses (``page.used``): a setting the run ignores (a margin δ for ±1 data
    whose δ is 1/k, the η slider while the optimal η* is on, the experts' β on the compare page's sparse preset)
    is left out, so the transcript's list never contradicts the run's parameters. Settings the page does
    not declare, and every setting of a page that declares none or says nothing of what a run uses, are kept."""
    if page is None or not page.declared or page.used is None:
        return dict(settings)
    values, _ = url_values(page.declared, settings)
    try:
        used = page.used(values, trace)
    except (KeyError, TypeError, ValueError):  # a page's values this does not understand: keep the link whole
        return dict(settings)
    keys = {s.key for s in page.declared}
    return {k: v for k, v in settings.items() if k not in keys or k in used}


def context(trace, spec: dict, name: str, page: PageSettings | None = None) -> dict:
    """What the transcript says about the page: its name, the run's title, the link's settings that the run
    uses (:func:`used_settings`) and an uploaded file's name. All of it is passed on as untrusted text
    (olc_core.transcript escapes it)."""
    settings = used_settings(page, link_settings(), trace)
    source = None
    key = page.upload_key if page is not None and settings.get("data") == "upload" else None
    if key is not None:
        kept = uploads.kept(key)
        source = kept["name"] if kept else None
    title = (spec.get("figures") or [{}])[0].get("title", "") if isinstance(spec, dict) else ""
    return {"page": name, "title": title, "settings": settings, "source": source}


def data_call(page: PageSettings | None, settings: dict[str, str]):
    """The page's ``recipe`` for the link's settings (None without one, or when it does not understand them)."""
    if page is None or page.recipe is None:
        return None
    values, _ = url_values(page.declared, settings)
    try:
        return page.recipe(values)
    except (KeyError, TypeError, ValueError):
        return None


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
        return int(version("kaleido").split(".")[0]) >= 1
    except Exception:  # pragma: no cover - a broken install
        return False


def figure_png(spec: dict, position: int, index: int = 0, *, width: int = 1000, height: int | None = None) -> bytes:
    """The spec's figure ``index`` at ``position`` as PNG bytes, drawn by plotly's static export in the
    system Chromium (offline: plotly.js comes from the installed plotly package)."""
    if not png_available():
        raise RuntimeError("PNG export needs the optional package kaleido (>= 1) and a Chromium "
                           f"(BROWSER_PATH, or {CHROMIUM})")
    os.environ.setdefault("BROWSER_PATH", _browser())
    figs = figures_at(spec, position)
    fig = figs[index]
    fig.get("layout", {}).pop("title", None)  # as figure_html does: a plotly title sits under the legend
    h = height or int(spec["figures"][index].get("height", 600))
    return pio.to_image(go.Figure(fig), format="png", width=width, height=h)
