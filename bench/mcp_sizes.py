"""Size of each MCP tool's answer both ways: the JSON text block vs the readable summary.

    .venv/bin/python -m bench.mcp_sizes            # builds data/ into a temporary folder
    .venv/bin/python -m bench.mcp_sizes --site-dir site_out

Prints a Markdown table (characters of `content[0]`, the structured content as JSON text,
and of `content[1]`, the summary) for one call of each tool; for the detail tools also the
largest answer over every published id. docs/MCP.md holds its output on the shipped data.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from generator.api.urls import SiteConfig
from generator.build import build_site
from mcp_server import tools
from mcp_server.site import SiteSnapshot, load_snapshot

Call = Callable[[SiteSnapshot], tools.Answer]


@dataclass(frozen=True)
class Size:
    """One answer's two text blocks, in characters."""

    tool: str
    arguments: str
    json_chars: int
    summary_chars: int


def measure(tool: str, arguments: str, answer: tools.Answer) -> Size:
    json_text, summary = answer.texts()
    return Size(tool, arguments, len(json_text), len(summary))


def _largest(
    tool: str,
    param: str,
    ids: Sequence[str],
    call: Callable[[str], tools.Answer],
    also: str = "",
) -> Size:
    """The largest answer over every id (`also`: the other arguments, as shown)."""
    more = f", {also}" if also else ""
    sizes = [measure(tool, f"{param}={i}{more}", call(i)) for i in ids]
    biggest = max(sizes, key=lambda s: (s.json_chars, s.arguments))
    return Size(
        tool,
        f"largest of {len(ids)}: {biggest.arguments}",
        biggest.json_chars,
        biggest.summary_chars,
    )


def sizes(site: SiteSnapshot) -> list[Size]:
    """One row per tool call measured (the examples, then the largest detail answers)."""
    first_model = site.models.struct.models[0].id
    domain = "finance" if "finance" in site.domain_details else sorted(site.domain_details)[0]
    pair = [m.id for m in site.models.struct.models[:2]]
    rows = [
        measure("list_models", "", tools.list_models(site)),
        measure(
            "list_models", "sort=cost, limit=10", tools.list_models(site, sort="cost", limit=10)
        ),
        measure("get_model", f"id={first_model}", tools.get_model(site, first_model)),
        measure(
            "get_model",
            f"id={first_model}, include_history=true",
            tools.get_model(site, first_model, include_history=True),
        ),
        measure("list_rankings", "", tools.list_rankings(site)),
        measure("get_ranking", "id=composite-iq", tools.get_ranking(site, "composite-iq")),
        measure("list_benchmarks", "", tools.list_benchmarks(site)),
        measure("list_domains", "", tools.list_domains(site)),
        measure("get_domain", f"slug={domain}", tools.get_domain(site, domain)),
        measure("get_methodology", "", tools.get_methodology(site)),
        measure("compare_models", f"ids={', '.join(pair)}", tools.compare_models(site, pair)),
    ]
    rows += [
        _largest("get_model", "id", sorted(site.model_details), lambda i: tools.get_model(site, i)),
        _largest(
            "get_model",
            "id",
            sorted(site.model_details),
            lambda i: tools.get_model(site, i, include_history=True),
            "include_history=true",
        ),
        _largest(
            "get_ranking", "id", sorted(site.ranking_details), lambda i: tools.get_ranking(site, i)
        ),
        _largest(
            "get_domain", "slug", sorted(site.domain_details), lambda i: tools.get_domain(site, i)
        ),
    ]
    return rows


def table(rows: Sequence[Size]) -> str:
    """The Markdown table of `rows`."""
    lines = [
        "| tool | arguments | JSON text (chars) | summary (chars) | summary / JSON |",
        "|---|---|--:|--:|--:|",
    ]
    for r in rows:
        share = f"{100 * r.summary_chars / r.json_chars:.1f}%"
        counts = f"{r.json_chars:,} | {r.summary_chars:,}"
        lines.append(f"| `{r.tool}` | {r.arguments or 'none'} | {counts} | {share} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--site-dir", type=Path, help="a built site (default: build data/)")
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="data to build")
    args = parser.parse_args(argv)
    if args.site_dir is not None:
        print(table(sizes(load_snapshot(args.site_dir))))
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site_out"
        build_site(args.data_dir, out, SiteConfig())
        print(table(sizes(load_snapshot(out))))


if __name__ == "__main__":
    main()
