"""The nine tools as pure functions of one `SiteSnapshot` and the caller's arguments.

Each returns an `Answer`: the structured content (the published document's own JSON, or a
comparison built from the model documents) and a readable summary; the result's first text
block is the structured content serialized, the second the summary. Names the caller gives
are looked up in the snapshot's in-memory indexes only; they never become file paths.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from mcp.server.mcpserver.exceptions import ToolError

from generator.api import aliases
from generator.api.contract import DIMENSION_SLUGS, ModelSummary
from generator.api.mcp_tools import MCP_TOOLS, SortKey, ToolDeclaration
from mcp_server import text
from mcp_server.arguments import echo
from mcp_server.links import Link, links
from mcp_server.site import Document, SiteSnapshot
from mcp_server.sizing import is_sized, resize

SUGGESTIONS = 3


_JSON = msgspec.json.Encoder()


@dataclass(frozen=True)
class Answer:
    """One tool result: `data` is the structured content, `text` the readable form."""

    data: dict[str, Any]
    text: str
    links: tuple[Link, ...] = ()

    def texts(self) -> tuple[str, str]:
        """The result's text blocks: the serialized structured content (what the MCP spec
        asks of a tool with structured content, for clients that read only text), then
        the readable summary."""
        return _JSON.encode(self.data).decode(), self.text


# --- resolving names -------------------------------------------------------


def suggest(query: str, keys: Mapping[str, str]) -> list[str]:
    """The ids whose keys (ids, names) are closest to `query` (difflib), at most `SUGGESTIONS`."""
    folded = {key.casefold(): value for key, value in keys.items()}
    matches = difflib.get_close_matches(query.casefold(), folded, n=SUGGESTIONS * 2, cutoff=0.5)
    return list(dict.fromkeys(folded[match] for match in matches))[:SUGGESTIONS]


def _not_found(kind: str, query: str, suggestions: Sequence[str], lister: str) -> ToolError:
    hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
    return ToolError(f"Unknown {kind} {echo(query)}.{hint} Call {lister} for every valid id.")


def resolve_model(site: SiteSnapshot, query: str) -> str | None:
    """The id of the model named `query` (its id, an alias or its name, any case), or None."""
    return aliases.resolve(site.model_keys, query)


def _detail(
    details: Mapping[str, Document[Any]], kind: str, query: str, lister: str
) -> Document[Any]:
    """The document `GET /<kind>s/{query}` serves: exact id match, as on the static host."""
    document = details.get(query)
    if document is None:
        raise _not_found(kind, query, suggest(query, {key: key for key in details}), lister)
    return document


# --- models -----------------------------------------------------------------


def _nulls_last(value: Any, descending: bool) -> tuple[bool, Any]:
    if value is None:
        return (True, 0)
    return (False, -value if descending else value)


def _release_ordinal(model: ModelSummary) -> int | None:
    return model.release_date.toordinal() if isinstance(model.release_date, dt.date) else None


_SORTS: dict[SortKey, Callable[[ModelSummary], tuple[bool, Any]]] = {
    "rank": lambda m: _nulls_last(m.rank, descending=False),
    "iq": lambda m: _nulls_last(m.iq, descending=True),
    "name": lambda m: (False, m.name.casefold()),
    "cost": lambda m: _nulls_last(m.cost.effective_per_1m, descending=False),
    "release_date": lambda m: _nulls_last(_release_ordinal(m), descending=True),
    "context_window": lambda m: _nulls_last(m.context_window, descending=True),
    "speed": lambda m: _nulls_last(m.speed.response_time_sec, descending=False),
}


def list_models(
    site: SiteSnapshot,
    *,
    provider: str | None = None,
    open_source: bool | None = None,
    min_iq: int | None = None,
    sort: SortKey | None = None,
    limit: int | None = None,
) -> Answer:
    """`GET /models`, optionally filtered, sorted (ties by id) and cut to `limit` rows."""
    document = site.models
    rows = list(zip(document.struct.models, document.raw["models"], strict=True))
    if provider is not None:
        rows = [row for row in rows if row[0].provider.casefold() == provider.strip().casefold()]
    if open_source is not None:
        rows = [row for row in rows if row[0].open_source is open_source]
    if min_iq is not None:
        rows = [row for row in rows if row[0].iq is not None and row[0].iq >= min_iq]
    if sort is not None:
        rows.sort(key=lambda row: (_SORTS[sort](row[0]), row[0].id))
    if limit is not None:
        rows = rows[:limit]
    data = {**document.raw, "models": [raw for _, raw in rows]}
    total = len(document.struct.models)
    return Answer(data, text.model_list(data, total))


def get_model(site: SiteSnapshot, id: str, include_history: bool | None = None) -> Answer:
    """`GET /models/{id}` for a model named by id or name (any case); with
    `include_history`, plus `history`: the snapshots of `GET /models/{id}/history`."""
    model_id = resolve_model(site, id)
    if model_id is None:
        raise _not_found("model", id, suggest(id, site.model_keys), "list_models")
    data = site.model_details[model_id].raw
    if include_history:
        history = msgspec.json.decode(site.model_histories[model_id])["snapshots"]
        data = {**data, "history": history}
    return Answer(data, text.model_detail(data))


def _metrics(row: Mapping[str, Any]) -> dict[str, tuple[float | None, bool]]:
    """Each comparable metric of a `/models` row: (value, higher is better)."""
    metrics: dict[str, tuple[float | None, bool]] = {"iq": (row["iq"], True)}
    for slug in DIMENSION_SLUGS:
        metrics[slug] = (row["dimensions"].get(slug), True)
    metrics["emotionalReasoning"] = (row["emotionalReasoning"], True)
    metrics["effectivePer1M"] = (row["cost"]["effectivePer1M"], False)
    metrics["responseTimeSec"] = (row["speed"]["responseTimeSec"], False)
    metrics["costPerTaskUsd"] = (row["costPerTask"]["usd"], False)
    return metrics


def _best(rows: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    best: dict[str, list[str]] = {}
    for metric in _metrics(rows[0]) if rows else {}:
        scored = [(_metrics(row)[metric], row["id"]) for row in rows]
        values = [(value, higher) for (value, higher), _ in scored if value is not None]
        if not values:
            continue
        pick = max if values[0][1] else min
        top = pick(value for value, _ in values)
        best[metric] = [model_id for (value, _), model_id in scored if value == top]
    return best


def compare_models(site: SiteSnapshot, ids: Sequence[str]) -> Answer:
    """The named models' full details in the order asked (repeats once), the queries that
    matched no model, and our extras: the best model per metric, suggestions per miss.

    `compared` and `missing` are the shape agents written for the original API expect; when
    nothing matches, `compared` is simply empty (a normal answer, not an error).
    """
    found: list[str] = []
    missing: list[str] = []
    for query in ids:
        model_id = resolve_model(site, query)
        if model_id is None:
            missing.append(query)
        elif model_id not in found:
            found.append(model_id)
    by_id = {row["id"]: row for row in site.models.raw["models"]}
    data = {
        **site.envelope,
        "compared": [site.model_details[model_id].raw for model_id in found],
        "missing": missing,
        "best": _best([by_id[model_id] for model_id in found]),
        "suggestions": {query: suggest(query, site.model_keys) for query in missing},
        "distinguishability": distinguishability([by_id[model_id] for model_id in found]),
    }
    return Answer(data, text.comparison(data))


def distinguishability(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Pairs of compared models whose rank bands do and do not overlap (better rank first)."""
    banded = sorted(
        (row for row in rows if row.get("rankLow") is not None and row["rank"] is not None),
        key=lambda row: row["rank"],
    )
    clear: list[list[str]] = []
    unclear: list[list[str]] = []
    for index, upper in enumerate(banded):
        for lower in banded[index + 1 :]:
            overlap = lower["rankLow"] <= upper["rankHigh"]
            (unclear if overlap else clear).append([upper["id"], lower["id"]])
    ranked = {row["id"] for row in banded}
    return {
        "distinguishable": clear,
        "notDistinguishable": unclear,
        "unranked": [row["id"] for row in rows if row["id"] not in ranked],
    }


