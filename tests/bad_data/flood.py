"""Floods: trees and files built to exhaust the build or a CI log through sheer size (issue
23). Each is refused by a whole-tree or per-file limit (`generator/input/limits.py`) in one
line, or its problems are listed up to the caps; every case runs in the bounded child of
tests/input/test_hostile_data.py (1 GiB, 30 s). The reproductions of the issue come first, then
variants of each class that the reproductions alone would not catch.
"""

from __future__ import annotations

import re
from pathlib import Path

from support.paths import FIXTURE_DATA as FIXTURE

from bad_data.corpus import Mutation, _m, both
from bad_data.hostile import HostileCase
from generator.errors import MAX_SHOWN_PROBLEMS
from generator.input.limits import (
    MAX_ALIASES,
    MAX_FILE_LINES,
    MAX_FILE_PROBLEMS,
    MAX_FILE_VALUES,
    MAX_MODEL_FILES,
    MAX_TREE_BYTES,
    MAX_TREE_ENTRIES,
    MAX_TREE_LINES,
)

A1 = "models/alpha-1.toml"
A2 = "models/alpha-2.toml"
KEYS = 420_000
EIGHT = (
    *(f"models/{name}.toml" for name in ("alpha-1", "alpha-2", "alpha-3", "beta-1", "gamma-1")),
    *("models/delta-preview.toml", "benchmarks/arc-agi-1.toml", "charts/iq-distribution.toml"),
)


def _fixture_bytes() -> int:
    return sum(path.stat().st_size for path in FIXTURE.rglob("*") if path.is_file())


def _lines_after(rel: str, added: int) -> int:
    return len((FIXTURE / rel).read_text(encoding="utf-8").splitlines()) + added


def prepend_keys(rels: tuple[str, ...], count: int) -> Mutation:
    """`count` unknown top-level keys (`k0 = 1` ...) at the start of each file (made when
    the case runs: at import, the floods' text cost each test process 0.6 s)."""

    def mutate(data: Path) -> None:
        keys = "".join(f"k{i} = 1\n" for i in range(count))
        for rel in rels:
            path = data / rel
            path.write_text(keys + path.read_text(encoding="utf-8"), encoding="utf-8")

    return mutate


def inline_table(rel: str, count: int) -> Mutation:
    """One line holding a table of `count` keys: a line limit alone would not see it."""

    def mutate(data: Path) -> None:
        table = "flood = {" + ",".join(f"k{i}=1" for i in range(count)) + "}\n"
        path = data / rel
        path.write_text(table + path.read_text(encoding="utf-8"), encoding="utf-8")

    return mutate


def copied_models(count: int) -> Mutation:
    """`count` copies of alpha-1 with their own ids (the file name): names and aliases copied."""
    text = (FIXTURE / A1).read_text(encoding="utf-8")

    def mutate(data: Path) -> None:
        for index in range(count):
            copy = text.replace('id = "alpha-1"', f'id = "copy-{index}"')
            (data / "models" / f"copy-{index}.toml").write_text(copy, encoding="utf-8")

    return mutate


def empty_files(folder: str, count: int) -> Mutation:
    def mutate(data: Path) -> None:
        (data / folder).mkdir(exist_ok=True)
        for index in range(count):
            (data / folder / f"f{index}").touch()

    return mutate


def sparse_files(count: int, size: int) -> Mutation:
    """Files that claim `size` bytes but take no disk (the tree check adds up sizes)."""

    def mutate(data: Path) -> None:
        for index in range(count):
            with (data / f"big-{index}.bin").open("wb") as file:
                file.truncate(size)

    return mutate


def aliases(rel: str, count: int) -> Mutation:
    def mutate(data: Path) -> None:
        names = ", ".join(f'"{rel.split("/")[1][:-5]}-alias-{i}"' for i in range(count))
        path = data / rel
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"^aliases = .*\n", "", text, flags=re.M)
        path.write_text(text.replace("\nprovider =", f"\naliases = [{names}]\nprovider =", 1))

    return mutate


def capped_duplicates(data: Path, lines: list[str]) -> None:
    """3,000 copies: every copy's name and aliases are duplicates, and only the first
    `MAX_SHOWN_PROBLEMS` lines are printed, then the count of the rest."""
    total = 3_000 * 4  # the name and three aliases of each copy
    assert len(lines) == MAX_SHOWN_PROBLEMS + 2
    assert lines[-2:] == [
        f"... and {total - MAX_SHOWN_PROBLEMS:,} more",
        f"Aborted: {total} data errors",
    ]
    assert all(line.startswith(f"{data}/models/") for line in lines[:-2])
    assert sum(len(line) + 1 for line in lines) < 64 * 1024


