"""`tether serve`: the live preview and the Play page."""
