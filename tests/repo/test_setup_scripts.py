"""scripts/serve, scripts/test and ./modelscores: the Python check and the .venv they rebuild.

Each runs in a scratch copy of the repository so the checkout's own .venv is never touched.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from support.paths import REPO
from support.servers import free_port, running_server

ENTRY_POINTS = (["./modelscores", "--version"], ["./scripts/serve"], ["./scripts/test"])
SETUP_FILES = (
    "modelscores", "scripts/serve", "scripts/test", "scripts/lib/setup.sh", "scripts/lib/workers.sh"
)  # fmt: skip
PROJECT = ("pyproject.toml", "uv.lock", "README.md", "generator", "mcp_server")


def _copy(dst: Path, names: tuple[str, ...]) -> None:
    for name in names:
        src, target = REPO / name, dst / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, target)


def _fake_python(bin_dir: Path, version: str) -> None:
    """A `python3` that reports `version`, as an old interpreter would."""
    bin_dir.mkdir()
    script = bin_dir / "python3"
    script.write_text(f'#!/bin/sh\necho "{version} /usr/bin/python{version[:4]}"\n')
    script.chmod(0o755)


def _env(path_first: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHON" and not k.startswith("UV_")}
    if path_first is not None:
        env["PATH"] = f"{path_first}{os.pathsep}{env['PATH']}"
    return env


@pytest.mark.parametrize("command", ENTRY_POINTS, ids=lambda c: c[0])
def test_too_old_python_is_one_clear_line(tmp_path: Path, command: list[str]) -> None:
    repo = tmp_path / "repo"
    _copy(repo, (*SETUP_FILES, "pyproject.toml"))
    _fake_python(tmp_path / "bin", "3.10.13")
    result = subprocess.run(
        command, cwd=repo, env=_env(tmp_path / "bin"), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert "needs Python >= 3.11" in line and "3.10.13" in line, line
    assert not (repo / ".venv").exists() and not (repo / ".tools").exists()


def test_required_version_is_read_from_pyproject(tmp_path: Path) -> None:
    """The scripts take the minimum from requires-python, so the two cannot disagree."""
    repo = tmp_path / "repo"
    _copy(repo, (*SETUP_FILES, "pyproject.toml"))
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('">=3.11"', '">=3.99"'))
    result = subprocess.run(
        ["./modelscores", "--version"], cwd=repo, env=_env(), capture_output=True, text=True
    )
    assert result.returncode == 1
    assert "needs Python >= 3.99" in result.stderr


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each test that sets up a whole project makes its scratch copy, one test after
    another (`_scratch_project`)."""
    return tmp_path_factory.mktemp("clone") / "repo"


def _scratch_project(repo: Path) -> Path:
    """A fresh copy of the project at `repo`, without .venv, .tools or anything a test added.

    An earlier test's pyproject.toml is kept (checked byte for byte): uv caches the project's
    editable build by its path and pyproject.toml's ctime, which no copy keeps, so with a new
    file each first set-up built the project again (1.2-1.5 s). A checkout whose .venv is
    made again is in the same position; what the scripts decide and say does not change.
    """
    if repo.exists():
        assert (repo / "pyproject.toml").read_bytes() == (REPO / "pyproject.toml").read_bytes()
        for entry in repo.iterdir():
            if entry.name == "pyproject.toml":
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    _copy(repo, tuple(name for name in (*SETUP_FILES, *PROJECT) if not (repo / name).exists()))
    (repo / ".tools").mkdir()
    uv = REPO / ".tools" / "uv"
    if not (uv / "bin" / "uv").exists():
        pytest.skip("uv is not installed in .tools/uv (scripts/test installs it)")
    (repo / ".tools" / "uv").symlink_to(uv)
    return repo


