"""The MCP server: nine read-only tools over the current build of the site.

The tools are registered from their declaration (`generator/api/mcp_tools.py`: names,
arguments, bounds, descriptions). Each reads one snapshot (`SnapshotStore.current()`), calls
the pure function in `tools`, and answers with a `CallToolResult`: the structured content,
and as text blocks that same JSON serialized (first, per the MCP spec) and a readable
summary. The output schema of each tool is the JSON Schema of its answer Struct
(`results.output_schema`), set on the tool's metadata because the SDK derives schemas only
from pydantic types.
"""

from __future__ import annotations

import inspect
from importlib.metadata import version
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from generator.api.mcp_tools import MCP_TOOLS, ToolArgument, ToolDeclaration
from mcp_server import tools
from mcp_server.resources import register_resources
from mcp_server.results import output_schema
from mcp_server.site import SnapshotStore

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
INSTRUCTIONS = """\
Read-only scores of AI models: composite IQ (seven capability dimensions, 70-160 scale), \
emotional reasoning, cost, speed, rankings, benchmarks, applied domains, methodology.
- Find models with list_models (filters, sorting); get_model gives one model's evidence \
(include_history: its composite, rank and dimensions at each month end since release); \
compare_models puts 2-20 side by side (compared, missing, best per metric).
- Leaderboards: list_rankings, then get_ranking; domains: list_domains, then get_domain; \
how scores are computed: get_methodology.
- Name a model by id (gpt-5.5), alias (a dated revision such as gpt-5.5-2026-04-23) or \
display name (GPT-5.5), any case; ranking ids and domain slugs are exact.
- Every answer is the JSON the static API publishes (structuredContent, and the same JSON \
as the first text block) with apiVersion, methodologyVersion and updatedAt. The same \
documents are resources (modelscores://api/v1/...).
"""


def _answer(answer: tools.Answer) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text) for text in answer.texts()],
        structured_content=answer.data,
    )


def _annotation(argument: ToolArgument) -> Any:
    """The Python type (with pydantic bounds) the SDK derives the argument's schema from."""
    base: Any = {
        "text": str,
        "flag": bool,
        "integer": int,
        "choice": Literal[argument.choices],
        "text_list": list[str],
    }[argument.kind]
    if argument.kind == "text_list":
        bounds = {"min_length": argument.minimum, "max_length": argument.maximum}
    else:
        bounds = {"ge": argument.minimum, "le": argument.maximum}
    present = {key: value for key, value in bounds.items() if value is not None}
    field = Field(description=argument.description, **present)  # type: ignore[call-overload]
    return Annotated[base if argument.required else base | None, field]


def _signature(declaration: ToolDeclaration) -> inspect.Signature:
    return inspect.Signature(
        [
            inspect.Parameter(
                argument.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=inspect.Parameter.empty if argument.required else None,
                annotation=_annotation(argument),
            )
            for argument in declaration.arguments
        ],
        return_annotation=CallToolResult,
    )


def _tool(declaration: ToolDeclaration, store: SnapshotStore) -> Tool:
    """The SDK tool of a declaration, answering from the store's current snapshot."""
    function = tools.TOOL_FUNCTIONS[declaration.name]

    def call(**arguments: Any) -> CallToolResult:
        return _answer(function(store.current(), **arguments))

    call.__name__ = declaration.name
    call.__signature__ = _signature(declaration)  # type: ignore[attr-defined]
    tool = Tool.from_function(
        call,
        name=declaration.name,
        title=declaration.title,
        description=declaration.description,
        annotations=READ_ONLY,
        structured_output=False,
    )
    tool.fn_metadata.output_schema = output_schema(declaration.answer)
    return tool


def build_tools(store: SnapshotStore) -> list[Tool]:
    """The declared tools (`MCP_TOOLS`), each answering from the store's current snapshot."""
    return [_tool(declaration, store) for declaration in MCP_TOOLS]


def create_server(store: SnapshotStore) -> MCPServer[Any]:
    """The MCP server for the build at `store.site_dir`."""
    server: MCPServer[Any] = MCPServer(
        "modelscores",
        title="Model scores",
        instructions=INSTRUCTIONS,
        version=version("modelscores"),
        tools=build_tools(store),
        log_level="WARNING",
    )
    register_resources(server, store)
    return server
