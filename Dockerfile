# The MCP sidecar as a small service (docs/DEPLOY.md). Two stages:
#   build:   the locked packages, then the site built from data/ (same command as the static host)
#   runtime: the locked runtime packages the sidecar imports, the built site, a non-root user
# Configuration is by environment (see the ENV block). tests/repo/test_dockerfile.py lints this file
# with hadolint, replays the build stage's RUN steps and runs the runtime stage's exact command
# and environment over what they produced.
# Both stages start from one base image pinned by digest (the tag is a moving name): a build is
# the same image until someone moves the pin on purpose. To move it, read the tag's current
# multi-platform digest (`docker buildx imagetools inspect python:3.11-slim-bookworm`) and
# replace both lines (docs/DEPLOY.md, "Updating the base image").
FROM python:3.11-slim-bookworm@sha256:2e32f7d302adc1c37428355c1e646897c0c53f4fd60b6a551245fb90ee129f91 AS build
ENV UV_PYTHON_DOWNLOADS=never UV_LINK_MODE=copy UV_COMPILE_BYTECODE=1 UV_NO_PROGRESS=1
RUN pip install --no-cache-dir uv==0.13.8
WORKDIR /app
# Packages first (a layer that changes only with the lock), then the code and the data.
COPY pyproject.toml uv.lock README.md ./
RUN uv sync --locked --no-install-project
COPY generator generator
COPY mcp_server mcp_server
COPY data data
# The public addresses go into every `url` field the sidecar answers with.
ARG BASE_URL=https://scores.example.org
ARG MCP_ORIGIN=""
RUN uv sync --locked --no-editable \
    && .venv/bin/modelscores build --data-dir data --out-dir site_out --base-url "$BASE_URL" \
       ${MCP_ORIGIN:+--mcp-origin "$MCP_ORIGIN"}
# The sidecar's environment: the same lock, less what only the build uses (page templates,
# chart rasterising, TOML parsing, rank-band counting; tests/repo/test_dockerfile.py runs the
# sidecar from it).
RUN UV_PROJECT_ENVIRONMENT=/opt/venv uv sync --locked --no-editable \
    --no-install-package jinja2 --no-install-package markupsafe \
    --no-install-package numpy --no-install-package resvg-py --no-install-package rtoml

FROM python:3.11-slim-bookworm@sha256:2e32f7d302adc1c37428355c1e646897c0c53f4fd60b6a551245fb90ee129f91 AS runtime
RUN groupadd --system --gid 10001 mcp \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin mcp
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app/site_out /srv/site_out
WORKDIR /srv
# MODELSCORES_ALLOWED_HOSTS / _ORIGINS: comma-separated; set them to the public name(s) the
# sidecar is reached by (default: localhost only). WEB_CONCURRENCY: worker processes.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    MODELSCORES_SITE_DIR=site_out \
    UVICORN_HOST=0.0.0.0 \
    UVICORN_PORT=8080 \
    WEB_CONCURRENCY=2
USER 10001:10001
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ['UVICORN_PORT'] + '/healthz', timeout=4)"]
# uvicorn's HTTP/1.1 protocol with a header timeout (generator/header_timeout.py): a connection
# that sends no complete request within 10 s is closed, so half-sent requests cannot pile up.
CMD ["uvicorn", "mcp_server.app:app", "--no-server-header", "--http", "generator.header_timeout:HeaderTimeoutProtocol"]
