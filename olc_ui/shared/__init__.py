"""What the lessons share: URL state and settings (state, config), safe text, uploads and data files, the page
frame (page, caps), downloads and transcripts (common, transcript), and the spec and figure helpers (spec_tools, inset, sandwich_view, plane_view, points)."""
