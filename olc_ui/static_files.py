"""The files a first visit downloads, sent compressed and cached for good: Streamlit's own frontend, the step viewer's
libraries and the icon font (docs/load.md, "A first visit over a lecture hall's wifi").

Streamlit serves its frontend (``/static/js/…``, ``/static/css/…``: 2.9 MB of JavaScript on a lesson's first visit)
uncompressed on purpose: its gzip middleware skips ``/static/`` because Starlette's would compress every file again on
every request (``starlette_gzip_middleware.py``). Here each file is compressed **once** (zlib, level 9) and kept, as
nginx's ``gzip_static`` serves files compressed ahead of time:

* in one process (``streamlit run app.py``), olc_ui/routes.py's ``AssetMiddleware`` answers ``/static/*.js|css`` and
  ``/app/static/olc/…`` from :class:`Compressed` (a file is compressed on its first request, in a worker thread, by
  one request while any others wait for it);
* behind nginx, ``scripts/serve.sh`` runs ``python -m olc_ui.static_files DIR`` first: :func:`write_tree` lays the same
  files out under DIR, each compressible one beside its ``.gz``, and nginx serves them itself (``gzip_static``), so
  that a hundred students arriving at once cost the Streamlit processes nothing for them; then, in the background,
  :func:`write_brotli` adds each one's ``.br``, which nginx sends once there (Debian's ``brotli_static`` module).

The icon font: Streamlit draws each ``:material/…:`` icon with a 375 kB font of 4,052 glyphs; a page shows a dozen.
Both ways serve, at the URL of Streamlit's font, ``olc_ui/viewer/assets/fonts/MaterialSymbolsRounded-subset.woff2``
(10 kB: the icons Streamlit's frontend and this project's code name, Streamlit's glyphs unchanged; made by
scripts/subset_icons.py) — only when the installed Streamlit's font is the one it was cut from (its SHA-256 in
``icons.json``); with another Streamlit, its own font is served whole. The text font likewise: Streamlit's Source
Sans 3 holds every script in one 170 kB file; its Latin part (29 kB, Google's subset of the same font, from npm) is
served in its place; a letter of another script (γ, ᵧ) is drawn by the browser's next font
(``olc_ui/viewer/assets/fonts/README.md``).

The page HTML also names, in a ``<link rel="preload">``, the step viewer's libraries its page will load
(olc_ui/routes.py), so that the browser fetches them while Streamlit's frontend starts, not after the page's script
has run.
"""
from __future__ import annotations

import concurrent.futures
import functools
import gzip
import hashlib
import json
import os
import shutil
import sys
import threading
from pathlib import Path

import streamlit

from olc_ui.viewer import assets as viewer_assets

try:  # Brotli from PyPI (requirements.txt): without it, gzip only
    import brotli
except ImportError:  # pragma: no cover - depends on the environment
    brotli = None

__all__ = ["Compressed", "ICON_DIR", "TYPES", "accepts", "icon_font", "streamlit_file", "streamlit_static", "write_tree", "write_brotli", "font_swaps", "swaps"]

#: What is served here, by extension: its content type, and whether compression makes it smaller.
TYPES = {".js": (b"text/javascript; charset=utf-8", True), ".css": (b"text/css; charset=utf-8", True),
         ".woff2": (b"font/woff2", False)}
FONT_DIR = Path(__file__).resolve().parent / "viewer" / "assets" / "fonts"
ICON_DIR = FONT_DIR   # the icon subset and icons.json
ICON_SUBSET = FONT_DIR / "MaterialSymbolsRounded-subset.woff2"
GZIP_LEVEL = 9
BROTLI_QUALITY = 11


def streamlit_static() -> Path:
    """Streamlit's frontend files (served at ``/static/…``): ``streamlit/static/static``."""
    return Path(streamlit.__file__).resolve().parent / "static" / "static"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@functools.lru_cache(maxsize=1)
def icon_font() -> tuple[str, Path] | None:
    """(the file name of Streamlit's icon font under ``media/``, the subset to serve in its place), or None when the
    installed font is not the one the subset was cut from."""
    try:
        meta = json.loads((FONT_DIR / "icons.json").read_text(encoding="utf-8"))
        src = streamlit_static() / "media" / Path(meta["source"]).name
        if ICON_SUBSET.is_file() and _sha256(src) == meta["source_sha256"]:
            return src.name, ICON_SUBSET
    except (OSError, ValueError, KeyError):
        pass
    return None


STREAMLIT_SWAPS = Path(__file__).resolve().parent / "viewer" / "assets" / "streamlit"


