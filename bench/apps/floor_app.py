"""The latency floor: one button, one small plotly chart redrawn on every click (bench/ui_latency.py)."""
import plotly.graph_objects as go
import streamlit as st

if "n" not in st.session_state:
    st.session_state.n = 0
if st.button("Redraw"):
    st.session_state.n += 1
n = st.session_state.n
fig = go.Figure(go.Scatter(x=list(range(20)), y=[(3 * i + n) % 7 for i in range(20)], mode="lines+markers"))
fig.update_layout(title=f"click {n}", height=300, margin={"l": 40, "r": 10, "t": 40, "b": 30})
st.plotly_chart(fig)
