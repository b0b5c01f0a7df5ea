"""Winnow's learner and proof as they were before the issue-24 memory work (verbatim copies of
``olc_core.learners.winnow`` and ``olc_core.proofs.winnow`` at commit ff7abb3, imports made absolute):
one int64 exponent vector per mistake in a ``SnapshotHistory``, the proof reading the (M, N) matrix.
The checkpointed history must give exactly these traces, proofs and weights."""
