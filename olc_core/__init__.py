"""olc_core — online linear classification learners, run round by round, with their proofs checked.
Public: ``run``/``ALGORITHMS`` (from learners/), ``proofs/``, ``streams/``, ``trace``, ``sweep``, ``transcript``,
``comparators``, ``hypotheses``; private: ``_kernels/`` (compiled loops), ``_exact/``, ``_support/`` and the rest.

The public surface (see ``docs/api.md``)::

    import olc_core
    trace = olc_core.run("perceptron", X, y, gamma=0.1)
    trace.mistakes, trace.weights_at(trace.T), trace.proof.violations(), trace.proof.mistake_bound

numpy and the standard library only: no UI import, ever.

>>> import olc_core
>>> s = olc_core.streams.separable(T=200, d=2, gamma=0.1, radius=1.0, seed=0)
>>> tr = olc_core.run("perceptron", s.X, s.y, comparator=s.comparator)
>>> tr.proof.violations(), tr.n_mistakes <= tr.proof.mistake_bound
([], True)
"""
from __future__ import annotations

from . import streams
from ._support.params import LABELS, PARAMETERS
from .learners import ALGORITHMS, run
from .sweep import SweepTable, sweep
from .trace import Trace

__all__ = ["run", "sweep", "SweepTable", "ALGORITHMS", "PARAMETERS", "LABELS", "Trace", "streams"]
__version__ = "0.1.0"
