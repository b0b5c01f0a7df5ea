"""The halving lesson (pages/halving.py): Halving and the version space.
lesson.py holds the page's settings, runs, panels and drawing cap; view.py builds its step-viewer spec."""
