"""Lectures as tours (issue 33): a tour file's format and checks (format.py), the shipped and uploaded tours
(store.py), and the tour bar a lesson page draws on a stop (bar.py). docs/tours.md describes the format."""
