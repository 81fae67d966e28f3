"""What a build reports, and the quick answer when the build cache says nothing changed.

Light on imports on purpose: `modelscores build` asks `up_to_date_report` before it
imports the pipeline (Jinja2, scoring, the API), so a rebuild with nothing to do costs
little more than the command's start-up.
"""

from __future__ import annotations

import time
from pathlib import Path

import msgspec

from generator.cache.manifest import Manifest, site_state


class BuildReport(msgspec.Struct, frozen=True, kw_only=True):
    """What a build produced and how long each stage took."""

    out_dir: str
    files: int
    written: int  # files whose bytes changed (or are new)
    unchanged: int  # files kept byte-for-byte from the previous site
    swapped: bool  # False: the live site already was exactly this build
    documents: int
    seconds: dict[str, float]  # stage -> wall time

    def describe(self) -> str:
        """One line for the terminal."""
        total = sum(self.seconds.values())
        state = "" if self.swapped else "; site already up to date"
        return (
            f"Built {self.out_dir}: {self.files} files ({self.written} written, "
            f"{self.unchanged} unchanged){state} in {total:.2f} s"
        )


def unchanged_report(manifest: Manifest, out_dir: Path, seconds: dict[str, float]) -> BuildReport:
    """The report of a build the cache answered: the recorded site, nothing written."""
    count = len(manifest.trees.live)
    return BuildReport(
        out_dir=str(out_dir),
        files=count,
        written=0,
        unchanged=count,
        swapped=False,
        documents=manifest.documents,
        seconds=seconds,
    )


def up_to_date_report(data_dir: Path, out_dir: Path, config: msgspec.Struct) -> BuildReport | None:
    """The report of a no-op build if the site is current (`site_state`), else None."""
    started = time.perf_counter()
    state = site_state(data_dir, out_dir, config)
    if not state.current:
        return None
    seconds = {"cache": round(time.perf_counter() - started, 4)}
    return unchanged_report(state.manifest, out_dir, seconds)
