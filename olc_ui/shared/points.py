"""Points in the plane that a lesson learns from, shared by the Perceptron and the Margin Perceptron pages: the
data record a page loads (:class:`Data`) and the canvas a student clicks points onto (:func:`click_canvas`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from olc_ui.shared import chart_names
from olc_ui.shared import data as olc_data
from olc_ui.shared.common import count
from olc_ui.shared.config import Setting
from olc_ui.shared.state import set_value

__all__ = ["Data", "click_canvas", "canvas_figure", "canvas_text", "CLICK_STYLE", "CLICK_RANGE", "CANVAS_HEIGHT"]


@dataclass(frozen=True)
class Data:
    X: np.ndarray
    y: np.ndarray
    comparator: np.ndarray | None
    label: str          # what the data are, for titles
    key: str            # identifies the data (for caching and run ids)
    notes: tuple[str, ...] = ()
    flipped: np.ndarray | None = None
    margin: float | None = None   # the margin the stream was generated with (generated data only)


#: The click canvas's labels: colour and marker symbol, as the lesson's charts draw them.
CLICK_STYLE = {1: ("#1f6fb4", "circle"), -1: ("#d43a2f", "x")}
CLICK_RANGE = (-1.05, 1.05)
#: px: low enough that the whole canvas fits under the page's title and intro on a 1100×800 screen
CANVAS_HEIGHT = 300


def canvas_figure(X: np.ndarray, y: np.ndarray, label: int):
    """The click canvas: a grid of targets, the points so far, and axes that do not move as points arrive.

    Both label traces are always there (a placeholder point when empty), so the legend (above the
    plot) and the margins are the same before and after the first point; ``constrain="domain"``
    keeps the ranges exactly ``CLICK_RANGE`` whatever the width (the plot box shrinks to a square
    instead). Hovering a target shows the point about to be added, in its label's colour."""
    g = np.linspace(-1, 1, 41)
    gx, gy = np.meshgrid(g, g)
    color, symbol = CLICK_STYLE[label]
    fig = go.Figure()
    fig.add_scatter(x=gx.ravel(), y=gy.ravel(), mode="markers", name="click to add", showlegend=False,
                    marker={"size": 14, "color": "rgba(0,0,0,0.02)", "symbol": symbol},
                    hovertemplate=f"add y = {label:+d} at (%{{x:.2f}}, %{{y:.2f}})<extra></extra>",
                    hoverlabel={"bgcolor": color, "bordercolor": color, "font": {"color": "white"}})
    for lab, (col, sym) in CLICK_STYLE.items():
        m = y == lab
        fig.add_scatter(x=X[m, 0] if m.any() else [None], y=X[m, 1] if m.any() else [None], mode="markers",
                        name=f"y = {lab:+d}", marker={"size": 11, "color": col, "symbol": sym}, hoverinfo="skip")
    axis = {"range": list(CLICK_RANGE), "zeroline": True, "fixedrange": True, "constrain": "domain"}
    fig.update_layout(height=CANVAS_HEIGHT, margin={"l": 40, "r": 10, "t": 30, "b": 40, "autoexpand": False},
                      clickmode="event+select", dragmode=False, hovermode="closest", uirevision="canvas",
                      showlegend=True, legend={"orientation": "h", "x": 0, "y": 1.0, "yanchor": "bottom"},
                      xaxis=axis, yaxis={**axis, "scaleanchor": "x"})
    return fig


def canvas_text(X: np.ndarray, y: np.ndarray, label: int, listed: int = 10) -> str:
    """The canvas's text alternative: what a click does, and the points so far with their labels."""
    pts = [f"({X[i, 0]:.2f}, {X[i, 1]:.2f}) labelled {int(y[i]):+d}" for i in range(min(len(y), listed))]
    more = f", and {len(y) - listed} more" if len(y) > listed else ""
    return (f"A click on the square from {CLICK_RANGE[0]:g} to {CLICK_RANGE[1]:g} adds a point labelled {label:+d} "
            f"there. Points so far: {len(y)}" + (": " + "; ".join(pts) + more if pts else "") + ".")


def click_canvas(v: dict[str, Any], page: str, settings: list[Setting]) -> None:
    """A chart to click points onto (a grid of invisible targets), the label to give them, and a reset."""
    X, y = olc_data.decode_points(v["pts"])
    # the instruction before the canvas (on a 1100×800 screen the canvas's bottom is below the fold)
    st.markdown("**Click points onto the canvas:** pick the label of the next point on the right, then click "
                "on the canvas; each click adds one point there.")
    c1, c2 = st.columns([3, 1])
    with c2:
        label = st.radio("Label of the next point", [1, -1], format_func=lambda b: f"{b:+d}",
                         key=f"{page}_click_label")
        if st.button("Undo last point", disabled=len(y) == 0, key=f"{page}_click_undo"):
            set_value(page, settings, "pts", olc_data.encode_points(X[:-1], y[:-1]))
            st.rerun()
        if st.button("Clear all points", disabled=len(y) == 0, key=f"{page}_click_clear"):
            set_value(page, settings, "pts", "")
            st.rerun()
        st.caption(f"{count(len(y), 'point')}; at most {olc_data.MAX_CLICKED}.")
    with c1:
        ev = chart_names.plotly_chart(st, canvas_figure(X, y, int(label)), key=f"{page}_click_canvas_{len(y)}",
                                      name=f"Click canvas: {count(len(y), 'point')} so far; a click adds a point "
                                           f"labelled {int(label):+d}", text=canvas_text(X, y, int(label)),
                                      on_select="rerun", selection_mode="points", config={"displayModeBar": False})
    pts = (ev or {}).get("selection", {}).get("points", []) if isinstance(ev, dict) else \
        getattr(getattr(ev, "selection", None), "points", []) or []
    new = [(p["x"], p["y"]) for p in pts if p.get("curve_number", p.get("curveNumber")) == 0]
    if new and len(y) < olc_data.MAX_CLICKED:
        px, py = new[0]
        X2 = np.vstack([X, [[float(px), float(py)]]])
        y2 = np.append(y, float(label))
        set_value(page, settings, "pts", olc_data.encode_points(X2, y2))
        st.rerun()
