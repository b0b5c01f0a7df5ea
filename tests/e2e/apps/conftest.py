# The apps here are Streamlit scripts run by the browser tests, not test modules:
# keep pytest's --doctest-modules from importing (i.e. running) them.
collect_ignore_glob = ["*.py"]
