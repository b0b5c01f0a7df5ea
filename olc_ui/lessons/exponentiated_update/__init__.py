"""The exponentiated update lesson (pages/exponentiated_update.py): the exponentiated update (normalised Winnow).
lesson.py holds the page's settings, runs, panels and drawing cap; view.py builds its step-viewer spec."""
