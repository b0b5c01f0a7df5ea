"""olc_ui — the Streamlit side of olc: the lessons (lessons/<page>/), the step viewer (viewer/), what the lessons
share (shared/), the lessons table (catalog) and the server's routes (routes)."""
