"""Predict, then reveal: each learner's question options, built from the core's run (one module per family).

``base`` holds what every kind shares; ``linear`` the linear learners (Margin Perceptron, Winnow, the
exponentiated update, randomised FTRL); ``discrete`` the vote and set learners (Randomised WM, Halving, the
conjunction and decision-list learners). ``olc_ui.viewer.predict`` re-exports the builders; the questions'
text and choices are in ``assets/viewer_questions.js``, which only selects from these options.
"""
