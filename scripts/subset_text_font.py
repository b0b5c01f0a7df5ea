#!/usr/bin/env python3
"""Make olc_ui/viewer/assets/fonts/olc-sans-{upright,italic}.woff2: Streamlit's text font cut to the scripts the app writes.

    python -m venv /tmp/fontvenv && /tmp/fontvenv/bin/pip install fonttools==4.68.0 brotli==1.2.0
    /tmp/fontvenv/bin/python scripts/subset_text_font.py .venv/lib/python3.11/site-packages/streamlit

Streamlit 1.67 ships Source Sans 3 as one variable font per style with every script's glyphs (Latin, Greek,
Cyrillic, Vietnamese, …): 170 kB upright, 138 kB italic, fetched by every first visit. The app writes Latin, Greek
and mathematical symbols (γ, ≤, √, ⟨ ⟩, ‖, ŷ, ᵧ). This keeps Basic Latin, Latin-1 and Greek whole and every other
character the app's code writes (:data:`BLOCKS`, :func:`code_chars`), with the same outlines, variations, vertical
metrics and layout features (fontTools' default features): a page looks exactly as before, and a letter outside them
(a Polish or Cyrillic name in an uploaded file) is drawn by the browser's next font.

The font is under the SIL Open Font License 1.1 with the Reserved Font Name "Source": a modified version (a subset
is one) may not use it as its name, so the subset's name table calls it "OLC Sans Subset" (copyright and licence
entries kept). olc_ui/static_files.py serves it at the URL of Streamlit's font only while that font has the SHA-256
recorded in ``source-sans.json``.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from fontTools import subset, version as fonttools_version
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "olc_ui" / "viewer" / "assets" / "fonts"
#: Unicode blocks kept whole: Basic Latin and Latin-1, and Greek; with them every character the app's code writes
#: (:func:`code_chars`: γ, ≤, √, ⟨ ⟩, ‖, ŷ, ᵧ, ✓, …).
BLOCKS = [(0x0020, 0x00FF), (0x0370, 0x03FF)]
NEW_NAME = "OLC Sans Subset"


def cut(src: Path, out: Path, style: str, extra: set[int]) -> None:
    font = TTFont(src)
    cmap = font.getBestCmap()
    keep = sorted({c for c in cmap if any(a <= c <= b for a, b in BLOCKS)} | (extra & set(cmap)))
    opts = subset.Options()
    opts.flavor = "woff2"
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=keep)
    sub.subset(font)
    names = font["name"]
    for rec in list(names.names):
        if rec.nameID in (1, 3, 4, 6, 16, 17, 21, 22, 25):
            names.removeNames(nameID=rec.nameID)
    full = f"{NEW_NAME} {style}"
    for nid, value in ((1, NEW_NAME), (4, full), (6, full.replace(" ", "")), (3, f"{full};olc"), (16, NEW_NAME)):
        names.setName(value, nid, 3, 1, 0x409)
    font.save(out)


def code_chars() -> set[str]:
    """Every non-ASCII character in the app's code (olc_ui/, pages/, the viewer's modules): what its pages write."""
    paths = [*ROOT.joinpath("olc_ui").rglob("*.py"), *ROOT.joinpath("pages").glob("*.py"),
             *ROOT.joinpath("olc_ui", "viewer", "assets").glob("viewer*.js")]
    return {c for p in paths for c in p.read_text(encoding="utf-8") if ord(c) >= 0x80}


def main(streamlit_dir: str) -> None:
    media = Path(streamlit_dir) / "static" / "static" / "media"
    swaps = []
    upright = TTFont(sorted(media.glob("SourceSansVF-Upright.*.woff2"))[0]).getBestCmap()
    written = code_chars()
    extra = {ord(c) for c in written if ord(c) in upright}
    outside = sorted(c for c in written if ord(c) not in upright)
    for style, pattern in (("Upright", "SourceSansVF-Upright.*.woff2"), ("Italic", "SourceSansVF-Italic.*.woff2")):
        (src,) = sorted(media.glob(pattern))
        out = OUT / f"olc-sans-{style.lower()}.woff2"
        cut(src, out, style, extra)
        swaps.append({"streamlit": f"media/{src.name}", "sha256": hashlib.sha256(src.read_bytes()).hexdigest(),
                      "source_bytes": src.stat().st_size, "file": out.name, "bytes": out.stat().st_size})
        print(f"{src.name}: {src.stat().st_size:,} -> {out.stat().st_size:,} bytes ({out.name})")
    meta = {"source": "streamlit==1.67.0 (PyPI): static/static/media/SourceSansVF-*.woff2, Source Sans 3 3.052, "
                      "SIL Open Font License 1.1 (LICENSE-SourceSans3); cut by scripts/subset_text_font.py",
            "fonttools": fonttools_version, "blocks": [f"U+{a:04X}-{b:04X}" for a, b in BLOCKS],
            "code_chars": "".join(sorted(chr(c) for c in extra)),
            "code_chars_not_in_the_font": "".join(outside), "swaps": swaps}
    (OUT / "source-sans.json").write_text(json.dumps(meta, indent=1) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1])
