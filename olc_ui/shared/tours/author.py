"""Making and opening one's own tours (issue 33 §4; olc_ui/shared/tours/own.py keeps them): the sidebar's **Add this
view to a tour** on every lesson page, and on the Tours page the draft's editor (title, each stop's note, reorder,
remove, download) and the opening of a tour file.

Every text here is the student's: kept as plain strings, checked as a tour file is (docs/tours.md) before it is
offered as a tour, and shown inert (olc_ui/shared/safe.py)."""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import streamlit as st

from olc_ui.shared import safe
from olc_ui.shared.config import Setting, encode
from olc_ui.shared.tours import own
from olc_ui.shared.tours.format import MAX_BYTES, MAX_WORDS, Tour, TourError, problems
from olc_ui.shared.tours.store import read_bytes

__all__ = ["ADD_KEY", "DRAFT_KEY", "add_view", "draft", "draft_stop", "editor", "keep_draft", "opener", "restored"]

#: session-state key of the draft: {"title": str, "stops": [{"uid", "page", "settings", "t", "text", "ref", "claim"}]}
DRAFT_KEY = "_olc_tour_draft"
#: the sidebar box's key (its open state)
ADD_KEY = _ADD = "olc_tour_add"


#: session-state keys: this session asked the browser for its stored draft; the draft had stops in this session; what
#: was wrong with a stored draft that could not be taken
_ASKED_KEY = "_olc_tour_draft_asked"
_HAD_KEY = "_olc_tour_draft_had"
_BAD_KEY = "_olc_tour_draft_bad"
_STOP_FIELDS = ("page", "settings", "t", "text", "ref", "claim")


@functools.lru_cache(maxsize=1)
def _sync():
    js = (Path(__file__).resolve().parent / "draft.js").read_text(encoding="utf-8")
    return st.components.v2.component("olc_tour_draft", js=js)


def keep_draft() -> None:
    """Keep the draft in the browser (localStorage: assets draft.js) so that it survives a reload: each run hands the
    browser the draft when it has stops; a new session without one asks the browser for its stored draft (once),
    which :func:`restored` checks and takes; a draft emptied by the student is forgotten there too."""
    d = draft()
    asked = bool(st.session_state.get(_ASKED_KEY))
    st.session_state[_ASKED_KEY] = True
    if d["stops"]:
        st.session_state[_HAD_KEY] = True
    data = {"draft": json.dumps(d, ensure_ascii=False) if d["stops"] else None,
            "ask": not asked and not d["stops"],
            "clear": bool(asked and not d["stops"] and st.session_state.get(_HAD_KEY))}
    _sync()(key="olc_tour_draft_sync", data=data, on_restore_change=_restore)


def restored(raw: object) -> tuple[dict[str, Any] | None, str | None]:
    """The draft in a browser's stored text ``raw`` (untrusted: JSON of at most a tour file's size, the draft's shape,
    and the tour file it makes passes the format's checks), with fresh ids for its stops, and None; else None and why
    not (pure: tested as data).

    >>> d, why = restored('{"title": "Mine", "stops": [{"uid": 7, "page": "winnow", "settings": {"N": "50"}, "t": 3, '
    ...                   '"text": "A note.", "ref": "[000] §4", "claim": {"kind": "no_violation"}}], "n": 7}')
    >>> d["title"], d["n"], [(s["uid"], s["page"], s["t"]) for s in d["stops"]], why
    ('Mine', 1, [(1, 'winnow', 3)], None)
    >>> restored('{"title": "X", "stops": [{"page": "winnow"}]}')[1]
    'stop 1, field settings: missing (a required field); stop 1, field t: missing (a required field); stop 1, field text: missing (a required field)'
    """
    try:
        if not isinstance(raw, str) or len(raw) > MAX_BYTES:
            raise ValueError("it is not a draft (too large, or not text)")
        data = json.loads(raw)
        stops = data.get("stops") if isinstance(data, dict) else None
        if not isinstance(stops, list) or not stops or not all(isinstance(x, dict) for x in stops):
            raise ValueError("it has no stops")
        clean = [{k: x[k] for k in _STOP_FIELDS if k in x} for x in stops]
        title = data.get("title") if isinstance(data.get("title"), str) else "My tour"
        found = problems(own.draft_doc(title, clean))
        if found:
            raise ValueError("; ".join(str(f) for f in found[:3]))
    except ValueError as exc:           # json's errors are ValueErrors too
        return None, safe.clip(str(exc), 300)
    return {"title": " ".join(title.split())[:120] or "My tour",
            "stops": [{"uid": i, **x} for i, x in enumerate(clean, start=1)], "n": len(clean)}, None


