"""Build benchmark: the real pipeline by stage, against the floor, plus incremental rebuilds.

`python -m bench.build` synthesises data for each N (default 1,000, 10,000 and 20,000
models, 40 scored benchmarks) and runs two fresh child processes per N (so that peak RSS
is that build's own), each starting with a cold `generator.build.build_site`, taking each
stage's wall time from the build's own report (the build writes each file as it makes it,
so the render, downloads and pages stages include their writes; "write" is the swap).

The rebuilds child (first) then measures a no-op rebuild (unchanged data) and a one-model
change (one model's output price) with the build cache of its cold build in play,
counting the files actually rewritten (inode or mtime changed) and the bytes the process
wrote (`wchar` of /proc/self/io); then the next change (another model's price), the
first rebuild with the writer's spare tree (the tree the previous swap replaced) to
update. Their ratios are taken against the cold build they followed. Measured after the
floors in one process instead, the floors' 175,000 files written and deleted made the
first change 9.55 s instead of 7.18 s at 10,000 models (the linking child got through
53,418 of 58,193 files before the first file; the pages stage took 3.59 s, not 1.55 s).

The floors child then measures, after its cold build (the full build of the figures):

- the floor: encoding the same final documents with msgspec (the same deterministic
  encoder and formatting) and writing the same files, bytes and paths (read back from
  the built site, the reads not timed), into a fresh directory with plain writes; three
  times (`--floor-runs`), the ratios taken against the fastest: the least a build must do
  (at 10,000 models the disk's writeback of the build's 1.2 GB, then of each floor's, took
  one quiet run's floors from 5.5 s to 22.9 and 26.1 s; measured after the rebuilds in one
  run, the fastest took 7.64 s, against 3.76-3.93 s right after the cold build in others);
- side by side, the same cold build in one process (`workers=1`, no cache to use): what
  the build cost before it rendered pages in parallel.

CPU includes the page workers (reaped children); peak RSS is given for the build
process and for the largest worker (the floors child's). `--jobs` sets the workers
(default: every CPU).
Then, at the shipped data (`data/`), the CLI's start-up (`modelscores --help`) against a
no-op `modelscores build`, each the fastest of five runs as separate processes
(`--startup-runs`).

Prints Markdown tables (with the 1-minute load average at the start and end of each N);
`--json` also keeps the raw figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import rtoml

from bench.measure import (
    children_peak_rss_mib,
    human_bytes,
    measure,
    peak_rss_mib,
    table,
)

STAGES = ("load", "score", "history", "render", "downloads", "pages", "check", "write")
BASE_URL = "http://127.0.0.1:8000"


@dataclass
class BuildRun:
    """Everything measured for one N."""

    models: int
    published: int
    stages: dict[str, dict[str, float]] = field(default_factory=dict)
    total_wall: float = 0.0
    total_cpu: float = 0.0
    peak_rss_mib: float = 0.0
    worker_peak_rss_mib: float = 0.0
    workers: int = 1
    files: int = 0
    bytes: int = 0
    api_bytes: dict[str, int] = field(default_factory=dict)
    floor: dict[str, float] = field(default_factory=dict)  # the fastest of `floors`
    floors: list[dict[str, float]] = field(default_factory=list)
    rebuilt_from: float = 0.0  # wall s of the cold build the rebuilds followed (their own)
    noop: dict[str, float] = field(default_factory=dict)
    one_change: dict[str, float] = field(default_factory=dict)
    next_change: dict[str, float] = field(default_factory=dict)
    load_average: list[float] = field(default_factory=list)  # 1-minute, at start and end
    one_process: dict[str, float] = field(default_factory=dict)


# --- the instrumented build (child process) ----------------------------------


@contextmanager
def captured_documents(captured: dict[str, Any]) -> Iterator[None]:
    """Keep what the floor needs from a build: its documents and the published count."""
    from generator import build

    originals = (getattr(build, "build_documents"), getattr(build, "load_dataset"))  # noqa: B009

    def documents(*args: Any, **kwargs: Any) -> Any:
        captured["documents"] = originals[0](*args, **kwargs)
        return captured["documents"]

    def load(*args: Any, **kwargs: Any) -> Any:
        dataset = originals[1](*args, **kwargs)
        captured["published"] = len(dataset.models)  # not the dataset: the build frees it
        return dataset

    setattr(build, "build_documents", documents)  # noqa: B010
    setattr(build, "load_dataset", load)  # noqa: B010
    try:
        yield
    finally:
        setattr(build, "build_documents", originals[0])  # noqa: B010
        setattr(build, "load_dataset", originals[1])  # noqa: B010


def _config() -> Any:
    from generator.api.urls import SiteConfig

    return SiteConfig(base_url=BASE_URL, mcp_origin=None)


def cold_build(run: BuildRun, data: Path, out: Path) -> dict[str, Any]:
    """The first build into an empty directory, by stage; returns its documents."""
    from generator.build import build_site

    captured: dict[str, Any] = {}
    with captured_documents(captured), measure("build") as total:
        report = build_site(data, out, _config())
    run.total_wall, run.total_cpu = total.wall, total.cpu
    run.peak_rss_mib = peak_rss_mib()
    run.worker_peak_rss_mib = children_peak_rss_mib()
    for stage in STAGES:
        run.stages[stage] = {"wall": report.seconds.get(stage, 0.0), "cpu": 0.0}
    other = total.wall - sum(s["wall"] for s in run.stages.values())
    run.stages["other"] = {"wall": max(other, 0.0), "cpu": 0.0}
    files = site_files(out)
    run.files, run.bytes = len(files), sum(os.path.getsize(out / rel) for rel in files)
    run.published = captured["published"]
    return captured


def site_files(root: Path) -> list[str]:
    """Every file of a site, relative, sorted."""
    return sorted(
        os.path.relpath(os.path.join(dirpath, name), root)
        for dirpath, _dirs, names in os.walk(root)
        for name in names
    )


def floor(documents: Mapping[str, msgspec.Struct], site: Path, out: Path) -> Any:
    """Encode the final documents and write the same files: the least any build must do."""
    encoder = msgspec.json.Encoder(order="deterministic")
    with measure("encode") as encode:
        encoded = sum(
            len(msgspec.json.format(encoder.encode(d), indent=2) + b"\n")
            for d in documents.values()
        )
    made: set[str] = set()
    write_wall = write_cpu = 0.0
    for rel in site_files(site):
        data = (site / rel).read_bytes()  # not timed: the floor starts from the bytes
        wall, cpu = time.perf_counter(), time.process_time()
        parent = os.path.dirname(rel)
        if parent not in made:
            os.makedirs(out / parent, exist_ok=True)
            made.add(parent)
        with open(out / rel, "wb") as handle:
            handle.write(data)
        write_wall += time.perf_counter() - wall
        write_cpu += time.process_time() - cpu
    return {
        "encode": encode.wall,
        "write": write_wall,  # two clock reads per file, not `measure` (its /proc reads)
        "wall": encode.wall + write_wall,
        "cpu": encode.cpu + write_cpu,
        "encoded_bytes": float(encoded),
    }


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Relative path -> (inode, mtime_ns) of every file: what a rebuild really rewrote."""
    found: dict[str, tuple[int, int]] = {}
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            stat = os.stat(os.path.join(dirpath, name))
            found[os.path.relpath(os.path.join(dirpath, name), root)] = (
                stat.st_ino,
                stat.st_mtime_ns,
            )
    return found


