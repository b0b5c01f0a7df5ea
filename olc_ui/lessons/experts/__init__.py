"""The experts lesson (pages/experts.py): Weighted Majority, RWM and Halving on experts.
lesson.py holds the page's settings, runs, panels and drawing cap; view.py builds its step-viewer spec (sandwich.py: its log-scale sandwich)."""
