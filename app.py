"""olc — online linear classification and its mistake-bound proofs.

    streamlit run app.py

That command finds ``app`` below and serves it: Streamlit's own server (``st.App``) plus the
middleware of olc_ui/routes.py, which spares direct links such as ``/perceptron?T=50`` two console
404s (docs/deployment.md, "Direct links"), and the class session's websocket endpoint
``/olc-class/ws`` (olc_ui/classroom/, docs/class-session.md). The server then runs this same file as the app script,
where ``__name__ == "__main__"``: the router. Every lesson is a short script in pages/.
"""
import streamlit as st

if __name__ == "__main__":  # the app script (also under AppTest)
    from olc_ui.catalog import menu
    from olc_ui.shared import nav

    st.set_page_config(page_title="olc · online linear classification", page_icon="➗", layout="wide")

    sections: dict[str, list] = {}
    for section, script, title, icon, path, _ in menu():
        sections.setdefault(section, []).append(
            st.Page(script, title=title, icon=icon, url_path=path, default=(path == "home")))

    # Streamlit's own menu is hidden (its markup fails WCAG 1.3.1); olc_ui/shared/nav.py draws the same one.
    current = st.navigation(sections, position="hidden")
    nav.sidebar(sections)
    current.run()
else:  # imported by `streamlit run app.py` (or uvicorn app:app) to serve it
    from olc_ui import classroom
    from olc_ui.routes import middleware

    from olc_ui.viewer import drawn

    app = st.App(__file__, middleware=middleware(), routes=classroom.routes() + [drawn.route()])
