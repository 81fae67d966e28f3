"""Download every upstream file that data/sources/*.toml names, bounded, into a raw folder.

The weekly refresh (`scripts/ci/refresh-download`) runs this before `modelscores import`.
Each source file record names a `path` (under the raw folder) and a `url`, or a separate
`download` URL when the link values cite is not the file itself; files that share a URL are
fetched once. What the URL returns becomes the file as follows:

- a plain body is the file itself;
- a zip (or wheel) or gzipped tar archive holds it: the member named by the URL's fragment
  (`...zip#data/x.csv`), else the one member with the path's file name. A fragment that
  names a folder of the archive fills the record's folder with the files below it, and
  `#a&b=sub` takes the archive's `a` and puts its `b` under `sub/` of the record's path;
- a text body with a fragment (`...site.js#tableData`) embeds it: the JavaScript template
  literal (backquoted text) assigned to that name.

Every download is bounded in bytes (the records' `max_bytes`) and time, over http(s) only.
Any problem (an HTTP error, a refused connection, a body cut short, a missing member) stops
the run with one line naming the source, the file and the URL, and the raw folder is not
made: files are written to a sibling folder that is renamed into place only when all of
them arrived.
"""

from __future__ import annotations

import gzip
import io
import re
import shutil
import socket
import sys
import tarfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.client import HTTPException, HTTPResponse
from pathlib import Path, PurePosixPath
from typing import IO

from generator.errors import one_line
from generator.input.records import SourceFileRecord, SourceRecord

CONNECT_TIMEOUT = 30.0  # seconds without a byte from the server
DOWNLOAD_TIMEOUT = 300.0  # seconds for one whole download
ARCHIVE_LIMIT = 64 * 1024 * 1024  # bytes of one download shared by several files
MAX_MEMBERS = 20_000  # files taken from one archive folder
CHUNK = 64 * 1024

Fetch = Callable[[str, int], bytes]


class DownloadError(Exception):
    """One download problem, as one line."""


@dataclass(frozen=True)
class Wanted:
    """One file record of one source."""

    source: str
    file: SourceFileRecord

    @property
    def label(self) -> str:
        return f"{self.source} {self.file.path}"


def fetch(url: str, limit: int) -> bytes:
    """The body of `url` (http or https), at most `limit` bytes, within the time bounds."""
    scheme = urllib.parse.urlsplit(url).scheme
    if scheme not in ("http", "https"):
        raise DownloadError(f"{url}: not an http(s) URL")
    opener = urllib.request.build_opener()  # redirects stay within http(s)
    request = urllib.request.Request(url, headers={"User-Agent": "modelscores-refresh"})
    try:
        with opener.open(request, timeout=CONNECT_TIMEOUT) as response:
            return _read(response, url, limit)
    except urllib.error.HTTPError as exc:
        exc.close()  # it holds the response
        reason = one_line(str(exc.reason or ""))
        raise DownloadError(f"{url}: HTTP {exc.code} {reason}".rstrip()) from None
    except urllib.error.URLError as exc:
        raise DownloadError(f"{url}: {one_line(str(exc.reason))}") from None
    except (HTTPException, OSError) as exc:  # a connection reset or cut mid-body
        raise DownloadError(f"{url}: {_describe(exc)}") from None


def _read(response: HTTPResponse, url: str, limit: int) -> bytes:
    declared = response.headers.get("Content-Length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise DownloadError(f"{url}: {declared} bytes, over the limit of {limit}")
    deadline = time.monotonic() + DOWNLOAD_TIMEOUT
    body = bytearray()
    while chunk := response.read(CHUNK):
        body += chunk
        if len(body) > limit:
            raise DownloadError(f"{url}: over the limit of {limit} bytes")
        if time.monotonic() > deadline:
            raise DownloadError(f"{url}: not complete after {DOWNLOAD_TIMEOUT:.0f} s")
    if declared is not None and declared.isdigit() and len(body) != int(declared):
        raise DownloadError(f"{url}: truncated: {len(body)} of {declared} bytes")
    return bytes(body)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, socket.timeout | TimeoutError):
        return f"no answer within {CONNECT_TIMEOUT:.0f} s"
    name = type(exc).__name__
    text = one_line(str(exc))
    if name == "IncompleteRead":
        return "truncated: the connection closed before the end of the body"
    return f"{name}: {text}" if text else name


