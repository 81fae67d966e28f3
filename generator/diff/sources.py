"""What `modelscores diff` compares: a built site, a data directory, or `data/` at a git
revision (`git:REV`). The last two are built first (their API files only), into a temporary
directory."""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

from generator.api.contract import MODELS
from generator.api.urls import api_file, site_config
from generator.build import build_api
from generator.diff.snapshot import DiffError
from generator.input.load import METHODOLOGY_FILE, SYMLINK

GIT_PREFIX = "git:"
DATA_FOLDER = "data"


def built_site(source: str, scratch: Path) -> Path:
    """A built site for `source`, building into a folder of `scratch` if needed."""
    if source.startswith(GIT_PREFIX):
        return _build(_data_at_revision(source.removeprefix(GIT_PREFIX), scratch), scratch)
    path = Path(source)
    if (path / api_file(MODELS.path)).is_file():
        return path
    if (path / METHODOLOGY_FILE).is_file():
        return _build(path, scratch)
    raise DiffError(
        f"{source}: neither a built site (no {api_file(MODELS.path)}) nor a data directory"
        f" (no {METHODOLOGY_FILE}); for a git revision write {GIT_PREFIX}REV"
    )


def _build(data_dir: Path, scratch: Path) -> Path:
    """The API files of a build of `data_dir`, written into a new folder of `scratch`: all a
    comparison reads (the pages and previews are not made)."""
    out = scratch / f"site-{len(list(scratch.iterdir()))}"
    for path, data in build_api(data_dir, site_config("http://127.0.0.1:8000")).items():
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return out


def _data_at_revision(revision: str, scratch: Path) -> Path:
    """`data/` as committed at `revision` of the repository in the working directory."""
    if not revision or revision.startswith("-"):
        raise DiffError(f"{GIT_PREFIX}{revision}: not a git revision")
    command = ["git", "archive", "--format=tar", revision, "--", DATA_FOLDER]
    try:
        archive = subprocess.run(command, capture_output=True, check=True).stdout
    except FileNotFoundError:
        raise DiffError(f"{GIT_PREFIX}{revision}: git is not installed") from None
    except subprocess.CalledProcessError as exc:
        detail = " ".join(exc.stderr.decode(errors="replace").split())
        raise DiffError(f"{GIT_PREFIX}{revision}: {detail or 'git archive failed'}") from None
    target = scratch / f"data-{len(list(scratch.iterdir()))}"

    def regular_only(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
        """Refuse a committed symlink as the loader would (one line, never followed)."""
        if member.issym() or member.islnk():
            raise DiffError(f"{GIT_PREFIX}{revision}: {member.name}: file: {SYMLINK}")
        return tarfile.data_filter(member, dest)

    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target, filter=regular_only)
    return target / DATA_FOLDER
