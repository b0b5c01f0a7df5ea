#!/usr/bin/env python3
"""Make olc_ui/viewer/assets/fonts/MaterialSymbolsRounded-subset.woff2: the few Material Symbols icons the app can show, cut out of Streamlit's icon font.

    python -m venv /tmp/fontvenv && /tmp/fontvenv/bin/pip install fonttools==4.68.0 brotli==1.2.0
    /tmp/fontvenv/bin/python scripts/subset_icons.py .venv/lib/python3.11/site-packages/streamlit

Streamlit draws every icon (``:material/home:`` in a page's code, its own sidebar chevrons, expander arrows, …) as a
ligature of its font ``static/media/MaterialSymbols-Rounded.<hash>.woff2``: 4,052 glyphs, 375 kB, fetched by every
first visit for the dozen icons a page shows. This script keeps the icons any page can show — every ``:material/…:``
name in Streamlit's frontend (``static/static/js/*.js``: its own icons) and in this project's code (``app.py``,
``pages/``, ``olc_ui/``) — with the letters, digits and ``_`` their ligatures are made of, and drops every other
ligature and glyph (fontTools' subsetter, no layout closure: a ligature is kept only when its glyph is). The glyphs
kept are Streamlit's own, unchanged: the icons look as before.

Written: ``MaterialSymbolsRounded-subset.woff2`` and ``icons.json`` (the source file's name and SHA-256, the names
kept, the tools' versions). olc_ui/static_files.py serves the subset at the URL of Streamlit's font only when the
installed Streamlit's font has that SHA-256 (another Streamlit: its own font, whole). fontTools is needed only here,
never by the app. tests/ui/test_static_files.py fails when the code or Streamlit names an icon this subset lacks.
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

from fontTools import subset, version as fonttools_version
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "olc_ui" / "viewer" / "assets" / "fonts"
ICON_RE = re.compile(rb":material/([a-z0-9_]+):")


def names_used(streamlit_dir: Path) -> list[str]:
    found: set[bytes] = set()
    for path in sorted((streamlit_dir / "static" / "static" / "js").glob("*.js")):
        found |= set(ICON_RE.findall(path.read_bytes()))
    for path in [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "olc_ui").rglob("*.py"))]:
        found |= set(ICON_RE.findall(path.read_bytes()))
    return sorted(n.decode() for n in found)


def ligatures(font: TTFont) -> dict[str, str]:
    """Every ligature of the font: the icon's name -> its glyph."""
    rev: dict[str, str] = {}
    for cp, glyph in sorted(font.getBestCmap().items()):
        rev.setdefault(glyph, chr(cp).lower())
    out = {}
    for lookup in font["GSUB"].table.LookupList.Lookup:
        for sub in lookup.SubTable:
            sub = sub.ExtSubTable if lookup.LookupType == 7 else sub
            if sub.LookupType != 4:
                continue
            for first, ligs in sub.ligatures.items():
                for lig in ligs:
                    out[rev[first] + "".join(rev[c] for c in lig.Component)] = lig.LigGlyph
    return out


def main(streamlit_dir: str) -> None:
    sdir = Path(streamlit_dir)
    (src,) = sorted((sdir / "static" / "static" / "media").glob("MaterialSymbols-Rounded.*.woff2"))
    names = names_used(sdir)
    font = TTFont(src)
    ligs = ligatures(font)
    missing = [n for n in names if n not in ligs]   # not in Streamlit's font either: drawn as text by both
    names = [n for n in names if n in ligs]
    opts = subset.Options()
    opts.flavor = "woff2"
    opts.layout_closure = False        # keep only the ligatures asked for, not every one the letters could form
    opts.layout_features = ["rlig", "liga"]
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    sub = subset.Subsetter(opts)
    chars = sorted({c for n in names for c in n} | {" "})
    sub.populate(glyphs=[ligs[n] for n in names], unicodes=[ord(c) for c in chars] + [ord(c.upper()) for c in chars])
    sub.subset(font)
    OUT.mkdir(parents=True, exist_ok=True)
    out = OUT / "MaterialSymbolsRounded-subset.woff2"
    font.save(out)
    meta = {"source": f"streamlit/static/static/media/{src.name}",
            "source_sha256": hashlib.sha256(src.read_bytes()).hexdigest(),
            "source_bytes": src.stat().st_size,
            "subset_bytes": out.stat().st_size,
            "fonttools": fonttools_version,
            "names": names,
            "not_in_the_font": missing}
    (OUT / "icons.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"{len(names)} icons: {src.stat().st_size:,} -> {out.stat().st_size:,} bytes ({out})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1])
