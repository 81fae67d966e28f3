"""The files made from the encoded API documents: CSV downloads, the Atom feed, llms.txt.

Each comes with the bytes it is made from (`inputs`: its API files, the site settings),
so that a build can keep the last build's file when those did not change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

import msgspec

from generator.api.contract import CHANGES
from generator.api.files import FEED_FILE, LLMS_FILE
from generator.api.urls import SiteConfig, api_file
from generator.documents.downloads import download_jobs
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
    """Every CSV download, the feed and llms.txt, not yet made."""
    settings = msgspec.msgpack.encode(config)
    files = [
        Derived(
            job.path,
            tuple(api[api_file(path)] for path in job.sources),
            job.make,
            job.parts,
            job.join,
        )
        for job in download_jobs(documents)
    ]
    changes = api[api_file(CHANGES.path)]
    files.append(Derived(FEED_FILE, (settings, changes), partial(render_feed, documents, config)))
    files.append(Derived(LLMS_FILE, (settings,), partial(render_llms_txt, config)))
    return files
