"""olc_plot — a run's pictures in a notebook, with plotly (``pip install ".[plot]"``).

``olc_core`` needs numpy only and never imports plotly; this separate package draws what the app draws:

* :func:`sandwich` — a proof's chain against the mistake count M, closing in as the rounds pass;
* :func:`plane` — a 2-D run of the Perceptron (or the margin Perceptron) in the plane;
* :func:`weights` — the learner's weights (their logarithms for a multiplicative learner);
* :func:`from_spec` — any figure of a step-viewer spec (a lesson's page) with a slider over the rounds.

Each returns a ``plotly.graph_objects.Figure`` with a slider over the rounds and a Play button.

Why a package beside ``olc_core`` and not ``olc_core.plot``: the figure code is the app's
(``olc_ui/shared/sandwich_view.py``, ``plane_view.py``, ``olc_ui/viewer/snapshot.py``: pure functions of
numpy and the trace, building plotly dicts), and ``olc_core`` imports no UI module — so a plotting module
inside it would have to write those figures a second time. ``olc_plot`` sits beside ``olc_ui`` and imports
olc_core, plotly and those pure figure modules, never streamlit and never a lesson
(``tests/ui/test_architecture.py``).

>>> import olc_core, olc_plot
>>> s = olc_core.streams.separable(T=200, d=2, gamma=0.1, radius=1.0, seed=0)
>>> trace = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
>>> fig = olc_plot.sandwich(trace)          # in Jupyter: the figure, with its slider
>>> fig.layout.sliders[0].currentvalue.prefix
'round '
"""
from __future__ import annotations

from .figures import plane, sandwich, text, weights
from .frames import from_spec, positions

__all__ = ["sandwich", "plane", "weights", "from_spec", "positions", "text"]