def _base_python_if_it_runs(python: str) -> Path | None:
    """The real interpreter behind `python` (a venv's or a shim's), as the scripts resolve it;
    None if `python` does not run (a pyenv shim of a version that is not installed)."""
    code = "import sys; print(getattr(sys, '_base_executable', sys.executable))"
    out = subprocess.run([python, "-c", code], capture_output=True, text=True)
    return Path(out.stdout.strip()).resolve() if out.returncode == 0 else None


def _base_python(python: str) -> Path:
    base = _base_python_if_it_runs(python)
    assert base is not None, f"{python} does not run"
    return base


def _other_python() -> str | None:
    """A working interpreter other than the one running the tests (3.10 was the issue's; the
    system's python3.11 beside a pyenv one is another interpreter too), if there is one: the
    first in this order that runs. One start per candidate, all started at once (a pyenv shim
    takes about 0.15 s: one after another, up to the one found, they took 0.6 s, at once 0.4 s)."""
    candidates = [
        found
        for minor in range(8, 16)
        for found in (shutil.which(f"python3.{minor}"), f"/usr/bin/python3.{minor}")
        if found is not None and Path(found).exists()
    ]
    code = "import sys; print(getattr(sys, '_base_executable', sys.executable))"
    probes = [
        subprocess.Popen([python, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for python in [sys.executable, *candidates]
    ]
    bases = []
    for probe in probes:
        out, _ = probe.communicate()
        bases.append(Path(out.decode().strip()).resolve() if probe.returncode == 0 else None)
    mine, *others = bases
    assert mine is not None, f"{sys.executable} does not run"
    found = (c for c, b in zip(candidates, others, strict=True) if b is not None and b != mine)
    return next(found, None)


def _broken_venv(repo: Path) -> None:
    """What an interrupted first run or a removed interpreter leaves: no working python."""
    (repo / ".venv" / "bin").mkdir(parents=True)
    (repo / ".venv" / "bin" / "python").symlink_to("/nonexistent/python3.10")
    (repo / ".venv" / "pyvenv.cfg").write_text("home = /nonexistent\nversion = 3.10.13\n")


def _venv_of_another_python(repo: Path) -> None:
    other = _other_python()
    if other is None:
        pytest.skip("no second Python on this machine")
    subprocess.run([other, "-m", "venv", "--without-pip", str(repo / ".venv")], check=True)


@pytest.mark.slow
@pytest.mark.parametrize("make_venv", [_broken_venv, _venv_of_another_python])
def test_wrong_venv_is_rebuilt_with_the_right_python(clone: Path, make_venv: object) -> None:
    repo = _scratch_project(clone)
    make_venv(repo)  # type: ignore[operator]
    env = _env()
    # The packages left as source (about 5 CPU s less): compiling them is the README's set-up,
    # checked by test_scripts_serve_cold_then_warm; here it is which Python the .venv runs.
    env |= {"PYTHON": sys.executable, "UV_COMPILE_BYTECODE": "0"}
    result = subprocess.run(
        ["./modelscores", "--version"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("modelscores, version")
    assert "new .venv" in result.stderr
    venv_python = subprocess.run(
        [str(repo / ".venv" / "bin" / "python"), "-c", "import sys; print(sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert venv_python.stdout.strip() == str(sys.version_info[:2])
    assert _base_python(str(repo / ".venv" / "bin" / "python")) == _base_python(sys.executable)
    assert not _compiled(repo / ".venv", "starlette")  # the caller's UV_COMPILE_BYTECODE=0 held
    again = subprocess.run(
        ["./modelscores", "--version"], cwd=repo, env=env, capture_output=True, text=True
    )
    assert again.returncode == 0 and again.stderr == ""  # nothing to do, nothing said


def test_every_uv_install_pins_the_scripts_version() -> None:
    """scripts/lib/setup.sh, the Dockerfile and netlify.toml install the same uv."""
    setup = (REPO / "scripts" / "lib" / "setup.sh").read_text()
    (version,) = re.findall(r"^UV_VERSION=(\S+)$", setup, flags=re.M)
    command = tomllib.loads((REPO / "netlify.toml").read_text())["build"]["command"]
    for name, text in (("Dockerfile", (REPO / "Dockerfile").read_text()), ("netlify", command)):
        pins = re.findall(r"\buv==(\S+)", text)
        assert pins == [version], (name, pins)


def test_a_readme_modelscores_line_runs_literally_through_the_wrapper() -> None:
    """`./modelscores check` exactly as the README shows it (tests/repo/test_readme.py runs every
    command through `python -m generator`; this runs the wrapper in front of it, in place)."""
    readme = (REPO / "README.md").read_text()
    (line,) = re.findall(r"^(\./modelscores check)\s+#", readme, flags=re.M)
    env = _env()
    env["PYTHON"] = sys.executable  # the interpreter of this checkout's .venv
    result = subprocess.run(
        ["bash", "-c", line], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    direct = subprocess.run(
        [sys.executable, "-m", "generator", "check"], cwd=REPO, capture_output=True, text=True
    )
    assert result.stdout == direct.stdout != ""


def _fresh_machine_bin(bin_dir: Path, missing: tuple[str, ...]) -> Path:
    """A PATH like this machine's without `missing`, with chromium present and an apt-get that
    records its arguments instead of installing."""
    bin_dir.mkdir()
    for directory in ("/usr/bin", "/bin"):
        for tool in Path(directory).iterdir():
            target = bin_dir / tool.name
            if tool.name not in (*missing, "apt-get", "sudo") and not target.exists():
                target.symlink_to(tool)
    calls = bin_dir.parent / "apt.calls"
    fakes = {
        "apt-get": f'#!/bin/sh\necho "$*" >> {calls}\necho "2 newly installed, 0 upgraded"\n',
        "chromium": "#!/bin/sh\necho Chromium 1\n",
        "chromedriver": "#!/bin/sh\n",
    }
    for name, text in fakes.items():
        (bin_dir / name).unlink(missing_ok=True)
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    return calls


@pytest.mark.skipif(os.geteuid() != 0, reason="apt-get runs through sudo when not root")
def test_a_machine_without_npm_or_curl_gets_them_from_apt(tmp_path: Path) -> None:
    """scripts/install_tools.sh installs npm (it installs the Node tools) and curl (the README's
    commands) when a fresh machine has neither, before it needs npm."""
    repo = tmp_path / "repo"
    _copy(repo, ("scripts/install_tools.sh", "scripts/tools"))
    calls = _fresh_machine_bin(tmp_path / "bin", missing=("npm", "curl"))
    env = _env()
    env["PATH"] = str(tmp_path / "bin")
    result = subprocess.run(
        ["bash", "scripts/install_tools.sh"], cwd=repo, env=env, capture_output=True, text=True
    )
    (install,) = calls.read_text().splitlines()
    assert install.split()[:3] == ["install", "-y", "--no-install-recommends"]
    assert {"npm", "curl", "chromium"} <= set(install.split()[3:])
    # The fake apt-get installed nothing, so the Node step stops with one line naming npm.
    assert result.returncode == 1
    assert (
        result.stderr.splitlines()[-1]
        == "install_tools: needs npm (Debian package npm) for the Node tools"
    )


@pytest.mark.slow
def test_scripts_serve_cold_then_warm(tmp_path: Path, clone: Path) -> None:
    """`./scripts/serve` as the README shows it, in a clone without .venv or site_out: it sets up,
    builds and answers; started again with nothing changed it installs and builds nothing.
    The clone's data/ is the small fixture (tests/data): what is checked here is the script's
    set-up and its build-or-not, not the shipped data's build (the `shipped_site` tests)."""
    repo = _scratch_project(clone)
    _copy(repo, ("scripts/serve",))
    shutil.copytree(REPO / "tests" / "data", repo / "data")
    env = _env()
    env["PYTHON"] = sys.executable
    logs = []
    port = free_port()  # the same both times: the base URL is part of what was built
    for run in ("cold", "warm"):
        log = tmp_path / f"{run}.log"
        base = f"http://127.0.0.1:{port}"
        with running_server(
            ["./scripts/serve", "--port", str(port)],
            f"{base}/api/v1/models/alpha-1",
            env=env,
            cwd=repo,
            timeout=240,
            log=log,
        ):
            pass
        logs.append(log.read_text())
    cold, warm = logs
    assert "new .venv" in cold and "Built site_out:" in cold, cold
    assert _compiled(repo / ".venv", "msgspec") and _compiled(repo / ".venv", "starlette")
    assert "Serving http://127.0.0.1:" in cold
    assert "packages from uv.lock in .venv: up to date" in warm, warm
    assert "not rebuilt (data unchanged)" in warm and "Built" not in warm, warm
    assert "installing" not in warm, warm


def _compiled(venv: Path, package: str) -> bool:
    """Whether `package`'s modules in `venv` were compiled to bytecode when installed."""
    (site_packages,) = venv.glob("lib/python3.*/site-packages")
    tag = sys.implementation.cache_tag
    sources = list((site_packages / package).glob("*.py"))
    return bool(sources) and all(
        (source.parent / "__pycache__" / f"{source.stem}.{tag}.pyc").exists() for source in sources
    )


def _fake_uv_wheel(directory: Path) -> None:
    """A wheel named uv==UV_VERSION whose `uv` script prints that version, as PyPI's does."""
    setup = (REPO / "scripts" / "lib" / "setup.sh").read_text()
    (version,) = re.findall(r"^UV_VERSION=(\S+)$", setup, flags=re.M)
    name = f"uv-{version}"
    files = {
        f"{name}.data/scripts/uv": f'#!/bin/sh\necho "uv {version} (test)"\n',
        f"{name}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: uv\nVersion: {version}\n",
        f"{name}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\n"
        "Tag: py3-none-any\n",
    }
    record = "".join(f"{path},,\n" for path in files) + f"{name}.dist-info/RECORD,,\n"
    directory.mkdir()
    with zipfile.ZipFile(directory / f"{name}-py3-none-any.whl", "w") as wheel:
        for path, text in {**files, f"{name}.dist-info/RECORD": record}.items():
            info = zipfile.ZipInfo(path)
            info.external_attr = 0o100755 << 16  # a regular file, rwxr-xr-x
            wheel.writestr(info, text)


def _pythons_with_pip() -> list[str]:
    """The interpreter behind this .venv (which has no pip) and the system's python3 (Debian's:
    a --prefix install goes to PREFIX/local), each if it runs pip and is new enough."""
    found = []
    for python in sorted({str(_base_python(sys.executable)), "/usr/bin/python3"}):
        check = "import sys, pip; assert sys.version_info >= (3, 11)"
        if Path(python).exists() and subprocess.run([python, "-c", check]).returncode == 0:
            found.append(python)
    return found


@pytest.mark.parametrize("python", _pythons_with_pip())
def test_setup_uv_puts_uv_where_the_scripts_run_it(tmp_path: Path, python: str) -> None:
    """setup_uv installs the pinned uv with pip (here from a local wheel, no network) into
    .tools/uv/bin/uv, whatever install scheme the interpreter's pip uses."""
    repo = tmp_path / "repo"
    _copy(repo, (*SETUP_FILES, "pyproject.toml"))
    _fake_uv_wheel(tmp_path / "wheels")
    env = _env()
    env |= {"PYTHON": python, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(tmp_path / "wheels")}
    result = subprocess.run(
        ["bash", "-c", ". scripts/lib/setup.sh; setup_python; setup_uv; setup_uv"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("installing uv") == 1  # the second call had nothing to do
    version = subprocess.run(
        [repo / ".tools" / "uv" / "bin" / "uv", "--version"], capture_output=True, text=True
    )
    assert version.stdout.startswith("uv ") and "(test)" in version.stdout
