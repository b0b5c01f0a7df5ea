"""A page's run as a Jupyter notebook (issue 36 §2): cells that rebuild the same data and run, assert that the
trace is the page's (its mistake rounds, its final weights), and draw the sandwich and the learner's state.

The data: when the page's lesson says which ``olc_core.streams`` generator its settings call (its
:class:`DataCall`, from ``PageSettings.recipe``) and that call gives exactly the page's arrays (checked here,
array for array, dtype included), the notebook calls it with the settings and the seed; otherwise (an upload,
clicked points, a game's moves, data a lesson derives) the arrays themselves go into a CSV cell, every float
written with the digits that read back to the same float. The run: ``olc_core.run`` with the trace's own
algorithm and parameters, written as Python literals that build equal values (checked here too).

Everything from the page's link or an upload (settings, a file's name) is untrusted text: it reaches a Markdown
cell only through ``md_text`` (escaped) and a code cell only as ``repr`` of a number or a string.

>>> literal(np.array([[0.1, -2.0], [np.inf, 3.0]])), literal(np.array([1, 0], dtype=np.uint8))
('np.array([[0.1, -2.0], [np.inf, 3.0]], dtype=np.float64)', 'np.array([1, 0], dtype=np.uint8)')
"""
from __future__ import annotations

import dataclasses
import hashlib
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

import olc_core
from olc_core import transcript
from olc_core._transcript.texdoc import clip, md_text

__all__ = ["DataCall", "notebook", "write", "literal", "data_code", "file_name", "MAX_EMBEDDED", "MAX_LISTED"]

#: numbers a notebook embeds at most as a CSV cell (X and y); beyond, it cannot carry the data
MAX_EMBEDDED = 400_000
#: mistake rounds and final weights listed in an assertion at most; beyond, their SHA-256 is compared
MAX_LISTED = 2_000


@dataclass(frozen=True)
class DataCall:
    """The ``olc_core.streams`` call that makes a page's data: ``generator`` (a name in ``olc_core.streams``)
    and its keyword arguments (numbers, strings, lists, numpy dtypes)."""
    generator: str
    kwargs: dict


# ------------------------------------------------------------------------------------ values as code

