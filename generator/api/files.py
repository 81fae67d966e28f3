"""The published files besides the JSON documents: the CSV downloads and their data
package, the feed, llms.txt.

Their site paths, media types and the table of download kinds (`DOWNLOADS`), which the
builders (`generator/documents/downloads.py`, `feed.py`, `llmstxt.py`), OpenAPI, the hosting
rules and the pages all read. CSV downloads live in `downloads/` at the site root, outside
the API tree, so that their `Content-Type` rule (`text/csv`) never meets the API's JSON one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from generator.api.contract import (
    DOMAIN,
    HISTORY,
    HISTORY_SNAPSHOT,
    MODEL_HISTORY,
    MODELS,
    RANKING,
    DocumentKind,
)

DOWNLOADS_DIR = "downloads"
CSV_TYPE = "text/csv; charset=utf-8; header=present"
FEED_FILE = "feed.atom"
FEED_TYPE = "application/atom+xml; charset=utf-8"
LLMS_FILE = "llms.txt"
LLMS_TYPE = "text/plain; charset=utf-8"  # Markdown, served as plain text


@dataclass(frozen=True, kw_only=True)
class DownloadKind:
    """One kind of CSV download: its file and the JSON document kind it mirrors.

    The files, their OpenAPI paths, llms.txt and the page links all read `DOWNLOADS`.
    A `{param}` in `name` is the mirrored kind's: one file per published value.
    """

    name: str  # under `downloads/`, without `.csv`
    mirrors: DocumentKind[Any]
    summary: str

    @property
    def pattern(self) -> str:
        """Its site path pattern (`downloads/rankings/{id}.csv`)."""
        return f"{DOWNLOADS_DIR}/{self.name}.csv"

    def site_path(self, value: str | None = None) -> str:
        """The site path of one file (`value` fills the `{param}`)."""
        param = self.mirrors.param
        if param is None:
            return self.pattern
        if value is None:
            raise ValueError(f"{self.pattern}: no value for {{{param}}}")
        return self.pattern.replace("{" + param + "}", value)


MODELS_CSV = DownloadKind(
    name="models",
    mirrors=MODELS,
    summary="The model list as CSV: one row per model",
)
MODEL_HISTORY_CSV = DownloadKind(
    name="model-history/{id}",
    mirrors=MODEL_HISTORY,
    summary="One model's replayed history as CSV: one row per month end since its release",
)
RANKING_CSV = DownloadKind(
    name="rankings/{id}",
    mirrors=RANKING,
    summary="One ranking as CSV: one row per ranked model, in rank order",
)
DOMAIN_CSV = DownloadKind(
    name="domains/{slug}",
    mirrors=DOMAIN,
    summary="One domain's composite leaderboard as CSV: one row per model",
)
HISTORY_CSV = DownloadKind(
    name="history",
    mirrors=HISTORY,
    summary="Every snapshot's leaderboard in one CSV: one row per month end and model",
)
SNAPSHOT_CSV = DownloadKind(
    name="history/{date}",
    mirrors=HISTORY_SNAPSHOT,
    summary="One snapshot's composite leaderboard as CSV",
)
DOWNLOADS: tuple[DownloadKind, ...] = (
    MODELS_CSV,
    MODEL_HISTORY_CSV,
    RANKING_CSV,
    DOMAIN_CSV,
    HISTORY_CSV,
    SNAPSHOT_CSV,
)
"""Every kind of CSV download, in OpenAPI order."""
DATAPACKAGE_FILE = f"{DOWNLOADS_DIR}/datapackage.json"
"""The Frictionless Data Package describing every CSV above (`documents/datapackage.py`)."""
NOT_FOUND_FILE = f"{DOWNLOADS_DIR}/_errors/not_found.csv"
"""The body of a 404 under `downloads/`: CSV, as that folder's `Content-Type` says."""
NOT_FOUND_COLUMNS = ("error", "code")
NOT_FOUND_ROW = ("No such download.", "not_found")


BADGES_DIR = "badges"
BADGE_TYPE = "application/json; charset=utf-8"
SHIELDS_ENDPOINT = "https://img.shields.io/endpoint?url="


def badge_file(model_id: str) -> str:
    """A model's shields.io endpoint badge (`badges/<id>.json`), outside the API tree: its
    body is shields' own format, which allows no other key."""
    return f"{BADGES_DIR}/{model_id}.json"


def badge_markdown(model_id: str, page_url: str, base: str) -> str:
    """The README snippet that shows a model's badge, linked to its page (`base`: the site's
    base URL)."""
    badge_url = quote(f"{base}/{badge_file(model_id)}", safe="")
    return f"[![modelscores]({SHIELDS_ENDPOINT}{badge_url})]({page_url})"


def ranking_download(ranking_id: str) -> str:
    return RANKING_CSV.site_path(ranking_id)


def domain_download(slug: str) -> str:
    return DOMAIN_CSV.site_path(slug)


def history_download() -> str:
    return HISTORY_CSV.site_path()


def snapshot_download(date: str) -> str:
    """One history snapshot's leaderboard (`downloads/history/<date>.csv`)."""
    return SNAPSHOT_CSV.site_path(date)


def models_download() -> str:
    return MODELS_CSV.site_path()


def model_history_download(model_id: str) -> str:
    """One model's history (`downloads/model-history/<id>.csv`)."""
    return MODEL_HISTORY_CSV.site_path(model_id)
