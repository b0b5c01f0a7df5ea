"""The Bound explorer's sweep taken home (issue 36): as a notebook — the ``olc_core.sweep`` call the page's settings
make, a cell asserting that its table is the page's (every run's measured number, bound and ratio, and the medians
the page's table prints), the two charts drawn with plotly — and as one offline HTML file of the two charts with
their names and descriptions, the sentences under them and the table (olc_ui/shared/offline_charts.py).

Pure: the page hands every text and number (:func:`olc_ui.lessons.bound_explorer.lesson.take_home`); nothing here
reads the link. The values in a code cell are Python literals (``olc_ui.shared.notebook.literal``: floats with
every digit, NaN as ``np.nan``), the texts of a Markdown cell are escaped.
"""
from __future__ import annotations

import numpy as np

from olc_core._transcript.texdoc import clip, md_text

from olc_ui.shared import notebook as nb
from olc_ui.shared.offline_charts import Chart, charts_html

__all__ = ["notebook_text", "offline_text", "sweep_code", "CHARTS_CODE"]


def sweep_code(call: tuple) -> str:
    """``table = olc_core.sweep(…)``: the page's call, ``call`` = (learner, parameter, values, keywords)."""
    alg, p, values, kwargs = call
    args = "".join(f", {k}={nb.literal(v)}" for k, v in kwargs.items())
    return f"table = olc_core.sweep({alg!r}, {p!r}, {nb.literal(list(values))}{args})\ntable"


def _checks(table) -> str:
    """The cell asserting that the notebook's table is the page's."""
    s = table.summary()
    lines = [f"assert len(table) == {len(table)}",
             f"assert table['value'].tolist() == {nb.literal(table['value'].tolist())}",
             f"assert table['seed'].tolist() == {nb.literal(table['seed'].tolist())}"]
    for col, what in (("mistakes", "each run's measured number"), ("bound", "each run's bound (NaN: no bound)"),
                      ("ratio", "each run's measured / bound")):
        lines.append(f"assert np.array_equal(table[{col!r}], {nb.literal(np.asarray(table[col], dtype=np.float64))}, "
                     f"equal_nan=True)   # {what}")
    lines.append(f"assert table['holds'].tolist() == {nb.literal([bool(h) for h in table['holds']])}")
    lines.append("s = table.summary()   # the page's table: one row per swept value")
    for col in ("mistakes_median", "mistakes_min", "mistakes_max", "bound_median", "ratio_median", "ratio_max"):
        lines.append(f"assert np.array_equal(s[{col!r}], {nb.literal(np.asarray(s[col], dtype=np.float64))}, "
                     "equal_nan=True)")
    lines.append('print("The sweep is the page\'s:", len(table), "runs,", len(s["value"]), "values")')
    return "\n".join(lines)


