"""A step-viewer spec for a 2-D Perceptron run, built from the trace's arrays and proof series.

Pure data (numpy in, JSON-ready dict out): used by the demo app ``viewer_demo.py``,
the browser tests and ``bench/ui_latency.py``. A lesson page can lift it into olc_ui.

Main figure: the stream's points by label as not-yet-seen (faint) / seen / current,
drawn on the viewer's canvas layer (``rows_all`` + ``rows_before``: O(new rows) per
frame whatever T is); w*·x = 0; the current hyperplane w·x = 0 clipped to the view
and the five before it, faded; at a mistake the arrows w_t, y_t x_t and w_{t+1}
(scaled together to fit the view). Sandwich figure: the proof's four series against
the mistake count M, with a marker at the current state. Ledger: two lines with the
numbers substituted and the proof's own check (``proof.check_matrix()``) as ✓ / ✗.
"""
from __future__ import annotations

import numpy as np

from olc_ui.shared.describe_view import Describer
from olc_ui.viewer.spec import jsonable

BLUE, RED, GREY = "#1f6fb4", "#d43a2f", "#7f7f7f"
ND = 4  # decimals kept for plotted coordinates


def _clip_line(w: np.ndarray, L: float) -> list[list[float]] | None:
    """Endpoints of the line w·x = 0 inside the square [-L, L]², as [[x0, x1], [y0, y1]]."""
    n = float(np.hypot(w[0], w[1]))
    if n == 0.0:
        return None
    d = np.array([-w[1], w[0]]) / n              # direction of the line
    s = min(L / abs(d[0]) if d[0] else np.inf, L / abs(d[1]) if d[1] else np.inf)
    a, b = d * s, -d * s
    return [[round(float(a[0]), ND), round(float(b[0]), ND)], [round(float(a[1]), ND), round(float(b[1]), ND)]]


