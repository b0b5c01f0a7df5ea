"""No wrong sentence a review has found comes back (issue 32 §4): the registry tests/wrong_sentences.py held against
all the text the app can show — the strings of its code (Python and the viewer's JavaScript, wherever they live), every
element every page renders (AppTest), the step viewer's spec with its captions and ledger at several rounds, and the
proof transcripts of every learner with and without label noise."""
from __future__ import annotations

import ast
import functools
import json
import re
import warnings
from pathlib import Path

import pytest
from google.protobuf.json_format import MessageToDict
from streamlit.testing.v1 import AppTest

import olc_core
from olc_core.sweep import SWEEPS
from olc_ui.catalog import available
from olc_ui.viewer.component import decode_payload
from olc_ui.viewer.snapshot import caption_at, ledger_at
from tests.conftest import ROOT
from tests.wrong_sentences import IN_CONTEXT, WRONG, normalise

FRAGMENTS = [(w.text, normalise(w.text)) for w in WRONG]
HOLE = "\x00"            # where an f-string's value goes: no fragment spans it


def _hits(text: str) -> list[str]:
    t = normalise(text)
    return [raw for raw, frag in FRAGMENTS if frag in t]


# ------------------------------------------------------------------------------------------ the registry itself

def test_the_registry_is_one_list_of_distinct_fragments_each_with_its_review_and_the_truth():
    texts = [w.text for w in WRONG] + [c.text for c in IN_CONTEXT]
    assert len(texts) == len(set(texts))
    for w in (*WRONG, *IN_CONTEXT):
        assert len(normalise(w.text)) >= 3 and w.found.startswith("issue ") and w.why, w
    assert any("stop being separable" in w.text for w in WRONG)        # the one that came back after the move


@pytest.mark.parametrize("entry", IN_CONTEXT, ids=lambda c: c.text[:40])
def test_each_sentence_wrong_only_in_context_names_a_test_that_exists(entry):
    path, name = entry.test.split("::")
    src = (ROOT / path).read_text(encoding="utf-8")
    assert re.search(rf"^def {re.escape(name)}\(", src, re.M), entry.test


def test_normalise_reads_text_as_a_student_does():
    assert normalise("the data **stop\n being**  separable") == "the data stop being separable"
    assert normalise("With label noise no such $\\gamma > 0$") == "With label noise no such \\gamma > 0"
    assert normalise("a<br>b \\[000\\]") == "a b [000]"


# ------------------------------------------------------------------------------------------ the code's strings

def _fold(node) -> str | None:
    """A string expression as one text: literals, f-strings (values as HOLE), ``+`` of such pieces."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else HOLE for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _fold(node.left), _fold(node.right)
        if a is not None or b is not None:
            return (a if a is not None else HOLE) + (b if b is not None else HOLE)
    return None


def python_strings(path: Path) -> list[str]:
    """Every string expression of a module but its docstrings and other bare string statements (never shown)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bare = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    out, inside = [], set()
    for node in ast.walk(tree):
        if id(node) in bare or id(node) in inside:
            continue
        s = _fold(node)
        if s is not None:
            out.append(s)
            inside.update(id(n) for n in ast.walk(node))      # its pieces are read as part of it
    return out


_JS_TOKEN = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`""", re.S)


def js_strings(src: str) -> list[str]:
    """Every string literal of a script (comments skipped), runs joined by ``+`` read as one, template
    substitutions as HOLE."""
    out: list[str] = []
    last_end, joined = None, None
    for m in _JS_TOKEN.finditer(src):
        tok = m.group(0)
        if tok.startswith(("//", "/*")):
            continue
        body = tok[1:-1]
        if tok[0] == "`":
            body = re.sub(r"\$\{[^}]*\}", HOLE, body)
        body = re.sub(r"\\(.)", r"\1", body)
        if joined is not None and re.fullmatch(r"\s*\+\s*", src[last_end:m.start()]):
            joined += body
        else:
            if joined is not None:
                out.append(joined)
            joined = body
        last_end = m.end()
    if joined is not None:
        out.append(joined)
    return out


def _code_files() -> list[Path]:
    files = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]
    for pkg in ("olc_ui", "olc_core"):
        files += sorted((ROOT / pkg).rglob("*.py")) + sorted((ROOT / pkg).rglob("*.js"))
    vendored = (ROOT / "olc_ui" / "viewer" / "assets" / "katex", ROOT / "olc_ui" / "viewer" / "assets" / "plotly")
    return [f for f in files if not any(v in f.parents for v in vendored)]


def test_the_readers_find_strings_as_the_code_writes_them(tmp_path):
    assert js_strings('a = "the data " +\n  "stop"; // "stop being separable"\nb = `x ${y} z`') == ["the data stop",
                                                                                               f"x {HOLE} z"]
    tree_src = 'def f():\n    """stop being separable"""\n    return ("the data stop " f"being {x}" + " separable")\n'
    p = tmp_path / "probe.py"
    p.write_text(tree_src, encoding="utf-8")
    assert python_strings(p) == [f"the data stop being {HOLE} separable"]


