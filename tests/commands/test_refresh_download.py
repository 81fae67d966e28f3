"""The refresh's downloads (generator/refresh/download.py) from a local server on 127.0.0.1
serving real upstream files of raw/ (the refresh download): plain files, archive members, a
CSV embedded in JavaScript; and every way a download fails, leaving no raw folder."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import msgspec
import pytest
from support.paths import UPSTREAM_FIXTURE
from support.servers import python_env
from support.upstream_server import Route, refused_url, upstream_server

from generator.input.records import SourceRecord
from generator.refresh.download import MAX_MEMBERS, UNPACKED_LIMIT, DownloadError, download_all

RAW = UPSTREAM_FIXTURE
GPQA = "epoch_benchmark_data/gpqa_diamond.csv"
HLE = "epoch_benchmark_data/hle_external.csv"
EQ = "eqbench/eqbench3_leaderboard.csv"
VALS = "valsai/scores_overall.csv"


def _source(files: list[dict[str, Any]], source_id: str = "upstream") -> SourceRecord:
    return msgspec.convert(
        {
            "id": source_id,
            "name": "Upstream",
            "licence": "CC BY 4.0",
            "credit": "Upstream, CC BY 4.0.",
            "homepage": "https://example.org/",
            "files": [{"format": "csv", **f} for f in files],
        },
        SourceRecord,
    )


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _tar_gz(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _raw(path: str) -> bytes:
    return (RAW / path).read_bytes()


def test_plain_files_archive_members_and_an_embedded_csv_arrive_as_upstream_wrote_them(
    tmp_path: Path,
) -> None:
    # Epoch's two CSVs from one zip (fetched once: the server counts nothing, but a second
    # route would 404), models.dev's provider folder from a tar.gz as GitHub serves a
    # commit (one top folder), EQ-Bench's CSV from the JavaScript the site embeds it in.
    dev = RAW / "models_dev"
    kept = sorted(
        p for d in ("openai", "_models/openai") for p in (dev / d).rglob("*") if p.is_file()
    )
    upstream = {"openai": "providers/openai", "_models": "models"}  # kept folder -> repo folder
    tarball = _tar_gz(
        {
            "models.dev-f3fc692/" + upstream[p.relative_to(dev).parts[0]]
            + "/" + p.relative_to(dev / p.relative_to(dev).parts[0]).as_posix(): p.read_bytes()
            for p in kept
        }
        | {"models.dev-f3fc692/README.md": b"# models.dev\n"}
    )  # fmt: skip
    script = b"const other = 1;\nconst leaderboardDataEQBench3 = `\n" + _raw(EQ) + b"`;\n"
    routes = {
        "/data/benchmark_data.zip": Route(
            _zip({f"benchmark_data/{Path(p).name}": _raw(p) for p in (GPQA, HLE)})
        ),
        "/models.dev.tar.gz": Route(tarball),
        "/eqbench3.js": Route(script),
        "/scores.csv": Route(_raw(VALS)),
    }
    with upstream_server(routes) as base:
        sources = (
            _source([{"path": p, "url": f"{base}/data/benchmark_data.zip"} for p in (GPQA, HLE)]),
            _source(
                [
                    {
                        "path": "models_dev",
                        "url": f"{base}/models.dev.tar.gz#providers/openai=openai&models=_models",
                    }
                ]
            ),
            _source([{"path": EQ, "url": f"{base}/eqbench3.js#leaderboardDataEQBench3"}]),
            _source([{"path": VALS, "url": f"{base}/scores.csv"}]),
        )
        assert download_all(sources, tmp_path / "raw") == 5
    for path in (GPQA, HLE, EQ, VALS):
        assert (tmp_path / "raw" / path).read_bytes() == _raw(path), path
    got = sorted(p.relative_to(tmp_path / "raw") for p in (tmp_path / "raw").rglob("*.toml"))
    assert got == [p.relative_to(RAW) for p in kept] and len(got) >= 5
    assert all((tmp_path / "raw" / p.relative_to(RAW)).read_bytes() == p.read_bytes() for p in kept)
    assert not (tmp_path / "raw.partial").exists()


def _fails(tmp_path: Path, sources: tuple[SourceRecord, ...], message: str) -> None:
    with pytest.raises(DownloadError) as caught:
        download_all(sources, tmp_path / "raw")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert not (tmp_path / "raw").exists() and not (tmp_path / "raw.partial").exists()


def test_a_missing_file_fails_with_its_source_status_and_nothing_is_kept(tmp_path: Path) -> None:
    with upstream_server({"/gpqa.csv": Route(_raw(GPQA))}) as base:
        sources = (
            _source([{"path": GPQA, "url": f"{base}/gpqa.csv"}], "epoch"),
            _source([{"path": VALS, "url": f"{base}/gone.csv"}], "valsai"),
        )
        _fails(tmp_path, sources, f"{base}/gone.csv: HTTP 404 Not Found")


def test_a_refused_connection_fails(tmp_path: Path) -> None:
    url = refused_url()
    _fails(tmp_path, (_source([{"path": VALS, "url": url}]),), f"{url}: [Errno 111]")


def test_a_body_cut_short_fails_as_truncated(tmp_path: Path) -> None:
    # The server promises all of the vals.ai CSV (Content-Length) and sends 1,000 bytes.
    with upstream_server({"/scores.csv": Route(_raw(VALS), truncate_at=1000)}) as base:
        sources = (_source([{"path": VALS, "url": f"{base}/scores.csv"}]),)
        _fails(tmp_path, sources, "truncated")


def test_a_file_over_its_byte_limit_fails_before_it_is_read(tmp_path: Path) -> None:
    size = len(_raw(VALS))
    with upstream_server({"/scores.csv": Route(_raw(VALS))}) as base:
        sources = (_source([{"path": VALS, "url": f"{base}/scores.csv", "max_bytes": 1024}]),)
        _fails(tmp_path, sources, f"{base}/scores.csv: {size} bytes, over the limit of 1024")


def test_an_archive_without_the_member_or_not_an_archive_fails(tmp_path: Path) -> None:
    routes = {
        "/data.zip": Route(_zip({"benchmark_data/other.csv": b"a\n1\n"})),
        "/broken.zip": Route(b"PK\x03\x04" + b"\0" * 64),
    }
    with upstream_server(routes) as base:
        _fails(
            tmp_path,
            (_source([{"path": GPQA, "url": f"{base}/data.zip"}], "epoch"),),
            f"epoch {GPQA}: {base}/data.zip: 0 members named 'gpqa_diamond.csv' in the archive",
        )
        _fails(
            tmp_path,
            (_source([{"path": GPQA, "url": f"{base}/broken.zip"}]),),
            "not a readable zip archive",
        )


def test_a_member_that_unpacks_over_the_files_limit_fails(tmp_path: Path) -> None:
    # 1 MB of zeros compresses to about 1 kB: the limit is on what it unpacks to, checked on
    # the size its header declares before a byte is unpacked.
    bomb = _zip({"benchmark_data/gpqa_diamond.csv": b"0" * 1_000_000})
    with upstream_server({"/data.zip": Route(bomb)}) as base:
        sources = (_source([{"path": GPQA, "url": f"{base}/data.zip", "max_bytes": 100_000}]),)
        _fails(tmp_path, sources, "gpqa_diamond.csv': 1000000 bytes, over the limit of 100000")


def test_javascript_without_the_named_table_fails(tmp_path: Path) -> None:
    with upstream_server({"/site.js": Route(b"const leaderboardDataOther = `a,b`;\n")}) as base:
        sources = (_source([{"path": EQ, "url": f"{base}/site.js#leaderboardDataEQBench3"}]),)
        _fails(tmp_path, sources, "0 backquoted texts assigned to leaderboardDataEQBench3")


def test_only_http_urls_are_fetched_and_an_existing_raw_folder_is_refused(tmp_path: Path) -> None:
    _fails(
        tmp_path,
        (_source([{"path": VALS, "url": "http://127.0.0.1:1/x.csv"}]),),
        "http://127.0.0.1:1/x.csv:",
    )
    (tmp_path / "raw").mkdir()
    with pytest.raises(DownloadError, match="already exists"):
        download_all(
            (_source([{"path": VALS, "url": "https://example.org/x.csv"}]),), tmp_path / "raw"
        )


# --- hostile archives, in a child with a memory limit ----------------------------------

CHILD = """
import resource, sys
from pathlib import Path
import msgspec
from generator.input.records import SourceRecord
from generator.refresh.download import MAX_MEMBERS, UNPACKED_LIMIT, DownloadError, download_all