def _decimate(x: np.ndarray, y: np.ndarray, n_max: int) -> tuple[np.ndarray, np.ndarray]:
    """At most ~n_max points of a curve, keeping each bucket's first, min and max (the shape survives)."""
    if len(x) <= n_max:
        return x, y
    edges = np.linspace(0, len(x), n_max // 3 + 1).astype(int)
    keep = {0, len(x) - 1}
    for a, b in zip(edges[:-1], edges[1:]):
        if b > a:
            seg = y[a:b]
            keep.update((a, a + int(np.nanargmin(seg)), a + int(np.nanargmax(seg))))
    idx = np.array(sorted(keep))
    return x[idx], y[idx]


def _holds(proof, links: list[str], lhs_rhs: list[tuple[str, str]], idx: np.ndarray) -> list:
    """Per state: 1 if every link holds, 0 if one fails, None while a side is undefined (NaN).
    ``idx``: the proof's entry for each mistake state (a proof checked every round has T + 1)."""
    bad = np.zeros(len(idx), dtype=bool)
    defined = np.ones(len(idx), dtype=bool)
    mat = proof.check_matrix()
    for name, (lo, hi) in zip(links, lhs_rhs):
        bad |= mat[name][idx]
        defined &= np.isfinite(proof.series[lo][idx]) & np.isfinite(proof.series[hi][idx])
    return [None if not d else (0 if b else 1) for b, d in zip(bad.tolist(), defined.tolist())]


def _sig(a: np.ndarray, digits: int = 10) -> list:
    """Values to ``digits`` significant digits (the ledger prints at most ~6): a smaller spec."""
    return [None if not np.isfinite(x) else float(f"{x:.{digits}g}") for x in np.asarray(a, dtype=float)]


def _arrow(x0, y0, x1, y1) -> tuple[list, list]:
    return [round(float(x0), ND), round(float(x1), ND)], [round(float(y0), ND), round(float(y1), ND)]


def build_spec(trace, X: np.ndarray, y: np.ndarray, *, run_id: str, position: int = 0, title: str = "",
               view: float = 1.12, curve_points: int = 300) -> dict:
    """The viewer spec for a Perceptron ``trace`` on the 2-D stream ``(X, y)``."""
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    T = int(trace.T)
    if X.shape != (T, 2):
        raise ValueError(f"build_spec draws 2-D streams (X has shape {X.shape})")
    mistakes = np.asarray(trace.mistakes, dtype=np.int64)
    breaks = mistakes + 1
    K = len(breaks) + 1
    proof = trace.proof if trace.proof.applies else trace.proofs["nonseparable"]
    separable = proof is trace.proof
    # this app steps state by state: a proof checked before every round (the TD_γ proof) is read
    # at the start of each mistake state
    if proof.K == K:
        idx = np.arange(K)
    elif proof.K == T + 1:
        idx = np.concatenate([[0], breaks])
    else:
        raise ValueError("the proof's states are not the mistakes of this run")
    L = float(view)

    # weights in each state (state k: after the k-th mistake)
    W = np.zeros((K, 2))
    for k in range(1, K):
        W[k] = trace.weights_at(int(breaks[k - 1]))

    pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y <= 0)
    arrays: dict = {
        "r_pos": pos, "x_pos": X[pos, 0].round(ND), "y_pos": X[pos, 1].round(ND),
        "r_neg": neg, "x_neg": X[neg, 0].round(ND), "y_neg": X[neg, 1].round(ND),
    }
    hp = [_clip_line(W[k], L) for k in range(K)]
    arrays["hp_x"] = [h[0] if h else None for h in hp]
    arrays["hp_y"] = [h[1] if h else None for h in hp]
    # arrows at the mistake that ends in state k (k = 1 … K-1), scaled together to fit
    aw_x, aw_y, ax_x, ax_y, an_x, an_y = [], [], [], [], [], []
    for k in range(1, K):
        w0, w1 = W[k - 1], W[k]
        yx = w1 - w0
        s = min(1.0, 0.92 * L / max(np.hypot(*w0), np.hypot(*w1), np.hypot(*yx), 1e-12))
        for (xs, ys), (ox, oy) in ((_arrow(0, 0, *(s * w0)), (aw_x, aw_y)),
                                   (_arrow(*(s * w0), *(s * w1)), (ax_x, ax_y)),
                                   (_arrow(0, 0, *(s * w1)), (an_x, an_y))):
            ox.append(xs)
            oy.append(ys)
    arrays.update(aw_x=aw_x, aw_y=aw_y, ax_x=ax_x, ax_y=ax_y, an_x=an_x, an_y=an_y)

    # ---------------------------------------------------------------- main figure
    def pts(name, color, symbol, size, opacity, legend=True, line=None):
        mk = {"color": color, "symbol": symbol, "size": size, "opacity": opacity}
        if line:
            mk["line"] = line
        return {"type": "scatter", "mode": "markers", "name": name, "x": [], "y": [], "marker": mk,
                "showlegend": legend, "hoverinfo": "skip"}

    def line(name, color, width, dash="solid", legend=True, opacity=1.0):
        return {"type": "scatter", "mode": "lines", "name": name, "x": [], "y": [], "showlegend": legend,
                "line": {"color": color, "width": width, "dash": dash}, "opacity": opacity, "hoverinfo": "skip"}

    def arrow(name, color):
        return {"type": "scatter", "mode": "lines+markers", "name": name, "x": [], "y": [], "hoverinfo": "skip",
                "line": {"color": color, "width": 3},
                "marker": {"symbol": "arrow", "angleref": "previous", "size": [0, 14], "color": color}}

    wstar = trace.info.get("comparator")
    star = _clip_line(np.asarray(wstar, dtype=float), L) if wstar is not None else None
    data = [
        pts("not seen yet", "#8fb3d6", "circle", 6, 0.45),                      # 0 canvas rows_all +1
        pts("not seen yet (−1)", "#e5a19b", "x", 6, 0.55, legend=False),        # 1 canvas rows_all −1
        pts("seen, y = +1", BLUE, "circle", 7, 0.9),                           # 2 canvas rows_before +1
        pts("seen, y = −1", RED, "x", 7, 0.95),                                # 3 canvas rows_before −1
        {**line("w*·x = 0", "#2ca02c", 2, "dash"),                              # 4 static
         "x": star[0] if star else [], "y": star[1] if star else []},
        line("earlier w·x = 0", GREY, 1.5, "dot", opacity=0.7),                # 5 state_window
        line("w·x = 0", "#111111", 3.5),                                       # 6 state
        arrow("wₜ", "#7a7a7a"),                                                # 7 on_mistake
        arrow("yₜxₜ", "#ff8c00"),                                              # 8 on_mistake
        arrow("wₜ₊₁", "#2a9d3f"),                                              # 9 on_mistake
        pts("current, y = +1", BLUE, "circle", 17, 1.0, line={"color": "#000", "width": 2.5}),   # 10
        pts("current, y = −1", RED, "x", 17, 1.0, line={"color": "#000", "width": 1.5}),         # 11
    ]
    axis = {"range": [-L, L], "zeroline": True, "zerolinecolor": "#d0d0d0", "gridcolor": "#ececec",
            "fixedrange": True, "tickfont": {"size": 13}}
    main = {
        "id": "main", "title": title or "The stream and the Perceptron's hyperplane", "height": 600,
        "figure": {"data": data, "layout": {
            "xaxis": {**axis, "title": {"text": "x₁"}},
            "yaxis": {**axis, "title": {"text": "x₂"}, "scaleanchor": "x", "scaleratio": 1},
            "margin": {"l": 50, "r": 10, "t": 10, "b": 45},
            "legend": {"orientation": "h", "y": 1.01, "yanchor": "bottom", "x": 0, "font": {"size": 13}},
            "font": {"size": 14}, "plot_bgcolor": "#ffffff", "paper_bgcolor": "#ffffff",
        }},
        "config": {"displayModeBar": False},
        "dynamic": [
            {"trace": 0, "op": "rows_all", "render": "canvas", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"},
            {"trace": 1, "op": "rows_all", "render": "canvas", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"},
            {"trace": 2, "op": "rows_before", "render": "canvas", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"},
            {"trace": 3, "op": "rows_before", "render": "canvas", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"},
            {"trace": 5, "op": "state_window", "x": "hp_x", "y": "hp_y", "back": 5},
            {"trace": 6, "op": "state", "x": "hp_x", "y": "hp_y"},
            {"trace": 7, "op": "on_mistake", "x": "aw_x", "y": "aw_y"},
            {"trace": 8, "op": "on_mistake", "x": "ax_x", "y": "ax_y"},
            {"trace": 9, "op": "on_mistake", "x": "an_x", "y": "an_y"},
            {"trace": 10, "op": "row_current", "rounds": "r_pos", "x": "x_pos", "y": "y_pos"},
            {"trace": 11, "op": "row_current", "rounds": "r_neg", "x": "x_neg", "y": "y_neg"},
        ],
    }

    # ---------------------------------------------------------------- sandwich figure
    S = {key: proof.series[key][idx] for key in proof.series}
    lower = "M_gamma" if separable else "td_lower"
    names = [(lower, "Mγ" if separable else "γM − TD_γ", "#9467bd"), ("inner", "⟨w*, w⟩", "#2ca02c"),
             ("norm", "‖w‖", "#111111"), ("sqrtM_R", "√M·R", "#d62728")]
    M = np.arange(K, dtype=np.float64)
    arrays["M_s"] = list(range(K))
    sdata, sdyn = [], []
    ymin, ymax = 0.0, 1.0
    for key, label, color in names:
        v = S[key]
        fin = v[np.isfinite(v)]
        if fin.size:
            ymin, ymax = min(ymin, float(fin.min())), max(ymax, float(fin.max()))
        cx, cy = _decimate(M, v, curve_points)
        sdata.append({"type": "scatter", "mode": "lines", "name": label, "x": cx, "y": cy.round(ND),
                      "line": {"color": color, "width": 2.5}, "hoverinfo": "skip"})
        arrays[f"s_{key}"] = v.round(ND)
    for i, (key, label, color) in enumerate(names):
        sdata.append({"type": "scatter", "mode": "markers", "name": label, "showlegend": False, "x": [], "y": [],
                      "marker": {"color": color, "size": 13, "line": {"color": "#fff", "width": 2}},
                      "hoverinfo": "skip"})
        sdyn.append({"trace": len(names) + i, "op": "point_state", "x": "M_s", "y": f"s_{key}"})
    pad = 0.05 * (ymax - ymin)
    sandwich = {
        "id": "sandwich", "title": "The sandwich against the number of mistakes M", "height": 330,
        "figure": {"data": sdata, "layout": {
            "xaxis": {"title": {"text": "mistakes M"}, "range": [-0.02 * max(K - 1, 1), (K - 1) * 1.02 + 0.5],
                      "fixedrange": True, "gridcolor": "#ececec", "tickfont": {"size": 13}},
            "yaxis": {"range": [ymin - pad, ymax + pad], "fixedrange": True, "gridcolor": "#ececec",
                      "tickfont": {"size": 13}},
            "margin": {"l": 50, "r": 10, "t": 10, "b": 45},
            "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0, "font": {"size": 13}},
            "font": {"size": 14}, "plot_bgcolor": "#ffffff", "paper_bgcolor": "#ffffff",
        }},
        "config": {"displayModeBar": False},
        "dynamic": sdyn,
    }

    # ---------------------------------------------------------------- ledger
    reasons = proof.chains[0].reasons
    g = float(proof.constants["gamma"])
    state = lambda a, fmt: {"by": "state", "data": _sig(a), "fmt": fmt}  # noqa: E731
    # {k} (built in: the state index) is M for the Perceptron; a value named M would also
    # replace the symbol in \sqrt{M} (every {name} of a value is substituted)
    vals = {"gamma": {"const": g, "fmt": ".3g"},
            "lo": state(S[lower], ".4g"), "inner": state(S["inner"], ".4g"), "norm": state(S["norm"], ".4g"),
            "sMR": state(S["sqrtM_R"], ".4g"), "R": {"const": float(proof.constants["radius"]), "fmt": ".3g"}}
    if separable:
        first = {"latex": r"M\gamma = {k}\cdot{gamma} = {lo} \;\le\; \langle w^*, w\rangle = {inner}",
                 "values": {k: vals[k] for k in ("gamma", "lo", "inner")}}
    else:
        vals["td"] = state(S["TD"], ".4g")
        first = {"latex": r"\gamma M - \mathrm{TD}_\gamma = {gamma}\cdot{k} - {td} = {lo} \;\le\; "
                          r"\langle w^*, w\rangle = {inner}",
                 "values": {k: vals[k] for k in ("gamma", "td", "lo", "inner")}}
    first.update(holds={"by": "state", "data": _holds(proof, [f"{lower} ≤ inner"], [(lower, "inner")], idx)},
                 reason=reasons[0])
    second = {"latex": r"\langle w^*, w\rangle = {inner} \;\le\; \lVert w\rVert = {norm} \;\le\; "
                       r"\sqrt{M}\,R = \sqrt{{k}}\cdot{R} = {sMR}",
              "values": {k: vals[k] for k in ("inner", "norm", "R", "sMR")},
              "holds": {"by": "state", "data": _holds(proof, ["inner ≤ norm", "norm ≤ sqrtM_R"],
                                                      [("inner", "norm"), ("norm", "sqrtM_R")], idx)},
              "reason": f"{reasons[1]}; {reasons[2]}"}
    ledger = {"title": "Proof ledger" + ("" if separable else f" (TD_γ proof, γ = {g:.3g})"),
              "lines": [first, second]}

    # ---------------------------------------------------------------- caption
    pred = np.asarray(trace.predictions)
    caption = {
        "template": "Round {t} of {T}: y = {y}, ŷ = {yhat} → {what} · mistakes so far M = {k}",
        "start": "Round 0 of {T}: nothing seen yet, w = 0. Press Next or Play.",
        "values": {
            "y": {"by": "round", "data": np.where(y > 0, 1, -1), "fmt": "+d"},
            "yhat": {"by": "round", "data": (np.sign(pred).astype(int) + 1), "fmt": "text",
                     "labels": ["−1", "0", "+1"]},
            "what": {"by": "round", "data": np.asarray(trace.columns["is_mistake"]).astype(int),
                     "fmt": "text", "labels": ["correct", "MISTAKE: w ← w + y x"]},
        },
    }
    spec = {
        "version": 1, "run_id": run_id, "T": T, "position": int(position), "url_param": "t",
        "breaks": breaks, "mistake_rounds": mistakes, "arrays": arrays,
        "figures": [main, sandwich], "ledger": ledger, "caption": caption,
        "layout": {"columns": [["main"], ["sandwich", "ledger"]], "widths": [1.15, 1]},
        "speed": 10 if T <= 600 else 200,
    }
    spec = jsonable(spec)
    _describe(spec, proof)   # every figure carries a description written from the run (validate_spec asks)
    return spec


def _describe(spec: dict, proof) -> None:
    main, sandwich = spec["figures"]
    D = Describer(spec)
    main["describe"] = D.build("The stream and the Perceptron's line", (
        f"The stream and the Perceptron's line at round {{t}} of {{T}}: label {D.caption('yₜ', 'y')}, the "
        f"prediction {D.caption('ŷₜ', 'yhat')}: " + D.caption("outcome", "what", bare=True)
        + "; mistakes so far M = {k}."), start="The stream and the Perceptron's line at round {t} of {T}: "
                                               "nothing seen yet.")
    D = Describer(spec)
    chain = D.chain(proof, [("inner", "⟨w*, w⟩"), ("norm", "‖w‖"), ("sqrtM_R", "√M·R")])
    sandwich["describe"] = D.build("The sandwich", f"The sandwich at round {{t}} of {{T}}: {chain}.")
