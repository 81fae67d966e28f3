"""Where the tests find the repository, the fixture data, the shipped data and the golden files."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
FIXTURE_DATA = TESTS / "data"  # the small hand-made data set the golden files come from
SHIPPED_DATA = REPO / "data"  # the real data the site publishes
GOLDEN = TESTS / "golden"
SHIPPED_BASE_URL = "https://scores.example.org/sub"  # with a path prefix, to catch root links