def one_process_build(data: Path, out: Path) -> dict[str, float]:
    """The same cold build in one process (no workers; a new directory has no cache)."""
    from generator.build import build_site

    shutil.rmtree(out.parent, ignore_errors=True)
    with measure("one process") as sample:
        build_site(data, out, _config(), workers=1)
    shutil.rmtree(out.parent, ignore_errors=True)
    return {"wall": sample.wall, "cpu": sample.cpu}


def rebuild(data: Path, out: Path) -> dict[str, float]:
    """Rebuild into the live site: wall time, files rewritten, bytes written."""
    from generator.build import build_site

    before = snapshot(out)
    with measure("rebuild") as sample:
        report = build_site(data, out, _config())
    after = snapshot(out)
    rewritten = [p for p, key in after.items() if before.get(p) != key]
    return {
        "wall": sample.wall,
        "cpu": sample.cpu,
        "files_rewritten": float(len(rewritten)),
        "bytes_rewritten": float(sum(os.path.getsize(out / p) for p in rewritten)),
        "process_bytes_written": float(sample.written),
        "reported_written": float(report.written),
        **{f"stage {name}": seconds for name, seconds in report.seconds.items()},
    }


def change_one_model(data: Path, start: float = 0.5) -> str:
    """Raise one published model's output price by 1%; return its id.

    The first priced published model from `start` (a fraction) of the sorted files on.
    """
    paths = sorted((data / "models").glob("*.toml"))
    for path in paths[int(len(paths) * start) :]:
        table_ = tomllib.loads(path.read_text(encoding="utf-8"))
        prices = table_.get("prices", {})
        if table_.get("published", True) and prices.get("output"):
            prices["output"] = round(prices["output"] * 1.01, 4)
            path.write_text(rtoml.dumps(table_, none_value=None), encoding="utf-8")
            return str(table_["id"])
    raise RuntimeError("no priced published model to change")


