"""The step viewer: its spec (validation, JSON helpers), the component that mounts it, the predict-then-reveal
options of a run, the snapshot of a round in Python, and its JS/CSS assets (``assets/``). It imports nothing of
olc_ui/shared (the page frame there mounts it; a mode's switch lives there: present, sound, class_session)."""
