"""The Python row renderers print what the templates' row loops printed, byte for byte.

`generator/pages/rows.py` replaced the row loops of history_snapshot.html, ranking.html,
benchmark.html, model.html, domain.html and index.html. Each test renders the replaced
loop (kept here, verbatim, as the reference) and the renderer through the pages' own Jinja
environment, from rows whose names, ids, providers and URLs are hostile text, and compares
the output.
"""

from __future__ import annotations

import datetime
from types import SimpleNamespace
from typing import Any

import markupsafe
import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.api.contract import (
    HISTORY_SNAPSHOT,
    DimensionDetails,
    DimensionScoreDetailed,
    DomainCompositeEntry,
    DomainResultRow,
    HistoryEntry,
    ModelBenchmarkResult,
    RankedModel,
)
from generator.pages import render, rows
from generator.pages.links import Hrefs, Linker
from generator.pages.views import CostRow, DimensionCell, DomainLink, LeaderRow

BASE = "https://scores.example"
HOSTILE = st.one_of(
    st.text(max_size=12),
    st.text(alphabet="<>&'\"`=/ a–é\u2028", max_size=12),
    st.sampled_from(["<script>alert(1)</script>", '" onmouseover="x', "&amp;", "{{ x }}", ""]),
)
URLS = st.one_of(
    HOSTILE.map(lambda s: f"{BASE}/models/{s}/"),  # a page of the site
    HOSTILE.map(lambda s: f"https://elsewhere.example/{s}"),  # outside the base URL
    HOSTILE,  # a site path, or nothing
)
RANKS = st.integers(1, 10**6)
MAYBE_RANKS = st.one_of(st.none(), RANKS)
REALS = st.floats(-1e4, 1e4, allow_nan=False)
MAYBE_REALS = st.one_of(st.none(), REALS)
PAGES = st.sampled_from(
    ["history/2025-01-31/index.html", "rankings/composite-iq/index.html", "models/a/index.html"]
)


def _same(reference: str, made: str, page: str, **context: Any) -> None:
    """The reference loop and the renderer's template give the same text, and the
    renderer's output is Markup (printed as it is)."""
    env = render._environment()
    link = Linker(BASE, page, memo=Hrefs())
    expected = env.from_string(reference).render(link=link, **context)
    got = env.from_string(made).render(link=Linker(BASE, page, memo=Hrefs()), **context)
    assert got == expected


HISTORY_ENTRIES = st.builds(
    HistoryEntry,
    id=HOSTILE,
    name=HOSTILE,
    provider=HOSTILE,
    rank=RANKS,
    iq=st.integers(0, 200),
    iq_low95=MAYBE_REALS,
    iq_high95=MAYBE_REALS,
    rank_low=MAYBE_RANKS,
    rank_high=MAYBE_RANKS,
    provisional=st.booleans(),
    url=URLS,
)


@settings(max_examples=60, deadline=None)
@given(models=st.lists(HISTORY_ENTRIES, max_size=6), page=PAGES)
def test_snapshot_rows_print_what_the_loop_printed(models: list[HistoryEntry], page: str) -> None:
    reference = """<tbody>
{% for r in models %}
<tr><td class="num">{{ r.rank }}</td><td class="num">{{ r.rank_low|dash }}–{{ r.rank_high|dash }}</td><th scope="row">{{ link.anchor(r.name, r.url) }}</th><td>{{ r.provider }}</td><td class="num strong">{{ r.iq }}{% if r.provisional %} <span class="sub prov">provisional</span>{% endif %}</td><td class="num">{{ r.iq_low95|whole }}–{{ r.iq_high95|whole }}</td></tr>
{% endfor %}
</tbody>"""  # noqa: E501
    _same(reference, "<tbody>\n{{ models|snapshot_rows(link) }}</tbody>", page, models=models)


MODEL_HISTORY = st.lists(st.tuples(HOSTILE, RANKS, st.integers(0, 200), st.booleans()), max_size=6)


