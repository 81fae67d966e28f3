"""What scoring and the history replay cost, in CPU seconds, for two commits side by side.

`python -m bench.history --before REV` synthesises data for each N (default 1,000 and
10,000 models) and, for each of two commits (`--before`, `--after`, default HEAD), exports
the `generator` package of that commit (`git archive`) and runs, in a fresh child process
with the cyclic garbage collector off (as `build_site` runs):

- `compute_scores` `--repeat` times (**score**: the fastest run's CPU), with the part of it
  spent in `rank_bands` (**rank bands**: the composite's and the seven dimensions' bands) and
  the rest; then its wall time, best of two, in one process and with the band passes in
  `--jobs` forked workers (where the commit's `compute_scores` takes a `run`);
- `replay`, every month end from scratch (**history**), in this process; its wall time, the
  child's peak RSS just after it (**history peak RSS**: the snapshots it holds and what
  scoring a month takes besides), and the wall time of the same replay with the months
  scored by `--jobs` forked workers
  (`generator/output/pool.py`, as a cold build runs it; **history wall, 1 process** and
  **N workers**; the scores checked equal);
- where the commit keeps snapshots between builds (`generator.cache.snapshots`, before
  it `generator.output.snapshots`), the same replay again with the snapshots of the first
  one on disk (**history, cached**: what a rebuild whose results did not change pays, a
  price edit say).

`--score-only` leaves out every replay (a few minutes less at 10,000 models).

CPU seconds of the child (`getrusage`), so other processes on a shared machine inflate
them less than wall time; the load average is printed at the start and the end. Prints
a Markdown table and the growth exponents from the smallest to the largest N. `--data DIR`
measures that data directory instead (the shipped `data/`, say: one row, "models" 0).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.measure import table
from bench.synth import SynthSpec, write_dataset

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import gc, json, resource, sys, tempfile, time
from pathlib import Path
from generator.input.load import load_dataset
from generator.scoring import compute_scores
from generator.scoring.history import replay

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

from generator.scoring import uncertainty

bands = [0.0]
rank_bands = uncertainty.rank_bands

def timed_bands(*args):
    start = cpu(); result = rank_bands(*args); bands[0] += cpu() - start
    return result

dataset = load_dataset(Path(sys.argv[1]))
gc.disable()
uncertainty.rank_bands = timed_bands
runs = []
for _ in range(int(sys.argv[4])):
    bands[0] = 0.0
    start = cpu(); compute_scores(dataset); runs.append((cpu() - start, bands[0]))
score, bands[0] = min(runs)
uncertainty.rank_bands = rank_bands
replays = sys.argv[3] == "1"
snapshots, history, history_wall, history_rss = [], None, None, None
if replays:
    wall = time.perf_counter(); start = cpu()
    snapshots = replay(dataset)
    history, history_wall = cpu() - start, time.perf_counter() - wall
    history_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
try:
    from generator.output.pool import map_ordered
except ImportError:
    map_ordered = None
pooled_wall = score_wall = score_pooled_wall = None
if map_ordered is not None:
    jobs = int(sys.argv[2])
    pool = lambda task, count: map_ordered(task, count, jobs, minimum=2)
    walls = {"one": [], "pooled": []}
    for _ in range(2):
        for name, kwargs in (("one", {}), ("pooled", {"run": pool})):
            wall = time.perf_counter()
            try:
                compute_scores(dataset, **kwargs)
            except TypeError:  # a commit whose compute_scores takes no `run`
                continue
            walls[name].append(time.perf_counter() - wall)
    score_wall = min(walls["one"])
    score_pooled_wall = min(walls["pooled"], default=None)
if map_ordered is not None and replays:
    wall = time.perf_counter()
    pooled = replay(dataset, run=lambda task, count: map_ordered(task, count, jobs, minimum=2))
    pooled_wall = time.perf_counter() - wall
    assert [s.scores for s in pooled] == [s.scores for s in snapshots]
cached = None
try:
    from generator.cache.snapshots import SnapshotCache
except ImportError:  # a commit from before the cache layer
    try:
        from generator.output.snapshots import SnapshotCache
    except ImportError:
        SnapshotCache = None
if SnapshotCache is not None and replays:
    site = Path(tempfile.mkdtemp()) / "site_out"
    store = SnapshotCache(site)
    replay(dataset, store=store, code=store.code)
    store.save()
    store = SnapshotCache(site)
    start = cpu(); replay(dataset, store=store, code=store.code); cached = cpu() - start
    assert store.misses == 0, store.misses
print(json.dumps({"score": score, "bands": bands[0], "history": history, "cached": cached,
                  "history_wall": history_wall, "history_rss": history_rss,
                  "pooled_wall": pooled_wall,
                  "score_wall": score_wall, "score_pooled_wall": score_pooled_wall,
                  "snapshots": len(snapshots)}))
"""


