"""The MCP sidecar's nine tools, declared once: names, arguments, bounds and answers.

The SDK registration (`mcp_server/server.py`), the fast path's argument checks
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
    Contract,
    DomainDetail,
    DomainList,
    Envelope,
    Methodology,
    ModelDetail,
    ModelHistoryPoint,
    ModelList,
    RankingDetail,
    RankingList,
)

SortKey = Literal["rank", "iq", "name", "cost", "release_date", "context_window", "speed"]
SORT_KEYS: tuple[str, ...] = get_args(SortKey)
ArgumentKind = Literal["text", "flag", "integer", "choice", "text_list"]
MAX_TEXT = 256
"""Most characters in one text argument (or one item of a list): ids and names are short."""

_BEST = (
    "Metric (iq, a dimension slug, emotionalReasoning, effectivePer1M) to the ids of the "
    "compared models that do best on it (highest, or lowest for cost); metrics that none of "
    "the compared models has are left out."
)


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
    "composite IQ, rank and seven dimensions at each month end since its release, oldest first."
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
    minimum: int | None = None  # integer: least value; text_list: fewest items
    maximum: int | None = None  # integer: greatest value; text_list: most items
    choices: tuple[str, ...] = ()  # choice: the accepted values


@dataclass(frozen=True)
class ToolDeclaration:
    """One read-only tool: what clients see and what it answers with."""

    name: str
    title: str
    summary: str  # one line for the API docs page
    description: str  # what an MCP client reads
    answer: type[msgspec.Struct]  # the contract Struct of its structured content
    arguments: tuple[ToolArgument, ...] = ()


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
        "returns exactly GET /api/v1/models.",
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
                "Order: rank or cost ascending; iq, release_date (newest first), "
                "context_window, speed (tokens/s) descending; name A-Z. Default: as published.",
                choices=SORT_KEYS,
            ),
            ToolArgument(
                "limit", "integer", "Return at most this many models.", minimum=1, maximum=1000
            ),
        ),
    ),
    ToolDeclaration(
        "get_model",
        "Get model",
        "one model in full, by id or name; include_history adds its score at each month end",
        "Get one model in full (GET /api/v1/models/{id}): each dimension score with coverage "
        "and estimation method, every raw benchmark result with its source, cost breakdown, "
        "speed, reasoning configurations and revisions. Use it after list_models when you need "
        "the evidence behind a score. With include_history, also its history: composite IQ, "
        "rank and the seven dimensions at each month end since its release (GET "
        "/api/v1/models/{id}/history), replayed from the data with today's methodology.",
        ModelAnswer,
        (
            _MODEL_NAME,
            ToolArgument(
                "include_history",
                "flag",
                "true: add `history`, the model's score at each month end since its release.",
            ),
        ),
    ),
    ToolDeclaration(
        "list_rankings",
        "List rankings",
        "the ranking catalog",
        "List the ranking catalog (GET /api/v1/rankings): composite IQ, effective cost, the "
        "seven dimension rankings and one ranking per benchmark, each with its id, direction and "
        "model count but no rows. Use it to find a ranking id for get_ranking.",
        RankingList,
    ),
    ToolDeclaration(
        "get_ranking",
        "Get ranking",
        "one ranking with every ranked model",
        "Get one ranking with every ranked model's rank and score (GET /api/v1/rankings/{id}). "
        "Use it for leaderboards: who is best at a dimension, a benchmark, or cheapest.",
        RankingDetail,
        (
            ToolArgument(
                "id", "text", "Ranking id from list_rankings, e.g. composite-iq.", required=True
            ),
        ),
    ),
    ToolDeclaration(
        "list_benchmarks",
        "List benchmarks",
        "the benchmarks of the seven dimensions",
        "List the benchmarks behind the seven scored dimensions (GET /api/v1/benchmarks): what "
        "each measures, its dimension, direction, unit and source. Metadata only; per-model "
        "results are in get_model and benchmark rankings in get_ranking.",
        BenchmarkList,
    ),
    ToolDeclaration(
        "list_domains",
        "List domains",
        "the applied-capability domains",
        "List the applied-capability domains (GET /api/v1/domains), such as finance or "
        "cybersecurity, scored separately from composite IQ. Use it to find a slug for "
        "get_domain.",
        DomainList,
    ),
    ToolDeclaration(
        "get_domain",
        "Get domain",
        "one domain's leaderboard and benchmark results",
        "Get one domain (GET /api/v1/domains/{slug}): its composite leaderboard with coverage "
        "and uncertainty, and every domain benchmark with its published results.",
        DomainDetail,
        (
            ToolArgument(
                "slug", "text", "Domain slug from list_domains, e.g. finance.", required=True
            ),
        ),
    ),
    ToolDeclaration(
        "get_methodology",
        "Get methodology",
        "how every score is computed",
        "Read how every score is computed (GET /api/v1/methodology): dimensions and their "
        "benchmarks, the cost formula, rules, parameters and the changelog. Use it to explain "
        "or caveat a score.",
        Methodology,
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
        "Unknown names are not an error: compared may be empty.",
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
        ),
    ),
)

TOOLS_BY_NAME: dict[str, ToolDeclaration] = {tool.name: tool for tool in MCP_TOOLS}