@functools.lru_cache(maxsize=1)
def font_swaps() -> dict[str, Path]:
    """``{path under /static/: the file served there instead}``, for each of Streamlit's fonts whose SHA-256 is the
    recorded one: the icon font's subset; the text font's Latin part (Streamlit's Source Sans 3 holds every script's
    glyphs in one 170 kB file per style; Google's Latin subset of the same font is 29 kB; a letter of another script
    is drawn by the browser's next font)."""
    swaps = {}
    icons = icon_font()
    if icons is not None:
        swaps[f"media/{icons[0]}"] = icons[1]
    for swap in viewer_assets.source_sans()["swaps"]:
        try:
            if _sha256(streamlit_static() / swap["streamlit"]) == swap["sha256"]:
                swaps[swap["streamlit"]] = FONT_DIR / swap["file"]
        except OSError:
            continue
    return swaps


@functools.lru_cache(maxsize=1)
def swaps() -> dict[str, Path]:
    """Every file served in place of one of Streamlit's: the fonts (:func:`font_swaps`), and its Markdown-maths chunk
    (``js/rehype-katex.<hash>.js``, 265 kB, a copy of KaTeX inside) by ``olc_ui/viewer/assets/streamlit/rehype-katex.js``
    (3 kB: the same plugin, typesetting with the step viewer's KaTeX, which the page loads anyway) — each only while
    the installed Streamlit's file has the recorded SHA-256 (``streamlit/swaps.json``)."""
    out = dict(font_swaps())
    for swap in json.loads((STREAMLIT_SWAPS / "swaps.json").read_text(encoding="utf-8"))["swaps"]:
        try:
            if _sha256(streamlit_static() / swap["streamlit"]) == swap["sha256"]:
                out[swap["streamlit"]] = STREAMLIT_SWAPS / swap["file"]
        except OSError:
            continue
    return out


def streamlit_file(rel: str) -> Path | None:
    """The file to send for ``/static/<rel>`` when it is one served here (a script, a stylesheet, a swapped font),
    else None (Streamlit's own handler sends it). ``rel`` must already be a clean relative path."""
    swap = swaps().get(rel)
    if swap is not None:
        return swap
    if Path(rel).suffix not in TYPES or Path(rel).suffix == ".woff2":
        return None
    root = streamlit_static()
    path = (root / rel).resolve()
    return path if path.is_relative_to(root.resolve()) and path.is_file() else None


def accepts(accept_encoding: bytes, coding: bytes) -> bool:
    """Whether an ``Accept-Encoding`` header takes ``coding`` (named, or ``*``; not with ``q=0``).

    >>> h = b"gzip, deflate, br, zstd"
    >>> accepts(h, b"gzip"), accepts(h, b"br"), accepts(b"br;q=1.0, gzip;q=0", b"gzip"), accepts(b"identity", b"gzip")
    (True, True, False, False)
    """
    for item in accept_encoding.lower().split(b","):
        name, *params = [p.strip() for p in item.split(b";")]
        if name in (coding, b"*"):
            q = next((p.partition(b"=")[2] for p in params if p.startswith(b"q=")), b"1")
            try:
                return float(q) > 0
            except ValueError:
                return False
    return False


class Compressed:
    """Each file's bytes compressed once per process and version (size, mtime), with an ETag for each.

    gzip (zlib, level 9) is made on a file's first request, by that request (the others arriving meanwhile wait for
    it: a burst of students costs one compression). Brotli (quality 11: a first visit's scripts 16 % smaller than
    gzip's, but ~20 times slower to make) is made in the background, one file at a time, after a file's first
    request asked for it; until it is ready the file goes out gzip-compressed. Without the ``brotli`` package,
    gzip only."""

    def __init__(self):
        self._bodies: dict[tuple[str, str], tuple[tuple[int, int], bytes]] = {}
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._lock = threading.Lock()
        self._pending: set[tuple[str, str]] = set()
        self._brotli = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="olc-brotli")

    def _make(self, file: Path, coding: str, version: tuple[int, int]) -> bytes:
        key = (str(file), coding)
        with self._lock:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:                              # one request compresses; the others arriving meanwhile wait for it
            hit = self._bodies.get(key)
            if hit is None or hit[0] != version:
                raw = file.read_bytes()
                body = (brotli.compress(raw, quality=BROTLI_QUALITY) if coding == "br"
                        else gzip.compress(raw, GZIP_LEVEL, mtime=0) if coding == "gzip" else raw)
                hit = self._bodies[key] = (version, body)
        return hit[1]

    def _brotli_later(self, file: Path, version: tuple[int, int]) -> None:
        key = (str(file), "br")
        with self._lock:
            if key in self._pending:
                return
            self._pending.add(key)

        def run():
            try:
                self._make(file, "br", version)
            finally:
                with self._lock:
                    self._pending.discard(key)
        self._brotli.submit(run)

    def body(self, file: Path, codings: tuple[str, ...]) -> tuple[bytes, bytes, str | None]:
        """(the body, its ETag, its Content-Encoding or None) for a client that takes ``codings`` (``"br"``,
        ``"gzip"``); call it in a worker thread (a file's first call compresses it)."""
        st_ = file.stat()
        version = (st_.st_size, st_.st_mtime_ns)
        coding = None
        if "br" in codings and brotli is not None:
            hit = self._bodies.get((str(file), "br"))
            if hit is not None and hit[0] == version:
                coding = "br"
            else:
                self._brotli_later(file, version)
        if coding is None and "gzip" in codings:
            coding = "gzip"
        body = self._bodies[(str(file), "br")][1] if coding == "br" else self._make(file, coding or "", version)
        return body, f'"{version[0]:x}-{version[1]:x}{"-" + coding if coding else ""}"'.encode(), coding


