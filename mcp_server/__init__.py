"""The MCP sidecar: nine read-only tools over the built site (`site_out/api/v1`)."""
