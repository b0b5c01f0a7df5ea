"""The ftrl lesson (pages/ftrl.py): the randomised FTRL classifier.
lesson.py holds the page's settings, runs, panels and drawing cap; view.py builds its step-viewer spec."""
