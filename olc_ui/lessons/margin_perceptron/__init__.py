"""The margin perceptron lesson (pages/margin_perceptron.py): the Margin Perceptron.
lesson.py holds the page's settings, runs, panels and drawing cap; view.py builds its step-viewer spec."""
