"""The winnow lesson (pages/winnow.py): Winnow.
lesson.py holds the page's settings, runs, panels and drawing cap; view.py builds its step-viewer spec."""
