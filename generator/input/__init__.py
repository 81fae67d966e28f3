"""Stage 1 (input): read `data/` into validated input records (`Dataset`)."""
