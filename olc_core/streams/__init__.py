"""Seeded stream generators: same arguments and seed ⇒ the same stream, bit for bit.

Each generator returns a :class:`Stream` with the examples, the labels in the
learner's convention, and the comparator the data were planted around (w*, u,
the target concept, …) so a proof can use the truth rather than a fit.
"""
from .base import Stream, reorder
from .linear import noisy, separable, sparse_disjunction, sparse_simplex, tight_perceptron

__all__ = ["Stream", "reorder", "separable", "noisy", "sparse_disjunction", "sparse_simplex",
           "tight_perceptron"]
