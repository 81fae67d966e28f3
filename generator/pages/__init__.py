"""Stage 5 (pages): the human pages and charts, rendered from the published documents."""
