"""Size of each MCP tool's answer both ways: the JSON text block vs the readable summary.

    .venv/bin/python -m bench.mcp_sizes            # builds data/ into a temporary folder
    .venv/bin/python -m bench.mcp_sizes --site-dir site_out

Prints two Markdown tables. First each tool at its default and at its smallest useful size
setting: the characters of both text blocks of its largest answer (over every published id
for the detail tools; 10 models for compare_models) and about how many tokens that is.
Then the characters of `content[0]` (the structured content as JSON text) and of
`content[1]` (the summary) for one call of each tool, and the largest detail answers.
docs/MCP.md holds its output on the shipped data.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from generator.api.mcp_tools import TOOLS_BY_NAME
from generator.api.urls import SiteConfig
from generator.build import build_site
from mcp_server import tools
from mcp_server.arguments import check_arguments
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


# --- the size controls: each tool at its default and at its smallest useful setting --------

CHARS_PER_TOKEN = 4
"""A rough rule for English and JSON text with common tokenizers (tokens ~ characters / 4)."""
BUDGET = 8_000
"""Every tool has a setting whose answer (both text blocks) stays under this many characters."""

Arguments = dict[str, object]
COMPARED = 10
"""Models in the measured compare (20 at most: its answer grows with the square of this,
one pair per two models in `distinguishability`)."""
SMALL_MODEL: Arguments = {"fields": ["name", "iq", "rank", "dimensions"]}
SETTINGS: tuple[tuple[str, str | None, Arguments, Arguments], ...] = (
    ("list_models", None, {}, {"fields": ["name", "iq", "rank"], "limit": 20}),
    ("get_model", "id", {}, SMALL_MODEL),
    ("list_rankings", None, {}, {"fields": ["rankingName"]}),
    ("get_ranking", "id", {}, {"limit": 20}),
    ("list_benchmarks", None, {}, {"fields": ["name", "dimension"]}),
    ("list_domains", None, {}, {}),
    ("get_domain", "slug", {}, {"fields": ["name", "models"], "limit": 10}),
    ("get_methodology", None, {}, {"fields": ["summary", "parameters"]}),
    ("compare_models", "ids", {}, {"fields": ["name", "iq", "rank"]}),
)
"""Per tool: its name, the argument that names a document (each is measured, the largest
answer shown), the default setting and the smallest useful one."""


@dataclass(frozen=True)
class Setting:
    """One tool at one setting: the characters of both text blocks of its largest answer."""

    tool: str
    setting: str
    arguments: str
    chars: int

    @property
    def tokens(self) -> int:
        return round(self.chars / CHARS_PER_TOKEN)


def _subjects(site: SiteSnapshot, tool: str, param: str | None) -> list[Arguments]:
    """The documents a tool is measured on: every id, or a compare of `COMPARED` models."""
    if param is None:
        return [{}]
    if param == "ids":
        return [{"ids": [m.id for m in site.models.struct.models[:COMPARED]]}]
    documents = {
        "get_model": site.model_details,
        "get_ranking": site.ranking_details,
        "get_domain": site.domain_details,
    }[tool]
    return [{param: key} for key in sorted(documents)]


def _largest_call(site: SiteSnapshot, tool: str, param: str | None, extra: Arguments) -> Setting:
    declaration = TOOLS_BY_NAME[tool]
    subjects = _subjects(site, tool, param)
    largest = 0
    for subject in subjects:
        arguments = {**subject, **extra}
        answer = tools.call(site, declaration, check_arguments(declaration, arguments))
        largest = max(largest, sum(len(text) for text in answer.texts()))
    where = {None: "", "ids": f"{COMPARED} models"}.get(param, f"largest of {len(subjects)}")
    shown = ", ".join(f"{key}={_show(value)}" for key, value in extra.items())
    return Setting(tool, where, shown or "none", largest)


def _show(value: object) -> str:
    return "[" + ", ".join(map(str, value)) + "]" if isinstance(value, list) else str(value)


def settings_sizes(site: SiteSnapshot) -> list[tuple[Setting, Setting]]:
    """Each tool at its default and its smallest useful setting (the largest answer of each)."""
    return [
        (_largest_call(site, tool, param, default), _largest_call(site, tool, param, small))
        for tool, param, default, small in SETTINGS
    ]


def settings_table(pairs: Sequence[tuple[Setting, Setting]]) -> str:
    """The Markdown table of `settings_sizes`: characters and about how many tokens."""
    lines = [
        "| tool | measured on | default (chars) | ≈ tokens | smallest useful setting | chars "
        "| ≈ tokens |",
        "|---|---|--:|--:|---|--:|--:|",
    ]
    for default, small in pairs:
        lines.append(
            f"| `{default.tool}` | {default.setting or 'the one answer'} | {default.chars:,} "
            f"| {default.tokens:,} | {small.arguments} | {small.chars:,} | {small.tokens:,} |"
        )
    return "\n".join(lines)


def report(site: SiteSnapshot) -> str:
    """Both tables: the size controls, then the two text blocks of each tool's answer."""
    return settings_table(settings_sizes(site)) + "\n\n" + table(sizes(site))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--site-dir", type=Path, help="a built site (default: build data/)")
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="data to build")
    args = parser.parse_args(argv)
    if args.site_dir is not None:
        print(report(load_snapshot(args.site_dir)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site_out"
        build_site(args.data_dir, out, SiteConfig())
        print(report(load_snapshot(out)))


if __name__ == "__main__":
    main()
