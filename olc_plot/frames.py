"""A step viewer's figure as a plotly figure with a slider over the rounds.

The app's browser applies a spec's dynamic ops (docs/viewer-spec.md) at each position;
:func:`olc_ui.viewer.snapshot.figures_at` applies the same ops in Python. Here every slider step is
such a snapshot: one plotly frame holding the figure's dynamic traces at that position (the static
traces are drawn once), so a notebook shows the picture the page shows, round by round.

>>> from olc_ui.viewer.spec import minimal_spec
>>> fig = from_spec(minimal_spec(T=4, mistakes=[1]), 0)
>>> [s["label"] for s in fig.layout.sliders[0].steps], fig.layout.sliders[0].active
(['0', '1', '2', '3', '4'], 4)
"""
from __future__ import annotations

try:
    import plotly.graph_objects as go
except ImportError as e:  # olc_core needs numpy only; pictures need plotly
    raise ImportError("olc_plot draws with plotly, which olc_core does not need: pip install plotly "
                      "(or, from the project, pip install \".[plot]\")") from e

from olc_ui.viewer.snapshot import figures_at
from olc_ui.viewer.spec import jsonable

__all__ = ["from_spec", "positions", "MAX_STEPS"]

#: slider steps at most (each is a frame of the dynamic traces)
MAX_STEPS = 200


def positions(spec: dict, max_steps: int = MAX_STEPS) -> list[int]:
    """The slider's positions: 0, T, every position where the state changes (``breaks``: the rounds just
    after a mistake) and evenly spaced ones between — at most ``max_steps`` (then the breaks are thinned
    evenly too).

    >>> positions({"T": 1000, "breaks": [3, 500]}, 6)
    [0, 3, 333, 500, 667, 1000]
    """
    T = int(spec["T"])
    if T + 1 <= max_steps:
        return list(range(T + 1))
    breaks = sorted({int(b) for b in spec.get("breaks", []) if 0 < int(b) < T})
    room = max(2, max_steps - 2)
    if len(breaks) > room // 2:
        keep = room // 2
        breaks = [breaks[round(i * (len(breaks) - 1) / max(1, keep - 1))] for i in range(keep)]
    even = room - len(breaks)
    grid = [round(T * (i + 1) / (even + 1)) for i in range(even)]
    return sorted({0, T, *breaks, *grid})[: max_steps + 1]


def _index(spec: dict, which: int | str) -> int:
    if isinstance(which, int):
        return which
    ids = [f["id"] for f in spec["figures"]]
    if which not in ids:
        raise ValueError(f"no figure {which!r} in this spec; its figures: {', '.join(ids)}")
    return ids.index(which)


def from_spec(spec: dict, which: int | str = 0, *, position: int | None = None, max_steps: int = MAX_STEPS,
              label: str = "round ") -> go.Figure:
    """Figure ``which`` (index or id) of a viewer spec, with a slider over :func:`positions` and a Play
    button; shown at ``position`` (default: the end of the run, ``T``)."""
    spec = jsonable(spec)
    i = _index(spec, which)
    entry = spec["figures"][i]
    dyn = sorted({op["trace"] for op in entry.get("dynamic", [])})
    steps = positions(spec, max_steps)
    at = steps[-1] if position is None else min(steps, key=lambda p: abs(p - int(position)))
    frames = []
    for p in steps:
        fig = figures_at(spec, p)[i]
        frames.append(go.Frame(name=str(p), data=[fig["data"][j] for j in dyn], traces=dyn))
    shown = figures_at(spec, at)[i]
    layout = dict(shown.get("layout", {}))
    title = (layout.pop("title", None) or {}).get("text") or entry.get("title", "")
    margin = dict(layout.get("margin") or {})
    below = int(margin.get("b", 40))                   # the axis, its title and the notes under it
    margin["b"] = below + 90                           # then the slider and the Play button
    margin["t"] = max(int(margin.get("t", 10)), 60)    # the title over the legend
    height = int(entry.get("height", 450)) + 140
    slider_y = -(below + 6) / max(100, height - margin["b"] - margin["t"])   # paper units under the notes
    layout.update(margin=margin, title={"text": title, "x": 0, "y": 0.995, "yanchor": "top"}, height=height)
    fig = go.Figure(data=shown["data"], layout=layout, frames=frames)
    now = {"mode": "immediate", "frame": {"duration": 0, "redraw": True}, "transition": {"duration": 0}}
    fig.update_layout(
        sliders=[{"active": steps.index(at), "currentvalue": {"prefix": label}, "pad": {"t": 0},
                  "y": slider_y, "yanchor": "top", "len": 0.85, "x": 0.15,
                  "steps": [{"label": str(p), "method": "animate", "args": [[str(p)], now]} for p in steps]}],
        updatemenus=[{"type": "buttons", "showactive": False, "x": 0, "y": slider_y, "yanchor": "top", "xanchor": "left",
                      "pad": {"t": 10}, "buttons": [
                          {"label": "Play", "method": "animate",
                           "args": [None, {**now, "frame": {"duration": 120, "redraw": True}, "fromcurrent": True}]},
                          {"label": "Pause", "method": "animate", "args": [[None], now]}]}])
    return fig
