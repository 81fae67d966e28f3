"""Stage 1: read `data/` into validated input records (`Dataset`)."""
