"""The MCP sidecar's nine tools, declared once: names, arguments, bounds and answers.

The SDK registration (`mcp_server/server.py`), the fast path's qualifying check
(`mcp_server/fastpath.py`) and the API docs page all read `MCP_TOOLS`; nothing else
lists the tools. Plain data: importing it pulls in neither the SDK nor the input records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, get_args

import msgspec
from msgspec import UNSET, Meta, UnsetType

from generator.api.contract import (
    IQ_MAX,
    IQ_MIN,
    BenchmarkList,
    BenchmarkMetadata,
    Contract,
    DomainDetail,
    DomainList,
    Envelope,
    Methodology,
    ModelDetail,
    ModelHistoryPoint,
    ModelList,
    ModelSummary,
    RankingCatalogEntry,
    RankingDetail,
    RankingList,
)
from generator.vocabulary import DIMENSION_COUNT_WORD, DIMENSION_LIST, DIMENSIONS

SortKey = Literal["rank", "iq", "name", "cost", "release_date", "context_window", "speed"]
SORT_KEYS: tuple[str, ...] = get_args(SortKey)
ArgumentKind = Literal["text", "flag", "integer", "choice", "text_list", "choice_list"]
MAX_TEXT = 256
"""Most characters in one text argument (or one item of a list): ids and names are short."""

_BEST = (
    "Metric (iq, a dimension slug, emotionalReasoning, effectivePer1M) to the ids of the "
    "compared models that do best on it (highest, or lowest for cost); metrics that none of "
    "the compared models has are left out."
)


_DIMENSIONS = "; ".join(
    f"{d.name}, asked for as {' / '.join(d.everyday)}: {d.slug}-iq" for d in DIMENSIONS
)
"""The dimension rankings as the descriptions name them: each label, the everyday words an
agent is asked with ("coding"), and the ranking id."""
_RANKING_ID = f"Ranking id from list_rankings, e.g. composite-iq or {DIMENSIONS[1].slug}-iq."

_COMPARED = "GET /models/{id} of each model found, in the order asked (a repeat once)."
_MISSING = "The queries that matched no published model, as given."
_SUGGESTIONS = "Each missing query to the closest published ids (possibly none)."


_PAIR = Annotated[list[str], Meta(min_length=2, max_length=2)]


class Distinguishability(Contract, kw_only=True, frozen=True):
    """Which compared models the data can tell apart by composite IQ at 95% confidence.

    Two ranked models are distinguishable when their rank bands (`rankLow`..`rankHigh`)
    do not overlap; each pair is listed better-ranked first, pairs in rank order.
    """

    distinguishable: Annotated[
        list[_PAIR], Meta(description="Pairs whose rank bands do not overlap.")
    ]
    not_distinguishable: Annotated[
        list[_PAIR],
        Meta(description="Pairs whose rank bands overlap: their order is not established."),
    ]
    unranked: Annotated[
        list[str], Meta(description="Compared models without a composite rank (no band).")
    ]


class ModelComparison(Envelope, kw_only=True, frozen=True):
    """compare_models: `compared` and `missing` as the original API's connector answers,
    plus our extras (`best`, `suggestions`, `distinguishability`)."""

    compared: Annotated[list[ModelDetail], Meta(description=_COMPARED)]
    missing: Annotated[list[str], Meta(description=_MISSING)]
    best: Annotated[dict[str, list[str]], Meta(description=_BEST)]
    suggestions: Annotated[dict[str, list[str]], Meta(description=_SUGGESTIONS)]
    distinguishability: Distinguishability


_HISTORY = (
    "Only with include_history: the snapshots of GET /models/{id}/history, the model's "
    f"composite IQ, rank and {DIMENSION_COUNT_WORD} dimensions at each month end since its "
    "release, oldest first."
)


class ModelAnswer(ModelDetail, kw_only=True, frozen=True):
    """get_model: GET /models/{id} as published, plus `history` when asked for."""

    history: Annotated[list[ModelHistoryPoint], Meta(description=_HISTORY)] | UnsetType = UNSET


@dataclass(frozen=True)
class ToolArgument:
    """One argument of a tool. Optional arguments default to null."""

    name: str
    kind: ArgumentKind
    description: str
    required: bool = False
    minimum: int | None = None  # integer: least value; text_list, choice_list: fewest items
    maximum: int | None = None  # integer: greatest value; text_list, choice_list: most items
    choices: tuple[str, ...] = ()  # choice, choice_list: the accepted values
    sizes: bool = False
    """A size control added after AI IQ's connector: a call that passes one gets the sized
    answer (with `nextCursor`); a call with none gets the connector's answer exactly."""
    adds: str | None = None
    """A flag's member of the answer (`include_history` adds `history`): `fields` keeps it."""


@dataclass(frozen=True)
class ToolDeclaration:
    """One read-only tool: what clients see and what it answers with."""

    name: str
    title: str
    summary: str  # one line for the API docs page
    description: str  # what an MCP client reads
    answer: type[msgspec.Struct]  # the contract Struct of its structured content
    arguments: tuple[ToolArgument, ...] = ()
    pages: str | None = None  # the list member that `limit` and `cursor` page through
    picks_in: str | None = None  # the list member whose items `fields` picks from (else the top)


