"""`downloads/datapackage.json`: a Frictionless (Tabular) Data Package describing every CSV
download: its path, title, columns and their types, and the upstream sources with their
licences and credits (as /methodology publishes them).

Made from the download jobs (`downloads.py`: each file's kind and columns) and the column
types declared there, so that a column is described where it is written. Resource paths
are relative to the descriptor, which sits in `downloads/` beside the files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from generator.api.contract import METHODOLOGY, Methodology
from generator.api.files import DATAPACKAGE_FILE, DOWNLOADS_DIR
from generator.api.urls import SiteConfig
from generator.documents.downloads import COLUMN_TYPES, Download, document_as
from generator.errors import BuildError

JsonObject = dict[str, Any]
PROFILE = "tabular-data-package"
RESOURCE_PROFILE = "tabular-data-resource"
NAME = "modelscores"
TITLE = "modelscores downloads"
DESCRIPTION = (
    "Every CSV download of the modelscores API: RFC 4180, UTF-8, CRLF line ends, a header "
    "row, the rows of the JSON document each mirrors, in its order; an empty field is a null."
)
MISSING_VALUES = [""]
TRUE_VALUES = ["true"]
FALSE_VALUES = ["false"]


def _field(column: str) -> JsonObject:
    kind = COLUMN_TYPES.get(column)
    if kind is None:
        raise BuildError(f"{DATAPACKAGE_FILE}: the CSV column {column!r} has no declared type")
    field: JsonObject = {"name": column, "type": kind}
    if kind == "boolean":
        field |= {"trueValues": TRUE_VALUES, "falseValues": FALSE_VALUES}
    return field


def _resource(job: Download) -> JsonObject:
    assert job.kind is not None
    relative = job.path.removeprefix(f"{DOWNLOADS_DIR}/")
    return {
        "name": relative.removesuffix(".csv"),
        "path": relative,
        "profile": RESOURCE_PROFILE,
        "title": job.kind.summary,
        "format": "csv",
        "mediatype": "text/csv",
        "encoding": "utf-8",
        "dialect": {"delimiter": ",", "lineTerminator": "\r\n", "header": True},
        "schema": {"fields": [_field(c) for c in job.columns], "missingValues": MISSING_VALUES},
    }


def _sources(methodology: Methodology) -> list[JsonObject]:
    return [
        {
            "title": source.name,
            "path": source.url,
            "licence": source.licence or "none stated",
            "credit": source.credit,
        }
        for source in methodology.sources
    ]


def render_datapackage(
    documents: Mapping[str, msgspec.Struct], jobs: Sequence[Download], config: SiteConfig
) -> bytes:
    """The descriptor's bytes: sorted keys, two-space indent, a final newline."""
    methodology = document_as(documents, METHODOLOGY.path, Methodology)
    descriptor: JsonObject = {
        "profile": PROFILE,
        "name": NAME,
        "title": TITLE,
        "description": DESCRIPTION,
        "homepage": config.base,
        "version": methodology.version,
        "sources": _sources(methodology),
        "resources": [_resource(job) for job in jobs if job.kind is not None],
    }
    return msgspec.json.format(msgspec.json.encode(descriptor, order="deterministic")) + b"\n"