@settings(max_examples=60, deadline=None)
@given(history=MODEL_HISTORY, page=PAGES)
def test_model_history_rows_print_what_the_loop_printed(
    history: list[tuple[str, int, int, bool]], page: str
) -> None:
    """The loop read each month's page from the context, as render.py worked it out."""
    reference = """<tbody>
{% for date, rank, iq, provisional, page in history %}
<tr><th scope="row"><a href="{{ link(page) }}">{{ date }}</a></th><td class="num">{{ rank }}</td><td class="num">{{ iq }}{% if provisional %} <span class="sub prov">provisional</span>{% endif %}</td></tr>
{% endfor %}
</tbody>"""  # noqa: E501
    twice = history + history  # the second time from the memo
    env = render._environment()
    pages = [(*month, HISTORY_SNAPSHOT.page_path(month[0])) for month in twice]
    expected = env.from_string(reference).render(link=Linker(BASE, page), history=pages)
    made = "<tbody>\n{{ history|model_history_rows(link) }}</tbody>"
    link = Linker(BASE, page, memo=Hrefs())
    assert env.from_string(made).render(link=link, history=twice) == expected


@settings(max_examples=40, deadline=None)
@given(
    history=st.lists(
        st.tuples(
            st.one_of(st.sampled_from(["a", "b"]), HOSTILE),
            RANKS,
            st.integers(0, 200),
            st.booleans(),
        ),
        max_size=6,
    )
)
def test_month_rows_kept_for_a_class_hold_on_its_other_pages(
    history: list[tuple[str, int, int, bool]],
) -> None:
    """Model pages share their class's memo: the row starts one page kept are what every
    other page of the class works out."""
    for names in (["models/a", "models/b", "models/<c>"], ["history/a", "history/b"]):
        memo = Hrefs()  # one per class
        for name in names + names[::-1]:
            page = f"{name}/index.html"
            shared = rows.model_history_rows(history, Linker(BASE, page, memo=memo))
            assert shared == rows.model_history_rows(history, Linker(BASE, page))


RANKED = st.builds(
    RankedModel,
    id=HOSTILE,
    name=HOSTILE,
    provider=HOSTILE,
    rank=RANKS,
    score=MAYBE_REALS,
    imputed=st.sampled_from([True, False, msgspec.UNSET]),
    rank_low=st.one_of(st.just(msgspec.UNSET), RANKS),
    rank_high=st.one_of(st.just(msgspec.UNSET), RANKS),
    url=st.one_of(st.just(msgspec.UNSET), URLS),
    provisional=st.sampled_from([True, False, msgspec.UNSET]),
)
PROFILES = st.dictionaries(HOSTILE, st.one_of(st.none(), URLS), max_size=3)


def _with_known_ids(models: list[RankedModel], urls: dict[str, str | None]) -> dict[str, Any]:
    """Profile URLs for some of the models' ids as well as for others."""
    known = {m.id: f"{BASE}/models/{m.id}/" for m in models[::2]}
    return {**urls, **known}


@settings(max_examples=80, deadline=None)
@given(
    models=st.lists(RANKED, max_size=6),
    urls=PROFILES,
    ranking_id=st.sampled_from(["composite-iq", "effective-cost", "math-iq", "<b>"]),
    kind=st.sampled_from(["derived", "dimension", "benchmark"]),
    banded=st.booleans(),
    counts=st.one_of(st.none(), st.dictionaries(HOSTILE, st.integers(0, 7), max_size=3)),
    page=PAGES,
)
def test_ranking_rows_print_what_the_loop_printed(
    models: list[RankedModel],
    urls: dict[str, str | None],
    ranking_id: str,
    kind: str,
    banded: bool,
    counts: dict[str, int] | None,
    page: str,
) -> None:
    ranking = SimpleNamespace(id=ranking_id, ranking_type=kind, models=models)
    if counts is not None:
        counts.update({m.id: 3 for m in models[1::2]})
    reference = """{% import "macros.html" as m with context %}<tbody>
{% for r in ranking.models %}
{% set url = r.url if r.url is string else urls.get(r.id) %}
<tr>
<td class="num">{{ r.rank }}</td>
{% if banded %}<td class="num">{{ r.rank_low|dash }}–{{ r.rank_high|dash }}</td>{% endif %}
<th scope="row">{{ link.anchor(r.name, url) }}</th>
<td>{{ r.provider }}</td>
<td class="num strong">{% if ranking.id == "effective-cost" %}{{ r.score|cost }}{% elif r.imputed is true and r.score is not none %}<span class="imp">{{ r.score|value }}{{ imputed_mark }}</span>{% elif r.provisional is true %}{{ r.score|value }} <span class="sub prov">provisional</span>{% else %}{{ r.score|value }}{% endif %}</td>
{% if ranking.ranking_type == "dimension" %}<td>{% if r.imputed %}<span class="badge imputed">imputed</span>{% else %}<span class="badge direct">direct</span>{% endif %}</td>{% endif %}
{% if imputed %}<td class="num">{{ imputed.get(r.id, 0) }} of 7</td>{% endif %}
</tr>
{% endfor %}
</tbody>"""  # noqa: E501
    made = "<tbody>\n{{ ranking|ranking_rows(link, urls, banded, imputed) }}</tbody>"
    context = {"ranking": ranking, "urls": _with_known_ids(models, urls), "banded": banded}
    _same(reference, made, page, imputed=counts, ranges_statement=None, **context)