KEPT_MEMBERS = ("apiVersion", "methodologyVersion", "updatedAt", "id")
"""Members `fields` always keeps in an answer: the envelope and the identity (`id`)."""
KEPT_IN_ROWS = ("id",)
"""Members `fields` always keeps in each row of a list (`ToolDeclaration.picks_in`)."""
NEXT_CURSOR = "nextCursor"
"""The member a sized answer adds: the cursor of the next page, or null on the last one."""
MAX_LIMIT = 1000


def _members(kind: type[msgspec.Struct], kept: tuple[str, ...]) -> tuple[str, ...]:
    """The JSON names of a Struct's members that `fields` may pick (not the kept ones)."""
    names = (field.encode_name for field in msgspec.structs.fields(kind))
    return tuple(name for name in names if name not in kept)


_KEPT_SAID = {KEPT_MEMBERS: ("id", "the envelope"), KEPT_IN_ROWS: ("id",)}


def _fields(kind: type[msgspec.Struct], what: str, kept: tuple[str, ...]) -> ToolArgument:
    choices = _members(kind, kept)
    return ToolArgument(
        "fields",
        "choice_list",
        f"Only these members of {what} ({' and '.join(_KEPT_SAID[kept])} always kept); "
        "default: every member.",
        minimum=1,
        maximum=len(choices),
        choices=choices,
        sizes=True,
    )


def _limit(what: str) -> ToolArgument:
    return ToolArgument(
        "limit",
        "integer",
        f"Return at most this many {what}.",
        minimum=1,
        maximum=MAX_LIMIT,
        sizes=True,
    )


_CURSOR = ToolArgument(
    "cursor",
    "text",
    "The nextCursor of the previous answer, to get the next page (same other arguments).",
    sizes=True,
)
_SIZED = (
    " With any of limit, fields or cursor the answer also has nextCursor (null on the last "
    "page) and a one-line summary."
)


_MODEL_NAME = ToolArgument(
    "id", "text", "Model id (e.g. from list_models) or model name; any case.", required=True
)

