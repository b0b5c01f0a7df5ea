"""One package per lesson page (pages/<name>.py uses olc_ui/lessons/<name>/): its logic, figure builders, ledger
and caption text and drawing cap. Importing this package imports no lesson; a lesson imports no other lesson."""
