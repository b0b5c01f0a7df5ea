"""Private: small helpers every part of olc_core uses.
``numeric`` (sums in a fixed order), ``params`` (every learner's parameter ranges), ``validate`` (input checks), ``words`` (counted nouns)."""
