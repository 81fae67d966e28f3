"""Stage 4: the human pages and charts, rendered from the API documents."""