def key_files(count: int, keys: int) -> Mutation:
    """`count` model files of `keys` unknown keys each (4.99 MB: within the file limits)."""
    text = "".join(f"k{i} = 1\n" for i in range(keys))

    def mutate(data: Path) -> None:
        for index in range(count):
            (data / "models" / f"k{index}.toml").write_text(text, encoding="utf-8")

    return mutate


def long_keys(count: int, length: int) -> Mutation:
    """`count` model files each holding one unknown key of `length` characters."""
    text = "k" * length + " = 1\n"

    def mutate(data: Path) -> None:
        for index in range(count):
            (data / "models" / f"long-{index}.toml").write_text(text, encoding="utf-8")

    return mutate


def unknown_benchmark_results(count: int, per_file: int) -> Mutation:
    """`count` model files of `per_file` results each naming a distinct unknown benchmark
    one letter off a real one: each would get a "did you mean" match."""
    head = (FIXTURE / A1).read_text(encoding="utf-8").split("[[results]]")[0]
    head = re.sub(r"^aliases = .*\n", "", head, flags=re.M)
    results = "".join(
        f'[[results]]\nbenchmark = "gpqa-diamonx{i}"\nvalue = 0.3\nsource_name = "T"\n'
        f'source_url = "https://example.org/a"\nas_of = 2026-01-10\n'
        for i in range(per_file)
    )

    def mutate(data: Path) -> None:
        for index in range(count):
            text = head.replace('"alpha-1"', f'"flood-{index}"').replace("Alpha 1", f"F {index}")
            (data / "models" / f"flood-{index}.toml").write_text(text + results, encoding="utf-8")

    return mutate


def short_lines(data: Path, lines: list[str]) -> None:
    """Twelve 4 MB keys: every line short, the key cut like a value (60 characters)."""
    assert lines[-1] == f"Aborted: {len(lines) - 1} data errors"
    assert max(len(line) for line in lines) < len(str(data)) + 150
    cut = "k" * 59 + "…"
    assert sum(line.endswith(f": {cut}: unknown field") for line in lines) == 12


def capped_unknown_benchmarks(data: Path, lines: list[str]) -> None:
    """528,000 unknown benchmarks: 100 listed a file and one line counting the rest; only
    printed lines carry a suggestion, and every printed one does."""
    files = 16
    total = files * (MAX_FILE_PROBLEMS + 1)
    assert lines[-2:] == [
        f"... and {total - MAX_SHOWN_PROBLEMS:,} more",
        f"Aborted: {total} data errors",
    ]
    shown = lines[:-2]
    assert len(shown) == MAX_SHOWN_PROBLEMS
    more = 33_000 - MAX_FILE_PROBLEMS
    assert shown[0] == (
        f"{data}/models/flood-0.toml: file: {more:,} more problems with other records"
        f" (only the first {MAX_FILE_PROBLEMS} of a file are listed)"
    )
    unknown = [line for line in shown if "unknown benchmark" in line]
    assert len(unknown) == MAX_SHOWN_PROBLEMS - 2
    assert all(line.endswith("(did you mean 'gpqa-diamond'?)") for line in unknown)
    assert "\x00" not in "".join(lines)


def stopped_after_the_shown_problems(data: Path, lines: list[str]) -> None:
    """50 files of 199,900 unknown keys: two files fill the printed lines, the other 48
    (and the folders after models/) are not parsed (each took a second or more)."""
    later = sum(
        len(list((FIXTURE / f).glob("*.toml")))
        for f in ("benchmarks", "domains", "charts", "sources")
    )
    assert lines[-1] == "Aborted: 203 data errors"
    stopped = (
        f"{48 + later} more data files not checked (stopped after {MAX_SHOWN_PROBLEMS} problems)"
    )
    assert f"{data}: directory: {stopped}" in lines
    listed = "more problems (only the first 100 of a file are listed)"
    counted = [line.split(": ")[0] for line in lines if line.endswith(listed)]
    assert counted == [f"{data}/models/k{i}.toml" for i in (0, 1)]


