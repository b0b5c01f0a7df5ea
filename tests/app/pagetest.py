"""What every page's AppTest needs: open a page with query parameters, read the step viewer's
spec, a metric, and the page's text."""
from __future__ import annotations

import html
import json
import re

from streamlit.testing.v1 import AppTest

from olc_ui.viewer.component import decode_payload

from tests.conftest import ROOT


def page_path(name: str) -> str:
    return str(ROOT / "pages" / f"{name}.py")


def open_page(path: str, timeout: float = 120, **query) -> AppTest:
    """Run the page script once with these URL query parameters."""
    at = AppTest.from_file(path, default_timeout=timeout)
    for k, v in query.items():
        at.query_params[k] = str(v)
    return at.run()


def component_data(comp) -> dict:
    """What a page sent to a custom component: the step viewer's bytes (olc_ui.viewer.component.decode_payload),
    or another component's JSON."""
    if comp.proto.WhichOneof("data") == "bytes":
        return decode_payload(comp.proto.bytes)
    return json.loads(comp.proto.json or "{}")


def viewers(at: AppTest) -> list:
    """The step viewers on the page (custom components whose data carry a spec)."""
    return [c for c in at.get("bidi_component") if "spec" in component_data(c)]


def viewer_spec(at: AppTest) -> dict:
    """The spec the page sent to its (single) step viewer."""
    [comp] = viewers(at)
    return component_data(comp)["spec"]


def viewer_data(at: AppTest) -> dict:
    """Everything the page sent to its (single) step viewer: spec, assets, download name."""
    [comp] = viewers(at)
    return component_data(comp)


def url(at: AppTest) -> dict:
    """The query the page's last run asked the browser to show (olc_ui.shared.state.write_url writes it in the
    browser with history.replaceState; AppTest has no browser, so read what was asked)."""
    from olc_ui.shared.state import URL_KEY

    return dict(at.session_state[URL_KEY]) if URL_KEY in at.session_state else {}


def metric(at: AppTest, label: str) -> str:
    for m in at.metric:
        if m.label == label:
            return m.value
    raise AssertionError(f"no metric {label!r}: {[m.label for m in at.metric]}")


def unescape(markdown: str) -> str:
    """What a reader sees of Markdown written through olc_ui.shared.safe.md: its escapes and word joiners gone."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown).replace("\u2060", "")


def shown(at: AppTest, kind: str) -> str:
    """The texts of every element of one kind (warning, error, info, caption …), as a reader sees them."""
    return " ".join(unescape(e.value) for e in getattr(at, kind))


_PROSE_RE = re.compile(r'<div class="olc-prose">(.*?)</div>', re.S)
_PROSE_TAGS = ((r'<span class="olc-tex">(.*?)</span>', r"$\1$"), (r"</?strong>", "**"), (r"</?em>", "*"),
               (r"</?p>", ""))


def read_prose(markup: str) -> list[str]:
    """The prose paragraphs (olc_ui/viewer/prose.py: a lesson's intro) in ``markup``, read back into the Markdown
    they were written in: formulas as ``$…$``, emphasis as ``**``/``*``."""
    out = []
    for body in _PROSE_RE.findall(markup):
        for pattern, repl in _PROSE_TAGS:
            body = re.sub(pattern, repl, body, flags=re.S)
        out.append(html.unescape(body))
    return out


def prose(node) -> list[str]:
    """The prose paragraphs that ``node`` (an AppTest, or a block of it) draws (:func:`read_prose`)."""
    return [text for h in node.html for text in read_prose(h.value)]


def page_text(at: AppTest, *, latex: bool = False, warnings: bool = False) -> str:
    """Prose, Markdown, success, error and info texts (and LaTeX, warnings when asked), joined; escapes removed."""
    parts = prose(at) + [m.value for m in at.markdown] + [e.value for e in at.success] + [e.value for e in at.error] \
        + [e.value for e in at.info]
    if latex:
        parts += [x.value for x in at.latex]
    if warnings:
        parts += [w.value for w in at.warning]
    return " ".join(unescape(p) for p in parts)
