"""The step viewer: its spec (validation, JSON helpers), the component that mounts it, where it opens (position),
its modes (predict, present), the snapshot of a round in Python, and its JS/CSS assets (``assets/``)."""
