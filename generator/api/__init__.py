"""Stage 3: the API contract and its documents (JSON files, OpenAPI, hosting rules)."""
