"""Every lesson page's viewer spec as the page builds it (its settings' defaults, plus the variants a class
sees: label noise on the Perceptron, RWM and Halving on the experts page, decision lists), for tests that
hold on every page. Built through the lesson modules (their cached runs work without a server)."""
from __future__ import annotations

import functools
import warnings


def _defaults(settings, **over) -> dict:
    v = {s.key: s.default for s in settings}
    v.update(over)
    return v


def perceptron(**over) -> tuple[dict, object]:
    from olc_ui.lessons.perceptron import lesson as L
    v = _defaults(L.SETTINGS, **over)
    data = L.load_data(v, None)
    tr = L.run_perceptron(data)
    sep = tr.proof.applies
    return L.spec_for(data, tr, gamma_td=None, use="separable" if sep else "nonseparable"), tr


def margin(**over):
    from olc_ui.lessons.margin_perceptron import lesson as L
    v = _defaults(L.SETTINGS, **over)
    data = L.load_data(v, None)
    tr = L.run_margin(data, float(v["gamma_alg"]), L.passes_for(v, len(data.y)))
    return L.spec_for(data, tr, v), tr


def ftrl(**over):
    from olc_ui.lessons.ftrl import lesson as L
    v = _defaults(L.SETTINGS, **over)
    data = L.load_data(v, None)
    tr = L.run_ftrl(data, v)
    return L.spec_for(data, v, tr, L.band_for(data, v), L.sweep_for(data, tr)), tr


def winnow(**over):
    from olc_ui.lessons.winnow import lesson as L
    v = _defaults(L.SETTINGS, **over)
    data = L.load_data(v, None)
    tr = L.run_winnow(v, data)
    return L.spec_for(v, data, tr), tr


def eg(**over):
    from olc_ui.lessons.exponentiated_update import lesson as L
    v = _defaults(L.SETTINGS, **over)
    data = L.load_data(v, None)
    tr = L.run_eg(v, data)
    return L.spec_for(v, data, tr), tr


def experts(**over):
    from olc_ui.lessons.experts import lesson as L
    v = _defaults(L.SETTINGS, **over)
    adv = L.load_advice(v)
    tr = L.run_learner(v, adv)
    return L.spec_for(v, adv, tr, L.band_for(v, adv)), tr


def halving(**over):
    from olc_ui.lessons.halving import lesson as L
    v = _defaults(L.SETTINGS, **over)
    run = L.load_run(v)
    return L.spec_for(run), run.trace


def boolean(mode: str = "conj", **over):
    from olc_ui.lessons.boolean_concepts import lesson as L
    v = _defaults(L.CONJ_SETTINGS if mode == "conj" else L.DL_SETTINGS, **over)
    stream, key, label = (L.conj_data if mode == "conj" else L.dl_data)(v)
    trace = L.run_conj(stream, key) if mode == "conj" else L.run_dl(stream, key, v["tie"])
    spec = (L.conj_spec_for if mode == "conj" else L.dl_spec_for)(stream, trace, key, label, 0)
    return spec, trace


#: (label, builder, keyword settings): the specs every page-wide test runs over.
PAGES = [
    ("perceptron", perceptron, {}),
    ("perceptron, label noise", perceptron, {"noise": 0.1, "T": 1000}),
    ("perceptron, γ = 0.02", perceptron, {"gamma": 0.02}),
    ("perceptron, d = 3", perceptron, {"d": 3}),
    ("margin_perceptron", margin, {}),
    ("ftrl", ftrl, {}),
    ("winnow", winnow, {}),
    ("exponentiated_update", eg, {}),
    ("experts", experts, {}),
    ("halving", halving, {}),
    ("boolean_concepts, conjunctions", boolean, {"mode": "conj"}),
    ("boolean_concepts, decision lists", boolean, {"mode": "dl"}),
]


@functools.lru_cache(maxsize=None)
def spec(label: str) -> tuple[dict, object]:
    _, build, kw = next(p for p in PAGES if p[0] == label)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build(**kw)


def labels() -> list[str]:
    return [p[0] for p in PAGES]


def legend_entries(fig: dict) -> list[str]:
    """The names plotly lists in a figure's legend (a trace's own showlegend, or its type's default)."""
    if fig["layout"].get("showlegend") is False:
        return []
    off_by_default = {"mesh3d", "heatmap", "image", "contour", "surface"}
    return [t.get("name", "") for t in fig["data"]
            if t.get("showlegend", t.get("type", "scatter") not in off_by_default)]

