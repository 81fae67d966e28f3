"""The files made from the encoded API documents: CSV downloads and their data package,
the Atom feed, llms.txt, the README badges.

Each comes with the bytes it is made from (`inputs`: its API files, the site settings),
so that a build can keep the last build's file when those did not change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

import msgspec

from generator.api.contract import (
    CHANGES,
    METHODOLOGY,
    MODELS,
    Methodology,
    ModelList,
)
from generator.api.files import (
    DATAPACKAGE_FILE,
    FEED_FILE,
    LLMS_FILE,
    badge_file,
)
from generator.api.urls import SiteConfig, api_file
from generator.documents.badges import badge
from generator.documents.datapackage import render_datapackage
from generator.documents.downloads import document_as, download_jobs
from generator.documents.feed import render_feed
from generator.documents.llmstxt import render_llms_txt


@dataclass(frozen=True)
class Derived:
    """One file to make: its site path, the bytes it is made from, and how."""

    path: str
    inputs: tuple[bytes, ...]
    make: Callable[[], bytes]
    parts: tuple[str, ...] = ()  # files whose bytes `join` makes it from, once they are made
    join: Callable[[Sequence[bytes]], bytes] | None = None


def derived_files(
    documents: Mapping[str, msgspec.Struct], api: Mapping[str, bytes], config: SiteConfig
) -> list[Derived]:
    """Every CSV download, their data package, the feed, llms.txt and the model badges, not
    yet made."""
    settings = msgspec.msgpack.encode(config)
    jobs = download_jobs(documents)
    files = [
        Derived(
            job.path,
            tuple(api[api_file(path)] for path in job.sources),
            job.make,
            job.parts,
            job.join,
        )
        for job in jobs
    ]
    # What the package says: each file's path and columns, the methodology's version and
    # sources (not the rows: a changed price leaves it as it is).
    methodology = document_as(documents, METHODOLOGY.path, Methodology)
    described = [(job.path, job.columns) for job in jobs]
    said = msgspec.msgpack.encode((described, methodology.version, methodology.sources))
    package_inputs = (settings, said)
    package = partial(render_datapackage, documents, jobs, config)
    files.append(Derived(DATAPACKAGE_FILE, package_inputs, package))
    models = api[api_file(MODELS.path)]
    for model in document_as(documents, MODELS.path, ModelList).models:
        files.append(Derived(badge_file(model.id), (models,), partial(badge, model)))
    changes = api[api_file(CHANGES.path)]
    files.append(Derived(FEED_FILE, (settings, changes), partial(render_feed, documents, config)))
    files.append(Derived(LLMS_FILE, (settings,), partial(render_llms_txt, config)))
    return files