def export(rev: str, into: Path) -> Path:
    """The `generator` package of `rev`, exported into `into` (nothing uncommitted)."""
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "generator"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def measure(
    code: Path, data: Path, jobs: int = 2, replays: bool = True, repeat: int = 3
) -> dict[str, float | None]:
    """One child process: the CHILD script against `code`'s generator package."""
    env = {**os.environ, "PYTHONPATH": str(code), "PYTHONHASHSEED": "0"}
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(data), str(jobs), "1" if replays else "0", str(repeat)],
        capture_output=True,
        text=True,
        check=True,
        cwd=code,
        env=env,
    )
    figures: dict[str, float | None] = json.loads(result.stdout.splitlines()[-1])
    return figures


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _mib(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _exponent(low: float, high: float, n_low: int, n_high: int) -> str:
    if low <= 0 or high <= 0:
        return "-"
    return f"{math.log(high / low) / math.log(n_high / n_low):.2f}"


def report(
    runs: dict[int, dict[str, dict[str, float | None]]], before: str, after: str, jobs: int = 2
) -> str:
    """The side-by-side tables, then the exponents from the smallest to the largest N."""
    for by_rev in runs.values():
        for figures in by_rev.values():
            figures["rest"] = (figures["score"] or 0) - (figures["bands"] or 0)
    rows = []
    for models, by_rev in sorted(runs.items()):
        old, new = by_rev["before"], by_rev["after"]
        rows.append(
            [
                f"{models:,}",
                f"{new['snapshots']:.0f}",
                _seconds(old["score"]),
                _seconds(new["score"]),
                _seconds(old["bands"]),
                _seconds(new["bands"]),
                _seconds(old["history"]),
                _seconds(new["history"]),
                _seconds(new["cached"]),
                _mib(old.get("history_rss")),
                _mib(new.get("history_rss")),
                f"{(old['history'] or 0) / (old['score'] or 1):.1f}x",
                f"{(new['history'] or 0) / (new['score'] or 1):.1f}x",
            ]
        )
    header = [
        "models",
        "snapshots",
        f"score s ({before})",
        f"score s ({after})",
        f"of it rank bands s ({before})",
        f"of it rank bands s ({after})",
        f"history s ({before})",
        f"history s ({after})",
        f"history cached s ({after})",
        f"history peak RSS MiB ({before})",
        f"history peak RSS MiB ({after})",
        "history/score before",
        "history/score after",
    ]
    lines = [table(header, rows), _walls(runs, before, after, jobs)]
    sizes = sorted(runs)
    if len(sizes) > 1:
        low, high = sizes[0], sizes[-1]
        rows = []
        for name in ("score", "bands", "rest", "history"):
            for side, rev in (("before", before), ("after", after)):
                a, b = runs[low][side][name], runs[high][side][name]
                if a is None or b is None:  # --score-only: no replay
                    continue
                rows.append([f"{name} ({rev})", f"{b / a:.1f}x", _exponent(a, b, low, high)])
        lines.append(table([f"{low:,} -> {high:,} models", "growth", "exponent"], rows))
    return "\n\n".join(lines)


def _walls(
    runs: dict[int, dict[str, dict[str, float | None]]], before: str, after: str, jobs: int
) -> str:
    """Scoring's and the cold replay's wall time in one process and in `jobs` workers."""
    rows = []
    for models, by_rev in sorted(runs.items()):
        for stage, one_key, pooled_key in (
            ("score", "score_wall", "score_pooled_wall"),
            ("history", "history_wall", "pooled_wall"),
        ):
            row = [f"{models:,}", stage]
            for side in ("before", "after"):
                one, pooled = by_rev[side].get(one_key), by_rev[side].get(pooled_key)
                speed_up = f"{one / pooled:.2f}x" if one and pooled else "-"
                row += [_seconds(one), _seconds(pooled), speed_up]
            rows.append(row)
    header = ["models", "wall s"]
    for rev in (before, after):
        header += [f"1 process ({rev})", f"{jobs} workers ({rev})", "speed-up"]
    return table(header, rows)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="commit measured as 'before'")
    parser.add_argument("--after", default="HEAD", help="commit measured as 'after'")
    parser.add_argument("--sizes", default="1000,10000", help="comma-separated model counts")
    parser.add_argument("--benchmarks", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="workers for the pooled replay")
    parser.add_argument("--score-only", action="store_true", help="no replay: scoring alone")
    parser.add_argument("--repeat", type=int, default=3, help="scorings timed (the fastest)")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    parser.add_argument("--data", type=Path, help="measure this data/ instead (one row)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"load average at start: {os.getloadavg()}", flush=True)
    runs: dict[int, dict[str, dict[str, float | None]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        code = {side: export(getattr(args, side), work / side) for side in ("before", "after")}
        for models in sizes if args.data is None else [0]:
            data = args.data.resolve() if args.data is not None else work / f"data-{models}"
            if args.data is None:
                spec = SynthSpec(models=models, benchmarks=args.benchmarks, seed=args.seed)
                write_dataset(spec, data)
            runs[models] = {
                side: measure(code[side], data, args.jobs, not args.score_only, args.repeat)
                for side in ("before", "after")
            }
            print(f"{models:,} models: {runs[models]}", file=sys.stderr, flush=True)
    print(f"load average at end: {os.getloadavg()}\n")
    print(report(runs, args.before, args.after, args.jobs))
    if args.json:
        args.json.write_text(json.dumps(runs, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
