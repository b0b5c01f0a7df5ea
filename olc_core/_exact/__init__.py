"""Private: exact arithmetic (integers, fractions, decimals with error bounds) where a float's rounding could decide.
``hull`` (separability certificates), ``perceptron_bound`` (R²/γ²), ``exp_sums`` and ``powers`` (Winnow's weights), ``halfplanes``."""
