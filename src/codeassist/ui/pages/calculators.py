"""Page script run by st.navigation (see app.py); the page itself lives in codeassist.ui.calculators."""

from codeassist.ui.calculators import render

render()