@settings(max_examples=60, deadline=None)
@given(models=st.lists(RANKED, max_size=6), urls=PROFILES, page=PAGES)
def test_benchmark_rows_print_what_the_loop_printed(
    models: list[RankedModel], urls: dict[str, str | None], page: str
) -> None:
    reference = """<tbody>
{% for r in models %}
{% set url = r.url if r.url is string else urls.get(r.id) %}
<tr><td class="num">{{ r.rank }}</td><th scope="row">{{ link.anchor(r.name, url) }}</th><td>{{ r.provider }}</td><td class="num strong">{{ r.score|value }}</td></tr>
{% endfor %}
</tbody>"""  # noqa: E501
    made = "<tbody>\n{{ models|benchmark_rows(link, urls) }}</tbody>"
    _same(reference, made, page, models=models, urls=_with_known_ids(models, urls))


DIMENSION = st.builds(
    DimensionScoreDetailed,
    iq=st.one_of(st.none(), st.integers(0, 200)),
    iq_sd=st.none(),
    iq_low95=MAYBE_REALS,
    iq_high95=MAYBE_REALS,
    benchmarks_covered=st.integers(0, 50),
    benchmarks_total=st.integers(0, 50),
    imputed=st.booleans(),
    estimation_method=st.one_of(st.just(msgspec.UNSET), HOSTILE),
)
FIELDS = [f for f in DimensionDetails.__struct_fields__]
RESULTS = st.builds(
    ModelBenchmarkResult,
    value=REALS,
    field=HOSTILE,
    name=HOSTILE,
    category=st.sampled_from(["iq", "eq"]),
    dimension=st.one_of(st.none(), st.sampled_from(["math", "<x>", ""]), HOSTILE),
    direction=st.just("higher_is_better"),
    projected_iq=REALS,
    source_name=HOSTILE,
    source_url=URLS,
    as_of=st.dates(datetime.date(2020, 1, 1), datetime.date(2030, 1, 1)),
    harness=st.one_of(st.none(), HOSTILE),
    effort=st.one_of(st.none(), HOSTILE),
    as_of_kind=st.sampled_from(["measured", "published", "not-before"]),
    extrapolated=st.booleans(),
    post_cutoff=st.one_of(st.none(), st.booleans()),
    post_cutoff_note=st.one_of(st.none(), HOSTILE),
)


