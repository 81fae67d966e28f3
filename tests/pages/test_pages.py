"""render_pages: which pages exist, what they say, links, charts and determinism.

Runs on hand-made documents (tests/support/documents.py), so it pins page behaviour
independently of scoring; test_links/test_html also cover the real build.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from msgspec.structs import replace
from support.documents import BASE, PAGE_MODELS, sample_documents

from generator.api.contract import ChartList, ModelDetail, ModelList
from generator.api.mcp_tools import MCP_TOOLS
from generator.api.urls import SiteConfig
from generator.errors import BuildError
from generator.pages import svg
from generator.pages.axes import format_value
from generator.pages.charts import chart_kind, cost_scatter, inline, iq_histogram
from generator.pages.links import Linker
from generator.pages.plots import Bar, Bars, Histogram
from generator.pages.render import render_pages
from generator.pages.sitedocs import SiteDocuments
from generator.pages.views import cost_rows, format_cost


@pytest.fixture(scope="module")
def pages() -> dict[str, bytes]:
    return render_pages(sample_documents(), SiteConfig(base_url=BASE))


def page(pages: dict[str, bytes], path: str) -> str:
    return pages[path].decode("utf-8")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_every_page_the_api_promises_is_rendered(pages: dict[str, bytes]) -> None:
    expected = {
        "index.html",
        "404.html",
        "static/site.css",
        "static/site.js",
        "static/icon.svg",  # the MCP server card's icons
        "static/icon.png",
        "compare/index.html",
        "methodology/index.html",
        "docs/index.html",
        "charts/index.html",
        "rankings/index.html",
        "benchmarks/index.html",
        "domains/index.html",
    }
    expected |= {f"models/{m[0]}/index.html" for m in PAGE_MODELS}
    docs = SiteDocuments(sample_documents())
    expected |= {f"rankings/{r.id}/index.html" for r in docs.rankings.rankings}
    expected |= {f"benchmarks/{b.id}/index.html" for b in docs.benchmarks.benchmarks}
    expected |= {f"domains/{d}/index.html" for d in docs.domain_details}
    expected |= {f"charts/{c.id}/index.html" for c in docs.charts.charts}
    expected |= {f"charts/{c.id}.png" for c in docs.charts.charts}
    expected |= {"history/index.html", *(f"history/{d}/index.html" for d in docs.history_details)}
    assert set(pages) == expected


@pytest.mark.usefixtures("rasterise_every_time")
def test_render_is_byte_deterministic(pages: dict[str, bytes]) -> None:
    assert render_pages(sample_documents(), SiteConfig(base_url=BASE)) == pages


def test_previews_are_1200_by_630_png(pages: dict[str, bytes]) -> None:
    previews = [p for p in pages if p.endswith(".png") and not p.startswith("static/")]
    assert len(previews) == 8
    assert {png_size(pages[p]) for p in previews} == {(1200, 630)}


def test_landing_lists_ranked_models_in_rank_order(pages: dict[str, bytes]) -> None:
    html = page(pages, "index.html")
    ranked = [m for m in PAGE_MODELS if m[3] is not None]
    positions = [html.index(f'href="models/{m[0]}/"') for m in ranked]
    assert positions == sorted(positions)
    # the unranked model is listed separately, after the leaderboard
    assert html.index('href="models/theta-8/"') > positions[-1]


def test_names_are_escaped(pages: dict[str, bytes]) -> None:
    html = page(pages, "models/beta-2/index.html")
    assert "Beta Two &lt;b&gt;" in html
    assert "<b>" not in html
    assert "Bolt &amp; Co" in html


def test_model_page_shows_dimensions_cost_results_and_domains(pages: dict[str, bytes]) -> None:
    html = page(pages, "models/alpha-1/index.html")
    # _dims(150, 0): imputed where (k + 0) % 3 == 0 -> k = 0, 3, 6 -> three imputed dimensions
    assert html.count('class="badge imputed"') == 3
    assert html.count('class="badge direct"') == 4
    assert "cost per test on vals.ai benchmarks divided by its list input plus output price" in html
    assert 'href="https://hub.example.org/data"' in html  # provenance link
    assert 'href="../../domains/cybersecurity/"' in html  # domain standings
    assert "1 of 5" in html  # alpha-1 leads both sample domains of 5 models
    assert "Extra high" in html and "December checkpoint" in html
    assert 'href="../../benchmarks/arc-agi-1/"' in html
    # the webdev-arena result (harness bash-only) states its effort setting beside the harness
    assert "<td>bash-only</td>\n<td>high</td>" in html
    assert "Also known as <code>alpha-1-classic</code>" in html  # its aliases


def test_unranked_model_page_says_so(pages: dict[str, bytes]) -> None:
    html = page(pages, "models/theta-8/index.html")
    assert "not ranked" in html
    assert "no composite IQ" in html


def test_chart_page_has_social_tags_and_inline_svg(pages: dict[str, bytes]) -> None:
    html = page(pages, "charts/iq-vs-cost/index.html")
    assert f'<meta property="og:image" content="{BASE}/charts/iq-vs-cost.png">' in html
    assert '<meta property="og:title" content="IQ versus effective cost">' in html
    assert '<meta name="twitter:card" content="summary_large_image">' in html
    assert 'role="img"' in html and "<title id=" in html and "<desc id=" in html
    assert f'<link rel="canonical" href="{BASE}/charts/iq-vs-cost/">' in html


def test_benchmark_page_has_its_score_chart(pages: dict[str, bytes]) -> None:
    html = page(pages, "benchmarks/webdev-arena/index.html")
    assert html.count("<svg") == 1
    assert html.count("<rect") >= 7  # background + one bar per ranked model (6)
    assert 'href="../../charts/webdev-arena-scores/"' in html


def test_domain_page_shows_status_and_ranges(pages: dict[str, bytes]) -> None:
    html = page(pages, "domains/cybersecurity/index.html")
    assert html.count('class="badge full"') == 2
    assert html.count('class="badge partial"') == 3
    assert "133.7–146.3" in html  # estimate_low95 133.73, high95 146.27 at one decimal
    assert "agent-x" in html  # harness column
    assert "External X" in html  # a model without a profile is plain text


def test_methodology_page_writes_formulas_with_parameters(pages: dict[str, bytes]) -> None:
    html = page(pages, "methodology/index.html")
    assert "[<var>s</var> = 200.0]" in html  # sigma_cross_scale (version 3)
    assert "<var>τ</var> = 10.0" in html
    assert "Knowledge work added." in html
    assert 'id="effective-cost"' in html and 'id="formulas"' in html


def test_api_docs_page_has_curl_examples_and_mcp(pages: dict[str, bytes]) -> None:
    html = page(pages, "docs/index.html")
    assert f"curl -s {BASE}/api/v1/models/alpha-1" in html
    assert f"curl -s {BASE}/api/v1/domains/cybersecurity" in html
    assert f"claude mcp add --transport http modelscores {BASE}/api/mcp" in html
    assert 'id="schema-ModelDetail"' in html


def test_404_page_uses_absolute_links(pages: dict[str, bytes]) -> None:
    html = page(pages, "404.html")
    assert f'href="{BASE}/static/site.css"' in html
    hrefs = re.findall(r'href="([^"]+)"', html)
    assert hrefs and all(h.startswith((BASE, "#", "data:")) for h in hrefs)


@pytest.mark.parametrize(
    ("page_path", "target", "expected"),
    [
        ("index.html", f"{BASE}/models/a/", "models/a/"),
        ("index.html", "", "./"),
        ("models/a/index.html", f"{BASE}/models/b/", "../b/"),
        ("models/a/index.html", "", "../../"),
        ("models/a/index.html", "static/site.css", "../../static/site.css"),
        ("models/a/index.html", "methodology/#formulas", "../../methodology/#formulas"),
        ("models/a/index.html", "#cost", "#cost"),
        ("models/a/index.html", "https://other.example/x", "https://other.example/x"),
        ("charts/index.html", f"{BASE}/charts/x.png", "x.png"),
    ],
)
def test_linker_makes_relative_links(page_path: str, target: str, expected: str) -> None:
    assert Linker(BASE, page_path)(target) == expected


def test_linker_is_absolute_for_404() -> None:
    assert Linker(BASE + "/", "404.html", absolute=True)("docs/") == f"{BASE}/docs/"


def test_chart_without_a_kind_tag_is_a_build_error() -> None:
    docs = sample_documents()
    charts = docs["/charts"]
    assert isinstance(charts, ChartList)
    bad = replace(charts.charts[0], tags=["composite"])
    docs["/charts"] = replace(charts, charts=[bad])
    with pytest.raises(BuildError, match="must name exactly one kind"):
        render_pages(docs, SiteConfig(base_url=BASE))
    assert chart_kind(charts.charts[0]) == "iq-distribution"


def test_histogram_bins_hand_checked() -> None:
    # values 150 141 133 128 117 104 97 -> 5-point bins from 95 to 150
    plot = iq_histogram(SiteDocuments(sample_documents()))
    assert plot.values == (150, 141, 133, 128, 117, 104, 97)
    counts = dict(plot.table.rows)
    assert counts["95–99"] == "1" and counts["100–104"] == "1" and counts["105–109"] == "0"
    assert sum(int(c) for c in counts.values()) == 7
    assert len(counts) == 12  # (150 - 95) / 5 + 1


def test_cost_frontier_highlights_models_no_cheaper_model_beats() -> None:
    plot = cost_scatter(SiteDocuments(sample_documents()))
    # by cost: epsilon 0.04 (117), delta 0.25 (128), eta 0.5 (97: beaten by epsilon),
    # gamma 0.9 (133), beta 3.5 (141), alpha 12 (150); zeta and theta have no price
    assert [(p.label, p.highlight) for p in plot.points] == [
        ("Epsilon Five", True),
        ("Delta Four", True),
        ("Eta Seven", False),
        ("Gamma Three", True),
        ("Beta Two <b>", True),
        ("Alpha One", True),
    ]


def test_bars_start_at_zero_unless_values_cluster_far_from_it() -> None:
    fractions = Bars((Bar("a", 0.9), Bar("b", 0.3)), "fraction")
    elo = Bars((Bar("a", 1400.0), Bar("b", 1365.0)), "Elo").draw(600, 200)
    assert ">1,360<" in elo and ">0<" not in elo  # axis starts near the data, not at 0
    assert ">0<" in fractions.draw(600, 200)


def test_nice_ticks_hand_checked() -> None:
    assert svg.nice_ticks(0, 7, 5) == [0, 2, 4, 6, 8]  # raw step 1.4 -> 2
    assert svg.nice_ticks(87, 153, 5) == [80, 100, 120, 140, 160]  # raw 13.2 -> 20
    assert svg.log_ticks(0.04, 12) == [0.01, 0.1, 1.0, 10.0, 100.0]


def test_histogram_summary_reads_well_with_no_models() -> None:
    assert Histogram(()).summary == "No model has a composite IQ yet."


def test_cost_waterfall_names_the_multiplier_source() -> None:
    docs = SiteDocuments(sample_documents())
    rows = {r.label: r for r in cost_rows(docs.model_details["alpha-1"].cost)}
    assert rows["Effective cost"].value == "$12.00"
    assert rows["Base (input + output)"].value == "$9.60"  # 12 / 1.25
    assert rows["Usage multiplier"].value == "× 1.25"
    unpriced = {r.label: r for r in cost_rows(docs.model_details["zeta-6"].cost)}
    assert unpriced["Usage multiplier"].note == "no positive price recorded, so no multiplier"


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.04, "$0.04"), (0.1, "$0.10"), (0.0375, "$0.0375"), (3.5, "$3.50"), (None, "–")],
)
def test_format_cost(value: float | None, text: str) -> None:
    assert format_cost(value) == text


def test_openapi_descriptions_show_backticks_as_code() -> None:
    from generator.pages.render import _inline_code

    assert _inline_code("code `model_not_found` <b>") == (
        "code <code>model_not_found</code> &lt;b&gt;"
    )
    assert _inline_code("one ` tick") == "one ` tick"


def test_api_docs_page_is_generated_from_the_openapi_document() -> None:
    openapi = {
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1", "description": "Read `models`."},
        "paths": {
            "/": {"get": {"summary": "Index", "responses": {"200": {"description": "OK."}}}},
            "/models/{id}": {
                "get": {
                    "summary": "One model",
                    "parameters": [{"name": "id", "in": "path", "example": "gpt-x"}],
                    "responses": {
                        "404": {
                            "description": "Unknown id (code `model_not_found`).",
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/Error"}
                                }
                            },
                        }
                    },
                }
            },
        },
        "components": {
            "schemas": {
                "Error": {
                    "description": "Every 404.",
                    "properties": {
                        "code": {"type": "string"},
                        "n": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
                    },
                    "required": ["code"],
                }
            }
        },
    }
    html = render_pages(sample_documents(), SiteConfig(base_url=BASE), openapi)[
        "docs/index.html"
    ].decode()
    assert f"curl -s {BASE}/api/v1</code>" in html  # the index, without a trailing slash
    assert f"curl -s {BASE}/api/v1/models/gpt-x" in html  # the parameter's example
    assert "Unknown id (code <code>model_not_found</code>): " in html
    assert '<a href="#schema-Error">Error</a>' in html
    assert "integer or null" in html and "≥ 0" in html
    assert "Read <code>models</code>." in html


def test_inline_bar_charts_show_the_first_fifty_bars() -> None:
    bars = Bars(tuple(Bar(f"m{i}", float(100 - i)) for i in range(80)), "points")
    drawn = inline(bars, "x", "Many")
    assert drawn.count(">m49<") == 1 and ">m50<" not in drawn
    assert "80 models in ranking order (higher is better), the first 50 shown" in drawn


def test_docs_page_lists_the_tools_the_mcp_sidecar_serves(built_site: Path) -> None:
    from mcp_server.server import build_tools
    from mcp_server.site import SnapshotStore

    served = {tool.name for tool in build_tools(SnapshotStore(built_site, check_interval=0))}
    assert served == {tool.name for tool in MCP_TOOLS}
    html = (built_site / "docs/index.html").read_text()
    assert all(f"<code>{name}</code>" in html for name in served)


def test_histogram_summary_names_the_fullest_bin() -> None:
    # bins 100-104: 2 models, 110-114: 1 model -> the fullest is 100-104
    assert Histogram((100, 103, 112)).summary.endswith(
        "the most common range is 100–104 with 2 models."
    )
    assert Histogram((100,)).summary.endswith("with 1 model.")


def test_pages_render_when_no_model_is_ranked() -> None:
    docs = sample_documents()
    models = docs["/models"]
    assert isinstance(models, ModelList)
    docs["/models"] = replace(
        models, models=[replace(m, rank=None, iq=None) for m in models.models]
    )
    for model_id in list(SiteDocuments(sample_documents()).model_details):
        detail = docs[f"/models/{model_id}"]
        assert isinstance(detail, ModelDetail)
        docs[f"/models/{model_id}"] = replace(detail, rank=None, iq=None)
    pages = render_pages(docs, SiteConfig(base_url=BASE))
    assert "No model has a composite IQ yet." in page(pages, "charts/iq-distribution/index.html")
    landing = page(pages, "index.html")
    assert "No model has a composite IQ yet." in landing
    # the leaderboard still lists every model, none with a rank or a group
    assert landing.count('<tr class="unranked"') == len(PAGE_MODELS)
    assert 'class="group-' not in landing
    assert png_size(pages["charts/frontier.png"]) == (1200, 630)


def _landing_row(html: str, model_id: str) -> str:
    return html.split(f'data-id="{model_id}"')[1].split("</tr>")[0]


def test_landing_marks_imputed_dimensions_and_counts_them(pages: dict[str, bytes]) -> None:
    html = page(pages, "index.html")
    imputed = re.compile(r'<span class="imp">(\d+)<span class="mark" aria-hidden="true">i</span>')
    # alpha-1, _dims(150, 0): imputed where k % 3 == 0 -> k = 0, 3, 6 -> 150 + (k - 3) * 2
    alpha = _landing_row(html, "alpha-1")
    assert imputed.findall(alpha) == ["144", "150", "156"]
    assert "3 of 7 imputed" in alpha and alpha.count("(imputed)") == 3
    # beta-2, _dims(141, 1): (k + 1) % 3 == 0 -> k = 2, 5 -> 139, 145
    beta = _landing_row(html, "beta-2")
    assert imputed.findall(beta) == ["139", "145"] and "2 of 7 imputed" in beta
    # theta-8 has no dimension values: nothing to mark or count
    theta = _landing_row(html, "theta-8")
    assert imputed.findall(theta) == [] and "imputed" not in theta.split(">", 1)[1]
    assert 'id="imputed-legend"' in html and "<strong>imputed</strong>" in html


def test_landing_rows_carry_what_the_script_filters_on(pages: dict[str, bytes]) -> None:
    html = page(pages, "index.html")
    assert (
        '<tr class="group-odd" data-id="alpha-1" data-provider="Acme" data-open="0" '
        'data-released="2025-09-01" data-imputed="3" data-provisional="0" '
        'data-names="Alpha One|alpha-1|alpha-1-classic"'
    ) in html
    assert '<tr class="unranked" data-id="theta-8" data-provider="Zed" data-open="1"' in html
    assert "<option>Bolt &amp; Co</option>" in html  # the provider filter, escaped
    assert '<form class="controls" id="leaderboard-controls" hidden>' in html  # shown by site.js
    assert html.count('<script src="static/site.js" defer></script>') == 1


def test_composite_ranking_counts_imputed_dimensions(pages: dict[str, bytes]) -> None:
    html = page(pages, "rankings/composite-iq/index.html")
    assert "<abbr title=" in html and ">Imputed</abbr>" in html
    assert '<td class="num">3 of 7</td>' in html  # alpha-1, as on the landing page
    assert ">Imputed</abbr>" not in page(pages, "rankings/effective-cost/index.html")


def test_compare_page_lists_every_model_and_the_dimension_names(pages: dict[str, bytes]) -> None:
    html = page(pages, "compare/index.html")
    assert html.count('<select id="compare-') == 4
    assert html.count('<option value="alpha-1">Alpha One</option>') == 4
    assert 'data-api="../api/v1/models/"' in html and f'data-site="{BASE}/"' in html
    assert '[["abstract-reasoning", "' in html  # (slug, name) pairs in dimension order
    assert "<noscript>" in html


def test_model_and_dimension_ranking_pages_mark_imputed_values(pages: dict[str, bytes]) -> None:
    mark = re.compile(r'<span class="imp">([\d.]+)<span class="mark" aria-hidden="true">i</span>')
    # alpha-1: k = 0, 3, 6 imputed -> 144, 150, 156 (as on the landing page), then the legend
    assert mark.findall(page(pages, "models/alpha-1/index.html")) == ["144", "150", "156", "112"]
    ranking = page(pages, "rankings/reliability-iq/index.html")  # the legend, then one per mark
    assert len(mark.findall(ranking)) == ranking.count('class="badge imputed"') + 1
    assert mark.findall(page(pages, "rankings/composite-iq/index.html")) == []


def test_each_dimension_goes_by_one_name(pages: dict[str, bytes]) -> None:
    """The leaderboard's narrow headers show a short label, with the full name for screen
    readers (visually hidden) and on hover (title), and sort under the full name."""
    from generator.vocabulary import DIMENSIONS

    html = page(pages, "index.html")
    for d in DIMENSIONS:
        assert f'data-label="{d.name}"' in html
        if d.short != d.name:
            shown = f'<span aria-hidden="true" title="{d.name}">{d.short}</span>'
            assert f'{shown}<span class="visually-hidden">{d.name}</span>' in html
    assert ">Coding<" not in html


def test_each_model_page_links_prefilled_reports_of_a_wrong_value() -> None:
    """With `--issues-url`, each benchmark result links a new issue naming the model, the
    field and its row of data/ (and that row's source); one more link covers any value.
    Without it, no link."""
    import html as markup
    from urllib.parse import parse_qs, urlsplit

    issues = "https://git.example/o/r/issues/new"
    documents = sample_documents()
    pages = render_pages(documents, SiteConfig(base_url=BASE, issues_url=issues))
    found = re.compile(
        r'<td><a href="([^"]+)" rel="noopener">Report'
        r'<span class="visually-hidden"> a wrong ([^<]+) result</span></a></td>'
    )
    models = SiteDocuments(documents).model_details.values()
    assert sum(len(m.benchmark_results) for m in models) > 3
    for model in models:
        html = page(pages, f"models/{model.id}/index.html")
        links = found.findall(html)
        assert len(links) == len(model.benchmark_results)
        for (href, name), (bid, r) in zip(links, model.benchmark_results.items(), strict=True):
            url = urlsplit(markup.unescape(href))
            assert f"{url.scheme}://{url.netloc}{url.path}" == issues and name == r.name
            query = parse_qs(url.query)
            assert query["title"] == [f"Wrong value: {model.name}, {r.name}"]
            body = query["body"][0].split("\n")
            assert body[:3] == [
                f"Model: {model.name} (`{model.id}`), {model.url}",
                f"Field: benchmarkResults.{bid}.value = {format_value(r.value)} ({r.name})",
                f'Source row: data/models/{model.id}.toml, [[results]] benchmark = "{bid}"; '
                f"from {r.source_name}, {r.source_url}, as of {r.as_of.isoformat()}",
            ]
        assert 'id="report-wrong-value"' in html
    plain = render_pages(documents, SiteConfig(base_url=BASE))["models/alpha-1/index.html"]
    assert b"Report" not in plain and b"report-wrong-value" not in plain