# --- rankings, benchmarks, domains, methodology ------------------------------


def list_rankings(site: SiteSnapshot) -> Answer:
    """`GET /rankings`: the ranking catalog."""
    data = site.rankings.raw
    return Answer(data, text.ranking_list(data))


def get_ranking(site: SiteSnapshot, id: str) -> Answer:
    """`GET /rankings/{id}`: one ranking with every ranked model."""
    data = _detail(site.ranking_details, "ranking", id, "list_rankings").raw
    return Answer(data, text.ranking_detail(data))


def list_benchmarks(site: SiteSnapshot) -> Answer:
    """`GET /benchmarks`: the benchmarks of the scored dimensions."""
    data = site.benchmarks.raw
    return Answer(data, text.benchmark_list(data))


def list_domains(site: SiteSnapshot) -> Answer:
    """`GET /domains`: every applied-capability domain."""
    data = site.domains.raw
    return Answer(data, text.domain_list(data))


def get_domain(site: SiteSnapshot, slug: str) -> Answer:
    """`GET /domains/{slug}`: a domain's leaderboard and benchmark results."""
    data = _detail(site.domain_details, "domain", slug, "list_domains").raw
    return Answer(data, text.domain_detail(data))


def get_methodology(site: SiteSnapshot) -> Answer:
    """`GET /methodology`: how every score is computed."""
    data = site.methodology.raw
    return Answer(data, text.methodology(data))


