"""The browser tests' shared server and Chromium (tests/support/browser.py).

Package-scoped: `test_browser.py` and `test_browser_leaderboard.py` use one build of the
shipped data, one `modelscores serve` and one Chromium. scripts/test's workers run the two
files on one worker, one after the other (`SHARED_SETUP` in tests/conftest.py), so that worker
starts them once; both end when its next test is outside tests/pages/. That takes the
`__init__.py` beside this file: in a folder without one, pytest keeps a package fixture to the
end of the run, and Playwright's event loop, left open, broke every later asyncio test.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from support.browser import Served, launch_chromium, serve_shipped


@pytest.fixture(scope="package")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serve_shipped(tmp_path_factory)


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    yield from launch_chromium()