# --------------------------------------------------------------------------- behind nginx

def _place(src: Path, dst: Path, *, link: bool) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if link:
        os.symlink(src, dst)
    else:
        shutil.copyfile(src, dst)
    if TYPES.get(dst.suffix, (None, False))[1] and src.stat().st_size > 512:
        dst.with_name(dst.name + ".gz").write_bytes(gzip.compress(src.read_bytes(), GZIP_LEVEL, mtime=0))


def write_tree(dest: str | os.PathLike, app_dir: str | os.PathLike) -> int:
    """Lay out under ``dest`` what nginx serves itself: ``static/`` (Streamlit's frontend, linked; the icon font
    subset under the name of Streamlit's font) and ``app/static/olc/`` (the step viewer's libraries, copied from
    ``<app_dir>/static/olc/`` after :func:`olc_ui.viewer.assets.ensure_static_assets` filled it), each compressible file
    beside its ``.gz``. Returns the number of files laid out."""
    dest = Path(dest)
    count = 0
    served = swaps()
    root = streamlit_static()
    for src in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = src.relative_to(root)
        _place(served.get(rel.as_posix(), src), dest / "static" / rel, link=True)
        count += 1
    viewer_assets.ensure_static_assets(app_dir)
    olc = Path(app_dir) / "static" / viewer_assets.STATIC_SUBDIR
    for src in sorted(p for p in olc.rglob("*") if p.is_file() and not p.name.startswith(".")):
        _place(src, dest / "app" / "static" / viewer_assets.STATIC_SUBDIR / src.relative_to(olc), link=False)
        count += 1
    return count


def write_brotli(dest: str | os.PathLike) -> int:
    """Beside each ``.gz`` under ``dest`` (:func:`write_tree`), its ``.br`` (quality 11), smallest files first, each
    written whole under a temporary name and then renamed: nginx's ``brotli_static`` sends a ``.br`` once it is there.
    A minute or so of one core for Streamlit's 320 files: ``scripts/serve.sh`` runs it in the background, at a low
    priority, while nginx already serves the ``.gz``. Returns the number written (0 without the ``brotli`` package)."""
    if brotli is None:
        return 0
    count = 0
    for gz in sorted(Path(dest).rglob("*.gz"), key=lambda p: p.stat().st_size):
        src = gz.with_name(gz.name[:-3])
        out = src.with_name(src.name + ".br")
        tmp = out.with_name(f".{out.name}.tmp")
        tmp.write_bytes(brotli.compress(src.read_bytes(), quality=BROTLI_QUALITY))
        os.replace(tmp, out)
        count += 1
    return count


if __name__ == "__main__":  # python -m olc_ui.static_files [--brotli] DEST [APP_DIR]
    args = sys.argv[1:]
    if args[:1] == ["--brotli"] and len(args) == 2:
        print(f"static_files: {write_brotli(args[1])} files brotli-compressed under {args[1]}")
    elif len(args) in (1, 2) and not args[0].startswith("-"):
        n = write_tree(args[0], args[1] if len(args) == 2 else ".")
        print(f"static_files: {n} files under {args[0]}")
    else:
        sys.exit("usage: python -m olc_ui.static_files DEST [APP_DIR (default: the current directory)]\n"
                 "       python -m olc_ui.static_files --brotli DEST   (a .br beside each .gz)")
