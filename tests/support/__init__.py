"""Helpers the tests share (tests/README.md maps the whole test suite).

- `paths`: repository, fixture data, shipped data, golden files.
- `documents`: the one builder of sample contract documents, written through `render_api`.
- `scoring`: records for scoring tests (datasets, models, results).
- `servers`: free ports, starting and stopping servers, child-process environments.
- `once`: set-up made once per run and shared by the run's worker processes.
- `bounded`: Python modules run as bounded children forked from one warm parent.
- `http_cases`: what every API URL must answer, for any server in front of a build.
- `mcp_live`: an in-process MCP server on a real socket.
- `sitecheck`: HTML and link checks over a built site.
- `sitetree`: byte-exact manifests of an output tree; the build run as a child process, or in
  process for a test's set-up.
"""
