"""Where the tests find the repository, the fixture data, the shipped data and the golden files."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
FIXTURE_DATA = TESTS / "data"  # the small hand-made data set the golden files come from
SHIPPED_DATA = REPO / "data"  # the real data the site publishes
GOLDEN = TESTS / "golden"
# Small upstream files in each source's format, at the paths data/sources/*.toml name
# (tests/upstream/README.md: which rows are copied, which written for the tests).
UPSTREAM_FIXTURE = TESTS / "upstream"
# The upstream files as the refresh downloads them (`scripts/ci/refresh-download raw`): the
# import's default `--raw`, git-ignored. Tests over the whole upstream run when it is filled
# and are skipped in a clone without it.
UPSTREAM_RAW = REPO / "raw"
SHIPPED_BASE_URL = "https://scores.example.org/sub"  # with a path prefix, to catch root links
NEEDS_RAW = "the upstream files are not downloaded: scripts/ci/refresh-download raw"
needs_raw = pytest.mark.skipif(not UPSTREAM_RAW.is_dir(), reason=NEEDS_RAW)
# The small upstream files hold a few rows of each source: imported into the shipped data,
# they would remove most of each source's results, which stops an import unless the source
# is accepted (generator/importers/plausible.py). Tests that import them accept every source.
ALL_SOURCES = tuple(sorted(p.stem for p in (SHIPPED_DATA / "sources").glob("*.toml")))
ACCEPT_ALL = tuple(arg for source in ALL_SOURCES for arg in ("--accept", source))
