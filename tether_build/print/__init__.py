"""Everything printed: layout/ (the one place touching the layout libraries' internals), shared page code, cards/, tiles/, rulebook/, tts/."""
