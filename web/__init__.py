"""The Flask referee and scorekeeper: tables, phones, live state, undo, persistence."""