@settings(max_examples=60, deadline=None)
@given(
    dimensions=st.lists(DIMENSION, min_size=len(FIELDS), max_size=len(FIELDS)),
    names=st.lists(HOSTILE, min_size=len(FIELDS), max_size=len(FIELDS)),
    urls=st.lists(st.one_of(st.none(), URLS), min_size=len(FIELDS), max_size=len(FIELDS)),
    results=st.dictionaries(HOSTILE, RESULTS, max_size=4),
    result_urls=st.lists(st.one_of(st.none(), URLS), min_size=4, max_size=4),
    dimension_names=st.dictionaries(st.sampled_from(["math", "<x>", ""]), HOSTILE),
    page=PAGES,
)
def test_model_rows_print_what_the_loops_printed(
    dimensions: list[DimensionScoreDetailed],
    names: list[str],
    urls: list[str | None],
    results: dict[str, ModelBenchmarkResult],
    result_urls: list[str | None],
    dimension_names: dict[str, str],
    page: str,
) -> None:
    model = SimpleNamespace(
        dimensions=DimensionDetails(**dict(zip(FIELDS, dimensions, strict=True))),
        benchmark_results=results,
    )
    view = SimpleNamespace(
        dimensions=[(f, n, f, u) for f, n, u in zip(FIELDS, names, urls, strict=True)],
        results=list(zip(results, result_urls, strict=False)),
        dimension_names=dimension_names,
        # every other result has a report link, some none: a row without one says so
        reports={bid: f"https://t.example/new?title={bid}" for bid in list(results)[::2]},
    )
    reference = """{% import "macros.html" as m with context %}<tbody>
{% for slug, name, field, url in view.dimensions %}
{% set d = model.dimensions[field] %}
<tr>
<th scope="row">{{ link.anchor(name, url) }}</th>
<td class="num strong">{% if d.imputed and d.iq is not none %}<span class="imp">{{ d.iq }}{{ imputed_mark }}</span>{% else %}{{ d.iq|dash }}{% endif %}</td>
<td class="num">{% if d.iq_low95 is not none %}{{ d.iq_low95|whole }}–{{ d.iq_high95|whole }}{% else %}–{% endif %}</td>
<td class="num">{{ d.benchmarks_covered }} of {{ d.benchmarks_total }}</td>
<td>{% if d.imputed %}<span class="badge imputed">imputed</span>{% else %}<span class="badge direct">direct</span>{% endif %}{% if d.estimation_method %} <span class="muted">{{ d.estimation_method }}</span>{% endif %}</td>
</tr>
{% endfor %}
</tbody>
<tbody>
{% for bid, url in view.results %}
{% set r = model.benchmark_results[bid] %}
<tr>
<th scope="row">{{ link.anchor(r.name, url) }}</th>
<td>{{ view.dimension_names.get(r.dimension or "", "Emotional reasoning" if r.category == "eq" else "–") }}</td>
<td class="num">{{ r.value|value }}</td>
<td class="num">{% if r.extrapolated %}{{ "at least 130" if r.projected_iq > 100 else "at most 70" }}{% else %}{{ r.projected_iq|fixed(2) }}{% endif %}</td>
<td>{{ r.harness|dash }}</td>
<td>{{ r.effort|dash }}</td>
<td>{{ link.anchor(r.source_name, r.source_url, external=True) }}</td>
<td class="date">{{ {"not-before": "not before ", "published": "by "}.get(r.as_of_kind, "") ~ r.as_of.isoformat() }}</td>
<td>{% if r.post_cutoff is none %}<span title="{{ r.post_cutoff_note or "" }}">–</span>{% elif r.post_cutoff %}yes{% else %}no{% endif %}</td>
{% if view.reports %}<td>{% if view.reports.get(bid) %}<a href="{{ view.reports[bid] }}" rel="noopener">Report<span class="visually-hidden"> a wrong {{ r.name }} result</span></a>{% else %}–{% endif %}</td>
{% endif %}
</tr>
{% endfor %}
</tbody>"""  # noqa: E501
    made = """<tbody>
{{ model|dimension_rows(view.dimensions, link) }}</tbody>
<tbody>
{{ model|result_rows(view, link) }}</tbody>"""
    _same(reference, made, page, model=model, view=view, ranges_statement=None)


def test_hostile_text_is_escaped_once() -> None:
    """A name that is markup prints as text: the renderer does not pass it through raw,
    nor escape the anchor it makes a second time."""
    entry = HistoryEntry(
        id="x", name="<b>&amp;", provider="<i>", rank=1, iq=100, iq_low95=None,
        iq_high95=None, rank_low=None, rank_high=None, provisional=False,
        url=f"{BASE}/models/x/",
    )  # fmt: skip
    html = rows.snapshot_rows([entry], Linker(BASE, "history/d/index.html"))
    assert isinstance(html, markupsafe.Markup)
    assert '<a href="../../models/x/">&lt;b&gt;&amp;amp;</a>' in html
    assert "<td>&lt;i&gt;</td>" in html