def wanted_files(sources: tuple[SourceRecord, ...]) -> list[Wanted]:
    """Every file record of every source, in source then file order."""
    return [Wanted(s.id, f) for s in sources for f in s.files]


def download_all(sources: tuple[SourceRecord, ...], raw_dir: Path, get: Fetch = fetch) -> int:
    """Fetch every file into `raw_dir` (made here, absent before); the number of files."""
    if raw_dir.exists():
        raise DownloadError(f"{raw_dir}: already exists; give a new folder")
    staging = raw_dir.with_name(raw_dir.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        wanted = wanted_files(sources)
        for url, group in _by_url(wanted).items():
            # one plain file: its own limit; an archive (or script) holding files: the archive's
            single = len(group) == 1 and not urllib.parse.urldefrag(fetched(group[0])).fragment
            try:
                body = get(url, group[0].file.max_bytes if single else ARCHIVE_LIMIT)
            except DownloadError as exc:
                more = f" (and {len(group) - 1} more files)" if len(group) > 1 else ""
                raise DownloadError(f"{group[0].label}{more}: {exc}") from None
            for item in group:
                _place(item, body, staging)
        staging.rename(raw_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return len(wanted)


def fetched(item: Wanted) -> str:
    """The URL the refresh fetches for `item`: its `download`, else its `url`."""
    return item.file.download or item.file.url


def _by_url(wanted: list[Wanted]) -> dict[str, list[Wanted]]:
    groups: dict[str, list[Wanted]] = {}
    for item in wanted:
        url = urllib.parse.urldefrag(fetched(item)).url
        groups.setdefault(url, []).append(item)
    return groups


def _place(item: Wanted, body: bytes, staging: Path) -> None:
    """Write what `body` holds for `item` under `staging`."""
    fragment = urllib.parse.unquote(urllib.parse.urldefrag(fetched(item)).fragment)
    target = staging / _relative(item.file.path, item.label)
    try:
        files = dict(_unpack(body, fragment, PurePosixPath(item.file.path).name))
    except DownloadError as exc:
        raise DownloadError(f"{item.label}: {fetched(item)}: {exc}") from None
    for relative, data in files.items():
        if len(data) > item.file.max_bytes:
            raise DownloadError(
                f"{item.label}: {fetched(item)}: {relative or 'file'}: over the limit of"
                f" {item.file.max_bytes} bytes"
            )
        path = target / _relative(relative, item.label) if relative else target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _relative(path: str, label: str) -> Path:
    parts = PurePosixPath(path).parts
    if not parts or PurePosixPath(path).is_absolute() or any(p in ("", ".", "..") for p in parts):
        raise DownloadError(f"{label}: {path!r}: not a plain relative path")
    return Path(*parts)


def _unpack(body: bytes, fragment: str, name: str) -> Iterator[tuple[str, bytes]]:
    """(path below the record's path, '' for the record's own file; bytes)."""
    if body.startswith(b"PK\x03\x04"):
        yield from _from_archive(_zip_members(body), fragment, name)
    elif body.startswith(b"\x1f\x8b"):
        yield from _from_archive(_tar_members(body), fragment, name)
    elif fragment:
        yield "", _template_literal(body, fragment)
    else:
        yield "", body


Members = list[tuple[str, Callable[[], bytes]]]


def _zip_members(body: bytes) -> Members:
    try:
        archive = zipfile.ZipFile(io.BytesIO(body))
        infos = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, ValueError) as exc:
        raise DownloadError(f"not a readable zip archive: {one_line(str(exc))}") from None

    def opener(info: zipfile.ZipInfo) -> Callable[[], IO[bytes]]:
        return lambda: archive.open(info)

    return [(i.filename, _bounded(opener(i))) for i in infos]


def _tar_members(body: bytes) -> Members:
    try:
        archive = tarfile.open(fileobj=io.BytesIO(body), mode="r:gz")
        infos = [i for i in archive.getmembers() if i.isfile()]
    except (tarfile.TarError, gzip.BadGzipFile, EOFError, OSError) as exc:
        raise DownloadError(f"not a readable tar.gz archive: {one_line(str(exc))}") from None

    def opener(info: tarfile.TarInfo) -> Callable[[], IO[bytes]]:
        def open_member() -> IO[bytes]:
            handle = archive.extractfile(info)
            if handle is None:
                raise DownloadError(f"{info.name}: not a regular file")
            return handle

        return open_member

    return [(i.name, _bounded(opener(i))) for i in infos]


def _bounded(open_member: Callable[[], IO[bytes]]) -> Callable[[], bytes]:
    """Read a member, never more than the archive limit (a small archive may unpack large)."""

    def read() -> bytes:
        with open_member() as handle:
            data = handle.read(ARCHIVE_LIMIT + 1)
        if len(data) > ARCHIVE_LIMIT:
            raise DownloadError(f"a member unpacks to over {ARCHIVE_LIMIT} bytes")
        return data

    return read


def _from_archive(members: Members, fragment: str, name: str) -> Iterator[tuple[str, bytes]]:
    if not fragment:
        named = [m for m in members if PurePosixPath(m[0]).name == name]
        if len(named) != 1:
            raise DownloadError(f"{len(named)} members named {name!r} in the archive, not one")
        yield "", named[0][1]()
        return
    members = _without_top_folder(members)
    for source, target in _mappings(fragment):
        exact = [read for path, read in members if path == source]
        if exact:
            yield target, exact[0]()
            continue
        folder = source.rstrip("/") + "/"
        below = [(p.removeprefix(folder), read) for p, read in members if p.startswith(folder)]
        if not below:
            raise DownloadError(f"no member {source!r} in the archive")
        if len(below) > MAX_MEMBERS:
            raise DownloadError(f"{source!r}: over {MAX_MEMBERS} files")
        for relative, read in below:
            yield f"{target}/{relative}" if target else relative, read()


def _mappings(fragment: str) -> list[tuple[str, str]]:
    """`a&b=c` -> [("a", ""), ("b", "c")]: archive member or folder, and where it goes
    below the record's path ('' for the path itself)."""
    pairs = []
    for part in fragment.split("&"):
        source, _, target = part.partition("=")
        if not source:
            raise DownloadError(f"#{fragment}: an empty member name")
        pairs.append((source, target.strip("/")))
    return pairs


def _without_top_folder(members: Members) -> Members:
    """Member paths below the one folder every member is in, if there is one (GitHub's and
    PyPI's archives wrap a repository in `<name>-<version>/`)."""
    tops = {PurePosixPath(path).parts[0] for path, _ in members}
    if len(tops) != 1 or any(len(PurePosixPath(path).parts) < 2 for path, _ in members):
        return members
    cut = len(tops.pop()) + 1
    return [(path[cut:], read) for path, read in members]


def _template_literal(body: bytes, name: str) -> bytes:
    """The backquoted text assigned to `name` (`const name = \\`...\\``)."""
    if not re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", name):
        raise DownloadError(f"#{name}: not a JavaScript name")
    text = body.decode("utf-8", errors="replace")
    found = re.findall(rf"(?<![\w$]){re.escape(name)}\s*=\s*`([^`]*)`", text)
    if len(found) != 1:
        raise DownloadError(f"{len(found)} backquoted texts assigned to {name}, not one")
    return str(found[0]).lstrip("\n").encode("utf-8")


def main(argv: list[str]) -> int:
    """`python -m generator.refresh.download DATA_DIR RAW_DIR`."""
    from generator.errors import GeneratorError
    from generator.input.load import load_dataset

    if len(argv) != 2:
        print("usage: python -m generator.refresh.download DATA_DIR RAW_DIR", file=sys.stderr)
        return 2
    data_dir, raw_dir = Path(argv[0]), Path(argv[1])
    try:
        sources = load_dataset(data_dir).sources
        count = download_all(sources, raw_dir)
    except GeneratorError as exc:
        print(f"refresh-download: {data_dir} is not valid: {exc.format_message()}", file=sys.stderr)
        return 1
    except DownloadError as exc:
        print(f"refresh-download: {exc}; nothing downloaded", file=sys.stderr)
        return 1
    print(
        f"refresh-download: {count} files of {len(sources)} sources in {raw_dir}", file=sys.stderr
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
