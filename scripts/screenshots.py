"""Take the README screenshots: build data/, serve it on loopback, shoot with headless Chromium.

Usage: .venv/bin/python scripts/screenshots.py [--out docs/img]
Needs Debian's chromium (scripts/install_tools.sh) and the test extras (playwright).
"""

from __future__ import annotations

import argparse
import functools
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from generator.api.urls import SiteConfig
from generator.build import build_site

REPO = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = (
    ("landing.png", "/", 1280, 1100),
    ("chart-iq-vs-cost.png", "/charts/iq-vs-cost/", 1280, 1000),
)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """No request log."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "img")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "site_out"
        handler = functools.partial(_QuietHandler, directory=str(root))
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        build_site(REPO / "data", root, SiteConfig())  # default base URL: pages link relatively
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
                )
                for name, path, width, height in SHOTS:
                    page = browser.new_page(viewport={"width": width, "height": height})
                    page.goto(base + path, wait_until="load")
                    page.screenshot(path=str(args.out / name))
                    page.close()
                browser.close()
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    main()
