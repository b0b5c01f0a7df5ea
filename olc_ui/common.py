"""Pieces every lesson page shares: downloads of the trace and the figure, and small text helpers."""
from __future__ import annotations

import html

import numpy as np
import streamlit as st

from . import data as olc_data

__all__ = ["downloads", "figure_html", "rounds_text"]


def rounds_text(rounds, n: int = 8) -> str:
    """0-based rounds as the 1-based list a student reads: "3, 17, 42, … (15 in all)"."""
    rounds = np.asarray(rounds)
    shown = ", ".join(str(int(r) + 1) for r in rounds[:n])
    return shown + (f", … ({len(rounds)} in all)" if len(rounds) > n else "")


def figure_html(spec: dict, position: int) -> str:
    """A standalone HTML page (plotly.js inlined) with the viewer's figures as they stand at ``position``."""
    import plotly.graph_objects as go
    import plotly.io as pio

    from .snapshot import caption_at, figures_at, ledger_at

    title = html.escape(spec["figures"][0].get("title", "")) if spec["figures"] else ""
    parts = [f"<h2>{title} — round {position} of {spec['T']}</h2>",
             f"<p>{html.escape(caption_at(spec, position))}</p>"]
    for i, fig in enumerate(figures_at(spec, position)):
        parts.append(pio.to_html(go.Figure(fig), full_html=False, include_plotlyjs=(i == 0)))
    rows = ledger_at(spec, position)
    if rows:
        parts.append("<h3>Proof ledger at this round</h3><ul>")
        for r in rows:
            mark = {True: "✓", False: "✗", None: "—"}[r["holds"]]
            parts.append(f"<li>{mark} <code>{html.escape(r['latex'])}</code> — {html.escape(r['reason'])}</li>")
        parts.append("</ul>")
    return ("<!doctype html><html><head><meta charset='utf-8'><title>olc figure</title></head><body>"
            + "".join(parts) + "</body></html>")


def downloads(trace, spec: dict, position: int, name: str, X: np.ndarray | None = None,
              y: np.ndarray | None = None) -> None:
    """Download buttons: the trace (CSV, one row per round) and the figures at this round (HTML).

    Both files are built only when clicked (deferred), never on a rerun."""
    cols = st.columns(2)
    cols[0].download_button("Download the trace (CSV)", data=lambda: olc_data.trace_csv(trace, X, y),
                            file_name=f"{name}_trace.csv", mime="text/csv", on_click="ignore", key=f"{name}_dl_csv")
    cols[1].download_button("Download the figure at this round (HTML)", data=lambda: figure_html(spec, position),
                            file_name=f"{name}_round_{position}.html", mime="text/html", on_click="ignore",
                            key=f"{name}_dl_html")