def test_no_string_in_the_code_holds_a_wrong_sentence():
    files = _code_files()
    assert len(files) > 100 and any(f.suffix == ".js" for f in files)
    found = []
    for f in files:
        strings = python_strings(f) if f.suffix == ".py" else js_strings(f.read_text(encoding="utf-8"))
        for s in strings:
            found += [(str(f.relative_to(ROOT)), hit, s[:120]) for hit in _hits(s)]
    assert not found, "\n".join(map(str, found))


def test_no_shipped_tour_holds_a_wrong_sentence():
    """The lectures' own words (tours/*.json: each stop's text, reference and claim) — the tour bar shows them."""
    files = sorted((ROOT / "tours").glob("*.json"))
    assert len(files) >= 5
    found = [(f.name, hit, s[:120]) for f in files for s in _strings(json.loads(f.read_text(encoding="utf-8")))
             for hit in _hits(s)]
    assert not found, "\n".join(map(str, found))


# ------------------------------------------------------------------------------------------ what the pages render

def _strings(obj) -> list[str]:
    """Every string in a JSON-like value; a string holding JSON (a chart's figure) is read as that JSON."""
    if isinstance(obj, str):
        if obj[:1] in "{[":
            try:
                return _strings(json.loads(obj))
            except ValueError:
                pass
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _strings(v)]
    if isinstance(obj, (list, tuple)):
        return [s for v in obj for s in _strings(v)]
    return []


def _viewer_texts(payload: dict) -> list[str]:
    spec = payload["spec"]
    T = int(spec["T"])
    mistakes = spec.get("mistake_rounds") or []
    at = sorted({0, 1, T, *(m + 1 for m in mistakes[:3]), *(m + 1 for m in mistakes[-2:])} & set(range(T + 1)))
    out = _strings({k: v for k, v in payload.items() if k != "assets"})
    for p in at:
        out.append(caption_at(spec, p))
        out += [ln.get("text", "") + " " + ln.get("reason", "") for ln in ledger_at(spec, p)]
    return out


def page_texts(at: AppTest) -> list[str]:
    """The text of every element the run drew (main and sidebar, nested blocks included)."""
    out: list[str] = []

    def walk(node):
        for child in getattr(node, "children", {}).values():
            walk(child)
        proto = getattr(node, "proto", None)
        if proto is None or not hasattr(proto, "DESCRIPTOR"):
            return
        if proto.DESCRIPTOR.name == "BidiComponent" or getattr(node, "type", "") == "bidi_component":
            raw = getattr(proto, "bytes", b"")
            if raw:
                try:
                    out.extend(_viewer_texts(decode_payload(raw)))
                    return
                except ValueError:
                    pass
        out.extend(_strings(MessageToDict(proto)))
    walk(at._tree)
    return out


def _explorer_cases() -> list[dict]:
    """The explorer on every learner, on a small sweep (its help and captions are per learner)."""
    cases = []
    for alg, spec in SWEEPS.items():
        q = {"alg": alg, "points": "2", "seeds": "1", "T": "100"}
        if "noise" in spec.settings:
            q.update(param="noise", noise_lo="0", noise_hi="0.1")
        cases.append(q)
    return cases


CASES = ([("home", {})] + [(row[4], {}) for row in available() if row[4] != "home"]
         + [("perceptron", {"noise": "0.1", "T": "300"}), ("perceptron", {"noise": "0.1", "T": "300", "cmp": "max-margin"}),
            ("perceptron", {"T": "20", "d": "2", "gamma": "0.1", "seed": "13", "noise": "0.1"}),
            ("winnow", {"noise": "0.1"}), ("exponentiated_update", {"noise": "0.1"}), ("boolean_concepts", {"noise": "0.1"}),
            ("boolean_concepts", {"mode": "dl"}), ("experts", {"alg": "rwm"}), ("experts", {"alg": "halving"}),
            ("compare", {"preset": "dense"}), ("compare", {"preset": "experts"}), ("compare", {"preset": "sparse", "k": "10", "N": "10"}),
            ("margin_perceptron", {"gamma_alg": "1.0"})]
         + [("bound_explorer", q) for q in _explorer_cases()])


@pytest.mark.parametrize("page,query", CASES, ids=[f"{p}-{'&'.join(f'{k}={v}' for k, v in q.items())}" for p, q in CASES])
def test_no_page_renders_a_wrong_sentence(page, query):
    script = ROOT / ("app.py" if page == "home" else f"pages/{page}.py")
    at = AppTest.from_file(str(script), default_timeout=300)
    for k, v in query.items():
        at.query_params[k] = v
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        at.run()
    assert not at.exception, at.exception
    texts = page_texts(at)
    assert sum(len(t) for t in texts) > 500, page         # the page drew its text (the walk reads it)
    found = sorted({(hit, t[:160]) for t in texts for hit in _hits(t)})
    assert not found, f"{page} {query}:\n" + "\n".join(map(str, found))


# ------------------------------------------------------------------------------------------ the transcripts

@functools.lru_cache(maxsize=1)
def _transcript_runs():
    from tests.core.test_transcript_relations import RUNS
    return RUNS


@pytest.mark.parametrize("case", range(len(_transcript_runs())))
def test_no_transcript_holds_a_wrong_sentence(case):
    rid, algorithm, X, y, params = _transcript_runs()[case]
    tr = olc_core.run(algorithm, X, y, **params)
    for text in (olc_core.transcript.markdown(tr), olc_core.transcript.latex(tr)):
        assert not _hits(text), (rid, _hits(text))
