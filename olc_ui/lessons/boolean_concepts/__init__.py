"""The boolean concepts lesson (pages/boolean_concepts.py): conjunctions, decision lists and the adversary game.
lesson.py holds the page's settings, runs, panels and drawing cap; view.py builds its step-viewer specs; adversary.py plays the adversary game."""
