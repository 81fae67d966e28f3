"""The score stage of a rebuild with and without the kept scores, side by side.

    python -m bench.score_reuse --models 3000 --rounds 2

Writes N synthetic models once; then, per round, `before` (today's scores computed in
full, as `compute_scores` did before they were kept) and `after` (the build as it is),
each in its own process: a cold build, then two one-model price changes
(`bench.build.change_one_model`). Prints each rebuild's score stage, wall and CPU
seconds (the process and its workers), and the 1-minute load average.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _child(mode: str, data: Path, work: Path) -> dict[str, float]:
    from bench.build import _config, change_one_model
    from generator import build
    from generator.scoring import compute_scores

    if mode == "before":
        build.reuse_scores = lambda dataset, store: compute_scores(dataset)  # type: ignore[assignment]
    edited, site = work / "data", work / "site"
    shutil.copytree(data, edited)
    figures: dict[str, float] = {}

    def timed(name: str) -> None:
        wall, cpu = time.perf_counter(), _cpu()
        report = build.build_site(edited, site, _config())
        figures[f"{name} wall"] = time.perf_counter() - wall
        figures[f"{name} cpu"] = _cpu() - cpu
        figures[f"{name} score"] = report.seconds["score"]

    timed("cold")
    change_one_model(edited)
    timed("one")
    change_one_model(edited, start=0.75)
    timed("next")
    return figures


def _cpu() -> float:
    own, children = os.times(), os.times()
    return own.user + own.system + children.children_user + children.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", nargs=3, metavar=("MODE", "DATA", "WORK"))
    args = parser.parse_args()
    if args.child:
        mode, data, work = args.child
        print(json.dumps(_child(mode, Path(data), Path(work))))
        return
    from bench.synth import SynthSpec, write_dataset

    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        write_dataset(SynthSpec(models=args.models, benchmarks=40, seed=1), root / "data")
        for round_ in range(args.rounds):
            for mode in ("before", "after"):
                work = root / f"{mode}-{round_}"
                load = os.getloadavg()[0]
                command = [sys.executable, "-m", "bench.score_reuse", "--child", mode]
                output = subprocess.run(
                    [*command, str(root / "data"), str(work)],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                shutil.rmtree(work)
                row = json.loads(output)
                cells = " ".join(f"{k} {v:.2f}" for k, v in row.items())
                after = os.getloadavg()[0]
                print(f"{mode} round {round_} (load {load:.2f} -> {after:.2f}): {cells}")


if __name__ == "__main__":
    main()
