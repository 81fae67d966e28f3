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

import functools
import inspect
from importlib.metadata import version
from typing import TYPE_CHECKING, Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools import Tool
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INVALID_PARAMS,
    CallToolResult,
    GetPromptResult,
    InputRequiredResult,
    ResourceLink,
    TextContent,
    ToolAnnotations,
)
from pydantic import Field

from generator.api.mcp_tools import MAX_TEXT, MCP_TOOLS, ToolArgument, ToolDeclaration
from generator.vocabulary import DIMENSION_COUNT_WORD, DIMENSION_LIST
from mcp_server import tools
from mcp_server.arguments import ArgumentError, check_arguments, echo
from mcp_server.resources import register_resources
from mcp_server.results import output_schema
from mcp_server.site import SnapshotStore

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
INSTRUCTIONS = f"""\
Read-only scores of AI models: composite IQ ({DIMENSION_COUNT_WORD} capability dimensions, \
70-160 scale: {DIMENSION_LIST}), emotional reasoning, cost, speed, rankings, benchmarks, \
applied domains, methodology.
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


if TYPE_CHECKING:
    from mcp.server.mcpserver.context import Context


def _answer(answer: tools.Answer) -> CallToolResult:
    texts: list[TextContent | ResourceLink] = [
        TextContent(type="text", text=text) for text in answer.texts()
    ]
    resource_links = [
        ResourceLink(
            type="resource_link",
            uri=link.uri,
            name=link.name,
            description=link.description,
            mime_type=link.mime_type,
        )
        for link in answer.links
    ]
    return CallToolResult(content=[*texts, *resource_links], structured_content=answer.data)


def _annotation(argument: ToolArgument) -> Any:
    """The Python type (with pydantic bounds) the SDK derives the argument's schema from."""
    short_text = Annotated[str, Field(max_length=MAX_TEXT)]
    choice: Any = Literal[argument.choices]
    base: Any = {
        "text": short_text,
        "flag": bool,
        "integer": int,
        "choice": choice,
        "text_list": list[short_text],
        "choice_list": list[choice],
    }[argument.kind]
    if argument.kind in ("text_list", "choice_list"):
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


class StrictTool(Tool):
    """A tool whose function gets the call's arguments as sent, before any coercion.

    The SDK would validate them with pydantic first (taking `"yes"` for true and `"5"` for
    5, ignoring unknown names, answering with pydantic's text and its links); the function
    checks them itself (`arguments.check_arguments`), so every refusal is one short sentence.
    The input schema is still the SDK's, from the signature, with unknown names refused.
    """

    async def run(
        self, arguments: dict[str, Any], context: Context[Any, Any], convert_result: bool = False
    ) -> Any:
        try:
            result = await anyio.to_thread.run_sync(functools.partial(self.fn, **arguments))
        except MCPError:
            raise
        except (ToolError, ArgumentError) as exc:
            raise ToolError(f"Error executing tool {self.name}: {exc}") from exc
        except Exception as exc:  # a crash: its text stays on the server
            raise UnexpectedToolError(f"Error executing tool {self.name}") from exc
        return self.fn_metadata.convert_result(result) if convert_result else result


def _tool(declaration: ToolDeclaration, store: SnapshotStore) -> Tool:
    """The SDK tool of a declaration, answering from the store's current snapshot."""

    def call(**arguments: Any) -> CallToolResult:
        checked = check_arguments(declaration, arguments)
        return _answer(tools.call(store.current(), declaration, checked))

    call.__name__ = declaration.name
    call.__signature__ = _signature(declaration)  # type: ignore[attr-defined]
    tool = StrictTool.from_function(
        call,
        name=declaration.name,
        title=declaration.title,
        description=declaration.description,
        annotations=READ_ONLY,
        structured_output=False,
    )
    tool.fn_metadata.output_schema = output_schema(declaration)
    tool.parameters = {**tool.parameters, "additionalProperties": False}
    return tool


def build_tools(store: SnapshotStore) -> list[Tool]:
    """The declared tools (`MCP_TOOLS`), each answering from the store's current snapshot."""
    return [_tool(declaration, store) for declaration in MCP_TOOLS]


TOOL_NAMES = frozenset(declaration.name for declaration in MCP_TOOLS)


class SidecarServer(MCPServer[Any]):
    """The SDK's server, with an unknown prompt refused like an unknown resource.

    The sidecar declares no prompts; the SDK answered `prompts/get` of any name with error
    code 0 (not a JSON-RPC code) and logged the traceback of its own ValueError. An unknown
    tool's name is quoted cut short (the SDK's error quoted all of it).
    """

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        context: Context[Any, Any] | None = None,
    ) -> CallToolResult | InputRequiredResult:
        if name not in TOOL_NAMES:  # the SDK's answer quoted the whole name, whatever its size
            raise ToolError(f"Unknown tool {echo(name)}: tools/list names every tool")
        return await super().call_tool(name, arguments, context)

    async def get_prompt(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        context: Context[Any, Any] | None = None,
    ) -> GetPromptResult | InputRequiredResult:
        if name not in {prompt.name for prompt in await self.list_prompts()}:
            raise MCPError(INVALID_PARAMS, f"Unknown prompt {name[:80]!r}: this server has none")
        return await super().get_prompt(name, arguments, context)


def create_server(store: SnapshotStore) -> MCPServer[Any]:
    """The MCP server for the build at `store.site_dir`."""
    server: MCPServer[Any] = SidecarServer(
        "modelscores",
        title="Model scores",
        instructions=INSTRUCTIONS,
        version=version("modelscores"),
        tools=build_tools(store),
        log_level="WARNING",
    )
    register_resources(server, store)
    return server