DOMAIN_ENTRIES = st.builds(
    DomainCompositeEntry,
    model=HOSTILE,
    model_name=HOSTILE,
    composite_iq=st.integers(0, 200),
    rank_status=st.sampled_from(["full", "partial"]),
    benchmarks_covered=st.integers(0, 9),
    benchmarks_total=st.integers(0, 9),
    model_url=st.one_of(st.none(), URLS),
    observed_composite_iq=st.one_of(st.just(msgspec.UNSET), REALS, st.integers(0, 200)),
    coverage_adjustment=st.one_of(st.just(msgspec.UNSET), REALS),
    estimate_low95=st.one_of(st.just(msgspec.UNSET), REALS, st.integers(0, 200)),
    estimate_high95=st.one_of(st.just(msgspec.UNSET), REALS),
)
DOMAIN_RESULTS = st.builds(
    DomainResultRow,
    model=HOSTILE,
    harness=st.one_of(st.none(), HOSTILE),
    effort=st.one_of(st.none(), HOSTILE),
    score=REALS,
    model_url=st.one_of(st.none(), URLS),
)


@settings(max_examples=60, deadline=None)
@given(
    entries=st.lists(DOMAIN_ENTRIES, max_size=5),
    results=st.lists(DOMAIN_RESULTS, max_size=5),
    page=PAGES,
)
def test_domain_rows_print_what_the_loops_printed(
    entries: list[DomainCompositeEntry], results: list[DomainResultRow], page: str
) -> None:
    reference = """<tbody>
{% for e in entries %}
<tr>
<td class="num">{{ loop.index }}</td>
<th scope="row">{{ link.anchor(e.model_name, e.model_url) }}</th>
<td class="num strong">{{ e.composite_iq }}</td>
<td><span class="badge {{ e.rank_status }}">{{ e.rank_status }}</span></td>
<td class="num">{{ e.benchmarks_covered }} of {{ e.benchmarks_total }}</td>
<td class="num">{% if e.estimate_low95 is number %}{{ e.estimate_low95|fixed(1) }}–{{ e.estimate_high95|fixed(1) }}{% else %}–{% endif %}</td>
<td class="num">{% if e.observed_composite_iq is number %}{{ e.observed_composite_iq|fixed(1) }}{% else %}–{% endif %}</td>
<td class="num">{{ e.coverage_adjustment|signed }}</td>
</tr>
{% endfor %}
</tbody>
<tbody>
{% for r in results %}
<tr><th scope="row">{{ link.anchor(r.model, r.model_url) }}</th><td>{{ r.harness|dash }}</td><td>{{ r.effort|dash }}</td><td class="num">{{ r.score|value }}</td></tr>
{% endfor %}
</tbody>"""  # noqa: E501
    made = """<tbody>
{{ entries|domain_rows(link) }}</tbody>
<tbody>
{{ results|domain_result_rows(link) }}</tbody>"""
    _same(reference, made, page, entries=entries, results=results)


NAMES = st.one_of(HOSTILE, HOSTILE.map(markupsafe.Markup))
MAYBE_IQS = st.one_of(st.none(), st.integers(0, 200))
SUMMARIES = st.builds(
    SimpleNamespace,
    id=HOSTILE,
    name=HOSTILE,
    provider=HOSTILE,
    url=URLS,
    open_source=st.booleans(),
    release_date=st.one_of(st.none(), st.dates(datetime.date(2020, 1, 1))),
    rank=MAYBE_RANKS,
    rank_low=MAYBE_RANKS,
    rank_high=MAYBE_RANKS,
    iq=MAYBE_IQS,
    iq_low95=MAYBE_REALS,
    iq_high95=MAYBE_REALS,
    emotional_reasoning=MAYBE_IQS,
    cost=st.builds(SimpleNamespace, effective_per_1m=st.one_of(st.none(), st.floats(0, 1e4))),
    speed=st.builds(SimpleNamespace, response_time_sec=st.one_of(st.none(), st.floats(0.1, 1e4))),
    provisional=st.booleans(),
)
LEADER_ROWS = st.builds(
    LeaderRow,
    model=SUMMARIES,
    group=st.one_of(st.none(), st.integers(1, 50)),
    cells=st.lists(st.builds(DimensionCell, MAYBE_IQS, st.booleans()), max_size=7),
    imputed=st.integers(0, 7),
    names=st.lists(NAMES, max_size=4),
)


