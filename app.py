"""codeassist's Streamlit app: `make run` (or `streamlit run app.py`).

Four pages, each a thin script in src/codeassist/ui/pages/: Chat, Calculators, Browse, Compare.
A deep link `?cite=<provision id or citation>` on any page opens that provision in Browse.
"""

import streamlit as st

from codeassist.ui import PAGES_DIR
from codeassist.ui.layout import sidebar
from codeassist.ui.resources import get_corpus

st.set_page_config(page_title="codeassist: NY municipal code", page_icon="\u2696\ufe0f", layout="wide")

PAGES = {
    "chat": st.Page(PAGES_DIR / "chat.py", title="Chat", icon=":material/chat:", default=True),
    "calculators": st.Page(PAGES_DIR / "calculators.py", title="Calculators", icon=":material/calculate:"),
    "browse": st.Page(PAGES_DIR / "browse.py", title="Browse", icon=":material/menu_book:"),
    "compare": st.Page(PAGES_DIR / "compare.py", title="Compare", icon=":material/compare_arrows:"),
}

page = st.navigation(list(PAGES.values()), position="top")
cite = st.query_params.get("cite")
if cite and page.url_path != PAGES["browse"].url_path:
    st.switch_page(PAGES["browse"], query_params={"cite": cite})
page.run()
sidebar(get_corpus())
