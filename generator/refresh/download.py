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
An archive is listed before anything is unpacked: its member count, each taken member's
declared size and their total are checked first, then each member is streamed to its file
in chunks (peak memory: the download and a chunk, whatever the archive unpacks to).
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
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from http.client import HTTPException, HTTPResponse
from pathlib import Path, PurePosixPath
from typing import IO

from generator.errors import one_line
from generator.input.records import SourceFileRecord, SourceRecord

CONNECT_TIMEOUT = 30.0  # seconds without a byte from the server
DOWNLOAD_TIMEOUT = 300.0  # seconds for one whole download
ARCHIVE_LIMIT = 64 * 1024 * 1024  # bytes of one download shared by several files
UNPACKED_LIMIT = 256 * 1024 * 1024  # bytes an archive may unpack to, by its headers
MAX_MEMBERS = 20_000  # members of one archive, and files taken from it
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
    """Write what `body` holds for `item` under `staging`: every member's declared size, the
    members' count and their total checked before a byte is unpacked, then each streamed to
    its file in chunks, stopping at its limit (a header may lie)."""
    fragment = urllib.parse.unquote(urllib.parse.urldefrag(fetched(item)).fragment)
    target = staging / _relative(item.file.path, item.label)
    limit = item.file.max_bytes
    try:
        archive = _archive(body)
        if archive is None:
            data = _template_literal(body, fragment) if fragment else body
            if len(data) > limit:
                raise DownloadError(f"file: over the limit of {limit} bytes")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            return
        chosen = _from_archive(archive.members, fragment, PurePosixPath(item.file.path).name)
        _check_sizes(chosen, limit)
        paths = {
            member.name: target / _relative(relative, item.label) if relative else target
            for member, relative in chosen
        }
        archive.copy(paths, limit)
    except DownloadError as exc:
        raise DownloadError(f"{item.label}: {fetched(item)}: {exc}") from None


def _relative(path: str, label: str) -> Path:
    parts = PurePosixPath(path).parts
    if not parts or PurePosixPath(path).is_absolute() or any(p in ("", ".", "..") for p in parts):
        raise DownloadError(f"{label}: {printable(path)}: not a plain relative path")
    return Path(*parts)


def printable(text: str, limit: int = 120) -> str:
    """An upstream name (an archive member's) quoted for a one-line message: controls and
    line breaks escaped, cut to `limit` characters."""
    cut = text if len(text) <= limit else text[:limit] + "..."
    return ascii(cut)


@dataclass(frozen=True)
class Member:
    """One regular file of an archive: its path and the size its header declares."""

    name: str
    size: int


class Archive:
    """A zip or gzipped tar archive's regular files, listed without unpacking any."""

    def __init__(self, body: bytes, members: list[Member], kind: str) -> None:
        self.body = body
        self.members = members
        self.kind = kind

    def copy(self, paths: dict[str, Path], limit: int) -> None:
        """Stream each member named in `paths` to its path, at most `limit` bytes each."""
        try:
            if self.kind == "zip":
                with zipfile.ZipFile(io.BytesIO(self.body)) as archive:
                    for name, path in paths.items():
                        with archive.open(name) as handle:
                            _stream(handle, path, name, limit)
                return
            with _tar_stream(self.body) as stream:
                for info in stream:
                    if info.isfile() and info.name in paths:
                        member = stream.extractfile(info)
                        if member is not None:
                            _stream(member, paths[info.name], info.name, limit)
                    vars(stream)["members"].clear()
        except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError, zlib.error) as exc:
            raise DownloadError(f"unreadable archive member: {_describe(exc)}") from None
        except RuntimeError as exc:  # zipfile: an encrypted member
            raise DownloadError(f"unreadable archive member: {one_line(str(exc))}") from None


