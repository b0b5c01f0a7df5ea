"""Seeded stream generators: same arguments and seed ⇒ the same stream, bit for bit.

Each generator returns a :class:`Stream` with the examples, the labels in the
learner's convention, and the comparator the data were planted around (w*, u,
the target concept, …) so a proof can use the truth rather than a fit.

* linear learners: :func:`separable`, :func:`noisy`, :func:`tight_perceptron`,
  :func:`sparse_disjunction` (Winnow), :func:`sparse_simplex` and
  :func:`simplex_continuous` (exponentiated update), :func:`winnow_demotion_chain`, :func:`winnow_adversary`;
* experts: :func:`experts` (chosen error rates), :func:`adversary` (labels against
  the weighted majority), :func:`target_concept` (Halving's classes),
  :func:`halving_adversary` (Halving's worst case, ⌊log₂ N⌋ mistakes);
* Boolean concepts: :func:`conjunction`, :func:`decision_list`,
  :func:`conjunction_adversary` / :class:`ConjunctionAdversary`;
* :func:`reorder`: the ordering control ("generated", "margin", "random").
"""
from .base import ORDERS, Stream, reorder
from .boolean import (ConjunctionAdversary, conjunction, conjunction_adversary, constant_predictor, decision_list,
                      elimination_predictor)
from .experts import adversary, experts, target_concept
from .linear import noisy, separable, sparse_disjunction, sparse_simplex, tight_perceptron
from .winnow_extra import simplex_continuous, winnow_adversary, winnow_demotion_chain
from .worst_case import halving_adversary

__all__ = ["Stream", "reorder", "ORDERS", "separable", "noisy", "sparse_disjunction", "sparse_simplex",
           "tight_perceptron", "simplex_continuous", "winnow_demotion_chain", "winnow_adversary", "experts", "adversary",
           "target_concept", "conjunction", "decision_list", "conjunction_adversary", "ConjunctionAdversary",
           "elimination_predictor", "constant_predictor", "halving_adversary"]