@settings(max_examples=60, deadline=None)
@given(leaders=st.lists(LEADER_ROWS, max_size=4), page=st.just("index.html"))
def test_leaderboard_rows_print_what_the_loop_printed(leaders: list[LeaderRow], page: str) -> None:
    reference = """{% import "macros.html" as m with context %}<tbody>
{% for row in rows %}
{% set model = row.model %}
<tr class="{{ ('group-' ~ ('odd' if row.group % 2 else 'even')) if row.group else 'unranked' }}" data-id="{{ model.id }}" data-provider="{{ model.provider }}" data-open="{{ 1 if model.open_source else 0 }}" data-released="{{ model.release_date.isoformat() if model.release_date else '' }}" data-imputed="{{ row.imputed }}" data-provisional="{{ 1 if model.provisional else 0 }}" data-names="{{ row.names|join('|') }}">
<td class="num" data-v="{{ model.rank if model.rank is not none else '' }}">{% if model.rank is not none %}{{ model.rank }}{% if model.rank_low is not none %} <span class="sub band">band {{ model.rank_low }}–{{ model.rank_high }}</span>{% endif %}{% else %}–{% endif %}</td>
<td class="num col-group" data-v="{{ row.group or '' }}">{{ row.group or "–" }}</td>
<th scope="row" class="name" data-s="{{ model.name }}">{{ link.anchor(model.name, model.url) }} <span class="sub provider-sub">{{ model.provider }}</span></th>
<td class="col-provider">{{ model.provider }}</td>
<td class="num" data-v="{{ model.iq if model.iq is not none else '' }}"><span class="strong">{{ model.iq|dash }}</span>{% if model.iq_low95 is not none %} <span class="sub">{{ model.iq_low95|whole }}–{{ model.iq_high95|whole }}</span>{{ range_bar(model.iq, model.iq_low95, model.iq_high95)|safe }}{% endif %}{% if model.provisional %} <span class="sub prov" title="Rests on {{ 7 - row.imputed }} of 7 dimensions measured">provisional<span class="visually-hidden">: {{ 7 - row.imputed }} of 7 dimensions measured</span></span>{% endif %}{% if row.imputed %} <span class="sub imp-count">{{ row.imputed }} of 7 imputed</span>{% endif %}</td>
{% for cell in row.cells %}
<td class="num dim" data-v="{{ cell.iq if cell.iq is not none else '' }}">{% if cell.imputed %}<span class="imp">{{ cell.iq }}{{ imputed_mark }}</span>{% else %}{{ cell.iq|dash }}{% endif %}</td>
{% endfor %}
<td class="num" data-v="{{ model.emotional_reasoning if model.emotional_reasoning is not none else '' }}">{{ model.emotional_reasoning|dash }}</td>
<td class="num" data-v="{{ model.cost.effective_per_1m if model.cost.effective_per_1m is not none else '' }}">{{ model.cost.effective_per_1m|cost }}</td>
<td class="num" data-v="{{ model.speed.response_time_sec if model.speed.response_time_sec is not none else '' }}">{{ model.speed.response_time_sec|value }}</td>
</tr>
{% endfor %}
</tbody>"""  # noqa: E501
    made = "<tbody>\n{{ rows|leaderboard_rows(link) }}</tbody>"
    _same(reference, made, page, rows=leaders, ranges_statement=None, range_bar=rows.range_bar)


def test_the_range_bar_draws_the_range_and_the_estimate_on_the_iq_scale() -> None:
    # viewBox 0-90 is IQ 70-160: range 112.4-131.6 -> x 42.4, width 19.2; estimate 122 -> a
    # 1.5 wide tick centred on 52 -> x 51.25, printed to one decimal as 51.2
    bar = rows.range_bar(122, 112.4, 131.6)
    assert '<rect class="r" x="42.4" width="19.2" height="6"/>' in bar
    assert '<rect class="e" x="51.2" width="1.5" height="6"/>' in bar
    assert 'aria-hidden="true"' in bar and "style" not in bar
    # clamped to the scale: 60-175 draws 0-90, an estimate at 165 sits at the right edge
    # (90 - 1.5 = 88.5)
    bar = rows.range_bar(165, 60, 175)
    assert 'x="0" width="90"' in bar and 'class="e" x="88.5"' in bar
    assert rows.range_bar(None, 100, 110) == rows.range_bar(100, 90, None) == ""


STANDINGS = st.lists(
    st.tuples(
        st.builds(DomainLink, name=HOSTILE, url=URLS),
        st.integers(1, 99),
        st.integers(1, 99),
        DOMAIN_ENTRIES,
    ),
    max_size=3,
)


