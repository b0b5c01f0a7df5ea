"""An uploaded CSV file that stays for the session: switching the data source away and back keeps it.

The uploader widget's own state is cleaned up when the widget is not drawn (another data
source chosen, another page visited), so the file's bytes and name are kept in session state
under a key no widget owns. The page then says which file it uses (the name is the student's
text: shown with ``st.text``, never as markdown) with a way to clear it; uploading another
file replaces it.
"""
from __future__ import annotations

import streamlit as st

from olc_ui.shared import safe

__all__ = ["upload_box", "kept"]


def _store(page: str) -> str:
    return f"_olc_upload::{page}"


def _widget_key(page: str) -> str:
    # a new key after "Clear": the uploader then starts empty (its value cannot be set)
    return f"{page}_upload_{st.session_state.get(_store(page) + '::n', 0)}"


def kept(page: str) -> dict | None:
    """The file kept for ``page``: {"name", "data", "id"}, or None."""
    got = st.session_state.get(_store(page))
    return got if isinstance(got, dict) else None


def _clear(page: str) -> None:
    st.session_state.pop(_store(page), None)
    st.session_state[_store(page) + "::n"] = st.session_state.get(_store(page) + "::n", 0) + 1


def _on_change(page: str, key: str) -> None:
    if st.session_state.get(key) is None:  # the student removed the file from the uploader
        st.session_state.pop(_store(page), None)


def upload_box(page: str, label: str, help: str) -> bytes | None:
    """The uploader and the kept file: the bytes to use (the kept file's when the uploader is empty)."""
    key = _widget_key(page)
    f = st.file_uploader(label, type=["csv", "txt"], key=key, help=help, on_change=_on_change, args=(page, key))
    if f is not None:
        cur = kept(page)
        if cur is None or cur["id"] != f.file_id:
            st.session_state[_store(page)] = {"name": f.name, "data": f.getvalue(), "id": f.file_id}
    cur = kept(page)
    if cur is None:
        return None
    if f is None:  # back from another data source or page: the uploader is empty, the file is kept
        st.text(f"using {safe.clip(cur['name'])}")
        st.caption("Upload another file above to replace it.")
    st.button("Clear the uploaded file", key=f"{page}_upload_clear", on_click=_clear, args=(page,),
              icon=":material/delete:")
    return cur["data"]