def _stream(handle: IO[bytes], path: Path, name: str, limit: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with path.open("wb") as out:
        while chunk := handle.read(CHUNK):
            written += len(chunk)
            if written > limit:
                raise DownloadError(f"{printable(name)}: unpacks to over {limit} bytes")
            out.write(chunk)


def _archive(body: bytes) -> Archive | None:
    """The archive `body` is, listed and bounded, or None for a plain body."""
    if body.startswith(b"PK\x03\x04"):
        return Archive(body, _zip_members(body), "zip")
    if body.startswith(b"\x1f\x8b"):
        return Archive(body, _tar_members(body), "tar")
    return None


def _zip_members(body: bytes) -> list[Member]:
    entries = _zip_entries(body)
    if entries > MAX_MEMBERS:  # before the central directory is parsed into objects
        raise DownloadError(f"{entries} members in the archive, over the limit of {MAX_MEMBERS}")
    try:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise DownloadError(f"not a readable zip archive: {one_line(str(exc))}") from None
    if len(infos) > MAX_MEMBERS:
        raise DownloadError(f"over {MAX_MEMBERS} members in the archive")
    return [Member(i.filename, i.file_size) for i in infos if not i.is_dir()]


def _zip_entries(body: bytes) -> int:
    """The member count a zip's end record declares (its zip64 record's if it has one)."""
    end = body.rfind(b"PK\x05\x06", max(0, len(body) - 22 - 65535))
    if end < 0 or len(body) < end + 22:
        raise DownloadError("not a readable zip archive: no end of central directory")
    count = int.from_bytes(body[end + 10 : end + 12], "little")
    locator = end - 20
    if count == 0xFFFF and locator >= 0 and body[locator : locator + 4] == b"PK\x06\x07":
        record = int.from_bytes(body[locator + 8 : locator + 16], "little")
        count = int.from_bytes(body[record + 32 : record + 40], "little")
    return count


def _tar_members(body: bytes) -> list[Member]:
    """Every regular file of a gzipped tar, in one streaming pass that stops at the member
    count and total declared size bounds (a link, folder or device is skipped)."""
    members: list[Member] = []
    total = 0
    try:
        with _tar_stream(body) as stream:
            for count, info in enumerate(stream, start=1):
                if count > MAX_MEMBERS:
                    raise DownloadError(f"over {MAX_MEMBERS} members in the archive")
                total += info.size
                if total > UNPACKED_LIMIT:  # checked before the next header skips this data
                    raise DownloadError(f"unpacks to over {UNPACKED_LIMIT} bytes")
                if info.isfile():
                    members.append(Member(info.name, info.size))
                vars(stream)["members"].clear()  # a streaming pass keeps nothing passed
    except (tarfile.TarError, gzip.BadGzipFile, EOFError, OSError, zlib.error) as exc:
        raise DownloadError(f"not a readable tar.gz archive: {one_line(str(exc))}") from None
    return members


def _tar_stream(body: bytes) -> tarfile.TarFile:
    """A gzipped tar read in one pass. `gzip` unpacks at most what is asked of it: tarfile's
    own `r|gz` unpacks each 16 kB of input whole, 16 MB of a well-compressed member at once."""
    return tarfile.open(fileobj=gzip.GzipFile(fileobj=io.BytesIO(body)), mode="r|")


def _check_sizes(chosen: list[tuple[Member, str]], limit: int) -> None:
    """Each chosen member at most `limit` bytes, at most `MAX_MEMBERS` of them, and at most
    `UNPACKED_LIMIT` together, as their headers declare."""
    if len(chosen) > MAX_MEMBERS:
        raise DownloadError(f"{len(chosen)} files, over the limit of {MAX_MEMBERS}")
    for member, _ in chosen:
        if member.size > limit:
            raise DownloadError(
                f"{printable(member.name)}: {member.size} bytes, over the limit of {limit}"
            )
    total = sum(member.size for member, _ in chosen)
    if total > UNPACKED_LIMIT:
        raise DownloadError(f"{total} bytes unpacked, over the limit of {UNPACKED_LIMIT}")


def _from_archive(members: list[Member], fragment: str, name: str) -> list[tuple[Member, str]]:
    """The members `item` takes, each with its path below the record's ('' for the
    record's own file)."""
    if not fragment:
        named = [m for m in members if PurePosixPath(m.name).name == name]
        if len(named) != 1:
            raise DownloadError(f"{len(named)} members named {name!r} in the archive, not one")
        return [(named[0], "")]
    short = _without_top_folder(members)
    chosen: list[tuple[Member, str]] = []
    for source, target in _mappings(fragment):
        exact = [m for path, m in short if path == source]
        if exact:
            chosen.append((exact[0], target))
            continue
        folder = source.rstrip("/") + "/"
        below = [(p.removeprefix(folder), m) for p, m in short if p.startswith(folder)]
        if not below:
            raise DownloadError(f"no member {printable(source)} in the archive")
        chosen += [(m, f"{target}/{rel}" if target else rel) for rel, m in below]
    return chosen


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


def _without_top_folder(members: list[Member]) -> list[tuple[str, Member]]:
    """Member paths below the one folder every member is in, if there is one (GitHub's and
    PyPI's archives wrap a repository in `<name>-<version>/`)."""
    paths = [(m.name, m) for m in members]
    tops = {PurePosixPath(path).parts[0] for path, _ in paths if PurePosixPath(path).parts}
    if len(tops) != 1 or any(len(PurePosixPath(path).parts) < 2 for path, _ in paths):
        return paths
    cut = len(tops.pop()) + 1
    return [(path[cut:], m) for path, m in paths]


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