@settings(max_examples=60, deadline=None)
@given(
    cost=st.lists(st.builds(CostRow, HOSTILE, HOSTILE, HOSTILE), max_size=4),
    standings=STANDINGS,
    page=PAGES,
)
def test_cost_and_standing_rows_print_what_the_loops_printed(
    cost: list[CostRow], standings: list[tuple[Any, ...]], page: str
) -> None:
    reference = """<tbody>
{% for row in view.cost %}
<tr><th scope="row">{{ row.label }}</th><td class="num">{{ row.value }}</td><td>{{ row.note }}</td></tr>
{% endfor %}
</tbody>
<tbody>
{% for domain, position, total, entry in view.domains %}
<tr>
<th scope="row"><a href="{{ link(domain.url) }}">{{ domain.name }}</a></th>
<td class="num">{{ position }} of {{ total }}</td>
<td class="num strong">{{ entry.composite_iq }}</td>
<td>{{ entry.rank_status }} ({{ entry.benchmarks_covered }} of {{ entry.benchmarks_total }} benchmarks)</td>
</tr>
{% endfor %}
</tbody>"""  # noqa: E501
    made = """<tbody>
{{ view.cost|cost_rows }}</tbody>
<tbody>
{{ view.domains|standing_rows(link) }}</tbody>"""
    view = SimpleNamespace(cost=cost, domains=standings)
    _same(reference, made, page, view=view)


CLASS_URLS = st.one_of(
    URLS,
    st.sampled_from(["history", "rankings", "benchmarks"]).flatmap(
        lambda folder: st.sampled_from([f"{BASE}/{folder}/a/", f"{BASE}/{folder}/b/"])
    ),  # a page of the same class as the row's page: its href differs between them
)


@settings(max_examples=60, deadline=None)
@given(
    names=st.lists(st.tuples(HOSTILE, CLASS_URLS, HOSTILE), min_size=1, max_size=5),
    folder=st.sampled_from(["history", "rankings", "benchmarks"]),
)
def test_model_cells_kept_for_a_class_hold_on_its_other_pages(
    names: list[tuple[str, str, str]], folder: str
) -> None:
    """The name and provider cells one page of a class kept are what the class's other
    pages work out, in each of the three row layouts that keep them."""
    entries = [
        HistoryEntry(
            id=f"m{i}", name=name, provider=provider, rank=i + 1, iq=100, iq_low95=None,
            iq_high95=None, rank_low=None, rank_high=None, provisional=i % 2 == 0, url=url,
        )
        for i, (name, url, provider) in enumerate(names)
    ]  # fmt: skip
    ranked = [
        RankedModel(id=e.id, name=e.name, provider=e.provider, rank=e.rank, score=1.0, url=e.url)
        for e in entries
    ]
    ranking = SimpleNamespace(id="composite-iq", ranking_type="derived", models=ranked)
    memo = Hrefs()
    for name in ["a", "b", "a", "<c>"]:
        page = f"{folder}/{name}/index.html"
        shared, alone = Linker(BASE, page, memo=memo), Linker(BASE, page)
        assert rows.snapshot_rows(entries, shared) == rows.snapshot_rows(entries, alone)
        assert rows.benchmark_rows(ranked, shared, {}) == rows.benchmark_rows(ranked, alone, {})
        made = rows.ranking_rows(ranking, shared, {}, True, None)
        assert made == rows.ranking_rows(ranking, alone, {}, True, None)


def test_markup_cells_are_not_kept_for_the_equal_text() -> None:
    """A markup name equal to a plain one prints raw where the plain one is escaped: the
    cells kept for one must not stand for the other, whichever comes first."""
    url = f"{BASE}/models/x/"

    def entry(name: str) -> HistoryEntry:
        return HistoryEntry(
            id="x", name=name, provider="p", rank=1, iq=100, iq_low95=None, iq_high95=None,
            rank_low=None, rank_high=None, provisional=False, url=url,
        )  # fmt: skip

    both = [entry(markupsafe.Markup("<b>x</b>")), entry("<b>x</b>")]
    for entries in (both, both[::-1]):
        memo = Hrefs()
        for page in ("history/a/index.html", "history/b/index.html"):
            shared = rows.snapshot_rows(entries, Linker(BASE, page, memo=memo))
            assert shared == rows.snapshot_rows(entries, Linker(BASE, page))
            assert shared.count("&lt;b&gt;x&lt;/b&gt;</a>") == 1