def api_sizes(site: Path) -> dict[str, int]:
    """Bytes of the single-response list endpoints, raw and compressed."""
    import gzip

    sizes: dict[str, int] = {}
    for name in ("models.json", "rankings/composite-iq"):
        raw = (site / "api" / "v1" / name).read_bytes()
        sizes[f"{name} raw"] = len(raw)
        sizes[f"{name} gzip"] = len(gzip.compress(raw, 6))
        try:
            import brotli  # type: ignore[import-not-found]

            sizes[f"{name} brotli"] = len(brotli.compress(raw, quality=11))
        except ImportError:
            pass
    return sizes


def floors(
    documents: Mapping[str, msgspec.Struct], site: Path, out: Path, runs: int
) -> list[dict[str, float]]:
    """`floor` `runs` times, each into an empty `out`, the fastest first."""
    floors = []
    for _ in range(runs):
        floors.append(floor(documents, site, out))
        shutil.rmtree(out, ignore_errors=True)
    return sorted(floors, key=lambda f: f["wall"])


def run_child(data: Path, work: Path, models: int, floor_runs: int, phase: str) -> BuildRun:
    """One phase for one N, in this (fresh) process: `floors` (the cold build, the floors,
    the one-process build) or `rebuilds` (a cold build, then the rebuilds it is the base of)."""
    from generator.output.pool import default_workers

    run = BuildRun(models=models, published=0, workers=default_workers())
    run.load_average.append(os.getloadavg()[0])
    site, floor_dir = work / "site", work / "floor"
    for path in (site, floor_dir):
        shutil.rmtree(path, ignore_errors=True)
    captured = cold_build(run, data, site)
    if phase == "floors":
        run.floors = floors(captured["documents"], site, floor_dir, floor_runs)
        run.floor = run.floors[0]
        del captured
        run.api_bytes = api_sizes(site)
        run.one_process = one_process_build(data, work / "one-process" / "site")
    else:
        del captured
        run.noop = rebuild(data, site)
        edited = work / "data-edited"
        shutil.rmtree(edited, ignore_errors=True)
        shutil.copytree(data, edited)
        change_one_model(edited)
        run.one_change = rebuild(edited, site)
        change_one_model(edited, start=0.75)  # the next change: the writer's spare tree in play
        run.next_change = rebuild(edited, site)
        shutil.rmtree(edited, ignore_errors=True)
    run.load_average.append(os.getloadavg()[0])
    return run


# --- orchestration (parent process) ------------------------------------------