#: the two charts, drawn from the notebook's own table as the page draws them (olc_ui/lessons/bound_explorer/view.py)
CHARTS_CODE = '''\
s = table.summary()
x = s["value"].tolist()
theorem_at = {}   # the theorem whose bound is drawn at each value (its first seed's), as on the page
for value, name in zip(table["value"].tolist(), table["proof"].tolist()):
    theorem_at.setdefault(value, str(name))
theorems = list(dict.fromkeys(theorem_at.values()))


def clean(a):   # a missing bound (NaN) is a gap in a line
    return [float(v) if np.isfinite(v) else None for v in np.asarray(a, dtype=float)]


def short(theorem):   # a proof's name for a legend: without the learner's name
    return theorem.split(", ", 1)[-1].replace("_γ", "ᵧ")


def by_theorem(ys):   # one series per theorem: points of two theorems are never joined
    ys = clean(ys)
    if len(theorems) <= 1:
        return [(None, ys)]
    return [(t, [y if theorem_at[v] == t else None for v, y in zip(x, ys)]) for t in theorems]


def bands(lo, hi, name, color, per_theorem=True):   # min–max over the seeds (one band per theorem)
    groups = [x] if len(theorems) <= 1 or not per_theorem else [[v for v in x if theorem_at[v] == t] for t in theorems]
    out = []
    for k, xs in enumerate(groups):
        idx = [x.index(v) for v in xs]
        top, bottom = clean(np.asarray(hi)[idx]), clean(np.asarray(lo)[idx])
        out.append(go.Scatter(x=xs + xs[::-1], y=top + bottom[::-1], fill="toself", fillcolor=color,
                              line={"width": 0}, name=name, hoverinfo="skip", mode="lines", legendgroup=name,
                              showlegend=k == 0))
    return out


def axes(fig, ylabel, log_y):
    xaxis = {"title": {"text": XLABEL}, "type": "log" if LOG_X else "linear"}
    if LOG_X and len(x) <= 10:
        xaxis.update(tickvals=x, ticktext=[f"{v:g}" for v in x])
    fig.update_layout(xaxis=xaxis, yaxis={"title": {"text": ylabel}, "type": "log" if log_y else "linear"},
                      height=470, legend={"orientation": "h", "y": -0.2, "yanchor": "top", "x": 0})


BLUE, RED = "#1f77b4", "#d62728"
positive = np.concatenate([s["mistakes_min"], s["bound_median"]])
positive = positive[np.isfinite(positive)]
log_y = bool(positive.size and positive.min() > 0 and positive.max() / positive.min() > 100)
mistakes = go.Figure(bands(s["mistakes_min"], s["mistakes_max"], "measured: min–max over seeds",
                           "rgba(31, 119, 180, 0.18)", per_theorem=False), layout_title=f"Measured {MEASURED} and the bound")
mistakes.add_scatter(x=x, y=clean(s["mistakes_median"]), mode="lines+markers", name=f"measured {MEASURED} (median)",
                     line={"color": BLUE, "width": 3})
if not np.allclose(np.nan_to_num(s["bound_max"]), np.nan_to_num(s["bound_min"]), rtol=1e-9, atol=0):
    mistakes.add_traces(bands(s["bound_min"], s["bound_max"], "bound: min–max over seeds", "rgba(214, 39, 40, 0.12)"))
for t, ys in by_theorem(s["bound_median"]):
    mistakes.add_scatter(x=x, y=ys, mode="lines+markers", connectgaps=False, marker={"symbol": "diamond"},
                         name="the theorem's bound" if t is None else f"bound: {short(t)}",
                         line={"color": RED, "width": 3, "dash": "dash"})
axes(mistakes, MEASURED, log_y)

ratio = go.Figure(bands(s["ratio_min"], s["ratio_max"], "min–max over seeds", "rgba(31, 119, 180, 0.18)"),
                  layout_title="Tightness: measured / bound")
for i, (t, ys) in enumerate(by_theorem(s["ratio_median"])):
    ratio.add_scatter(x=x, y=ys, mode="lines+markers", connectgaps=False,
                      name="measured / bound (median)" if t is None else f"median: {short(t)}",
                      line={"color": BLUE, "width": 3, "dash": ("solid", "dot", "dashdot", "longdash")[i % 4]})
ratio.add_scatter(x=[min(x), max(x)], y=[1.0, 1.0], mode="lines", name="ratio 1: the bound attained",
                  line={"color": RED, "width": 2, "dash": "dot"})
axes(ratio, "measured / bound", False)
top = np.nanmax(np.r_[s["ratio_max"], 1.0]) if np.isfinite(s["ratio_max"]).any() else 1.0
ratio.update_yaxes(range=[0, float(top) * 1.08])'''


def notebook_text(call: tuple, table, *, title: str, xlabel: str, measured: str, log_x: bool, held: str) -> str:
    """The sweep as a notebook (``.ipynb`` JSON text): ``call`` = (learner, parameter, values, keywords) of the
    page's ``olc_core.sweep``, ``table`` its result; ``title``, the axis label, the measured quantity's name, the
    spacing and ``held`` (the page's sentence on the runs and the settings held fixed) as the page shows them."""
    intro = "\n".join([
        f"# {md_text(clip(title, 200))}", "",
        "This notebook reruns the sweep of olc's *Bound explorer* page: `olc_core.sweep` with the page's settings "
        "(many seeded runs for each value of the swept parameter, each measured against its theorem's bound), a cell "
        "that checks that the table is the page's (every run's measured number, bound and ratio, and the medians "
        "and ranges of the page's table), then the page's two charts drawn with plotly from the table.", "",
        f"The page's sweep: {md_text(clip(held, 400))}.", "",
        "Needs the project installed with the plot extra: `pip install \".[plot]\"` (numpy, plotly); "
        "`table.to_pandas()` needs pandas."])
    constants = f"XLABEL = {xlabel!r}\nMEASURED = {measured!r}\nLOG_X = {log_x!r}"
    return nb.write([
        ("markdown", intro),
        ("code", "import numpy as np\nimport plotly.graph_objects as go\n\nimport olc_core"),
        ("markdown", "## The sweep"), ("code", sweep_code(call)),
        ("markdown", "## The check that it is the page's table"), ("code", _checks(table)),
        ("markdown", "## The two charts"), ("code", constants + "\n\n" + CHARTS_CODE + "\nmistakes.show()\nratio.show()"),
        ("markdown", "## Every run as a table (needs pandas)"), ("code", "table.to_pandas()")])


def offline_text(title: str, *, charts: list[tuple[str, str, dict]], notes: list[str], headline: str,
                 rows: list[dict]) -> str:
    """The sweep as one offline HTML file: ``charts`` as (name, description, figure), then the ``headline`` (the
    page's metrics in a sentence), the ``notes`` (the sentences under the page's charts) and the table ``rows``."""
    about = ["Saved from olc's page Bound explorer: the sweep's two charts, their descriptions and its table, all in "
             "this file (it needs no network).", headline]
    return charts_html(title, about=about, charts=[Chart(n, t, f) for n, t, f in charts], notes=notes,
                       table=("One row per swept value", rows))
