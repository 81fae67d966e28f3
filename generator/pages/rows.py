"""The rows of the pages' largest tables, as HTML, in Python.

A history snapshot lists every ranked model, a ranking or benchmark page every scored one,
and a model page a row per month end: at 10,000 models most of the site's printed values
sit in these rows, and Jinja spends about as much on each (a loop step, attribute lookups,
a yield through every enclosing template) as on the value itself. Each function here
makes the exact bytes of one template's former row loop: every value goes through the
same filter and `escape` as the template's `{{ ... }}` (tests/pages/test_rows.py compares
them with the loops, hostile text included). The templates print the result, a Markup.
Printed as they are, with no `escape` call (which would return them unchanged): an int
(its digits), and what `whole`, `fixed`, `signed`, `format_value` and `format_cost` make
(digits, signs, separators, `$`, `–`).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from typing import Any

import markupsafe

from generator.api.contract import HISTORY_SNAPSHOT
from generator.pages.axes import format_value
from generator.pages.formats import dash, escape, fixed, signed, whole
from generator.pages.links import MEMO_LIMIT, Linker
from generator.pages.svg import num
from generator.pages.views import format_cost
from generator.vocabulary import DIMENSION_COUNT, IQ_MAX, IQ_MIN

IMPUTED_MARK = (
    '<span class="mark" aria-hidden="true">i</span><span class="visually-hidden"> (imputed)</span>'
)
"""The mark after an imputed score (the templates' legends print it as `imputed_mark`)."""
PROVISIONAL_MARK = '<span class="sub prov">provisional</span>'
"""After a provisional composite (METHODOLOGY 3.3): it rests on too few measured dimensions."""
BOUNDS = {True: "at least 130", False: "at most 70"}
"""An extrapolated projection of a hand-set ladder, above its IQ-130 point or below its IQ-70
point (`ladder.HAND_SET_FITTED`), shown as the bound it is, never as an exact value."""
DATE_WORDS = {"not-before": "not before ", "published": "by "}
"""How a result's date reads by its `asOfKind` (a measured date reads as itself)."""


def snapshot_rows(models: Iterable[Any], link: Linker) -> markupsafe.Markup:
    """history_snapshot.html: a row per model of one month end's leaderboard.

    An int is printed as its digits without calling `escape` (which returns just that for
    an int): four of a row's values are ints, and the call was a third of a row's time.
    The other row functions do the same with their ints."""
    kept = _kept_cells(link, "")
    out = []
    for r in models:
        rank, low, high, iq = r.rank, r.rank_low, r.rank_high, r.iq
        name, url, provider = r.name, r.url, r.provider
        cells = (
            kept.get((name, url, provider))
            if type(name) is type(url) is type(provider) is str
            else None
        )
        out.append(
            f'<tr><td class="num">{rank if type(rank) is int else escape(rank)}</td>'
            f'<td class="num">{low if type(low) is int else escape(dash(low))}–'
            f"{high if type(high) is int else escape(dash(high))}</td>"
            f"{cells or _model_cells(link, kept, '', name, url, provider)}"
            f'<td class="num strong">{iq if type(iq) is int else escape(iq)}'
            f"{_provisional(r.provisional)}</td>"
            f'<td class="num">{whole(r.iq_low95)}–{whole(r.iq_high95)}</td></tr>\n'
        )
    return markupsafe.Markup("".join(out))


_Cells = dict[tuple[str, str, str], str]
_NEWLINE = "\n"  # ranking.html's cells each end a line


def _kept_cells(link: Linker, sep: str) -> _Cells:
    """The model cells (`_model_cells`) kept for the page's class, by name, URL, provider:
    those of one layout (`sep` between and after the cells)."""
    memo = link.shared_memo
    return memo.cells.setdefault(sep, {}) if memo is not None else {}


def _model_cells(link: Linker, kept: _Cells, sep: str, name: Any, url: Any, provider: Any) -> str:
    """A row's model name (linked to its page) and provider cells. A model's appear on every
    history snapshot and ranking it is in: kept for the page's class when the link is the
    same from each of its pages, and the three are plain strings (a Markup equal to a str
    escapes differently, so it must not find the str's cells)."""
    cells = f'<th scope="row">{link.anchor(name, url)}</th>{sep}<td>{escape(provider)}</td>{sep}'
    plain = type(name) is type(url) is type(provider) is str
    if plain and url and link.shared(url) and len(kept) < MEMO_LIMIT:
        kept[(name, url, provider)] = cells
    return cells


_MONTH = "month row start"  # the key's first part in a class's `fragments`


def _provisional(flag: Any) -> str:
    """` PROVISIONAL_MARK` after a provisional composite, else nothing."""
    return f" {PROVISIONAL_MARK}" if flag is True else ""


def model_history_rows(history: Iterable[Any], link: Linker) -> markupsafe.Markup:
    """model.html: a row per month end since the model was first ranked, from
    `(date, rank, iq, provisional)`, each linking its month's snapshot page. The start of a
    month's row (that link) is the same on every model page of one class: kept in the
    class's memo, like its links."""
    memo = link.shared_memo
    starts = memo.fragments if memo is not None else {}
    out = []
    for date, rank, iq, provisional in history:
        start = starts.get((_MONTH, date)) if type(date) is str else None
        if start is None:
            start = _history_row_start(link, date, starts)
        out.append(
            f'{start}<td class="num">{rank if type(rank) is int else escape(rank)}</td>'
            f'<td class="num">{iq if type(iq) is int else escape(iq)}'
            f"{_provisional(provisional)}</td></tr>\n"
        )
    return markupsafe.Markup("".join(out))


def _history_row_start(link: Linker, date: Any, starts: dict[Any, str]) -> str:
    page = HISTORY_SNAPSHOT.page_path(date)
    start = f'<tr><th scope="row"><a href="{escape(link(page))}">{escape(date)}</a></th>'
    if type(date) is str and link.shared(page) and len(starts) < MEMO_LIMIT:
        starts[(_MONTH, date)] = start
    return start


def _dimension_iq(d: Any) -> str:
    if d.imputed and d.iq is not None:
        return f'<span class="imp">{escape(d.iq)}{IMPUTED_MARK}</span>'
    return escape(dash(d.iq))


def _dimension_range(d: Any) -> str:
    if d.iq_low95 is not None:
        return f"{whole(d.iq_low95)}–{whole(d.iq_high95)}"
    return "–"


def _dimension_estimate(d: Any) -> str:
    badge = (
        '<span class="badge imputed">imputed</span>'
        if d.imputed
        else '<span class="badge direct">direct</span>'
    )
    method = d.estimation_method
    return f'{badge} <span class="muted">{escape(method)}</span>' if method else badge


def dimension_rows(model: Any, dimensions: Iterable[Any], link: Linker) -> markupsafe.Markup:
    """model.html: the dimensions, from the view's `(slug, name, field, ranking URL)`."""
    out = []
    for _slug, name, field, url in dimensions:
        d = getattr(model.dimensions, field)
        out.append(
            f'<tr>\n<th scope="row">{link.anchor(name, url)}</th>\n'
            f'<td class="num strong">{_dimension_iq(d)}</td>\n'
            f'<td class="num">{_dimension_range(d)}</td>\n'
            f'<td class="num">{escape(d.benchmarks_covered)} of {escape(d.benchmarks_total)}</td>\n'
            f"<td>{_dimension_estimate(d)}</td>\n</tr>\n"
        )
    return markupsafe.Markup("".join(out))


def result_rows(model: Any, view: Any, link: Linker) -> markupsafe.Markup:
    """model.html: a row per benchmark result, from the view's `(benchmark id, page URL)`."""
    names, reports = view.dimension_names, view.reports
    out = []
    for bid, url in view.results:
        r = model.benchmark_results[bid]
        report = reports.get(bid)
        unnamed = "Emotional reasoning" if r.category == "eq" else "–"
        dimension = names.get(r.dimension or "", unnamed)
        source = link.anchor(r.source_name, r.source_url, external=True)
        out.append(
            f'<tr>\n<th scope="row">{link.anchor(r.name, url)}</th>\n'
            f"<td>{escape(dimension)}</td>\n"
            f'<td class="num">{format_value(r.value)}</td>\n'
            f'<td class="num">{_projected(r)}</td>\n'
            f"<td>{escape(dash(r.harness))}</td>\n<td>{escape(dash(r.effort))}</td>\n"
            f'<td>{source}</td>\n<td class="date">{_as_of(r)}</td>\n'
            f"<td>{_post_cutoff(r)}</td>\n"
            f"{_report_cell(report, r.name) if reports else ''}"
            "</tr>\n"
        )
    return markupsafe.Markup("".join(out))


def _report_cell(url: Any, name: Any) -> str:
    """A result's link to a prefilled report of it being wrong (`views.model_reports`)."""
    if not url:
        return "<td>–</td>\n"
    hidden = f'<span class="visually-hidden"> a wrong {escape(name)} result</span>'
    return f'<td><a href="{escape(url)}" rel="noopener">Report{hidden}</a></td>\n'


def _projected(r: Any) -> str:
    """A result's projected IQ, or the bound an extrapolated one is (`BOUNDS`)."""
    if r.extrapolated is True:
        return BOUNDS[r.projected_iq > 100]
    return fixed(r.projected_iq, 2)


def _post_cutoff(r: Any) -> str:
    """Whether the benchmark appeared after the model's knowledge cutoff: yes, no, or a dash
    that says why it is not known."""
    if r.post_cutoff is None:
        return f'<span title="{escape(r.post_cutoff_note or "")}">–</span>'
    return "yes" if r.post_cutoff else "no"


def _as_of(r: Any) -> str:
    """A result's date as what it is: `not before D` for a release-date stand-in, `by D` for
    a table's update date, the date alone for a measured one."""
    return escape(DATE_WORDS.get(r.as_of_kind, "") + r.as_of.isoformat())


def data_table_rows(table_rows: Iterable[Any]) -> markupsafe.Markup:
    """macros.html's `data_table`: a chart's numbers (`axes.DataTable.rows`), a row each,
    its first cell the row's header (a model page has one, of a row per month end)."""
    return markupsafe.Markup(
        "".join(
            [
                f'<tr><th scope="row">{escape(row[0])}</th>'
                + "".join([f"<td>{escape(cell)}</td>" for cell in row[1:]])
                + "</tr>\n"
                for row in table_rows
            ]
        )
    )


def cost_rows(cost: Iterable[Any]) -> markupsafe.Markup:
    """model.html: the effective-cost waterfall, from the view's `CostRow`s."""
    return markupsafe.Markup(
        "".join(
            [
                f'<tr><th scope="row">{escape(row.label)}</th>'
                f'<td class="num">{escape(row.value)}</td><td>{escape(row.note)}</td></tr>\n'
                for row in cost
            ]
        )
    )


def standing_rows(domains: Iterable[Any], link: Linker) -> markupsafe.Markup:
    """model.html: the model's domain standings, from the view's `(domain link, position,
    models in the domain, the model's entry)`."""
    out = []
    for domain, position, total, entry in domains:
        covered, of = escape(entry.benchmarks_covered), escape(entry.benchmarks_total)
        out.append(
            f'<tr>\n<th scope="row"><a href="{escape(link(domain.url))}">'
            f"{escape(domain.name)}</a></th>\n"
            f'<td class="num">{escape(position)} of {escape(total)}</td>\n'
            f'<td class="num strong">{escape(entry.composite_iq)}</td>\n'
            f"<td>{escape(entry.rank_status)} ({covered} of {of} benchmarks)</td>\n</tr>\n"
        )
    return markupsafe.Markup("".join(out))


def _profile_url(r: Any, urls: Mapping[str, str | None]) -> str | None:
    """`r.url if r.url is string else urls.get(r.id)`, as the ranking templates set it."""
    url = r.url
    return url if isinstance(url, str) else urls.get(r.id)


def benchmark_rows(
    models: Iterable[Any], link: Linker, urls: Mapping[str, str | None]
) -> markupsafe.Markup:
    """benchmark.html: a row per ranked model."""
    kept = _kept_cells(link, "")
    out = []
    for r in models:
        rank, name, url, provider = r.rank, r.name, _profile_url(r, urls), r.provider
        cells = (
            kept.get((name, url, provider))
            if type(name) is type(url) is type(provider) is str
            else None
        )
        out.append(
            f'<tr><td class="num">{rank if type(rank) is int else escape(rank)}</td>'
            f"{cells or _model_cells(link, kept, '', name, url, provider)}"
            f'<td class="num strong">{format_value(r.score)}</td></tr>\n'
        )
    return markupsafe.Markup("".join(out))


def _ranking_score(r: Any, cost: bool) -> str:
    if cost:
        return format_cost(r.score)
    if r.imputed is True and r.score is not None:
        return f'<span class="imp">{format_value(r.score)}{IMPUTED_MARK}</span>'
    if r.provisional is True:
        return f"{format_value(r.score)} {PROVISIONAL_MARK}"
    return format_value(r.score)


def _estimate(r: Any) -> str:
    if r.imputed:
        return '<td><span class="badge imputed">imputed</span></td>'
    return '<td><span class="badge direct">direct</span></td>'


def ranking_rows(
    ranking: Any,
    link: Linker,
    urls: Mapping[str, str | None],
    banded: bool,
    imputed: Mapping[str, int] | None,
) -> markupsafe.Markup:
    """ranking.html: a row per ranked model, with the columns the ranking has (a rank
    band when `banded`, the estimate of a dimension ranking, the composite's imputed
    counts when `imputed`)."""
    kept = _kept_cells(link, _NEWLINE)
    cost = ranking.id == "effective-cost"
    dimension = ranking.ranking_type == "dimension"
    out = []
    for r in ranking.models:
        rank, name, url, provider = r.rank, r.name, _profile_url(r, urls), r.provider
        cells = (
            kept.get((name, url, provider))
            if type(name) is type(url) is type(provider) is str
            else None
        )
        band = (
            f'<td class="num">{escape(dash(r.rank_low))}–{escape(dash(r.rank_high))}</td>'
            if banded
            else ""
        )
        estimate = _estimate(r) if dimension else ""
        count = (
            f'<td class="num">{escape(imputed.get(r.id, 0))} of {DIMENSION_COUNT}</td>'
            if imputed
            else ""
        )
        out.append(
            f'<tr>\n<td class="num">{rank if type(rank) is int else escape(rank)}</td>\n{band}'
            f"{cells or _model_cells(link, kept, _NEWLINE, name, url, provider)}"
            f'<td class="num strong">{_ranking_score(r, cost)}</td>\n{estimate}{count}</tr>\n'
        )
    return markupsafe.Markup("".join(out))


def _fixed_pair(low: Any, high: Any) -> str:
    """domain.html's 95% range: both ends when the low one is a number, else `–`."""
    return f"{fixed(low, 1)}–{fixed(high, 1)}" if isinstance(low, numbers.Number) else "–"


def domain_rows(models: Iterable[Any], link: Linker) -> markupsafe.Markup:
    """domain.html: a row per model of the domain composite, numbered from 1."""
    out = []
    for position, e in enumerate(models, 1):
        observed = e.observed_composite_iq
        status = escape(e.rank_status)
        out.append(
            f'<tr>\n<td class="num">{position}</td>\n'
            f'<th scope="row">{link.anchor(e.model_name, e.model_url)}</th>\n'
            f'<td class="num strong">{escape(e.composite_iq)}</td>\n'
            f'<td><span class="badge {status}">{status}</span></td>\n'
            f'<td class="num">{escape(e.benchmarks_covered)} of {escape(e.benchmarks_total)}</td>\n'
            f'<td class="num">{_fixed_pair(e.estimate_low95, e.estimate_high95)}</td>\n'
            f'<td class="num">{fixed(observed, 1) if isinstance(observed, numbers.Number) else "–"}'
            f'</td>\n<td class="num">{signed(e.coverage_adjustment)}</td>\n</tr>\n'
        )
    return markupsafe.Markup("".join(out))


def domain_result_rows(results: Iterable[Any], link: Linker) -> markupsafe.Markup:
    """domain.html: a row per result of one domain benchmark."""
    return markupsafe.Markup(
        "".join(
            [
                f'<tr><th scope="row">{link.anchor(r.model, r.model_url)}</th>'
                f"<td>{escape(dash(r.harness))}</td><td>{escape(dash(r.effort))}</td>"
                f'<td class="num">{format_value(r.score)}</td></tr>\n'
                for r in results
            ]
        )
    )


def _value_or_empty(value: Any) -> Any:
    """index.html's `data-v`: the value, or '' for None."""
    return "" if value is None else escape(value)


def _names(names: list[Any]) -> str:
    """`names|join('|')` escaped, as Jinja's `join` does under autoescape: markup kept as it
    is and the rest escaped when any name is markup, else the plain text escaped."""
    if any(hasattr(name, "__html__") for name in names):
        return markupsafe.Markup("|").join(names)
    return escape("|".join(map(str, names)))


def _rank_cell(model: Any) -> str:
    rank = model.rank
    if rank is None:
        return "–"
    if model.rank_low is None:
        return escape(rank)
    low, high = escape(model.rank_low), escape(model.rank_high)
    return f'{escape(rank)} <span class="sub band">band {low}–{high}</span>'


def range_bar(iq: Any, low: Any, high: Any) -> str:
    """A composite's 95% range as a small inline bar on the fixed IQ scale (70 to 160, so
    rows compare by eye): the range a light band, the estimate a dark tick. Drawn with SVG
    attributes only (no `style`: the pages' Content-Security-Policy), hidden from screen
    readers, which read the numbers beside it; nothing without all three numbers."""
    if not all(isinstance(v, numbers.Real) for v in (iq, low, high)):
        return ""
    span = IQ_MAX - IQ_MIN

    def at(value: Any) -> float:
        return min(max(float(value) - IQ_MIN, 0.0), float(span))

    left, estimate = at(low), at(iq)
    return (
        f'<svg class="rbar" viewBox="0 0 {span} 6" preserveAspectRatio="none" '
        f'aria-hidden="true" focusable="false"><rect class="r" x="{num(left)}" '
        f'width="{num(at(high) - left)}" height="6"/><rect class="e" '
        f'x="{num(min(max(estimate - 0.75, 0), span - 1.5))}" width="1.5" height="6"/></svg>'
    )


def _iq_cell(model: Any, imputed: Any) -> str:
    text = f'<span class="strong">{escape(dash(model.iq))}</span>'
    if model.iq_low95 is not None:
        text += f' <span class="sub">{whole(model.iq_low95)}–{whole(model.iq_high95)}</span>'
        text += range_bar(model.iq, model.iq_low95, model.iq_high95)
    if model.provisional is True:  # what it rests on is read aloud, and shown on hover
        measured = escape(DIMENSION_COUNT - imputed)
        rests = f"{measured} of {DIMENSION_COUNT} dimensions measured"
        text += (
            f' <span class="sub prov" title="Rests on {rests}">provisional'
            f'<span class="visually-hidden">: {rests}</span></span>'
        )
    if imputed:
        text += (
            f' <span class="sub imp-count">{escape(imputed)} of {DIMENSION_COUNT} imputed</span>'
        )
    return text


def _dimension_cell(cell: Any) -> str:
    shown = (
        f'<span class="imp">{escape(cell.iq)}{IMPUTED_MARK}</span>'
        if cell.imputed
        else escape(dash(cell.iq))
    )
    return f'<td class="num dim" data-v="{_value_or_empty(cell.iq)}">{shown}</td>\n'


def _group_class(group: Any) -> str:
    if not group:
        return "unranked"
    return "group-odd" if group % 2 else "group-even"


def leaderboard_rows(rows: Iterable[Any], link: Linker) -> markupsafe.Markup:
    """index.html: the composite leaderboard, a row per model (`views.LeaderRow`)."""
    out = []
    for row in rows:
        model = row.model
        released = model.release_date.isoformat() if model.release_date else ""
        cost = model.cost.effective_per_1m
        seconds = model.speed.response_time_sec
        group = row.group
        out.append(
            f'<tr class="{_group_class(group)}" data-id="{escape(model.id)}" '
            f'data-provider="{escape(model.provider)}" '
            f'data-open="{1 if model.open_source else 0}" data-released="{escape(released)}" '
            f'data-imputed="{escape(row.imputed)}" '
            f'data-provisional="{1 if model.provisional is True else 0}" '
            f'data-names="{_names(row.names)}">\n'
            f'<td class="num" data-v="{_value_or_empty(model.rank)}">{_rank_cell(model)}</td>\n'
            f'<td class="num col-group" data-v="{escape(group or "")}">{escape(group or "–")}'
            f"</td>\n"
            f'<th scope="row" class="name" data-s="{escape(model.name)}">'
            f"{link.anchor(model.name, model.url)} "
            f'<span class="sub provider-sub">{escape(model.provider)}</span></th>\n'
            f'<td class="col-provider">{escape(model.provider)}</td>\n'
            f'<td class="num" data-v="{_value_or_empty(model.iq)}">{_iq_cell(model, row.imputed)}'
            f"</td>\n"
            + "".join([_dimension_cell(cell) for cell in row.cells])
            + f'<td class="num" data-v="{_value_or_empty(model.emotional_reasoning)}">'
            f"{escape(dash(model.emotional_reasoning))}</td>\n"
            f'<td class="num" data-v="{_value_or_empty(cost)}">{format_cost(cost)}</td>\n'
            f'<td class="num" data-v="{_value_or_empty(seconds)}">{format_value(seconds)}</td>\n'
            "</tr>\n"
        )
    return markupsafe.Markup("".join(out))