body = Path(sys.argv[1]).read_bytes()
record = msgspec.json.decode(sys.argv[3].encode())
source = msgspec.convert(record, SourceRecord)
def status(name):  # KiB; VmHWM is this program's peak (ru_maxrss keeps pytest's, its parent)
    return int(Path("/proc/self/status").read_text().split(name + ":")[1].split()[0])
cap = status("VmSize") * 1024 + 160 * 2**20  # what is mapped now, and 160 MiB more
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
before = status("VmHWM")
try:
    count = download_all((source,), Path(sys.argv[2]), get=lambda url, limit: body)
except DownloadError as exc:
    print(f"refused: {exc}")
else:
    grown = status("VmHWM") - before
    print(f"ok: {count} records, peak grew {grown} KiB")
"""


def _bounded_download(tmp_path: Path, archive: bytes, record: dict[str, Any]) -> str:
    """What the download prints in a child whose address space may grow by 160 MiB only."""
    (tmp_path / "archive").write_bytes(archive)
    full = {
        "id": "upstream", "name": "Upstream", "licence": "CC BY 4.0",
        "credit": "Upstream, CC BY 4.0.", "homepage": "https://example.org/",
        "files": [{"format": "csv", **record}],
    }  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "archive"), str(tmp_path / "raw"),
         json.dumps(full)],
        capture_output=True, text=True, timeout=120, env=python_env(), check=False,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout[-2000:]
    return lines[0]


def test_an_archive_that_unpacks_to_gigabytes_is_refused_before_unpacking(
    tmp_path: Path,
) -> None:
    """70 members of 4 MB of zeros: 280 MB from an archive of about 0.3 MB. The folder was
    read into memory member by member (a MemoryError traceback under this limit); now the
    headers' total refuses it in one line, and nothing is written."""
    bomb = _zip({f"repo-1/data/{i:03}.csv": b"0" * 4_000_000 for i in range(70)})
    assert len(bomb) < 2_000_000
    line = _bounded_download(
        tmp_path, bomb, {"path": "bomb", "url": "https://example.org/a.zip#data",
                         "max_bytes": 8_000_000},
    )  # fmt: skip
    assert line.startswith("refused: upstream bomb: https://example.org/a.zip#data: ")
    assert line.endswith(f"bytes unpacked, over the limit of {UNPACKED_LIMIT}")
    assert not (tmp_path / "raw").exists() and not (tmp_path / "raw.partial").exists()


