"""Page script run by st.navigation (see app.py); the page itself lives in codeassist.ui.compare."""

from codeassist.ui.compare import render

render()
