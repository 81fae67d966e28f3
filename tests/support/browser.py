"""Real headless Chromium over `modelscores serve` of the shipped data, for the browser tests.

Chromium is Debian's (`/usr/bin/chromium`, installed by scripts/install_tools.sh); the
`playwright` package drives it, so no browser is downloaded. tests/pages/conftest.py wraps
`serve_shipped` and `launch_chromium` in package fixtures the two browser test files share.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from generator.api.urls import site_config
from generator.build import build_site
from scripts.screenshots import CHROMIUM_ARGS
from support.paths import REPO
from support.servers import free_port, python_env, running_server, serve_command

CHROMIUM = Path("/usr/bin/chromium")
WIDTHS = (390, 768, 1280, 1600)


@dataclass
class Served:
    """The shipped data built for, and served by `modelscores serve` at, `base_url`."""

    root: Path
    base_url: str


def serve_shipped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`modelscores serve --no-build` (the local host: _headers, _redirects, 404s) on a free
    port, over the shipped data built here for its address as `serve` would build it (in
    process: the child's start and its previews drawn again cost seconds and test nothing)."""
    root = tmp_path_factory.mktemp("browser") / "site_out"
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    build_site(REPO / "data", root, site_config(base_url))
    log = root.parent / "serve.log"
    command = serve_command(root, port)
    with running_server(command, base_url + "/", env=python_env(), timeout=90, log=log):
        yield Served(root, base_url)


def launch_chromium() -> Iterator[Any]:
    if not CHROMIUM.is_file():
        pytest.fail("Chromium missing: run scripts/install_tools.sh (Debian package chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class Visit:
    """What happened while a page loaded."""

    console_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    screenshot: bytes = b""


def visit(
    browser: Any,
    url: str,
    width: int = 1280,
    height: int = 900,
    status: int = 200,
    screenshot: bool = False,
) -> tuple[Any, Visit]:
    """Load `url` in a new page; a full-page screenshot only for a test that looks at it.

    (The pages lazy-load nothing they show here, and only the compare view's script fetches
    after `load` (its tests wait for its table), so after `load` no request is left to fail;
    the screenshot, 0.1-1.6 s a page, tested nothing else.)
    """
    page = browser.new_page(viewport={"width": width, "height": height})
    seen = Visit()
    page.on("console", lambda m: seen.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.console_errors.append(str(e)))
    page.on("requestfailed", lambda r: seen.failed.append(f"{r.url} ({r.failure})"))
    page.on("response", lambda r: _record_error(seen, r, url))
    response = page.goto(url, wait_until="load")
    assert response is not None and response.status == status, url
    if screenshot:
        seen.screenshot = page.screenshot(full_page=True)
    return page, seen


@contextlib.contextmanager
def revisit(page: Any, url: str, status: int = 200) -> Iterator[Visit]:
    """Load `url` in an open tab, recording what `visit` records until the block ends.

    For a test that loads many pages at one size: one tab (its context's cache, no new
    renderer each time) instead of a new one per page. The tab first goes to about:blank, so
    nothing the previous page left unfinished is recorded as this one's.
    """
    page.goto("about:blank")
    seen = Visit()
    handlers: dict[str, Callable[[Any], None]] = {
        "console": lambda m: seen.console_errors.append(m.text) if m.type == "error" else None,
        "pageerror": lambda e: seen.console_errors.append(str(e)),
        "requestfailed": lambda r: seen.failed.append(f"{r.url} ({r.failure})"),
        "response": lambda r: _record_error(seen, r, url),
    }
    for event, handler in handlers.items():
        page.on(event, handler)
    try:
        response = page.goto(url, wait_until="load")
        assert response is not None and response.status == status, url
        yield seen
    finally:
        for event, handler in handlers.items():
            page.remove_listener(event, handler)


def _record_error(seen: Visit, response: Any, page_url: str) -> None:
    """Any HTTP error while loading, except the page's own expected status."""
    if response.status >= 400 and response.url != page_url:
        seen.failed.append(f"{response.url} {response.status}")


def distinct_colours(png: bytes, limit: int) -> int:
    """The image's number of colours, counting stopped past `limit` (then `limit` + 1).

    getcolors gives up (None) past maxcolors, so it stops early, as for the previews below.
    """
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=limit)
    return limit + 1 if colours is None else len(colours)


def top_model(served: Served) -> str:
    ranking = json.loads((served.root / "api/v1/rankings/composite-iq").read_bytes())
    return str(ranking["models"][0]["id"])


def latest_snapshot(served: Served) -> str:
    history = json.loads((served.root / "api/v1/history.json").read_bytes())
    return str(history["snapshots"][-1]["date"])


def api_json(served: Served, path: str) -> Any:
    return json.loads((served.root / "api/v1" / path).read_bytes())


def page_types(served: Served) -> dict[str, str]:
    """One path per page type of the shipped build (the compare view with the top four)."""
    models = api_json(served, "models.json")["models"]
    ranked = sorted((m for m in models if m["rank"] is not None), key=lambda m: m["rank"])
    unranked = [m for m in models if m["rank"] is None]
    domain = api_json(served, "domains.json")["domains"][0]["id"]
    return {
        "landing": "/",
        "model": f"/models/{ranked[0]['id']}/",
        "unranked model": f"/models/{unranked[0]['id']}/" if unranked else "/",
        "rankings": "/rankings/",
        "ranking": "/rankings/composite-iq/",
        "dimension ranking": "/rankings/reliability-iq/",
        "cost ranking": "/rankings/effective-cost/",
        "benchmarks": "/benchmarks/",
        "benchmark": "/benchmarks/gpqa-diamond/",
        "domains": "/domains/",
        "domain": f"/domains/{domain}/",
        "charts": "/charts/",
        "chart": "/charts/iq-vs-cost/",
        "profiles chart": "/charts/dimension-profiles/",
        "frontier chart": "/charts/frontier-over-time/",
        "history": "/history/",
        "snapshot": f"/history/{latest_snapshot(served)}/",
        "methodology": "/methodology/",
        "docs": "/docs/",
        "compare": "/compare/?" + "&".join(f"m={m['id']}" for m in ranked[:4]),
        "404": "/no/such/page/",
    }
