"""A browser on another origin reads the API: real cross-origin `fetch` in headless Chromium.

A page served from one local origin fetches a model by its alias (`GPT-5.5`), by its id
(`gpt-5.5`) and an unknown id from the API on another origin, once as a simple request and
once with a header that makes Chromium send a preflight (`OPTIONS`) first; through
`modelscores serve` and through `netlify dev`. Every answer is read by the page: status,
the JSON body and the headers CORS lets it see. A fetch the browser refuses is a
`TypeError` in the page, recorded as such.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.netlify import NETLIFY, NODE
from support.servers import free_port, python_env, running_server, serve_command

from scripts.screenshots import CHROMIUM_ARGS

pytestmark = pytest.mark.slow

CHROMIUM = Path("/usr/bin/chromium")
PATHS = ("/api/v1/models/GPT-5.5", "/api/v1/models/gpt-5.5", "/api/v1/models/no-such-model")
PREFLIGHT = {"X-Requested-With": "modelscores-test"}  # not CORS-safelisted: a preflight
FETCH_ALL = """
async ({base, paths, headers}) => {
  const answers = [];
  for (const path of paths) {
    for (const extra of [{}, headers]) {
      try {
        const response = await fetch(base + path, {headers: extra});
        answers.push({path, preflight: Object.keys(extra).length > 0, status: response.status,
                      body: await response.json(), link: response.headers.get("link"),
                      type: response.headers.get("content-type")});
      } catch (error) {
        answers.push({path, preflight: Object.keys(extra).length > 0, error: String(error)});
      }
    }
  }
  return answers;
}
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.is_file():
        pytest.fail("Chromium missing: run scripts/install_tools.sh (Debian package chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def page_origin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Another origin: a plain page on `localhost` (the API is on `127.0.0.1`)."""
    root = tmp_path_factory.mktemp("origin")
    (root / "index.html").write_text("<!doctype html><title>other origin</title>\n")
    port = free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]
    with running_server(command, f"http://127.0.0.1:{port}/", cwd=root):
        yield f"http://localhost:{port}/"


def fetch_all(browser: Any, page_origin: str, api_base: str) -> dict[tuple[str, bool], Any]:
    """Each path fetched from the page, without and with the preflight header."""
    page = browser.new_page()
    try:
        page.goto(page_origin)
        answers = page.evaluate(
            FETCH_ALL, {"base": api_base, "paths": list(PATHS), "headers": PREFLIGHT}
        )
    finally:
        page.close()
    return {(a["path"], a["preflight"]): a for a in answers}


def _detail(site: Path) -> Any:
    return json.loads((site / "api/v1/models/gpt-5.5").read_bytes())


def assert_every_answer_read(answers: dict[tuple[str, bool], Any], site: Path) -> None:
    for preflight in (False, True):
        alias, canonical, unknown = (answers[(path, preflight)] for path in PATHS)
        for answer in (alias, canonical, unknown):
            assert "error" not in answer, answer
        assert (alias["status"], alias["body"]) == (200, _detail(site))
        assert alias["link"] == '</api/v1/models/gpt-5.5>; rel="canonical"'
        assert (canonical["status"], canonical["body"]) == (200, _detail(site))
        assert unknown["status"] == 404
        assert unknown["body"] == {"error": "Unknown model id.", "code": "model_not_found"}


def test_a_page_on_another_origin_reads_every_answer_through_serve(
    browser: Any, page_origin: str, shipped_site: Path
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running_server(serve_command(shipped_site, port), base + "/", env=python_env()):
        answers = fetch_all(browser, page_origin, base)
    assert_every_answer_read(answers, shipped_site)
    assert all(a["type"] == "application/json; charset=utf-8" for a in answers.values())


@pytest.mark.skipif(
    not NETLIFY.is_file() or NODE is None,
    reason="netlify-cli is not installed (run scripts/install_tools.sh)",
)
def test_a_page_on_another_origin_reads_every_answer_through_netlify_dev(
    browser: Any, page_origin: str, shipped_site: Path, shipped_netlify: str
) -> None:
    """Every simple fetch is read, and the alias with a preflight too. netlify dev's static
    server answers `OPTIONS` with 405 and its proxy puts the applied rule's status in its
    place: 200 for the alias (a rewrite), 405 for the id (a file served as itself), 404 for
    the unknown id (the 404 rule its JSON 404 needs). So Chromium refuses the preflighted
    fetch of the id and of the unknown id; no rule set can pass the last while keeping the
    JSON 404 (docs/DECISIONS.md, "Preflights"; tests/commands/test_netlify.py). Netlify
    documents no `OPTIONS` handling for its CDN; `serve` answers every preflight (above)."""
    answers = fetch_all(browser, page_origin, shipped_netlify)
    simple = {path: answers[(path, False)] for path in PATHS}
    assert [simple[path]["status"] for path in PATHS] == [200, 200, 404]
    assert simple[PATHS[0]]["body"] == simple[PATHS[1]]["body"] == _detail(shipped_site)
    assert simple[PATHS[0]]["link"] == '</api/v1/models/gpt-5.5>; rel="canonical"'
    assert simple[PATHS[2]]["body"]["code"] == "model_not_found"
    alias = answers[(PATHS[0], True)]
    assert (alias["status"], alias["body"]) == (200, _detail(shipped_site))
    refused = [answers[(path, True)].get("error") for path in PATHS[1:]]
    assert refused == ["TypeError: Failed to fetch"] * 2