def _restore() -> None:
    got = st.session_state.get("olc_tour_draft_sync")
    value = got.get("restore") if hasattr(got, "get") else None
    d = draft()
    if d["stops"] or not isinstance(value, dict):      # a draft made meanwhile in this session wins
        return
    back, why = restored(value.get("draft"))
    if back is not None:
        st.session_state[DRAFT_KEY] = back
        st.session_state[_HAD_KEY] = True
    else:
        st.session_state[_BAD_KEY] = why


def draft() -> dict[str, Any]:
    d = st.session_state.get(DRAFT_KEY)
    if not isinstance(d, dict):
        d = st.session_state[DRAFT_KEY] = {"title": "My tour", "stops": [], "n": 0}
    return d


def draft_stop(page: str, settings: list[Setting], values: dict[str, Any], t: int, note: str, ref: str,
               claim_label: str) -> dict[str, Any]:
    """A stop of the view on screen: the page, the settings that differ from their defaults (the others are the
    defaults when the stop opens), the round, the note and the claim (pure: tested as data)."""
    changed = {s.key: encode(s, values[s.key]) for s in settings
               if s.key in values and encode(s, values[s.key]) != encode(s, s.default)}
    text = " ".join(note.split()) or f"The {page.replace('_', ' ')} page at round {t}."
    return {"page": page, "settings": changed, "t": int(t), "text": text,
            "ref": " ".join(ref.split()) or "(my own stop)", "claim": dict(own.CLAIMS[claim_label])}


def _add(page: str, settings: list[Setting], values: dict[str, Any], t: int) -> None:
    d = draft()
    stop = draft_stop(page, settings, values, t, st.session_state.get(f"{_ADD}_note", ""),
                      st.session_state.get(f"{_ADD}_ref", ""), st.session_state.get(f"{_ADD}_claim",
                                                                                    next(iter(own.CLAIMS))))
    d["n"] += 1
    d["stops"].append({"uid": d["n"], **stop})
    st.session_state[f"{_ADD}_note"] = ""
    st.session_state[f"{_ADD}_said"] = f"Added as stop {len(d['stops'])} of your tour (edit it on the Tours page)."


def add_view(page: str | None, settings: list[Setting], values: dict[str, Any], t: int) -> bool:
    """The sidebar's "Add this view to a tour": this page, its settings and round ``t``, a note and a claim. Returns
    whether it is open (then it shows the round: a step of the viewer reruns the page, olc_ui/shared/page.py)."""
    if page is None:
        return False
    # its widgets are drawn only while it is open (opening it reruns the page): a closed box costs the page nothing
    box = st.sidebar.expander("Add this view to a tour", icon=":material/add_location_alt:", key=_ADD,
                              on_change="rerun")
    if not box.open:
        return False
    with box:
        st.text_area(f"Your note for this stop (at most {MAX_WORDS} words; $…$ for maths)", key=f"{_ADD}_note",
                     max_chars=600)
        st.text_input("Reference (e.g. [000] §3.2)", key=f"{_ADD}_ref", max_chars=160)
        st.selectbox("Claim to check at this round", list(own.CLAIMS), key=f"{_ADD}_claim")
        st.button(f"Add this view (round {t})", key=f"{_ADD}_go", on_click=_add, args=(page, settings, values, t),
                  icon=":material/add:")
        said = st.session_state.pop(f"{_ADD}_said", None)
        if said:
            st.caption(said)
        n = len(draft()["stops"])
        st.caption(f"Your tour has {n} stop{'s' if n != 1 else ''}.")
    return True


