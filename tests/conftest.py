"""Shared fixtures: the fixture data built once, the shipped data built and scored once.

Helpers live in tests/support/ (see its __init__); fixtures here are session-scoped so each
build happens once per run. Do not modify what they return.
"""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.netlify import netlify_dev
from support.once import made_once
from support.paths import FIXTURE_DATA, SHIPPED_BASE_URL, SHIPPED_DATA
from support.servers import free_port, python_env, running_server, serve_command

from generator.api.urls import SiteConfig
from generator.build import BuildReport, build_site
from generator.input.load import load_dataset
from generator.input.records import Dataset
from generator.pages import svg
from generator.scoring.engine import compute_scores
from generator.scoring.types import Scores
from mcp_server import site

RAM_TEMP = Path("/dev/shm")
RAM_TEMP_FREE = 4 << 30  # bytes free before the run's temporary folders go there


def pytest_configure(config: pytest.Config) -> None:
    _tmp_path_in_ram(config)
    _python_past_its_shim()


def pytest_collection_finish(session: pytest.Session) -> None:
    """What a worker holds once it has collected (the modules, the MCP SDK's and pydantic's
    classes, the test items) frozen out of the cyclic collector's full collections, which
    walked it all again each time: 71 of them in a whole run, 11.8 CPU s in the three
    workers; 5.5 s frozen. Frozen objects are still freed by reference counting.
    """
    gc.collect()
    gc.freeze()


def _python_past_its_shim() -> None:
    """`PYTHON` (scripts/lib/setup.sh's interpreter, else `python3` on PATH) set to the path
    that `python3` runs, when `python3` on PATH is a pyenv shim and `PYTHON` is unset.

    Every `./modelscores`, `scripts/serve` and CI script the tests run asks its interpreter
    for its version and path once; through pyenv's shim that start first runs about ten
    shell processes (0.06 CPU s, 0.1-0.3 s). The interpreter, its version and the path the
    scripts hand to uv are the same strings either way (asked here once, from outside the
    checkout, as the shim answers every child). tests/repo/test_setup_scripts.py sets or
    removes `PYTHON` itself where the lookup is what it tests. xdist workers inherit it.
    """
    found = shutil.which("python3")
    if os.environ.get("PYTHON") or found is None:
        return
    with open(found, "rb") as file:
        if b"pyenv" not in file.read(1024):
            return
    code = 'import sys; print(getattr(sys, "_base_executable", sys.executable))'
    with tempfile.TemporaryDirectory() as empty:
        probe = subprocess.run(
            [found, "-c", code], cwd=empty, capture_output=True, text=True, check=False
        )
    path = probe.stdout.strip()
    if probe.returncode == 0 and os.path.isabs(path) and os.access(path, os.X_OK):
        os.environ["PYTHON"] = path


def _tmp_path_in_ram(config: pytest.Config) -> None:
    """The run's temporary folders (`tmp_path`) on a RAM file system when the machine has one.

    The tests write and delete about 100,000 files a run (the hostile and flood trees, the
    20,000-model benchmark tree, some 400 builds) and every build ends with a `syncfs`: on a
    disk shared with other work, creating 20,000 files took 10 s and deleting them 20 s,
    against 2 s in all on tmpfs (`test_hostile_data.py` and `test_limits.py`: 48 s against
    34 s). The code under test is the same on either; pytest keeps the last three runs'
    folders (about 500 MB each) as on disk. `--basetemp` or `PYTEST_DEBUG_TEMPROOT` chooses
    otherwise; xdist workers get their folders from the controller.
    """
    if config.option.basetemp or os.environ.get("PYTEST_DEBUG_TEMPROOT"):
        return
    if _is_tmpfs(RAM_TEMP) and os.access(RAM_TEMP, os.W_OK):
        stats = os.statvfs(RAM_TEMP)
        if stats.f_bavail * stats.f_frsize >= RAM_TEMP_FREE:
            os.environ["PYTEST_DEBUG_TEMPROOT"] = str(RAM_TEMP)


def _is_tmpfs(path: Path) -> bool:
    try:
        mounts = Path("/proc/self/mounts").read_text(encoding="utf-8").splitlines()
    except OSError:
        return False
    return any(line.split()[1:3] == [str(path), "tmpfs"] for line in mounts)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite tests/golden/ from the current build of tests/data (review the diff!).",
    )


@pytest.fixture(scope="session", autouse=True)
def _no_full_collection_per_load() -> Iterator[None]:
    """Snapshot stores in this process skip `settle_heap` (a full collection, then freeze).

    A full collection walks the whole process, and here that is pytest's heap too
    (hypothesis, schemathesis, the MCP SDK): 128 loads in a run cost 38 s, where the
    sidecar's own process walks little more than its snapshot. tests/sidecar/test_mcp_heap.py tests
    `settle_heap` itself and that the store calls it after each load; the servers tests
    start as child processes run it as shipped.
    """
    patch = pytest.MonkeyPatch()
    patch.setattr(site, "settle_heap", lambda: None)
    yield
    patch.undo()


