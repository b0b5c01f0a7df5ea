"""The bound-attaining expert streams as they were before the issue-14 speed work (verbatim copies of
``olc_core.streams.experts.adversary`` and ``olc_core.streams.worst_case.halving_adversary`` at
commit 7dce59a, imports made absolute): the fast generators must give exactly these streams."""
