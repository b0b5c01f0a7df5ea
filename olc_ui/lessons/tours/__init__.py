"""The Tours page (pages/tours.py): the list of lectures as tours, and the student's own tour files."""
