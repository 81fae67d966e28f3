"""The installed package, as the sidecar image and Netlify get it (a wheel, not this checkout)."""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from support.paths import REPO

UV = REPO / ".tools" / "uv" / "bin" / "uv"
PACKAGE_ROOTS = ("generator", "mcp_server")


@pytest.fixture(scope="module")
def wheel_files(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    if not UV.exists():
        pytest.fail("uv missing from .tools/uv: run ./scripts/test (it installs it)")
    # From a clean copy: setuptools reuses ./build, where an earlier build's files would hide
    # a module the configuration leaves out.
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    for root in PACKAGE_ROOTS:
        shutil.copytree(REPO / root, source / root, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [str(UV), "build", "--wheel", "--quiet", "--out-dir", str(out)],
        cwd=source,
        check=True,
        timeout=300,
    )
    (wheel,) = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def _shipped_sources() -> list[str]:
    """Every source, template and static file under the package roots, as wheel paths."""
    files = [
        path
        for root in PACKAGE_ROOTS
        for path in (REPO / root).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    ]
    return sorted(path.relative_to(REPO).as_posix() for path in files)


def test_the_wheel_holds_every_module_template_and_static_file(wheel_files: set[str]) -> None:
    missing = [name for name in _shipped_sources() if name not in wheel_files]
    assert not missing, (
        f"not in the installed package (pyproject.toml [tool.setuptools]): {missing}"
    )


def test_the_wheel_ships_no_tests_data_or_scripts(wheel_files: set[str]) -> None:
    tops = {Path(name).parts[0] for name in wheel_files}
    assert {top for top in tops if not top.endswith(".dist-info")} == set(PACKAGE_ROOTS)
