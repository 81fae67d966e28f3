"""`BuildMemo`: everything one build keeps beside the site, as the pipeline asks for it.

`generator/build.py` runs the pure stages; for each one it can skip, it asks the memo:
whether the site is already current (the manifest), the record store the loader reuses,
the store of the price-independent scores, the history's documents, and the writing of
the API files, their derived files and the pages, each kept when its key made the live
file. Every entry is keyed by the digest of its inputs and of the code, and checked
against the digest of its bytes when reused: a damaged or foreign cache costs time, never
correctness. `save` records the build once its site is swapped in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from generator.api.urls import SiteConfig, api_file
from generator.cache.history import history_stage
from generator.cache.manifest import save_manifest, site_state
from generator.cache.outputs import (
    Documents,
    FileCheck,
    output_cache,
    write_api,
    write_derived,
    write_pages,
)
from generator.cache.records import RecordCache
from generator.cache.report import BuildReport, unchanged_report
from generator.cache.scores import KeptScores
from generator.input.records import Dataset
from generator.output.writer import SiteWriter, Trees


class BuildMemo:
    """The caches of a build of `data_dir` into `out_dir` with `config`, `workers` forked
    processes making the outputs."""

    def __init__(self, data_dir: Path, out_dir: Path, config: SiteConfig, workers: int) -> None:
        self.out_dir = out_dir
        self.config = config
        self.workers = workers
        self.state = site_state(data_dir, out_dir, config)
        self.outputs = output_cache(self.state.manifest, out_dir)
        self._keys: dict[str, bytes] = {}  # API file -> its key, when not its own bytes

    @property
    def current(self) -> bool:
        """Whether the live site already is what this build would write."""
        return self.state.current

    @property
    def trees(self) -> Trees:
        """The writer's record of the live site and its spare, as the last build left them."""
        return self.state.manifest.trees

    def unchanged(self, seconds: dict[str, float]) -> BuildReport:
        """The report of a build the manifest answered: nothing to do."""
        return unchanged_report(self.state.manifest, self.out_dir, seconds)

    def published(self) -> dict[str, bytes]:
        """Each file's digest as this very code last checked and published it (a manifest
        from other code has no `code`: `load_manifest` keeps only its trees)."""
        live = self.trees.live if self.state.manifest.code else {}
        return {path: state.digest for path, state in live.items()}

    def load(self, load: Callable[[Path, RecordCache], Dataset], data_dir: Path) -> Dataset:
        """`load(data_dir, store)` with the store of parsed records beside the site, saved
        once the load is done and then let go (its table is tens of MB at 10,000 models)."""
        store = RecordCache(self.out_dir)
        dataset = load(data_dir, store)
        store.save()
        return dataset

    def scores(self) -> KeptScores:
        """The store of today's price-independent scores."""
        return KeptScores(self.out_dir)

    def history(self, dataset: Dataset, site: SiteWriter) -> Documents:
        """The history's documents (`cache.history.history_stage`); their API files are
        then kept by the key they were made from."""
        past, key = history_stage(dataset, self.config, site, self.outputs, self.workers)
        self._keys = {api_file(path): key for path in past}
        return past

    def write_api(
        self,
        site: SiteWriter,
        check: FileCheck,
        documents: Documents,
        openapi: Mapping[str, Any],
    ) -> dict[str, bytes]:
        """Every API file into `site`, checked (`outputs.write_api`); their digests."""
        api = write_api(
            site, check, documents, self.config, self.workers, self.outputs, self._keys, openapi
        )
        self._keys = {}
        return api

    def write_derived(
        self, site: SiteWriter, documents: Documents, api: Mapping[str, bytes]
    ) -> None:
        """The CSV downloads, the feed and llms.txt into `site` (`outputs.write_derived`)."""
        write_derived(site, documents, api, self.config, self.outputs, self.workers)

    def write_pages(
        self, site: SiteWriter, documents: Documents, openapi: Mapping[str, Any]
    ) -> None:
        """Every page, static file and preview into `site` (`outputs.write_pages`)."""
        write_pages(site, documents, openapi, self.config, self.outputs, self.workers)

    def save(self, documents: int, trees: Trees) -> None:
        """Record this build (run by the writer once the site is swapped in, under its lock)."""
        outputs = self.outputs.outputs
        save_manifest(self.out_dir, self.state.inputs, documents, outputs, trees)
