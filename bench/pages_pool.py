"""The page pool A/B: the pages stage alone, one process against the worker pool.

`python -m bench.pages_pool` synthesises N models (default 2,000), builds the documents
once, then renders every page with `workers=1` and with `--jobs` workers (default: every
usable CPU) alternately, `--rounds` times each, no build cache (every page rendered), and
checks both give the same bytes. Prints the wall seconds of each run and the 1-minute load
average before and after: the pool only pays when a core is free.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: see --help."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--models", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, help="pool workers (default: every usable CPU)")
    args = parser.parse_args(argv)

    from bench.synth import SynthSpec, write_dataset
    from generator.api.openapi import build_openapi
    from generator.api.urls import SiteConfig
    from generator.documents.assemble import build_documents
    from generator.input.load import load_dataset
    from generator.output.pool import default_workers, map_ordered
    from generator.pages.render import render_pages
    from generator.scoring import compute_scores
    from generator.scoring.history import replay

    jobs = args.jobs or default_workers()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        write_dataset(SynthSpec(models=args.models, seed=1), data)
        dataset = load_dataset(data)
        config = SiteConfig()
        documents = build_documents(dataset, compute_scores(dataset), config, replay(dataset))
    openapi = build_openapi(documents, config)
    gc.disable()
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    results: dict[int, list[float]] = {1: [], jobs: []}
    outputs: dict[int, dict[str, bytes]] = {}
    for _ in range(args.rounds):
        for workers in (1, jobs):
            started = time.perf_counter()
            run = functools.partial(map_ordered, workers=workers)
            outputs[workers] = render_pages(documents, config, openapi, run=run)
            results[workers].append(time.perf_counter() - started)
    assert outputs[1] == outputs[jobs], "the pool changed the bytes"
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    pages = len(outputs[1])
    for workers, seconds in results.items():
        shown = ", ".join(f"{s:.2f}" for s in seconds)
        print(f"{workers} worker(s), {pages} pages: {shown} s (best {min(seconds):.2f})")
    print(f"speed-up (best against best): {min(results[1]) / min(results[jobs]):.2f}x")


if __name__ == "__main__":
    main()
