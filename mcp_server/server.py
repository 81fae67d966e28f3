"""The MCP server: nine read-only tools over the current build of the site.

Each tool reads one snapshot (`SiteStore.current()`), calls the pure function in `tools`,
and answers with a `CallToolResult`: the readable text plus the structured content. The
output schema of each tool is the JSON Schema of its contract Struct (`results.output_schema`),
set on the tool's metadata because the SDK derives schemas only from pydantic types.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from typing import Annotated, Any

import msgspec
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from generator.api.contract import (
    BenchmarkList,
    DomainDetail,
    DomainList,
    Methodology,
    ModelDetail,
    ModelList,
    RankingDetail,
    RankingList,
)
from mcp_server import tools
from mcp_server.results import ModelComparison, output_schema
from mcp_server.site import SiteStore

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
INSTRUCTIONS = (
    "Read-only scores of AI models: composite IQ (seven capability dimensions on a 70-160 "
    "scale), emotional reasoning, cost, speed, rankings, benchmarks, applied-capability domains "
    "and the scoring methodology. Every answer is the JSON the static API publishes and carries "
    "apiVersion, methodologyVersion and updatedAt. Start with list_models or list_rankings; "
    "name models by id or name."
)

ModelName = Annotated[
    str, Field(description="Model id (e.g. from list_models) or model name; any case.")
]


def _answer(answer: tools.Answer) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=answer.text)], structured_content=answer.data
    )


def _tool(fn: Callable[..., CallToolResult], title: str, kind: type[msgspec.Struct]) -> Tool:
    """A read-only tool from `fn` (its docstring is the description) answering a `kind`."""
    description = " ".join((fn.__doc__ or "").split())
    tool = Tool.from_function(
        fn, title=title, description=description, annotations=READ_ONLY, structured_output=False
    )
    tool.fn_metadata.output_schema = output_schema(kind)
    return tool


def build_tools(store: SiteStore) -> list[Tool]:
    """The nine tools, each answering from the store's current snapshot."""

    def list_models(
        provider: Annotated[
            str | None, Field(description="Only models of this provider (any case).")
        ] = None,
        open_source: Annotated[
            bool | None, Field(description="true: open-weight models only; false: closed only.")
        ] = None,
        min_iq: Annotated[
            int | None, Field(ge=70, le=160, description="Only models with composite IQ >= this.")
        ] = None,
        sort: Annotated[
            tools.SortKey | None,
            Field(
                description="Order: rank or cost ascending; iq, release_date (newest first), "
                "context_window, speed (tokens/s) descending; name A-Z. Default: as published."
            ),
        ] = None,
        limit: Annotated[
            int | None, Field(ge=1, le=1000, description="Return at most this many models.")
        ] = None,
    ) -> CallToolResult:
        """List published AI models with composite IQ, rank, dimension scores, EQ, cost, speed,
        context window and release date. Use it to find model ids, filter by provider or
        open-source status, or get top models by IQ, price or recency. With no arguments it
        returns exactly GET /api/v1/models."""
        site = store.current()
        return _answer(
            tools.list_models(
                site,
                provider=provider,
                open_source=open_source,
                min_iq=min_iq,
                sort=sort,
                limit=limit,
            )
        )

    def get_model(id: ModelName) -> CallToolResult:
        """Get one model in full (GET /api/v1/models/{id}): each dimension score with coverage
        and estimation method, every raw benchmark result with its source, cost breakdown,
        speed, reasoning configurations and revisions. Use it after list_models when you need
        the evidence behind a score."""
        return _answer(tools.get_model(store.current(), id))

    def list_rankings() -> CallToolResult:
        """List the ranking catalog (GET /api/v1/rankings): composite IQ, effective cost, the
        seven dimension rankings and one ranking per benchmark, each with its id, direction and
        model count but no rows. Use it to find a ranking id for get_ranking."""
        return _answer(tools.list_rankings(store.current()))

    def get_ranking(
        id: Annotated[str, Field(description="Ranking id from list_rankings, e.g. composite-iq.")],
    ) -> CallToolResult:
        """Get one ranking with every ranked model's rank and score (GET /api/v1/rankings/{id}).
        Use it for leaderboards: who is best at a dimension, a benchmark, or cheapest."""
        return _answer(tools.get_ranking(store.current(), id))

    def list_benchmarks() -> CallToolResult:
        """List the benchmarks behind the seven scored dimensions (GET /api/v1/benchmarks): what
        each measures, its dimension, direction, unit and source. Metadata only; per-model
        results are in get_model and benchmark rankings in get_ranking."""
        return _answer(tools.list_benchmarks(store.current()))

    def list_domains() -> CallToolResult:
        """List the applied-capability domains (GET /api/v1/domains), such as finance or
        cybersecurity, scored separately from composite IQ. Use it to find a slug for
        get_domain."""
        return _answer(tools.list_domains(store.current()))

    def get_domain(
        slug: Annotated[str, Field(description="Domain slug from list_domains, e.g. finance.")],
    ) -> CallToolResult:
        """Get one domain (GET /api/v1/domains/{slug}): its composite leaderboard with coverage
        and uncertainty, and every domain benchmark with its published results."""
        return _answer(tools.get_domain(store.current(), slug))

    def get_methodology() -> CallToolResult:
        """Read how every score is computed (GET /api/v1/methodology): dimensions and their
        benchmarks, the cost formula, rules, parameters and the changelog. Use it to explain
        or caveat a score."""
        return _answer(tools.get_methodology(store.current()))

    def compare_models(
        ids: Annotated[
            list[str],
            Field(
                min_length=2,
                max_length=20,
                description="Two or more model ids or names (any case).",
            ),
        ],
    ) -> CallToolResult:
        """Compare models side by side: their GET /api/v1/models rows (IQ, dimensions, EQ,
        cost, speed) plus which model is best on each metric. Names that match no model are
        listed under unknown with suggestions; the known ones are still compared."""
        return _answer(tools.compare_models(store.current(), ids))

    specs: list[tuple[Callable[..., CallToolResult], str, type[msgspec.Struct]]] = [
        (list_models, "List models", ModelList),
        (get_model, "Get model", ModelDetail),
        (list_rankings, "List rankings", RankingList),
        (get_ranking, "Get ranking", RankingDetail),
        (list_benchmarks, "List benchmarks", BenchmarkList),
        (list_domains, "List domains", DomainList),
        (get_domain, "Get domain", DomainDetail),
        (get_methodology, "Get methodology", Methodology),
        (compare_models, "Compare models", ModelComparison),
    ]
    return [_tool(fn, title, kind) for fn, title, kind in specs]


def create_server(store: SiteStore) -> MCPServer[Any]:
    """The MCP server for the build at `store.site_dir`."""
    return MCPServer(
        "modelscores",
        title="Model scores",
        instructions=INSTRUCTIONS,
        version=version("modelscores"),
        tools=build_tools(store),
        log_level="WARNING",
    )
