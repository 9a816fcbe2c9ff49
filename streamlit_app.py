"""The tracker's entry: page setup and navigation, nothing else (pages live in aids/ui)."""

import streamlit as st

from aids.ui import home

st.set_page_config(page_title="Race-night table aids", page_icon="🏇", layout="wide")
page = st.navigation([st.Page(home.render, title="Race-night table aids", default=True)])
page.run()
