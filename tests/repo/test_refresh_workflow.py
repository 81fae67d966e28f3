"""The weekly refresh (.github/workflows/refresh.yml), its scripts run end to end: download
from a local server on 127.0.0.1 standing in for every upstream site (serving the files of
raw/ (the refresh download) as each upstream publishes them: Epoch's zip, models.dev's
commit tarball, litellm's wheel, EQ-Bench's scripts, plain CSV and JSON), import, check,
build, diff, and a stand-in `gh` for opening the pull request. No network.

A download that fails (404, refused, cut short) or a file that does not parse fails the run
with one line and leaves data/ as it was.
"""

from __future__ import annotations

import filecmp
import io
import json
import os
import shutil
import stat
import subprocess
import tarfile
import tomllib
import urllib.parse
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pytest
import yaml  # type: ignore[import-untyped]  # (pyyaml, through schemathesis; no stubs)
from support.paths import ALL_SOURCES, UPSTREAM_FIXTURE
from support.standins import PYTHON_LINE
from support.upstream_server import Route, refused_url, upstream_server

from generator.importers.run import run_import

ROOT = Path(__file__).resolve().parents[2]
RAW = UPSTREAM_FIXTURE
CI = ROOT / "scripts" / "ci"
EQ = "eqbench/eqbench3_leaderboard.csv"
EQ_ROW = b"claude-opus-4-7,1850.0,"  # EQ-Bench 3's row of a model data/ has (written for the test)
EQ_NEW = b"claude-opus-4-7,1902.5,"  # the same row a week later


@dataclass(frozen=True)
class Upstream:
    """What the stand-in upstream serves, and a copy of data/ whose sources fetch from it."""

    routes: dict[str, Route]
    data: Path  # its sources' `download` URLs point at the server (base URL `{base}`)
    paths: list[str]  # every source file path, as the raw folder holds it


def _members(path: str, fragment: str) -> dict[str, bytes]:
    """The archive members a source file record expects (see generator/refresh/download.py):
    the fragment's `member` or `folder=sub` pairs, else the file under its own name."""
    if not fragment:
        return {PurePosixPath(path).name: (RAW / path).read_bytes()}
    members = {}
    for pair in fragment.split("&"):
        member, _, sub = pair.partition("=")
        kept = RAW / path / sub if sub else RAW / path
        if kept.is_file():
            members[member] = kept.read_bytes()
            continue
        for file in sorted(p for p in kept.rglob("*") if p.is_file()):
            relative = file.relative_to(kept).as_posix()
            if not sub and relative.split("/")[0].startswith("_"):
                continue  # another pair's folder (models.dev's `_models` is its `models`)
            members[f"{member}/{relative}"] = file.read_bytes()
    return members


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(members.items()):
            archive.writestr(name, data)
    return buffer.getvalue()