TOOL_FUNCTIONS: dict[str, Callable[..., Answer]] = {
    "list_models": list_models,
    "get_model": get_model,
    "list_rankings": list_rankings,
    "get_ranking": get_ranking,
    "list_benchmarks": list_benchmarks,
    "list_domains": list_domains,
    "get_domain": get_domain,
    "get_methodology": get_methodology,
    "compare_models": compare_models,
}
"""Each declared tool's function, by name: the one place that maps a tool to its caller."""
if list(TOOL_FUNCTIONS) != [tool.name for tool in MCP_TOOLS]:  # pragma: no cover
    raise RuntimeError("TOOL_FUNCTIONS and MCP_TOOLS name different tools")


def call(site: SiteSnapshot, declaration: ToolDeclaration, arguments: Mapping[str, Any]) -> Answer:
    """The answer to a call whose `arguments` passed `arguments.check_arguments`.

    Without size controls the tool's function answers as is; with any, it answers in full
    (the list unpaged) and `sizing.resize` cuts that to the page and members asked for.
    """
    function = TOOL_FUNCTIONS[declaration.name]
    if not is_sized(declaration, arguments):
        plain = {a.name: arguments.get(a.name) for a in declaration.arguments if not a.sizes}
        answer = function(site, **plain)
        return Answer(answer.data, answer.text, links(site, declaration.name, answer.data))
    controls = {a.name for a in declaration.arguments if a.sizes} | {"limit", "fields", "cursor"}
    plain = {a.name: arguments.get(a.name) for a in declaration.arguments}
    answer = function(site, **{k: v for k, v in plain.items() if k not in controls})
    fields = arguments.get("fields")
    added = [a.adds for a in declaration.arguments if a.adds and arguments.get(a.name)]
    data, line = resize(
        declaration,
        answer.data,
        limit=arguments.get("limit"),
        fields=None if fields is None else [*fields, *added],
        cursor=arguments.get("cursor"),
    )
    return Answer(data, line, links(site, declaration.name, answer.data))
