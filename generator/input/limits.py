"""Whole-tree limits of data/, checked before a single file is parsed.

A pull request's `data/` is untrusted (SECURITY.md): the per-file limits (5 MB, nesting 16)
bound one file, these bound the tree. Each is set with room for the catalogue to grow: the
build benchmarks make 10,000 and 20,000 models (`bench/synth.py`: 20,000 models are 20,058
files, 58.5 MB), the shipped data is 129 files and 0.6 MB. The walk never follows a link,
and stops as soon as a limit is passed, so a tree of a million files costs no more than one
at the limit.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_TREE_ENTRIES = 25_000
"""Files, folders and anything else under data/, at any depth."""
MAX_MODEL_FILES = 20_000
"""Entries in data/models/."""
MAX_TREE_BYTES = 256 * 1024 * 1024
"""The sizes of all regular files under data/ together."""
MAX_ALIASES = 32
"""Aliases of one model (each is up to 10 `_redirects` rules)."""
MAX_FILE_LINES = 200_000
"""Lines of one file, counted before it is parsed (a 20,000-model domain file has 60,000)."""
MAX_FILE_VALUES = 200_000
"""Values of one parsed file, tables and arrays included (one line can hold many)."""
MAX_TREE_LINES = 4_000_000
"""Lines or values (whichever is more, file by file) of all data files: what the loader
parses and holds. The 20,000-model benchmark tree has 2.33 million lines (2.09 million
values); 20,000 models like the shipped ones would have about 3.4 million values."""
MAX_FILE_PROBLEMS = 100
"""Problems listed for one file; the rest are counted in one line."""


def more_problems(count: int) -> str:
    """The problems past a file's cap, counted: "1 more problem", "1,234 more problems"."""
    return f"{count:,} more problem{'' if count == 1 else 's'}"


def tree_problems(data_dir: Path) -> list[str]:
    """One line per whole-tree limit `data_dir` passes (empty when within every limit)."""
    if data_dir.is_symlink():
        return []  # refused by the loader, never listed
    entries, total, models = 0, 0, 0
    undecodable: list[str] = []
    pending = [data_dir]
    while pending:
        folder = pending.pop()
        try:
            scan = os.scandir(folder)
        except OSError:
            continue  # reported by the loader, which looks at every path it needs
        in_models = folder == data_dir / "models"
        with scan:
            for entry in scan:
                entries += 1
                if entries > MAX_TREE_ENTRIES:
                    return [
                        f"{data_dir}: directory: more than {MAX_TREE_ENTRIES:,} files and"
                        f" folders (the limit is {MAX_TREE_ENTRIES:,})"
                    ]
                models += in_models
                why = _undecodable(entry.name)
                if why:
                    kind = "directory" if entry.is_dir(follow_symlinks=False) else "file"
                    shown = os.fsencode(entry.name).decode("utf-8", "backslashreplace")
                    undecodable.append(f"{Path(folder) / shown}: {kind}: {why}")
                    continue  # never hashed, listed or opened
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISDIR(info.st_mode):
                    pending.append(Path(entry.path))
                elif stat.S_ISREG(info.st_mode):
                    total += info.st_size
    problems = undecodable
    if models > MAX_MODEL_FILES:
        problems.append(
            f"{data_dir / 'models'}: directory: {models:,} entries (the limit is"
            f" {MAX_MODEL_FILES:,} model files)"
        )
    if total > MAX_TREE_BYTES:
        problems.append(
            f"{data_dir}: directory: {total:,} bytes of files (the limit is"
            f" {MAX_TREE_BYTES // (1024 * 1024)} MiB)"
        )
    return problems


def _undecodable(name: str) -> str:
    """Why a file or folder name is not UTF-8 ('' when it is).

    The OS hands such a name over with its bytes as lone surrogates (`os.fsdecode`); no
    TOML id, problem line or cache digest can be made of it.
    """
    try:
        name.encode()
    except UnicodeEncodeError:
        raw = os.fsencode(name)
        try:
            raw.decode()
        except UnicodeDecodeError as exc:
            return f"name is not UTF-8 (byte 0x{raw[exc.start]:02x} at {exc.start})"
        return "name is not UTF-8"  # a surrogate encoded in the name's bytes themselves
    return ""