@pytest.mark.parametrize("pack", [_zip, _tar_gz])
def test_a_large_folder_is_streamed_to_disk_in_bounded_memory(tmp_path: Path, pack: Any) -> None:
    """40 members of 1.5 MB (60 MB unpacked) under the limits arrive whole while the peak
    resident size grows by less than 8 MiB (measured: 0.3 MiB for the tar.gz; the whole
    folder was held in memory, 60 MiB; tarfile's own `r|gz` took 33 MiB)."""
    members = {f"repo-1/data/{i:02}.csv": bytes([48 + i % 10]) * 1_500_000 for i in range(40)}
    line = _bounded_download(
        tmp_path, pack(members), {"path": "big", "url": "https://example.org/a#data",
                                  "max_bytes": 2_000_000},
    )  # fmt: skip
    assert line.startswith("ok: 1 records, peak grew "), line
    assert int(line.split()[-2]) < 8 * 1024, line
    for name, data in members.items():
        assert (tmp_path / "raw/big" / name.rsplit("/", 1)[1]).read_bytes() == data


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ({f"r/d/{i}": b"" for i in range(MAX_MEMBERS + 1)}, "members in the archive, over"),
        ({"r/d/../../x": b"1"}, "'../../x': not a plain relative path"),
        ({"r/d/a\nforged: line": b"2" * 300}, "'r/d/a\\nforged: line': 300 bytes, over the limit"),
    ],
)
def test_hostile_members_fail_in_one_line(
    tmp_path: Path, members: dict[str, bytes], message: str
) -> None:
    """Too many members (counted from the end record, before the directory is parsed), a
    member path out of the folder, a member over its limit; a name's line break escaped."""
    line = _bounded_download(
        tmp_path, _zip(members), {"path": "x", "url": "https://example.org/a.zip#d",
                                  "max_bytes": 100},
    )  # fmt: skip
    assert line.startswith("refused: ") and message in line, line
    assert not (tmp_path / "raw").exists()
