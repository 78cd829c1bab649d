"""Page scripts for st.navigation (app.py); each imports its page module and renders it."""
