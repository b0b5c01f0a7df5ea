"""Private: what :mod:`olc_core.comparators` is built on.
``max_margin``: the maximum-margin separator through the origin, found by Wolfe's algorithm and certified exactly."""
