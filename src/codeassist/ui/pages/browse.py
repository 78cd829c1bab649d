"""Page script run by st.navigation (see app.py); the page itself lives in codeassist.ui.browse."""

from codeassist.ui.browse import render

render()
