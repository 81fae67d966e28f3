"""What the tools answer: the contract Structs, one sidecar-only Struct, and their JSON Schemas.

Eight tools answer with a published document as is (its contract Struct is the output
schema). `compare_models` has no static counterpart, so its answer is declared here, built
from the same `ModelSummary` rows `GET /models` publishes.
"""

from __future__ import annotations

from typing import Annotated, Any, cast

import msgspec
from msgspec import Meta

from generator.api.contract import Contract, Envelope, ModelSummary

_LOCAL_DEFS = "#/$defs/"
_BEST = (
    "Metric (iq, a dimension slug, emotionalReasoning, effectivePer1M) to the ids of the "
    "compared models that do best on it (highest, or lowest for cost); metrics that none of "
    "the compared models has are left out."
)


class UnknownModel(Contract, kw_only=True, frozen=True):
    """A requested model that is not published, with the closest published ids."""

    query: str
    suggestions: list[str]


class ModelComparison(Envelope, kw_only=True, frozen=True):
    """compare_models: the requested models side by side, as rows of GET /models."""

    models: list[ModelSummary]
    best: Annotated[dict[str, list[str]], Meta(description=_BEST)]
    unknown: list[UnknownModel]


def output_schema(kind: type[msgspec.Struct]) -> dict[str, Any]:
    """The JSON Schema of `kind` with the root inlined: MCP wants an object at the root.

    Nested references still point into `$defs`, which is kept.
    """
    schema = msgspec.json.schema(kind)
    ref = schema.pop("$ref")
    if not isinstance(ref, str) or not ref.startswith(_LOCAL_DEFS):  # pragma: no cover
        raise ValueError(f"unexpected schema root for {kind.__name__}: {ref!r}")
    definitions = cast(dict[str, Any], schema["$defs"])
    root = cast(dict[str, Any], definitions[ref.removeprefix(_LOCAL_DEFS)])
    return {**root, "$defs": definitions}