FLOOD: tuple[HostileCase, ...] = (
    # the reproductions
    HostileCase(
        "unknown-keys-420k-in-one-file",  # was 31.8 s and 31 MB of error output
        prepend_keys((A2,), KEYS),
        (_m(A2, "file", f"{_lines_after(A2, KEYS):,} lines (the limit is {MAX_FILE_LINES:,})"),),
    ),
    HostileCase(
        "unknown-keys-420k-in-eight-files",  # was 144 s, 2 GB and a MemoryError traceback
        prepend_keys(EIGHT, KEYS),
        tuple(
            _m(rel, "file", f"{_lines_after(rel, KEYS):,} lines (the limit is {MAX_FILE_LINES:,})")
            for rel in EIGHT
        ),
    ),
    HostileCase(
        "twenty-thousand-copied-models",  # was signal 11 in msgspec after 54 s under 2 GiB
        copied_models(20_000),
        (
            "{data}/models: directory: 20,006 entries (the limit is"
            f" {MAX_MODEL_FILES:,} model files)",
        ),
    ),
    HostileCase(
        "alias-flood-45000-on-one-model",  # was an 81 MB _redirects of 450,358 rules
        aliases(A2, 45_000),
        (_m(A2, "aliases", f"at most {MAX_ALIASES} aliases a model (value: a list of 45000)"),),
    ),
    # variants
    HostileCase(
        "unknown-keys-under-the-line-limit-listed-up-to-the-file-cap",
        prepend_keys((A2,), 150_000),
        (
            *(_m(A2, f"k{i}", "unknown field") for i in range(MAX_FILE_PROBLEMS)),
            _m(
                A2,
                "file",
                f"{150_000 - MAX_FILE_PROBLEMS:,} more problems (only the first"
                f" {MAX_FILE_PROBLEMS} of a file are listed)",
            ),
        ),
    ),
    HostileCase(
        "unknown-keys-in-one-inline-table-on-two-files",
        both(inline_table(A1, 420_000), inline_table(A2, 420_000)),
        tuple(
            _m(rel, "file", f"more than {MAX_FILE_VALUES:,} values (the limit)") for rel in (A1, A2)
        ),
    ),
    HostileCase(
        "three-thousand-copied-models-error-output-capped",
        copied_models(3_000),
        (),
        check_errors=capped_duplicates,
    ),
    HostileCase(
        "thirty-thousand-empty-files-in-a-stray-folder",
        empty_files("junk", 30_000),
        (
            f"{{data}}: directory: more than {MAX_TREE_ENTRIES:,} files and folders (the limit is"
            f" {MAX_TREE_ENTRIES:,})",
        ),  # fmt: skip
    ),
    HostileCase(
        "files-adding-up-past-the-tree-bytes",  # sparse: they claim the bytes, take no disk
        sparse_files(3, 100 * 1024 * 1024),
        (
            f"{{data}}: directory: {3 * 100 * 1024 * 1024 + _fixture_bytes():,} bytes of files"
            f" (the limit is {MAX_TREE_BYTES // (1024 * 1024)} MiB)",
        ),
    ),
    HostileCase(
        "one-sparse-file-of-64-gib",  # the build's cache hashed every byte before the loader ran
        sparse_files(1, 64 << 30),
        (
            f"{{data}}: directory: {(64 << 30) + _fixture_bytes():,} bytes of files"
            f" (the limit is {MAX_TREE_BYTES // (1024 * 1024)} MiB)",
        ),
    ),
    HostileCase(
        "thirty-three-aliases-on-two-models",
        both(aliases(A1, MAX_ALIASES + 1), aliases(A2, MAX_ALIASES + 1)),
        tuple(
            _m(rel, "aliases", f"at most {MAX_ALIASES} aliases a model (value: a list of 33)")
            for rel in (A1, A2)
        ),
    ),
    # round 4 (a red-team review of round 3): problem lines and the cost of problems
    HostileCase(
        "twelve-keys-of-4-mb-cut-in-problem-lines",  # was one 4 MB line each, 58.8 MB
        long_keys(12, 4_000_000),
        (),
        check_errors=short_lines,
    ),
    HostileCase(
        "unknown-benchmarks-33000-in-16-files-suggested-when-printed",  # was 50.9 s, 840 MB
        unknown_benchmark_results(16, 33_000),
        (),
        check_errors=capped_unknown_benchmarks,
    ),
    HostileCase(
        "unknown-keys-199900-in-50-files-stop-after-the-printed-lines",  # was 66 s
        key_files(50, 199_900),
        (),
        check_errors=stopped_after_the_shown_problems,
    ),
    HostileCase(
        "unknown-benchmarks-in-22-files-past-the-tree-lines",  # 64 such files: 35 s, 1.3 GB
        unknown_benchmark_results(22, 33_000),
        (
            f"{{data}}: directory: more than {MAX_TREE_LINES:,} lines or values of data files"
            f" (the limit is {MAX_TREE_LINES:,}); 13 files not checked",  # 2 + 11 later
        ),
    ),
)
