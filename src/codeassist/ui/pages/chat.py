"""Page script run by st.navigation (see app.py); the page itself lives in codeassist.ui.chat."""

from codeassist.ui.chat import render

render()