def _tar_gz(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in sorted(members.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _body(url: str, records: list[tuple[str, str]]) -> bytes:
    """What the upstream at `url` serves for its (path, fragment) records."""
    members: dict[str, bytes] = {}
    for path, fragment in records:
        members |= _members(path, fragment)
    where = urllib.parse.urlsplit(url).path
    if where.endswith((".zip", ".whl")):
        if where.endswith(".whl"):  # a wheel holds its package and its metadata
            members["litellm-1.109.1.dist-info/METADATA"] = b"Name: litellm\n"
        else:  # Epoch's export: every CSV in one folder
            members = {f"benchmark_data/{name}": data for name, data in members.items()}
        return _zip(members)
    if "tar.gz" in where:  # GitHub's tarball of a commit: one top folder
        return _tar_gz({f"models.dev-f3fc692/{name}": data for name, data in members.items()})
    ((path, fragment),) = records
    if fragment:  # a site script that embeds the CSV
        return f"// {where}\n\n{fragment} = `".encode() + (RAW / path).read_bytes() + b"`;\n"
    return (RAW / path).read_bytes()


def _serve_sources(data: Path, base: str) -> dict[str, Route]:
    """Point every file record of `data`'s sources at `base` (a `download` line after its
    `url`) and make the routes that serve them."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for toml in sorted((data / "sources").glob("*.toml")):
        for file in tomllib.loads(toml.read_text(encoding="utf-8")).get("files", []):
            url, fragment = urllib.parse.urldefrag(file.get("download") or file["url"])
            groups.setdefault(url, []).append((file["path"], fragment))
    served = {url: f"/u{n}/{PurePosixPath(urllib.parse.urlsplit(url).path).name}"
              for n, url in enumerate(groups)}  # fmt: skip
    for toml in sorted((data / "sources").glob("*.toml")):
        chunks = toml.read_text(encoding="utf-8").split("\n[")
        for i, chunk in enumerate(chunks):
            if not chunk.startswith("[files]]"):
                continue
            file = tomllib.loads("[" + chunk)["files"][0]
            url, fragment = urllib.parse.urldefrag(file.get("download") or file["url"])
            lines = [line for line in chunk.split("\n") if not line.startswith("download = ")]
            new = f"{base}{served[url]}" + (f"#{fragment}" if fragment else "")
            at = next(n for n, line in enumerate(lines) if line.startswith("url = "))
            lines.insert(at + 1, f"download = {json.dumps(new)}")
            chunks[i] = "\n".join(lines)
        toml.write_text("\n[".join(chunks), encoding="utf-8")
    return {served[url]: Route(_body(url, records)) for url, records in groups.items()}


@pytest.fixture
def upstream(tmp_path: Path) -> Iterator[tuple[Upstream, str]]:
    """A copy of data/ fetching from a running stand-in upstream; yields it and its base URL."""
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    # data/ as the small upstream files make it: a week's change reads alone
    run_import(data, RAW, accept=ALL_SOURCES)
    routes: dict[str, Route] = {}
    with upstream_server(routes) as base:
        routes.update(_serve_sources(data, base))
        paths = sorted(
            str(f["path"])
            for toml in (data / "sources").glob("*.toml")
            for f in tomllib.loads(toml.read_text(encoding="utf-8")).get("files", [])
        )
        yield Upstream(routes, data, paths), base


def _run(script: str, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "MODELSCORES_"))}
    return subprocess.run(
        [str(CI / script), *args],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def _fake_gh(tmp_path: Path) -> tuple[Path, Path]:
    """A stand-in `gh`: logs each call (with its --body-file's text); `pr list` prints the
    number of the pull request `pr create` made, if any."""
    log, state = tmp_path / "gh.log", tmp_path / "gh.pr"
    gh = tmp_path / "gh"
    gh.write_text(
        f"{PYTHON_LINE}"
        "import json, pathlib, sys\n"
        "args = sys.argv[1:]\n"
        "call = {'args': args}\n"
        "if '--body-file' in args:\n"
        "    call['body'] = open(args[args.index('--body-file') + 1]).read()\n"
        f"with open({str(log)!r}, 'a') as out:\n"
        "    out.write(json.dumps(call) + '\\n')\n"
        f"state = pathlib.Path({str(state)!r})\n"
        "if args[:2] == ['pr', 'list'] and state.exists():\n"
        "    print(state.read_text())\n"
        "if args[:2] == ['pr', 'create']:\n"
        "    state.write_text('7')\n"
        "    print('https://github.com/owner/name/pull/7')\n",
        encoding="utf-8",
    )
    gh.chmod(gh.stat().st_mode | stat.S_IXUSR)
    return gh, log


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=60
    ).stdout


def _checkout(tmp_path: Path, data: Path) -> tuple[Path, Path]:
    """A clone of a repository holding refresh-pr and `data` on main, and its bare origin."""
    origin, work = tmp_path / "origin.git", tmp_path / "checkout"
    (work / "scripts" / "ci").mkdir(parents=True)
    shutil.copy2(CI / "refresh-pr", work / "scripts" / "ci" / "refresh-pr")
    shutil.copytree(data, work / "data")
    _git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    _git(work, "init", "-q", "-b", "main")
    _git(work, "add", "-A")
    _git(work, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "data")
    _git(work, "remote", "add", "origin", str(origin))
    _git(work, "push", "-q", "origin", "main")
    return work, origin


def test_the_workflow_runs_weekly_and_only_its_last_job_can_write() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "refresh.yml").read_text())
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert list(triggers) == ["schedule", "workflow_dispatch"]
    assert triggers["schedule"] == [{"cron": "17 6 * * 1"}]  # Mondays 06:17 UTC
    assert workflow["permissions"] == {}
    jobs = workflow["jobs"]
    assert jobs["refresh"]["permissions"] == {"contents": "read"}
    assert jobs["propose"]["permissions"] == {"contents": "write", "pull-requests": "write"}
    assert jobs["propose"]["needs"] == "refresh"
    runs = {name: [s["run"] for s in job["steps"] if "run" in s] for name, job in jobs.items()}
    assert runs == {
        "refresh": [
            "scripts/ci/refresh-download raw",
            'scripts/ci/refresh-import raw "$RUNNER_TEMP/refresh"',
        ],
        "propose": ['scripts/ci/refresh-pr "$RUNNER_TEMP/refresh"'],
    }
    for job in jobs.values():
        checkout = job["steps"][0]
        assert checkout["uses"].startswith("actions/checkout@")
        assert checkout["with"] == {"ref": "main", "persist-credentials": False}


@pytest.mark.slow
def test_a_week_of_upstream_changes_becomes_one_pull_request(
    upstream: tuple[Upstream, str], tmp_path: Path
) -> None:
    served, _ = upstream
    # EQ-Bench rescored Claude Opus 4.7: its script now says 1902.5 (1850.0 before).
    (route,) = [r for path, r in served.routes.items() if path.endswith("/eqbench3.js")]
    assert route.body.count(EQ_ROW) == 1
    served.routes[next(p for p in served.routes if p.endswith("/eqbench3.js"))] = Route(
        route.body.replace(EQ_ROW, EQ_NEW)
    )
    before = _tree(served.data)
    env = {"DATA_DIR": str(served.data)}

    raw, out = tmp_path / "raw", tmp_path / "out"
    downloaded = _run("refresh-download", str(raw), env=env)
    assert downloaded.returncode == 0, downloaded.stderr
    assert f"files of 8 sources in {raw}" in downloaded.stderr
    for path in served.paths:  # as upstream wrote them, but for this week's change
        got, want = raw / path, RAW / path
        if path == EQ:
            assert got.read_bytes() == want.read_bytes().replace(EQ_ROW, EQ_NEW)
        elif want.is_file():
            assert got.read_bytes() == want.read_bytes(), path
        else:
            assert filecmp.dircmp(got, want).diff_files == [], path
            assert sorted(_tree(got)) == sorted(_tree(want)), path

    imported = _run("refresh-import", str(raw), str(out), env=env)
    assert imported.returncode == 0, imported.stderr
    assert _tree(served.data) == before  # data/ itself is never written
    assert (out / "changed").read_text() == "yes\n"
    report, diff = (out / "report.md").read_text(), (out / "diff.md").read_text()
    assert (out / "body.md").read_text() == f"{report}\n{diff}"
    assert "claude-opus-4.7" in report and "1902.5" in report
    assert diff.startswith("## modelscores diff\n") and "claude-opus-4.7" in diff
    model = (out / "data" / "models" / "claude-opus-4.7.toml").read_text()
    assert "value = 1902.5" in model and "value = 1850.0" not in model
    assert (out / "site" / "api" / "v1" / "models" / "claude-opus-4.7").is_file()

    work, origin = _checkout(tmp_path, served.data)
    gh, log = _fake_gh(tmp_path)
    pr_env = {"GH": str(gh), "GH_TOKEN": "t", "REPOSITORY": "owner/name"}
    for week in (1, 2):  # the second run finds the pull request open and edits it
        proposed = subprocess.run(
            [str(work / "scripts" / "ci" / "refresh-pr"), str(out)],
            env={**os.environ, **pr_env},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proposed.returncode == 0, proposed.stderr
        assert ("opened" if week == 1 else "#7 updated") in proposed.stderr
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    create = [c for c in calls if c["args"][:2] == ["pr", "create"]]
    edit = [c for c in calls if c["args"][:2] == ["pr", "edit"]]
    assert len(create) == 1 and len(edit) == 1
    assert create[0]["args"][:10] == [
        *("pr", "create", "--repo", "owner/name", "--base", "main"),
        *("--head", "modelscores/refresh", "--title"),
        "Weekly data refresh from the upstream sources",
    ]
    assert create[0]["body"] == edit[0]["body"] == (out / "body.md").read_text()
    assert edit[0]["args"][:5] == ["pr", "edit", "7", "--repo", "owner/name"]
    assert ["auth", "setup-git"] in [c["args"] for c in calls]
    # The branch holds the refreshed data/; main is untouched.
    branch = _git(origin, "show", "modelscores/refresh:data/models/claude-opus-4.7.toml")
    assert branch == model
    main = _git(origin, "show", "main:data/models/claude-opus-4.7.toml")
    assert main == (served.data / "models" / "claude-opus-4.7.toml").read_text()
    assert _git(origin, "rev-list", "--count", "main..modelscores/refresh").strip() == "1"


def _fails_cleanly(
    served: Upstream, tmp_path: Path, message: str
) -> subprocess.CompletedProcess[str]:
    before = _tree(served.data)
    result = _run("refresh-download", str(tmp_path / "raw"), env={"DATA_DIR": str(served.data)})
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("refresh-download: ") and message in lines[-1], result.stderr
    assert lines[-1].endswith("; nothing downloaded")
    assert not (tmp_path / "raw").exists() and not (tmp_path / "raw.partial").exists()
    assert _tree(served.data) == before
    return result


@pytest.mark.slow
def test_a_missing_upstream_file_fails_the_run(
    upstream: tuple[Upstream, str], tmp_path: Path
) -> None:
    served, base = upstream
    gone = next(p for p in served.routes if p.endswith("/scores.csv"))
    del served.routes[gone]
    _fails_cleanly(served, tmp_path, f"valsai {served.paths[-1]}: {base}{gone}: HTTP 404")


@pytest.mark.slow
def test_a_truncated_upstream_file_fails_the_run(
    upstream: tuple[Upstream, str], tmp_path: Path
) -> None:
    served, _ = upstream
    path = next(p for p in served.routes if p.endswith(".whl"))
    body = served.routes[path].body
    served.routes[path] = Route(body, truncate_at=len(body) // 2)
    _fails_cleanly(served, tmp_path, "truncated")


@pytest.mark.slow
def test_an_unreachable_upstream_fails_the_run(
    upstream: tuple[Upstream, str], tmp_path: Path
) -> None:
    served, _ = upstream
    toml = served.data / "sources" / "lmarena.toml"
    text = toml.read_text(encoding="utf-8")
    start = text.index('download = "') + len('download = "')
    url = refused_url()
    toml.write_text(text[:start] + url + text[text.index('"', start) :], encoding="utf-8")
    _fails_cleanly(served, tmp_path, f"{url}: [Errno 111] Connection refused")


@pytest.mark.slow
def test_an_upstream_file_that_does_not_parse_fails_the_import_and_changes_nothing(
    upstream: tuple[Upstream, str], tmp_path: Path
) -> None:
    served, _ = upstream
    path = next(p for p in served.routes if p.endswith("/eqbench3.js"))
    served.routes[path] = Route(b"leaderboardDataEQBench3 = `name;score\n\x00\x01`;\n")
    before = _tree(served.data)
    env = {"DATA_DIR": str(served.data)}
    assert _run("refresh-download", str(tmp_path / "raw"), env=env).returncode == 0
    result = _run("refresh-import", str(tmp_path / "raw"), str(tmp_path / "out"), env=env)
    assert result.returncode == 1
    problems = [line for line in result.stderr.splitlines() if EQ in line]
    assert problems, result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        f"refresh-import: the import of {tmp_path / 'raw'} failed (above);"
        f" {served.data} is unchanged"
    )
    assert "Traceback" not in result.stderr
    assert _tree(served.data) == before
    assert not (tmp_path / "out" / "changed").exists()


@pytest.mark.slow
def test_a_plausibility_stop_fails_the_refresh_until_a_maintainer_accepts_it(
    tmp_path: Path,
) -> None:
    """vals.ai's file cut to its header: refresh-import stops with the one line naming the
    source; the manual run's `accept` input (ACCEPT) lets it through and the pull request's
    body says so first; anything but source ids in ACCEPT is refused."""
    data, raw = tmp_path / "data", tmp_path / "raw"
    shutil.copytree(ROOT / "data", data)
    run_import(data, RAW, accept=ALL_SOURCES)
    shutil.copytree(RAW, raw)
    vals = raw / "valsai/scores_overall.csv"
    vals.write_text(vals.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    before = _tree(data)
    stopped = _run("refresh-import", str(raw), str(tmp_path / "out"), env={"DATA_DIR": str(data)})
    assert stopped.returncode == 1
    assert "source valsai: its upstream rows would remove 24 of its 24 results" in stopped.stderr
    assert _tree(data) == before
    hostile = {"DATA_DIR": str(data), "ACCEPT": "valsai $(touch pwned)"}
    refused = _run("refresh-import", str(raw), str(tmp_path / "out2"), env=hostile)
    assert refused.returncode == 1 and "ACCEPT: '$(touch' is not a source id" in refused.stderr
    assert not (ROOT / "pwned").exists()
    accepted = _run(
        "refresh-import",
        str(raw),
        str(tmp_path / "out3"),
        env={"DATA_DIR": str(data), "ACCEPT": "valsai"},
    )
    assert accepted.returncode == 0, accepted.stderr
    body = (tmp_path / "out3/body.md").read_text(encoding="utf-8")
    assert body.split("\n## ")[1].startswith("Accepted by the maintainer (--accept) (1)\n")
    assert _tree(data) == before
