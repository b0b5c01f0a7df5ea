"""The bound explorer lesson (pages/bound_explorer.py): the bound explorer.
lesson.py holds the page's settings, runs, panels and drawing cap; view.py builds its step-viewer spec."""
