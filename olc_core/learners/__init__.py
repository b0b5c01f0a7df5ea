"""The learners, one module each: ``run(X, y, params)`` plays the rounds and returns a :class:`~olc_core.trace.Trace`.
Call them through :func:`olc_core.run`, which checks the parameters first."""