MCP_TOOLS: tuple[ToolDeclaration, ...] = (
    ToolDeclaration(
        "list_models",
        "List models",
        "every model, with filters (provider, open weights, minimum IQ) and sorting",
        "List published AI models with composite IQ, rank, dimension scores, EQ, cost, speed, "
        "context window and release date. Use it to find model ids, filter by provider or "
        "open-source status, or get top models by IQ, price or recency. With no arguments it "
        "returns exactly GET /api/v1/models: about 1,300 characters per model, over 100,000 "
        'in all. For less, pass fields (e.g. ["name", "iq", "rank"]: about 80 characters '
        "a model) and limit, then cursor for the next page. With fields or cursor the answer "
        "also has nextCursor (null on the last page) and a one-line summary.",
        ModelList,
        (
            ToolArgument("provider", "text", "Only models of this provider (any case)."),
            ToolArgument(
                "open_source", "flag", "true: open-weight models only; false: closed only."
            ),
            ToolArgument(
                "min_iq",
                "integer",
                "Only models with composite IQ >= this.",
                minimum=IQ_MIN,
                maximum=IQ_MAX,
            ),
            ToolArgument(
                "sort",
                "choice",
                "Order: rank, cost or speed (response time per task, fastest first) ascending; "
                "iq, release_date (newest first), context_window descending; name A-Z. "
                "Default: as published.",
                choices=SORT_KEYS,
            ),
            ToolArgument(
                "limit",
                "integer",
                "Return at most this many models (with cursor or fields: a page of them).",
                minimum=1,
                maximum=MAX_LIMIT,
            ),
            _fields(ModelSummary, "each model", KEPT_IN_ROWS),
            _CURSOR,
        ),
        pages="models",
        picks_in="models",
    ),
    ToolDeclaration(
        "get_model",
        "Get model",
        "one model in full, by id or name; include_history adds its score at each month end",
        "Get one model in full (GET /api/v1/models/{id}): each dimension score with coverage "
        "and estimation method, every raw benchmark result with its source, cost breakdown, "
        "speed, reasoning configurations and revisions. Use it after list_models when you need "
        "the evidence behind a score. With include_history, also its history: composite IQ, "
        f"rank and the {DIMENSION_COUNT_WORD} dimensions at each month end since its release (GET "
        "/api/v1/models/{id}/history), replayed from the data with today's methodology. "
        "By default 5,000 to 16,000 characters (history adds up to 6,000); for less, pass "
        'fields, e.g. ["name", "iq", "rank", "dimensions"] (under 2,000).',
        ModelAnswer,
        (
            _MODEL_NAME,
            ToolArgument(
                "include_history",
                "flag",
                "true: add `history`, the model's score at each month end since its release "
                "(kept with fields too).",
                adds="history",
            ),
            _fields(ModelDetail, "the model", KEPT_MEMBERS),
        ),
    ),
    ToolDeclaration(
        "list_rankings",
        "List rankings",
        "the ranking catalog",
        "List the ranking catalog (GET /api/v1/rankings): composite IQ, effective cost, the "
        f"{DIMENSION_COUNT_WORD} dimension rankings ({_DIMENSIONS}) "
        "and one ranking per benchmark, each with its id, direction and model count but no "
        "rows. Use it to find a ranking id for get_ranking. By default "
        'about 360 characters per ranking (10,000 in all); fields=["rankingName"] and limit '
        "make it smaller." + _SIZED,
        RankingList,
        (_limit("rankings"), _fields(RankingCatalogEntry, "each ranking", KEPT_IN_ROWS), _CURSOR),
        pages="rankings",
        picks_in="rankings",
    ),
    ToolDeclaration(
        "get_ranking",
        "Get ranking",
        "one ranking with every ranked model",
        "Get one ranking with every ranked model's rank and score (GET /api/v1/rankings/{id}). "
        "Use it for leaderboards: who is best at a dimension, a benchmark, or cheapest. "
        f"Dimension rankings: {_DIMENSIONS}; the overall one is composite-iq, the cheapest "
        "effective-cost. By default every ranked model (about 110 characters each, up to "
        "20,000); limit=10 gives the top ten, cursor the next ones." + _SIZED,
        RankingDetail,
        (
            ToolArgument("id", "text", _RANKING_ID, required=True),
            _limit("ranked models"),
            _fields(RankingDetail, "the ranking", KEPT_MEMBERS),
            _CURSOR,
        ),
        pages="models",
    ),
    ToolDeclaration(
        "list_benchmarks",
        "List benchmarks",
        f"the benchmarks of the {DIMENSION_COUNT_WORD} dimensions",
        f"List the benchmarks behind the {DIMENSION_COUNT_WORD} scored dimensions "
        f"({DIMENSION_LIST}; GET /api/v1/benchmarks): what each measures, its dimension, "
        "direction, unit and source. Metadata only; per-model "
        "results are in get_model and benchmark rankings in get_ranking. By default about "
        '500 characters per benchmark (16,000 in all); fields=["name", "dimension"] and '
        "limit make it smaller." + _SIZED,
        BenchmarkList,
        (_limit("benchmarks"), _fields(BenchmarkMetadata, "each benchmark", KEPT_IN_ROWS), _CURSOR),
        pages="benchmarks",
        picks_in="benchmarks",
    ),
    ToolDeclaration(
        "list_domains",
        "List domains",
        "the applied-capability domains",
        "List the applied-capability domains (GET /api/v1/domains), such as finance or "
        "cybersecurity, scored separately from composite IQ. Use it to find a slug for "
        "get_domain. About 150 characters per domain (under 2,000 in all).",
        DomainList,
    ),
    ToolDeclaration(
        "get_domain",
        "Get domain",
        "one domain's leaderboard and benchmark results",
        "Get one domain (GET /api/v1/domains/{slug}): its composite leaderboard with coverage "
        "and uncertainty, and every domain benchmark with its published results. By default "
        'up to 40,000 characters (the benchmarks\' results are most of it); fields=["name", '
        '"models"] keeps the leaderboard only, and limit cuts it to the top models.' + _SIZED,
        DomainDetail,
        (
            ToolArgument(
                "slug", "text", "Domain slug from list_domains, e.g. finance.", required=True
            ),
            _limit("leaderboard entries"),
            _fields(DomainDetail, "the domain", KEPT_MEMBERS),
            _CURSOR,
        ),
        pages="models",
    ),
    ToolDeclaration(
        "get_methodology",
        "Get methodology",
        "how every score is computed",
        "Read how every score is computed (GET /api/v1/methodology): dimensions and their "
        "benchmarks, the cost formula, rules, parameters and the changelog. Use it to explain "
        'or caveat a score. By default about 26,000 characters; fields=["summary", '
        '"parameters"] gives the gist in about 1,500, with "rules" every rule in about 8,500.',
        Methodology,
        (_fields(Methodology, "the methodology", KEPT_MEMBERS),),
    ),
    ToolDeclaration(
        "compare_models",
        "Compare models",
        "several models side by side",
        "Compare models side by side: compared holds each found model's full detail (GET "
        "/api/v1/models/{id}) in the order asked, missing the names that match no model (with "
        "suggestions per name); best names the best model on each metric (IQ, dimensions, EQ, "
        "effective cost); distinguishability says which pairs the data can tell apart by "
        "composite IQ at 95% confidence (rank bands that do not overlap) and which it cannot. "
        "Unknown names are not an error: compared may be empty. By default each compared "
        'model is its full detail (5,000 to 16,000 characters); fields, e.g. ["name", '
        '"iq", "rank", "dimensions"], keeps only those members of each.',
        ModelComparison,
        (
            ToolArgument(
                "ids",
                "text_list",
                "Two or more model ids or names (any case).",
                required=True,
                minimum=2,
                maximum=20,
            ),
            _fields(ModelDetail, "each compared model", KEPT_IN_ROWS),
        ),
        picks_in="compared",
    ),
)

TOOLS_BY_NAME: dict[str, ToolDeclaration] = {tool.name: tool for tool in MCP_TOOLS}