REAL_RASTERISE = svg.rasterise


@pytest.fixture(scope="session", autouse=True)
def _each_preview_rasterised_once() -> Iterator[None]:
    """In this process, an SVG document already turned into a PNG is not turned again.

    resvg takes about 45 ms a preview, a third of a small site's build and most of the
    shipped data's (26 previews): the in-process builds of a run (about 170) draw the same
    few documents over and over. The bytes are the rasteriser's own, and a document it
    refuses raises every time. A test that checks the rasteriser gives the same bytes
    twice (in-process determinism) asks for `rasterise_every_time`; child processes
    always rasterise.
    """
    done: dict[str, bytes] = {}

    def rasterise(document: str) -> bytes:
        png = done.get(document)
        if png is None:
            png = REAL_RASTERISE(document)
            if len(done) < 2048:  # about 100 MB at most
                done[document] = png
        return png

    patch = pytest.MonkeyPatch()
    patch.setattr(svg, "rasterise", rasterise)
    yield
    patch.undo()


@pytest.fixture
def rasterise_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """For one test: every preview rasterised afresh (`_each_preview_rasterised_once` off)."""
    monkeypatch.setattr(svg, "rasterise", REAL_RASTERISE)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the files holding slow tests first, those with the most slow tests leading.

    `scripts/test` hands whole files to its workers in this order (`--dist loadfile
    --no-loadscope-reorder`): long files started first and the many quick ones left to fill
    the end keep the workers busy until the last test. pytest-xdist's own order (most tests
    first) left the crash trials and the scripts run for real to the end, on one worker.
    """
    slow_per_file: Counter[str] = Counter(
        item.nodeid.partition("::")[0] for item in items if item.get_closest_marker("slow")
    )
    items.sort(key=lambda item: -slow_per_file[item.nodeid.partition("::")[0]])


# Test files sharing a package-scoped server or browser, each set to one name: scripts/test's
# workers run files by that name (`--dist loadfile`), so a set runs on one worker, file after
# file, and starts what it shares once (tests/pages/conftest.py).
SHARED_SETUP = {
    "tests/pages/test_browser.py": "tests/pages: one served build and one Chromium",
    "tests/pages/test_browser_leaderboard.py": "tests/pages: one served build and one Chromium",
    "tests/commands/test_netlify.py": "netlify dev over the shipped build (shipped_netlify)",
    "tests/commands/test_browser_cors.py": "netlify dev over the shipped build (shipped_netlify)",
}


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadfile`, with the files of `SHARED_SETUP` scheduled as one."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedSetupScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return SHARED_SETUP.get(scope, scope)

    return SharedSetupScheduling(config, log)


@pytest.fixture(scope="session")
def disk_temp() -> Iterator[Path]:
    """A folder on the system's temporary disk, whichever file system `tmp_path` is on.

    For tests timed against a disk's writes: the crash trials aim their kills at the write
    phase, which on tmpfs is too short to hit. Removed at the end of the run.
    """
    root = Path(tempfile.mkdtemp(prefix="modelscores-tests-"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    """Whether this run may rewrite tests/golden/."""
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def built_report(tmp_path_factory: pytest.TempPathFactory) -> BuildReport:
    """One build of tests/data with the default configuration."""
    out = tmp_path_factory.mktemp("built") / "site_out"
    return build_site(FIXTURE_DATA, out, SiteConfig())


@pytest.fixture(scope="session")
def built_site(built_report: BuildReport) -> Path:
    """The site_out/ directory built from tests/data."""
    return Path(built_report.out_dir)


@pytest.fixture(scope="module")
def server(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`modelscores serve` over `built_site` on a free port, for the tests of one module that
    call the served API (schemathesis, the generated client); its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with running_server(
        serve_command(built_site, port), f"{base}/api/v1", env=python_env(), log=log
    ):
        yield base


@pytest.fixture(scope="session")
def shipped_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped data/ built once a run, under `SHIPPED_BASE_URL`: one worker builds it,
    the other uses the same folder (support/once.py; 2 CPU s a build)."""

    def build(folder: Path) -> None:
        build_site(SHIPPED_DATA, folder / "site_out", SiteConfig(base_url=SHIPPED_BASE_URL))

    return made_once(tmp_path_factory, "shipped", build) / "site_out"


@pytest.fixture(scope="session")
def shipped_netlify(shipped_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`netlify dev` (offline) over the shipped build, started once for the two files that ask
    (`SHARED_SETUP` runs them on one worker; about 3 CPU s a start); its base URL. Idle until
    the run ends, it takes no CPU."""
    with netlify_dev(shipped_site, tmp_path_factory.mktemp("netlify-shipped")) as base:
        yield base


@pytest.fixture(scope="session")
def shipped_scores() -> tuple[Dataset, Scores]:
    """The shipped data/ loaded and scored once."""
    dataset = load_dataset(SHIPPED_DATA)
    return dataset, compute_scores(dataset)