def measure_size(
    models: int, benchmarks: int, seed: int, work: Path, floor_runs: int = 3
) -> BuildRun:
    """Synthesise N models, then run the child for them; returns its figures."""
    from bench.synth import SynthSpec, write_dataset

    data = work / f"data-{models}"
    started = time.perf_counter()
    write_dataset(SynthSpec(models=models, benchmarks=benchmarks, seed=seed), data)
    print(f"N={models}: data written in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    phases = {}
    for phase in ("rebuilds", "floors"):  # each its own cold build; floors' churn last
        child_work = work / f"work-{models}-{phase}"
        child_work.mkdir(parents=True, exist_ok=True)
        command = [
            sys.executable, "-m", "bench.build", "--child", phase,
            "--data", str(data), "--work", str(child_work), "--models", str(models),
            "--floor-runs", str(floor_runs),
        ]  # fmt: skip
        out = subprocess.run(command, capture_output=True, text=True)
        if out.returncode != 0:
            sys.stderr.write(out.stderr)
            raise SystemExit(f"N={models}: the {phase} child failed (exit {out.returncode})")
        phases[phase] = BuildRun(**json.loads(out.stdout))
    run, rebuilt = phases["floors"], phases["rebuilds"]
    run.rebuilt_from, run.noop = rebuilt.total_wall, rebuilt.noop
    run.one_change, run.next_change = rebuilt.one_change, rebuilt.next_change
    run.load_average = [*rebuilt.load_average, *run.load_average]
    for phase in phases:
        shutil.rmtree(work / f"work-{models}-{phase}", ignore_errors=True)
    shutil.rmtree(data, ignore_errors=True)
    print(f"N={models}: built in {run.total_wall:.1f} s", file=sys.stderr)
    return run


def stage_table(runs: Sequence[BuildRun]) -> str:
    """Wall seconds by stage, totals, CPU, peak RSS, output size."""
    rows = []
    for run in runs:
        walls = [run.stages[s]["wall"] for s in (*STAGES, "other")]
        rows.append(
            [run.models, run.published, *walls, run.total_wall, run.total_cpu,
             run.peak_rss_mib, run.files, human_bytes(run.bytes)]
        )  # fmt: skip
    return table(
        ["models", "published", *STAGES, "other", "total s", "CPU s", "peak RSS MiB",
         "files", "bytes"],
        rows,
    )  # fmt: skip


def floor_table(runs: Sequence[BuildRun]) -> str:
    """Build against the floor."""
    rows = [
        [run.models, run.total_wall, run.floor["encode"], run.floor["write"], run.floor["wall"],
         " / ".join(f"{f['wall']:.2f}" for f in run.floors),
         f"{run.total_wall / run.floor['wall']:.1f}x"]
        for run in runs
    ]  # fmt: skip
    return table(["models", "build s", "floor encode s", "floor write s", "floor s (fastest)",
                  "each floor s", "build/floor"], rows)  # fmt: skip


def scaling_table(runs: Sequence[BuildRun], low: int = 1000, high: int = 10000) -> str:
    """Time ratio from `low` to `high` models per stage; exponent 1.0 = linear."""
    by_n = {r.models: r for r in runs}
    if low not in by_n or high not in by_n:
        return ""
    a, b = by_n[low], by_n[high]
    rows = []
    for stage in (*STAGES, "total"):
        t_a = a.total_wall if stage == "total" else a.stages[stage]["wall"]
        t_b = b.total_wall if stage == "total" else b.stages[stage]["wall"]
        ratio = t_b / t_a if t_a > 0 else math.nan
        exponent = math.log(ratio) / math.log(high / low) if ratio > 0 else math.nan
        rows.append([stage, t_a, t_b, f"{ratio:.1f}x", f"{exponent:.2f}"])
    return table(["stage", f"{low:,} s", f"{high:,} s", "ratio", "exponent"], rows)


def rebuild_table(runs: Sequence[BuildRun]) -> str:
    """No-op rebuild and one-model change: time, files and bytes actually written."""
    rows = []
    for run in runs:
        rows.append([run.models, "its cold build", run.rebuilt_from, "", "", "", ""])
        changes = (
            ("no-op", run.noop),
            ("one model", run.one_change),
            ("next model", run.next_change),
        )
        for label, r in changes:
            rows.append(
                [run.models, label, r["wall"], int(r["files_rewritten"]),
                 human_bytes(r["bytes_rewritten"]), human_bytes(r["process_bytes_written"]),
                 _stages(r)]
            )  # fmt: skip
    return table(
        ["models", "rebuild", "wall s", "files rewritten", "their bytes", "bytes written",
         "by stage (s)"],
        rows,
    )  # fmt: skip


def _stages(rebuilt: Mapping[str, float]) -> str:
    """The build's own stage times of a rebuild, as `stage s` pairs."""
    found = [(k.removeprefix("stage "), v) for k, v in rebuilt.items() if k.startswith("stage ")]
    return ", ".join(f"{name} {seconds:.2f}" for name, seconds in found)


def target_table(runs: Sequence[BuildRun]) -> str:
    """The issue's targets, as ratios measured in the same run (parallel, cached builds)."""
    rows = []
    for run in runs:
        full, base = run.total_wall, run.rebuilt_from or run.total_wall
        rows.append(
            [run.models, run.workers, f"{full / run.floor['wall']:.1f}x",
             f"{run.one_process['wall'] / run.floor['wall']:.1f}x",
             f"{run.one_process['wall'] / full:.2f}x",
             f"{run.noop['wall'] / base:.3f}x", f"{run.one_change['wall'] / base:.2f}x",
             f"{run.next_change['wall'] / base:.2f}x", run.peak_rss_mib, run.worker_peak_rss_mib,
             " -> ".join(f"{load:.1f}" for load in run.load_average)]
        )  # fmt: skip
    return table(
        ["models", "workers", "full/floor", "one process/floor", "speed-up", "no-op/full",
         "one model/full", "next model/full", "peak RSS MiB", "worker peak RSS MiB",
         "load average"],
        rows,
    )  # fmt: skip


def startup(data: Path, work: Path, repeat: int = 5) -> dict[str, float]:
    """Fastest of `repeat` runs: `modelscores --help`, and a no-op build of `data`."""
    cli = [sys.executable, "-m", "generator"]
    out = work / "startup" / "site_out"
    build = [*cli, "build", "--data-dir", str(data), "--out-dir", str(out)]
    subprocess.run(build, check=True, capture_output=True)  # the build the no-ops follow

    def fastest(command: list[str]) -> float:
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times.append(time.perf_counter() - started)
        return min(times)

    figures = {"help": fastest([*cli, "--help"]), "noop": fastest(build)}
    shutil.rmtree(out.parent, ignore_errors=True)
    return figures


def startup_table(figures: Mapping[str, float]) -> str:
    """The CLI's start-up against a no-op build of the shipped data."""
    ratio = figures["noop"] / figures["help"]
    return table(
        ["modelscores --help s", "no-op build s", "no-op/start-up"],
        [[figures["help"], figures["noop"], f"{ratio:.1f}x"]],
    )


def size_table(runs: Sequence[BuildRun]) -> str:
    """The single-response list endpoints, raw and compressed."""
    keys = sorted({k for r in runs for k in r.api_bytes})
    rows = [
        [r.models, *(human_bytes(r.api_bytes[k]) if k in r.api_bytes else "–" for k in keys)]
        for r in runs
    ]
    return table(["models", *keys], rows)


def report(runs: Sequence[BuildRun], start: Mapping[str, float] | None = None) -> str:
    """All tables, Markdown."""
    sections = [
        ("Targets (same run)", target_table(runs)),
        ("Start-up at the shipped data", startup_table(start) if start else ""),
        ("Build by stage (wall seconds)", stage_table(runs)),
        ("Build against the floor", floor_table(runs)),
        ("Scaling from 1,000 to 10,000 models", scaling_table(runs)),
        ("Rebuilds", rebuild_table(runs)),
        ("List endpoint sizes", size_table(runs)),
    ]
    return "\n\n".join(f"### {title}\n\n{body}" for title, body in sections if body) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: see --help."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="1000,10000,20000", help="comma-separated model counts")
    parser.add_argument("--benchmarks", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, help="scratch directory (default: a temp dir)")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    parser.add_argument("--jobs", type=int, help="page workers (default: every usable CPU)")
    parser.add_argument(
        "--shipped", type=Path, default=Path("data"), help="data for the start-up figures"
    )
    parser.add_argument(
        "--startup-runs", type=int, default=5, help="processes per start-up figure (the fastest)"
    )
    parser.add_argument(
        "--floor-runs", type=int, default=3, help="floors per N (the ratios use the fastest)"
    )
    parser.add_argument("--child", choices=("floors", "rebuilds"), help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--models", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.floor_runs < 1:
        parser.error("--floor-runs must be at least 1")
    if args.child:
        run = run_child(args.data, args.work, args.models, args.floor_runs, args.child)
        print(json.dumps(asdict(run)))
        return
    if args.jobs:
        os.environ["MODELSCORES_JOBS"] = str(args.jobs)  # the children inherit it
    sizes = [int(s) for s in args.sizes.split(",") if s]
    with tempfile.TemporaryDirectory(prefix="bench-build-", dir=args.work) as tmp:
        runs = [
            measure_size(n, args.benchmarks, args.seed, Path(tmp), args.floor_runs) for n in sizes
        ]
        start = (
            startup(args.shipped, Path(tmp), args.startup_runs) if args.shipped.is_dir() else None
        )
    print(report(runs, start))
    if args.json:
        raw = {"runs": [asdict(r) for r in runs], "startup": start}
        args.json.write_text(json.dumps(raw, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
