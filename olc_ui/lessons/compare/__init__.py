"""The compare lesson (pages/compare.py): compare learners.
lesson.py holds the page's settings, runs, panels and drawing cap; view.py builds its step-viewer spec."""
