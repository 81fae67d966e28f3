"""Stage 3 (api): the published contract: document Structs and paths, URLs, the other
published files, hosting rules, OpenAPI, MCP tool declarations, aliases. No records."""
