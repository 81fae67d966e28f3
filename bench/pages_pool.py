"""The page pool A/B: the pages stage alone, one process against the worker pool.

`python -m bench.pages_pool` synthesises N models (default 2,000), builds the documents
once, then renders every page with `workers=1` and with `--jobs` workers (default: every
usable CPU) alternately, `--rounds` times each, no build cache (every page rendered), and
checks both give the same bytes. `--change` then times, in this process, the pages stage of
a cold build and of a one-model price change after it (keys kept in memory as the build's
output cache keeps them: unchanged pages and chart previews reused, the rest made), and
checks the second gives the digests a clean render gives. Prints the wall and CPU seconds of
each run (CPU: this process and its reaped workers, so comparable on a shared machine) and
the 1-minute load average before and after: the pool only pays when a core is free.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: see --help."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--models", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, help="pool workers (default: every usable CPU)")
    parser.add_argument("--change", action="store_true", help="also a one-model change, timed")
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
        if args.change:
            _change(data, documents, config)
    openapi = build_openapi(documents, config)
    gc.disable()
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    results: dict[int, list[float]] = {1: [], jobs: []}
    cpu: dict[int, list[float]] = {1: [], jobs: []}
    outputs: dict[int, dict[str, bytes]] = {}
    for _ in range(args.rounds):
        for workers in (1, jobs):
            started, used = time.perf_counter(), _cpu()
            run = functools.partial(map_ordered, workers=workers)
            outputs[workers] = render_pages(documents, config, openapi, run=run)
            results[workers].append(time.perf_counter() - started)
            cpu[workers].append(_cpu() - used)
    assert outputs[1] == outputs[jobs], "the pool changed the bytes"
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    pages = len(outputs[1])
    for workers, seconds in results.items():
        shown = ", ".join(f"{s:.2f}" for s in seconds)
        spent = ", ".join(f"{s:.2f}" for s in cpu[workers])
        print(
            f"{workers} worker(s), {pages} pages: {shown} s (best {min(seconds):.2f}); "
            f"CPU {spent} s (best {min(cpu[workers]):.2f})"
        )
    print(f"speed-up (best against best): {min(results[1]) / min(results[jobs]):.2f}x")


class _Kept:
    """The build's output cache in memory: each page's key and digest, by path, and the bytes
    of what `produce` made (the chart previews), which the build's cache reuses by key too."""

    def __init__(self, previous: _Kept | None = None) -> None:
        self.now: dict[str, tuple[bytes, bytes]] = {}
        self.made: dict[str, tuple[bytes, bytes]] = {}
        self.previous = previous.now if previous is not None else {}
        self._made_before = previous.made if previous is not None else {}
        self.rendered = 0

    def key(self, parts: Iterable[bytes]) -> bytes:
        from generator.digests import digest

        return digest(*parts)

    def kept(self, path: str, key: bytes) -> bytes | None:
        entry = self.previous.get(path)
        return entry[1] if entry is not None and entry[0] == key else None

    def lookup(self, path: str, key: bytes) -> bytes | None:
        return None

    def record(self, path: str, key: bytes, content: bytes) -> None:
        self.now[path] = (key, content)
        self.rendered += self.previous.get(path, (b"",))[0] != key

    def produce(self, path: str, key: bytes, make: Callable[[], bytes]) -> bytes:
        from generator.digests import content_digest

        entry = self._made_before.get(path)
        data = entry[1] if entry is not None and entry[0] == key else make()
        self.made[path] = (key, data)
        self.record(path, key, content_digest(data))
        return data


class _Digests:
    """A sink keeping each file's digest, as the site writer does."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def claim(self, path: str) -> None:
        return None

    def place(self, path: str, data: bytes, digest: bytes) -> bytes:
        return digest

    def place_kept(self, path: str, digest: bytes) -> bytes:
        return digest

    def note(self, path: str, placed: Any) -> None:
        self.files[path] = placed


def _change(data: Path, documents: Mapping[str, Any], config: Any) -> None:
    """CPU of the pages stage cold and after a one-model price change, in this process."""
    from bench.build import change_one_model
    from generator.api.openapi import build_openapi
    from generator.documents.assemble import build_documents
    from generator.input.load import load_dataset
    from generator.pages.render import emit_pages
    from generator.scoring import compute_scores
    from generator.scoring.history import replay

    gc.disable()
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    cold = _Kept()
    used = _cpu()
    emit_pages(documents, config, _Digests(), build_openapi(documents, config), outputs=cold)
    print(f"cold pages stage: {_cpu() - used:.2f} CPU s, {len(cold.now)} pages keyed")
    model = change_one_model(data)
    dataset = load_dataset(data)
    changed = build_documents(dataset, compute_scores(dataset), config, replay(dataset))
    gc.collect()
    openapi = build_openapi(changed, config)
    kept, sink = _Kept(cold), _Digests()
    used = _cpu()
    emit_pages(changed, config, sink, openapi, outputs=kept)
    print(
        f"one-model change ({model}) pages stage: {_cpu() - used:.2f} CPU s, "
        f"{kept.rendered} pages rendered"
    )
    clean = _Digests()
    emit_pages(changed, config, clean, openapi)
    assert sink.files == clean.files, "kept pages differ from a clean render"
    print(f"load average after: {os.getloadavg()[0]:.2f}", flush=True)
    gc.enable()


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the workers)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


if __name__ == "__main__":
    main()
