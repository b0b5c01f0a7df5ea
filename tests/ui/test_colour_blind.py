"""No meaning by colour alone (WCAG 1.4.1, issue 23 §3), tested as data on every page's spec
(tests/ui/page_specs.py): within one chart, any two meanings — two legend entries, or two colours of one
trace's per-point colours (the best expert's bar, Winnow's relevant variables, the advice strip) — differ
by a cue other than colour (marker symbol, line dash, drawing mode, a fill pattern, a text label), or their
colours stay apart for a student with protanopia or deuteranopia: CIE76 ΔE*ab ≥ 20 between the two colours
after the simulation of Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear RGB (sRGB
decoded, the 3×3 matrix, clipped, encoded), then CIELAB with the D65 white. Translucent colours are
composited over the white chart background first.
"""
from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from . import page_specs as P

MACHADO = {  # severity 1.0, Machado et al. 2009, Table 1 (linear RGB)
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
}
MIN_DE = 20.0
NAMED = {"black": "#000000", "white": "#ffffff", "grey": "#808080", "gray": "#808080", "red": "#ff0000",
         "green": "#008000", "blue": "#0000ff", "orange": "#ffa500", "purple": "#800080"}


def rgb(color: str) -> np.ndarray | None:
    """sRGB in [0, 1], composited over white; None for what is not a colour."""
    c = NAMED.get(str(color).strip().lower(), str(color).strip())
    m = re.fullmatch(r"#([0-9a-fA-F]{6})", c)
    if m:
        return np.array([int(m.group(1)[i:i + 2], 16) for i in (0, 2, 4)]) / 255.0
    m = re.fullmatch(r"rgba?\(([^)]*)\)", c)
    if m:
        parts = [float(v) for v in m.group(1).split(",")]
        a = parts[3] if len(parts) > 3 else 1.0
        return (np.array(parts[:3]) / 255.0) * a + (1 - a)
    return None


def _lin(c):
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _enc(c):
    c = np.clip(c, 0, 1)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(c: np.ndarray, kind: str) -> np.ndarray:
    return _enc(MACHADO[kind] @ _lin(c))


def lab(c: np.ndarray) -> np.ndarray:
    M = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = M @ _lin(c) / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e(a: np.ndarray, b: np.ndarray, kind: str | None) -> float:
    if kind:
        a, b = simulate(a, kind), simulate(b, kind)
    return float(np.linalg.norm(lab(a) - lab(b)))


def cue(t: dict) -> tuple:
    """What tells a trace apart without its colour."""
    mk, ln = t.get("marker") or {}, t.get("line") or {}
    mode = t.get("mode", "markers" if t.get("type") == "scatter" else t.get("type", ""))
    return (t.get("type", "scatter"), mode, str(mk.get("symbol", "circle")) if "markers" in mode else "",
            ln.get("dash", "solid") if "lines" in mode else "", t.get("fill", ""),
            str((mk.get("pattern") or {}).get("shape", "")))


def colour_of(t: dict) -> str | None:
    mk, ln = t.get("marker") or {}, t.get("line") or {}
    mode = t.get("mode", "")
    c = ln.get("color") if "lines" in mode and ln.get("color") else mk.get("color")
    if c is None and t.get("fillcolor"):
        c = t["fillcolor"]
    return c if isinstance(c, str) else None


def _far(a: str, b: str) -> tuple[bool, str]:
    ca, cb = rgb(a), rgb(b)
    if ca is None or cb is None:
        return True, ""
    for kind in (None, "protanopia", "deuteranopia"):
        d = delta_e(ca, cb, kind)
        if d < MIN_DE:
            return False, f"ΔE76 = {d:.1f} under {kind or 'normal vision'}"
    return True, ""


def problems(spec: dict) -> list[str]:
    out = []
    for f in spec["figures"]:
        fig = f["figure"]
        entries = [t for t in fig["data"] if t.get("name") and t.get("showlegend", True) is not False
                   and fig.get("layout", {}).get("showlegend", True) is not False]
        for a, b in itertools.combinations(entries, 2):
            if a["name"] == b["name"] or cue(a) != cue(b):
                continue
            ca, cb = colour_of(a), colour_of(b)
            if not ca or not cb:
                continue
            ok, why = _far(ca, cb)
            if not ok:
                out.append(f"{f['id']}: {a['name']!r} vs {b['name']!r} ({ca} / {cb}): {why}, same cue {cue(a)}")
        for t in fig["data"]:  # one trace's per-point colours: each colour a meaning
            cols = (t.get("marker") or {}).get("color")
            if not isinstance(cols, list):
                continue
            shapes = (t.get("marker") or {}).get("pattern", {}).get("shape")
            texts = t.get("text") if isinstance(t.get("text"), list) else None
            by_colour: dict[str, set] = {}
            for i, c in enumerate(cols):
                if isinstance(c, str):
                    key = (shapes[i] if isinstance(shapes, list) else "", bool(texts and texts[i]))
                    by_colour.setdefault(c, set()).add(key)
            for a, b in itertools.combinations(by_colour, 2):
                if by_colour[a].isdisjoint(by_colour[b]):
                    continue  # a pattern or a text label tells them apart
                ok, why = _far(a, b)
                if not ok:
                    out.append(f"{f['id']}: trace {t.get('name')!r} colours {a} / {b}: {why}")
    return out


def test_the_simulation_is_machados():
    """Pure red under protanopia loses most of its lightness; white stays white; a red/green pair merges."""
    white = np.ones(3)
    assert np.allclose(simulate(white, "protanopia"), 1.0, atol=2e-3)
    assert np.allclose(simulate(white, "deuteranopia"), 1.0, atol=2e-3)
    red, green = rgb("#d62728"), rgb("#2ca02c")
    assert delta_e(red, green, None) > 60
    assert delta_e(red, green, "deuteranopia") < delta_e(red, green, None) / 2


@pytest.mark.parametrize("label", P.labels())
def test_no_meaning_by_colour_alone(label):
    spec, _ = P.spec(label)
    bad = problems(spec)
    assert not bad, f"{label}:\n" + "\n".join(bad)
