"""Take the docs' screenshots: build data/, serve it on loopback, shoot with headless Chromium.

Usage: .venv/bin/python scripts/screenshots.py [--out docs/img]
Needs Debian's chromium (scripts/install_tools.sh) and the test extras (playwright, Pillow).
The landing page at the four widths the browser tests check, a model page on a phone and its
two charts, the compare view and a chart; each the first screen (not the whole page), stored as an
optimised palette PNG so the committed images stay small. tests/pages/test_browser.py shoots the
same list.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from PIL import Image

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WIDTHS = (390, 768, 1280, 1600)  # a phone, a tablet, a laptop, a desktop
HEIGHTS = {390: 844, 768: 1024, 1280: 900, 1600: 1000}


@dataclass(frozen=True)
class Shot:
    """One screenshot: its file name, the page's path and the viewport width."""

    name: str
    path: str
    width: int
    ready: str = "body"  # a selector that is present once the page has drawn


def shots(root: Path) -> list[Shot]:
    """The screenshots of a built site (model ids read from its /models)."""
    models = json.loads((root / "api/v1/models.json").read_bytes())["models"]
    ranked = sorted((m for m in models if m["rank"] is not None), key=lambda m: m["rank"])
    compared = "&".join(f"m={m['id']}" for m in ranked[:3])
    # of the top 20, the one released first: the longest history
    longest = min(ranked[:20], key=lambda m: (m["releaseDate"] or "9999", m["rank"]))
    return [
        *(Shot(f"landing-{width}.png", "/", width) for width in WIDTHS),
        Shot("model-390.png", f"/models/{ranked[0]['id']}/", 390),
        Shot(
            "model-dimensions-1280.png", f"/models/{ranked[0]['id']}/#dimensions", 1280, "svg.chart"
        ),
        Shot("model-history-1280.png", f"/models/{longest['id']}/#history", 1280, "svg.chart"),
        Shot("compare-1280.png", f"/compare/?{compared}", 1280, "#compare-table"),
        Shot("compare-390.png", f"/compare/?{compared}", 390, "#compare-table"),
        Shot("chart-iq-vs-cost.png", "/charts/iq-vs-cost/", 1280),
    ]


def shoot(browser: Any, base_url: str, shot: Shot) -> bytes:
    """The first screen of one page, as a small palette PNG."""
    page = browser.new_page(viewport={"width": shot.width, "height": HEIGHTS[shot.width]})
    try:
        page.goto(base_url + shot.path, wait_until="load")
        page.wait_for_selector(shot.ready)
        png = page.screenshot()
    finally:
        page.close()
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=128)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """No request log."""


@functools.cache
def _build(root: Path) -> None:
    from generator.api.urls import SiteConfig
    from generator.build import build_site

    build_site(REPO / "data", root, SiteConfig())  # default base URL: pages link relatively


@contextlib.contextmanager
def _served(root: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "img")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "site_out"
        _build(root)
        with _served(root) as base_url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for shot in shots(root):
                (args.out / shot.name).write_bytes(shoot(browser, base_url, shot))
            browser.close()


if __name__ == "__main__":
    main()
