"""Predict, then reveal: each learner's question options, built from the core's run (one module per family).

``base`` holds what every kind shares; ``perceptron`` the 2-D Perceptron (how w moves, from the run's weights in
exact rationals); ``experts`` the learners on expert advice (Weighted Majority, Halving on advice, Randomised WM:
the wrong experts' share from the log weights); ``linear`` the other linear learners (Margin Perceptron, Winnow,
the exponentiated update, randomised FTRL); ``discrete`` the set learners (Halving's own page, the conjunction
and decision-list learners). ``olc_ui.viewer.predict`` re-exports the builders; the questions' text and choices
are in ``assets/viewer_questions.js``, which only selects from these options.
"""
