"""The perceptron lesson (pages/perceptron.py): the Perceptron.
lesson.py holds the page's settings, runs, panels and drawing cap; view.py builds its step-viewer spec."""
