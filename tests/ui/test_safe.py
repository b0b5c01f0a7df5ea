"""olc_ui.shared.safe: the one helper that shows untrusted text inert (review issue 11 §1), the pages' use of
it, the upload messages built with it, and the server config that backs it up."""
from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

from olc_ui.shared import data as olc_data
from olc_ui.shared import safe
from tests.conftest import ROOT
from tests.hostile import HOSTILE, unescaped


@pytest.mark.parametrize("raw", HOSTILE)
def test_md_escapes_every_hostile_string(raw):
    out = safe.md(safe.quote(raw))
    assert not unescaped(out)
    assert "\n" not in out


def test_md_keeps_the_text():
    # escapes and word joiners are all a reader's Markdown renderer removes
    s = "w* = (0.6, -0.8): y⟨w*,x⟩ ≤ 0 on rounds 3, 7 [see] <here> $5 https://a.b www.c.d e@f.g"
    out = safe.md(s)
    assert re.sub(r"\\(.)", r"\1", out).replace("\u2060", "") == s


def test_autolink_triggers_are_broken():
    for s in ("https://example.org", "HTTP://X.Y", "www.example.org", "WwW.example.org", "me@example.org",
              "mailto:me", "xmpp:a"):
        out = safe.md(s)
        plain = out.replace("\\", "")
        assert s not in plain, out


def test_clip_and_quote():
    assert safe.clip("a\nb\tc\x00d\u202ee") == "a b c d e"
    assert len(safe.clip("y" * 5000)) == safe.SHOWN and safe.clip("y" * 5000).endswith("…")
    assert safe.quote("abc") == "'abc'"
    assert len(safe.quote("z" * 200, 20)) == 22


def test_notice_refuses_unknown_kinds():
    with pytest.raises(ValueError):
        safe.notice("markdown_unsafe", "", "x")


@pytest.mark.parametrize("csv, where", [
    (b"x1,x2,label\n1,[click me](https://example.org/x),1\n", "cell"),
    (b"x1,x2,label\n1," + b"x" * 3000 + b",1\n", "cell"),
    ("x1,**X** <b>Y</b>,label\n1,$\\color{red}{X}$,1\n".encode(), "cell"),
    (b"a,b,c,d,e,f\n1,2,3,4,5,6\n", "width"),
])
def test_upload_messages_quote_file_text_cut_short(csv, where):
    with pytest.raises(olc_data.DataError) as e:
        olc_data.parse_points_csv(csv)
    msg = str(e.value)
    assert "x" * 81 not in msg and len(msg) < 300
    assert not unescaped(safe.md(msg))


def test_upload_limit_is_one_number():
    """The server's limit (config.toml, MiB) is the app's own check: one limit, stated once."""
    cfg = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert cfg["server"]["maxUploadSize"] == olc_data.UPLOAD_LIMIT_MB
    assert olc_data.MAX_UPLOAD_BYTES == cfg["server"]["maxUploadSize"] * 1024 * 1024
    # students see no tracebacks or developer options
    assert cfg["client"]["showErrorDetails"] == "none"
    assert cfg["client"]["toolbarMode"] in ("viewer", "minimal")
    for page in ("perceptron", "margin_perceptron"):  # the uploader's help does not restate a size
        assert "MB" not in (ROOT / "pages" / f"{page}.py").read_text()


# ------------------------------------------------------------------ no raw text into Markdown
_SHOWS = {"markdown", "warning", "error", "info", "success", "caption", "toast", "write", "title", "header",
          "subheader"}
_RAW_NAMES = {"exc", "problem", "msg", "why", "det", "detail", "raw", "name", "fname", "label_text"}


def _raw_values(node: ast.AST):
    """FormattedValues in an f-string that hold an exception's or a link's text unescaped."""
    for v in ast.walk(node):
        if isinstance(v, ast.FormattedValue):
            e = v.value
            wrapped = isinstance(e, ast.Call) and getattr(e.func, "attr", getattr(e.func, "id", "")) in ("md",)
            if wrapped:
                continue
            if isinstance(e, ast.Name) and e.id in _RAW_NAMES:
                yield e.id
            if isinstance(e, ast.Attribute) and e.attr in ("detail",):
                yield e.attr


def test_no_page_puts_raw_text_into_markdown():
    bad = []
    for path in sorted((ROOT / "pages").glob("*.py")) + sorted((ROOT / "olc_ui").rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr in _SHOWS and call.args):
                continue
            for name in _raw_values(call.args[0]):
                bad.append(f"{path.relative_to(ROOT)}:{call.lineno} {call.func.attr}(f'…{{{name}}}…')")
    assert not bad, "\n".join(bad)


def test_the_lint_sees_a_raw_value():
    tree = ast.parse('st.warning(f"bad: {exc}")')
    call = tree.body[0].value
    assert list(_raw_values(call.args[0])) == ["exc"]
    assert not list(_raw_values(ast.parse('st.warning(f"ok: {safe.md(exc)}")').body[0].value.args[0]))