def literal(v: Any) -> str:
    """Python source that builds a value equal to ``v`` (numbers, strings, None, tuples, lists, dicts, numpy
    arrays, scalars and dtypes, frozen dataclasses of olc_core); ValueError for anything else."""
    if v is None or isinstance(v, (bool, str)):
        return repr(v)
    if isinstance(v, (int, np.integer)) and not isinstance(v, np.bool_):
        return repr(int(v))
    if isinstance(v, np.bool_):
        return repr(bool(v))
    if isinstance(v, (float, np.floating)):
        x = float(v)
        if math.isnan(x):
            return "np.nan"
        if math.isinf(x):
            return "np.inf" if x > 0 else "-np.inf"
        return repr(x)
    if isinstance(v, type) and issubclass(v, np.generic):
        return f"np.{v.__name__}"
    if isinstance(v, np.dtype):
        return f"np.{v.type.__name__}"
    if isinstance(v, np.ndarray):
        return f"np.array({_nested(v)}, dtype=np.{v.dtype.type.__name__})"
    if isinstance(v, tuple):
        return "(" + ", ".join(literal(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, list):
        return "[" + ", ".join(literal(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(x)}" for k, x in v.items()) + "}"
    if dataclasses.is_dataclass(v) and type(v).__module__.startswith("olc_core"):
        fields = {f.name: getattr(v, f.name) for f in dataclasses.fields(v) if f.init}
        if type(v)(**fields) != v:
            raise ValueError(f"{type(v).__name__} is not rebuilt from its fields")
        return f"{type(v).__name__}(" + ", ".join(f"{k}={literal(x)}" for k, x in fields.items()) + ")"
    raise ValueError(f"cannot write a {type(v).__name__} as code")


def _nested(a: np.ndarray) -> str:
    if a.ndim == 0:
        return literal(a.item())
    if a.ndim == 1:
        return "[" + ", ".join(literal(x) for x in a.tolist()) + "]"
    return "[" + ", ".join(_nested(r) for r in a) + "]"


def _classes(v: Any, out: dict[str, str]) -> None:
    """The olc_core dataclasses a literal of ``v`` names (their import lines)."""
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        out[type(v).__name__] = f"from {type(v).__module__} import {type(v).__name__}"
        for f in dataclasses.fields(v):
            _classes(getattr(v, f.name), out)
    elif isinstance(v, (list, tuple)):
        for x in v:
            _classes(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            _classes(x, out)


# ------------------------------------------------------------------------------------ the data

def _same(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")


def _generator(name: str):
    f: Any = olc_core.streams
    for part in name.split("."):
        f = getattr(f, part)
    return f


def _number(x: Any) -> str:
    return repr(x) if isinstance(x, int) else repr(float(x))


def data_code(X: np.ndarray, y: np.ndarray, call: DataCall | None) -> tuple[str, str, Any]:
    """(how, code, stream): the cell that makes ``X`` and ``y`` — ``"generated"`` (the call, when it gives exactly
    these arrays; ``stream`` is what it returned), ``"embedded"`` (a CSV cell) — or ``("too large", "", None)``
    when neither can."""
    X, y = np.asarray(X), np.asarray(y)
    if call is not None:
        try:
            s = _generator(call.generator)(**call.kwargs)
            same = _same(s.X, X) and _same(s.y, y)
        except (TypeError, ValueError, AttributeError):
            same = False
        if same:
            args = ", ".join(f"{k}={literal(v)}" for k, v in call.kwargs.items())
            return "generated", f"s = olc_core.streams.{call.generator}({args})\nX, y = s.X, s.y", s
    if X.size + y.size > MAX_EMBEDDED:
        return "too large", "", None
    d = X.shape[1]
    rows = [",".join(_number(v) for v in row) + "," + _number(t) for row, t in zip(X.tolist(), y.tolist())]
    header = ",".join([f"x{j + 1}" for j in range(d)] + ["y"])
    csv = "\n".join([header] + rows)
    code = (f'DATA = """\\\n{csv}\n"""\n'
            f"table = np.loadtxt(io.StringIO(DATA), delimiter=\",\", skiprows=1, ndmin=2)\n"
            f"X = table[:, :{d}].astype(np.{X.dtype.type.__name__})\n"
            f"y = table[:, {d}].astype(np.{y.dtype.type.__name__})")
    return "embedded", code, None


def _fingerprint(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


# ------------------------------------------------------------------------------------ the notebook

def _checks(trace) -> str:
    """The cell asserting that the run is the page's: its mistake rounds and its final weights, listed (or,
    when long, their SHA-256)."""
    M = trace.mistakes
    W = np.asarray(trace.weights_at(trace.T))
    lines = [f"assert trace.T == {trace.T} and trace.n_mistakes == {trace.n_mistakes}"]
    if M.size <= MAX_LISTED:
        lines.append(f"assert trace.mistakes.tolist() == {literal(M.tolist())}   # the page's mistake rounds (0-based)")
    else:
        lines.append(f"assert hashlib.sha256(trace.mistakes.astype(np.int64).tobytes()).hexdigest() == "
                     f"{_fingerprint(M.astype(np.int64))!r}   # the page's {M.size} mistake rounds")
    if W.size <= MAX_LISTED:
        lines.append(f"final = {literal(W)}\nassert np.array_equal(trace.weights_at(trace.T), final, equal_nan=True)"
                     "   # the page's final weights")
    else:
        lines.append(f"assert hashlib.sha256(np.ascontiguousarray(trace.weights_at(trace.T)).tobytes()).hexdigest() == "
                     f"{_fingerprint(W)!r}   # the page's {W.size} final weights")
    lines.append('print("The run is the page\'s:", trace.n_mistakes, "mistakes on rounds", '
                 '(trace.mistakes + 1).tolist()[:20], "(counted from 1)")')
    return "\n".join(lines)


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and _same(a, b)
    try:
        return type(a) is type(b) and bool(a == b)
    except (TypeError, ValueError):
        return False


def _run_code(trace, stream: Any = None) -> tuple[str, list[str]]:
    """The run cell (the trace's algorithm and parameters; the stream's own comparator named as
    ``s.comparator`` when the run used it) and the imports its literals need."""
    imports: dict[str, str] = {}
    cmp = getattr(stream, "comparator", None)
    code = {k: "s.comparator" if cmp is not None and _equal(v, cmp) else literal(v) for k, v in trace.params.items()}
    for k, v in trace.params.items():
        if code[k] != "s.comparator":
            _classes(v, imports)
    args = "".join(f", {k}={c}" for k, c in code.items())
    return f"trace = olc_core.run({trace.algorithm!r}, X, y{args})\ntrace", sorted(imports.values())


def _pictures(trace) -> list[str]:
    cells = ["olc_plot.sandwich(trace)   # the proof's sandwich: drag the slider over the rounds"]
    if trace.d == 2 and trace.algorithm in ("perceptron", "margin_perceptron"):
        cells.append("olc_plot.plane(trace, X, y)   # the learner's state: the stream and its hyperplane")
    else:
        cells.append("olc_plot.weights(trace)   # the learner's state: its weights after each round")
    return cells


def _intro(page: str, title: str, settings: dict[str, str], how: str, source: str | None) -> str:
    data = {"generated": "rebuilt from the page's settings and seed by the same `olc_core.streams` call",
            "embedded": "embedded below as a CSV cell (the page's own arrays)",
            "too large": "too large to embed in a notebook"}[how]
    parts = [f"# {md_text(clip(title or page, 200))}", "",
             f"This notebook reruns one run of olc's page *{md_text(page)}*: the data are {data}; the run is "
             "`olc_core.run` with the trace's own parameters; a cell checks that the run is the page's (its "
             "mistake rounds and final weights); then the run shows itself and `olc_plot` draws the sandwich and "
             "the learner's state, with a slider over the rounds.", "",
             "Needs the project installed with the plot extra: `pip install \".[plot]\"` (numpy, plotly)."]
    if source:
        parts += ["", f"Uploaded file: {md_text(clip(source, 80))}"]
    if settings:
        parts += ["", "The page's settings (its link):", ""]
        parts += [f"- {md_text(clip(k, 80))} = {md_text(clip(v, 80))}" for k, v in settings.items()]
    return "\n".join(parts)


def _nbformat():
    """nbformat, imported when a notebook is built: its import takes 0.3–0.5 s (jsonschema), which a page's first
    visit should not pay for a button it may never press."""
    import nbformat
    return nbformat


def write(cells: list[tuple[str, str]]) -> str:
    """A notebook (``.ipynb`` JSON text, nbformat 4, a Python 3 kernel) of ``(kind, source)`` cells, ``kind``
    ``"markdown"`` or ``"code"``."""
    v4 = _nbformat().v4
    made = [v4.new_markdown_cell(src) if kind == "markdown" else v4.new_code_cell(src) for kind, src in cells]
    nb = v4.new_notebook(cells=made, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"}})
    return _nbformat().writes(nb)


def notebook(trace, X, y, *, page: str, title: str = "", settings: dict[str, str] | None = None,
             call: DataCall | None = None, source: str | None = None) -> str:
    """The run as a notebook (``.ipynb`` JSON text, nbformat 4)."""
    how, code, stream = data_code(np.asarray(X), np.asarray(y), call)
    cells = [("markdown", _intro(page, title, dict(settings or {}), how, source))]
    if how == "too large":
        n = np.asarray(X).size + np.asarray(y).size
        cells.append(("markdown", f"These data ({n} numbers) are more than a notebook embeds ({MAX_EMBEDDED}) and no "
                      "`olc_core.streams` call rebuilds them: download the trace (CSV) from the page instead, or "
                      "choose a smaller T."))
    else:
        run, imports = _run_code(trace, stream)
        cells += [("code", "import hashlib\nimport io\n\nimport numpy as np\n\nimport olc_core\nimport olc_plot"
                   + "".join("\n" + line for line in imports)),
                  ("markdown", "## The data"), ("code", code),
                  ("markdown", "## The run, and the check that it is the page's"), ("code", run),
                  ("code", _checks(trace)),
                  ("markdown", "## The pictures"), *[("code", c) for c in _pictures(trace)],
                  ("markdown", "## The rounds as a table (needs pandas)"),
                  ("code", "trace.to_pandas()")]
    return write(cells)


def file_name(stem_settings: dict[str, str], page: str) -> str:
    """``page-settings-run.ipynb`` (as the transcript names its files)."""
    return transcript.file_name(page, stem_settings, "ipynb", what="run")