# ------------------------------------------------------------------------------------------- the Tours page

def _move(i: int, step: int) -> None:
    stops = draft()["stops"]
    j = i + step
    if 0 <= j < len(stops):
        stops[i], stops[j] = stops[j], stops[i]


def _remove(i: int) -> None:
    stops = draft()["stops"]
    if 0 <= i < len(stops):
        stops.pop(i)


def _edit(i: int, key: str) -> None:
    stops = draft()["stops"]
    if 0 <= i < len(stops):
        stops[i]["text"] = " ".join(str(st.session_state.get(key, "")).split()) or stops[i]["text"]


def _doc() -> dict[str, Any]:
    d = draft()
    return own.draft_doc(d["title"], [{k: v for k, v in s.items() if k != "uid"} for s in d["stops"]])


def editor(tables: dict[str, list[Setting]], card) -> None:
    """The draft: its title, each stop (its page and round, its note to edit, ↑ ↓ ✕), the problems a file of it
    would have, the download, and its card (``card``: the Tours page's) to open it as a tour."""
    d = draft()
    st.subheader("Your tour")
    bad = st.session_state.pop(_BAD_KEY, None)
    if bad:
        safe.notice("info", "A tour draft kept in this browser could not be read, so it was left out: ", f"{bad}.")
    if not d["stops"]:
        st.caption("Empty: on any lesson page, open **Add this view to a tour** in the sidebar. A draft is kept in "
                   "this browser (it survives a reload); download it to keep it elsewhere.")
        return
    d["title"] = " ".join(st.text_input("Title", value=d["title"], key="olc_tour_title", max_chars=120).split())
    for i, s in enumerate(d["stops"]):
        with st.container(border=True, key=f"olc_tour_stop_{s['uid']}"):
            st.text(f"Stop {i + 1}: the {s['page']} page at round {s['t']} · {s['ref']}")
            key = f"olc_tour_text_{s['uid']}"
            st.text_area("Note", value=s["text"], key=key, on_change=_edit, args=(i, key), max_chars=700)
            cols = st.columns(3)
            cols[0].button("Move up", key=f"olc_tour_up_{s['uid']}", on_click=_move, args=(i, -1), disabled=i == 0,
                           icon=":material/arrow_upward:")
            cols[1].button("Move down", key=f"olc_tour_down_{s['uid']}", on_click=_move, args=(i, 1),
                           disabled=i + 1 == len(d["stops"]), icon=":material/arrow_downward:")
            cols[2].button("Remove", key=f"olc_tour_rm_{s['uid']}", on_click=_remove, args=(i,),
                           icon=":material/delete:")
    doc = _doc()
    found = problems(doc, tables)
    if found:
        safe.notice("warning", "Your tour is not a tour file yet: ", "; ".join(str(p) for p in found[:5]) + ".")
        return
    st.download_button("Download the tour (JSON)", json.dumps(doc, indent=2, ensure_ascii=False), key="olc_tour_dl",
                       file_name="my-tour.json", mime="application/json", icon=":material/download:")
    card(own.remember(doc))


def opener(tables: dict[str, list[Setting]], card) -> None:
    """Open a tour file (an upload): checked against every page; its card, or every problem by stop and field."""
    st.subheader("Open a tour file")
    f = st.file_uploader("A tour file (JSON, docs/tours.md)", type=["json"], key="olc_tour_open")
    if f is None:
        return
    try:
        tour: Tour = read_bytes(f.getvalue(), tables)
    except TourError as exc:
        safe.notice("error", "This file is not a tour that can be opened: ",
                    f"{safe.clip(f.name, 60)}: " + "; ".join(str(p) for p in exc.problems[:8])
                    + (f"; and {len(exc.problems) - 8} more" if len(exc.problems) > 8 else "") + ".")
        return
    card(own.remember(own.doc_of(tour)))

