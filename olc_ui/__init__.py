"""olc_ui — the Streamlit-side pieces of olc (figure builders, the step viewer)."""
