"""Score history replayed from the data: a hand-made dataset across three months."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from xml.etree import ElementTree as ET

import msgspec
from support.history import published
from support.scoring import make_methodology, make_model, result, standard_benchmarks

from bench.synth import SynthSpec, write_dataset
from generator.api.contract import (
    HISTORY,
    HISTORY_SNAPSHOT,
    MODEL,
    MODEL_HISTORY,
    HistoryDetail,
    HistoryList,
    ModelDetail,
    ModelHistory,
)
from generator.api.urls import SiteConfig
from generator.documents.assemble import build_documents
from generator.input.load import load_dataset
from generator.input.records import Dataset, ModelRecord
from generator.pages.charts import frontier
from generator.pages.plots import Holder
from generator.pages.sitedocs import SiteDocuments
from generator.scoring import compute_scores
from generator.scoring.history import (
    _Timeline,
    count_results,
    counts_from,
    dataset_as_of,
    month_end,
    newest_date,
    newest_evidence,
    publication_dates,
    replay,
    snapshot_dates,
)
from generator.scoring.types import Scores

JAN, FEB, MAR = dt.date(2026, 1, 31), dt.date(2026, 2, 28), dt.date(2026, 3, 31)
STAMPED = dt.datetime(2026, 4, 2, 9, 30, tzinfo=dt.UTC)  # the methodology's `updated`: past March


def _model(model_id: str, released: dt.date, iq: float, dated: dt.date) -> ModelRecord:
    """A model with the same IQ (raw iq/100 on the linear ladder) on arc-a and math-a:
    two direct dimensions, enough to be ranked (min_direct_dimensions = 2)."""
    results = [
        msgspec.structs.replace(result(b, iq / 100), as_of=dated) for b in ("arc-a", "math-a")
    ]
    return make_model(model_id, results, release_date=released)


def _dataset() -> Dataset:
    """A (Jan) 130, B (Jan) 115, C (Feb) 140, D (Mar) 150; E released in January with its
    only results dated in March; B's March result is a later one on a third benchmark."""
    b_late = msgspec.structs.replace(result("acad-a", 1.15), as_of=dt.date(2026, 3, 2))
    b = _model("b", dt.date(2026, 1, 20), 115, dt.date(2026, 1, 25))
    models = (
        _model("a", dt.date(2026, 1, 5), 130, dt.date(2026, 1, 10)),
        msgspec.structs.replace(b, results=[*b.results, b_late]),
        _model("c", dt.date(2026, 2, 3), 140, dt.date(2026, 2, 10)),
        _model("d", dt.date(2026, 3, 1), 150, dt.date(2026, 3, 5)),
        _model("e", dt.date(2026, 1, 15), 100, dt.date(2026, 3, 20)),
    )
    return Dataset(
        methodology=msgspec.structs.replace(make_methodology(), updated=STAMPED),
        benchmarks=standard_benchmarks(),
        models=models,
        domains=(),
        charts=(),
    )


def _ranks(dataset: Dataset) -> dict[str, int | None]:
    return {m: s.rank for m, s in compute_scores(dataset).models.items()}


def test_month_ends_cross_the_year() -> None:
    assert month_end(dt.date(2025, 12, 3)) == dt.date(2025, 12, 31)
    assert month_end(dt.date(2024, 2, 1)) == dt.date(2024, 2, 29)


def test_a_snapshot_per_month_from_the_first_result_to_the_last() -> None:
    assert snapshot_dates(_dataset()) == [JAN, FEB, MAR]


def test_the_history_ends_in_the_month_of_the_newest_evidence() -> None:
    # The newest evidence of _dataset() is e's results of 20 March: the history ends at
    # March's end, though the data's newest date is the methodology's stamp of 2 April (a
    # stamp, like a price's read date, is not evidence). Stamped in May, the same.
    dataset = _dataset()
    assert (newest_date(dataset), newest_evidence(dataset)) == (
        dt.date(2026, 4, 2),
        dt.date(2026, 3, 20),
    )
    stamped = dt.datetime(2026, 5, 15, tzinfo=dt.UTC)
    later = msgspec.structs.replace(
        dataset, methodology=msgspec.structs.replace(dataset.methodology, updated=stamped)
    )
    assert snapshot_dates(later) == snapshot_dates(dataset) == [JAN, FEB, MAR]
    assert [s.date for s in replay(later)] == [JAN, FEB, MAR]


def test_a_result_counts_from_its_benchmarks_publication() -> None:
    # math-a published on 15 February: a's and b's January results on it count from then
    # (their arc-a results still in January, one dimension: no composite in January);
    # a release after a result's date counts from the release (METHODOLOGY 1.2).
    dataset = _dataset()
    benchmarks = tuple(
        msgspec.structs.replace(
            b, published_on=dt.date(2026, 2, 15), published_on_source="https://e.org/p"
        )
        if b.id == "math-a"
        else b
        for b in dataset.benchmarks
    )
    late = msgspec.structs.replace(dataset, benchmarks=benchmarks)
    jan, feb = dataset_as_of(late, JAN), dataset_as_of(late, FEB)
    assert {m.id: sorted(r.benchmark for r in m.results) for m in jan.models} == {
        "a": ["arc-a"],
        "b": ["arc-a"],
        "e": [],
    }
    assert sorted(r.benchmark for r in next(m for m in feb.models if m.id == "a").results) == [
        "arc-a",
        "math-a",
    ]
    snapshots = replay(late)
    assert {m: s.rank for m, s in snapshots[0].scores.models.items()} == {
        "a": None,
        "b": None,
        "e": None,
    }
    found = result("arc-a", 1.0)
    published = {"arc-a": dt.date(2026, 1, 1)}
    assert counts_from(found, published, None) == found.as_of  # dated after publication
    assert counts_from(found, published, dt.date(2030, 1, 1)) == dt.date(2030, 1, 1)


def test_each_snapshot_ranks_what_was_known_then() -> None:
    # Every ranked model has the same IQ on the same two benchmarks, so the composite
    # order is the order of those IQs: Jan a 130 > b 115; Feb c 140 joins first;
    # Mar d 150 joins first. e (released in January) has no result before March, and
    # its March results (IQ 100) place it last.
    snapshots = replay(_dataset())
    ranks = [{m: s.rank for m, s in snap.scores.models.items()} for snap in snapshots]
    assert ranks[0] == {"a": 1, "b": 2, "e": None}
    assert ranks[1] == {"a": 2, "b": 3, "c": 1, "e": None}
    assert ranks[2] == {"a": 3, "b": 4, "c": 2, "d": 1, "e": 5}


def test_a_model_enters_at_its_release_and_results_at_their_date() -> None:
    dataset = _dataset()
    jan = dataset_as_of(dataset, JAN)
    assert [m.id for m in jan.models] == ["a", "b", "e"]
    assert [r.benchmark for m in jan.models if m.id == "b" for r in m.results] == [
        "arc-a",
        "math-a",
    ]  # b's acad-a result is dated 2 March


def test_the_latest_snapshot_is_the_current_leaderboard() -> None:
    dataset = _dataset()
    latest = replay(dataset)[-1].scores.models
    assert {m: s.rank for m, s in latest.items()} == _ranks(dataset)
    assert {m: s.iq for m, s in latest.items()} == {
        m: s.iq for m, s in compute_scores(dataset).models.items()
    }


def test_history_documents_list_the_snapshots_with_their_leaderboards() -> None:
    dataset = _dataset()
    documents = build_documents(dataset, compute_scores(dataset), SiteConfig())
    history = documents[HISTORY.path]
    assert isinstance(history, HistoryList)
    summary = [(s.date, s.model_count, s.ranked_model_count) for s in history.snapshots]
    assert summary == [(JAN, 3, 2), (FEB, 4, 3), (MAR, 5, 5)]
    assert [s.top_model.id if s.top_model else None for s in history.snapshots] == ["a", "c", "d"]
    feb = documents[HISTORY_SNAPSHOT.api_path("2026-02-28")]
    assert isinstance(feb, HistoryDetail)
    assert [(m.id, m.rank) for m in feb.models] == [("c", 1), ("a", 2), ("b", 3)]
    assert (feb.model_count, feb.ranked_model_count) == (4, 3)  # e: released, no result yet
    for entry in history.snapshots:  # each snapshot's counts are its detail's
        detail = documents[HISTORY_SNAPSHOT.api_path(entry.date.isoformat())]
        assert isinstance(detail, HistoryDetail)
        counts = (detail.model_count, detail.ranked_model_count, len(detail.models))
        assert counts == (entry.model_count, entry.ranked_model_count, entry.ranked_model_count)
    assert all(
        m.rank_low is not None and m.rank_low <= m.rank <= (m.rank_high or 0) for m in feb.models
    )


def test_a_result_without_its_own_date_counts_from_its_models_release() -> None:
    # c's two results (arc-a, math-a) have no date upstream: each carries c's release date,
    # 3 February, as a "not before" date. They place c in February (rank 1, IQ 140), not in
    # January. Results placed per month end (_dataset's dates):
    #   Jan: a 2 (10 Jan) + b 2 (25 Jan)                  =  4, none by release date
    #   Feb: + c 2 (3 Feb, by release date)               =  6, 2 by release date
    #   Mar: + b's acad-a 1 + d 2 + e 2                   = 11, still 2
    dataset = _dataset()
    undated = {
        "c": lambda r: msgspec.structs.replace(
            r, as_of=dt.date(2026, 2, 3), as_of_kind="not-before"
        )
    }
    models = tuple(
        msgspec.structs.replace(m, results=[undated[m.id](r) for r in m.results])
        if m.id in undated
        else m
        for m in dataset.models
    )
    dataset = msgspec.structs.replace(dataset, models=models)
    snapshots = replay(dataset)
    counts = [(s.date, s.results.placed, s.results.by_release_date) for s in snapshots]
    assert counts == [(JAN, 4, 0), (FEB, 6, 2), (MAR, 11, 2)]
    assert snapshots[1].scores.models["c"].rank == 1
    documents = build_documents(dataset, compute_scores(dataset), SiteConfig(), snapshots)
    history = documents[HISTORY.path]
    assert isinstance(history, HistoryList)
    listed = [(s.date, s.result_count, s.release_dated_result_count) for s in history.snapshots]
    assert listed == counts
    feb = documents[HISTORY_SNAPSHOT.api_path("2026-02-28")]
    assert isinstance(feb, HistoryDetail)
    assert (feb.result_count, feb.release_dated_result_count) == (6, 2)
    wire = json.loads(msgspec.json.encode(feb))
    assert (wire["resultCount"], wire["releaseDatedResultCount"]) == (6, 2)


def test_the_history_pages_show_each_snapshots_result_counts(built_site: Path) -> None:
    api = built_site / "api" / "v1"
    page = (built_site / "history" / "index.html").read_text()
    for snapshot in json.loads((api / "history.json").read_bytes())["snapshots"]:
        counts = (snapshot["resultCount"], snapshot["releaseDatedResultCount"])
        assert counts[0] > 0  # the fixture's results carry their own dates: none by release
        assert counts[1] == 0
        assert f'<td class="num">{counts[0]}</td><td class="num">{counts[1]}</td>' in page
        one = (built_site / "history" / snapshot["date"] / "index.html").read_text()
        assert f"{counts[0]} results, {counts[1]} of them placed at their model" in one


def _model_history(documents: dict[str, msgspec.Struct], model_id: str) -> ModelHistory:
    document = documents[MODEL_HISTORY.api_path(model_id)]
    assert isinstance(document, ModelHistory)
    return document


def test_a_models_history_starts_at_its_release_month_with_rank_and_dimensions() -> None:
    # The ranks of test_each_snapshot_ranks_what_was_known_then, per model: a 1, 2, 3 (c
    # joins above it in February, d in March); c from its release month (February); e
    # from January (its release) but unranked, with no dimension, until its March results
    # (IQ 100 on arc-a and math-a: abstract and mathematical reasoning 100).
    dataset = _dataset()
    documents = build_documents(dataset, compute_scores(dataset), SiteConfig())
    rows = {
        m: [(p.date, p.rank, p.iq) for p in _model_history(documents, m).snapshots]
        for m in ("a", "c", "d", "e")
    }
    assert rows == {
        "a": [(JAN, 1, 130), (FEB, 2, 130), (MAR, 3, 130)],
        "c": [(FEB, 1, 140), (MAR, 2, 140)],
        "d": [(MAR, 1, 150)],
        "e": [(JAN, None, None), (FEB, None, None), (MAR, 5, 100)],
    }
    e = _model_history(documents, "e").snapshots
    assert e[0].dimensions.abstract_reasoning is None and e[0].rank_low is None
    assert (e[2].dimensions.abstract_reasoning, e[2].dimensions.mathematical_reasoning) == (
        100,
        100,
    )
    assert e[1].snapshot == "http://127.0.0.1:8000/api/v1/history/2026-02-28"
    assert _model_history(documents, "e").release_date == dt.date(2026, 1, 15)


def test_a_composite_on_two_measured_dimensions_is_provisional_at_each_month_end() -> None:
    # provisional_below = 3 (make_methodology). Every model of _dataset() is measured on
    # arc-a and math-a (abstract and mathematical reasoning: 2 direct dimensions < 3), so
    # each ranked composite is provisional, until b's acad-a result of 2 March makes a
    # third (academic reasoning: 3, not below 3). Unranked, nothing is provisional (e).
    dataset = _dataset()
    documents = build_documents(dataset, compute_scores(dataset), SiteConfig())
    points = {
        m: [(p.date, p.provisional) for p in _model_history(documents, m).snapshots]
        for m in ("a", "b", "e")
    }
    assert points == {
        "a": [(JAN, True), (FEB, True), (MAR, True)],
        "b": [(JAN, True), (FEB, True), (MAR, False)],
        "e": [(JAN, False), (FEB, False), (MAR, True)],
    }
    march = documents[HISTORY_SNAPSHOT.api_path("2026-03-31")]
    assert isinstance(march, HistoryDetail)
    assert {m.id: m.provisional for m in march.models} == {
        "a": True, "b": False, "c": True, "d": True, "e": True,
    }  # fmt: skip
    history = documents[HISTORY.path]
    assert isinstance(history, HistoryList)
    tops = [(s.top_model.id, s.top_model.provisional) for s in history.snapshots if s.top_model]
    assert tops == [("a", True), ("c", True), ("d", True)]


def test_a_models_latest_history_point_is_its_current_model_document() -> None:
    dataset = _dataset()
    documents = build_documents(dataset, compute_scores(dataset), SiteConfig())
    for model in dataset.models:
        current = documents[MODEL.api_path(model.id)]
        assert isinstance(current, ModelDetail)
        latest = _model_history(documents, model.id).snapshots[-1]
        assert (latest.rank, latest.iq, latest.rank_low, latest.rank_high, latest.provisional) == (
            current.rank,
            current.iq,
            current.rank_low,
            current.rank_high,
            current.provisional,
        )
        assert (latest.iq_low95, latest.iq_high95) == (current.iq_low95, current.iq_high95)
        dims = msgspec.structs.asdict(latest.dimensions)
        assert dims == {k: getattr(current.dimensions, k).iq for k in dims}


def test_replay_on_the_shipped_data_ends_at_the_last_month_end_of_the_data(
    shipped_scores: tuple[Dataset, Scores],
) -> None:
    dataset, _ = shipped_scores
    snapshots = replay(dataset)
    dates = [s.date for s in snapshots]
    assert dates == sorted(set(dates)) and all(d == month_end(d) for d in dates)
    newest = newest_evidence(dataset)
    assert newest is not None and dates[-1] == month_end(newest)  # METHODOLOGY 1.2
    latest = snapshots[-1].scores.models
    then = compute_scores(dataset_as_of(dataset, dates[-1]))
    assert {m: (s.rank, s.iq) for m, s in latest.items()} == {
        m: (s.rank, s.iq) for m, s in then.models.items()
    }


def test_the_shipped_history_ranks_ten_models_or_more_at_fifteen_month_ends(
    shipped_scores: tuple[Dataset, Scores],
) -> None:
    # Issue 25: with each undated upstream row placed at its model's release date, month
    # ends rank 10 or more models; every snapshot counts those results. Issue 42 ended the
    # history at May 2026 (the newest evidence): the five month ends after it only repeated
    # May, so 15 month ends (March 2025 to May 2026) remain, each ranking 10 or more.
    dataset, _ = shipped_scores
    snapshots = replay(dataset)
    ranked = [sum(s.rank is not None for s in snap.scores.models.values()) for snap in snapshots]
    assert sum(n >= 10 for n in ranked) >= 15
    assert all(0 < snap.results.by_release_date <= snap.results.placed for snap in snapshots)
    assert snapshots[-1].results.placed == sum(len(m.results) for m in dataset.models) - sum(
        r.as_of > snapshots[-1].date for m in dataset.models for r in m.results
    )


def test_a_model_page_shows_its_rank_and_iq_at_each_snapshot(built_site: Path) -> None:
    api = built_site / "api" / "v1"
    for snapshot in json.loads((api / "history.json").read_bytes())["snapshots"]:
        date = snapshot["date"]
        for entry in json.loads((api / "history" / date).read_bytes())["models"]:
            page = (built_site / "models" / entry["id"] / "index.html").read_text()
            assert "what today's methodology makes of the evidence of each month end" in page
            row = f'<a href="../../history/{date}/">{date}</a></th>'
            row += f'<td class="num">{entry["rank"]}</td><td class="num">{entry["iq"]}</td>'
            assert row in page, entry["id"]


def test_a_month_without_releases_or_results_reuses_the_previous_scores() -> None:
    # Results in January and March only: February's snapshot is January's, re-dated,
    # and equals what scoring the February dataset from scratch gives.
    a = _model("a", dt.date(2026, 1, 5), 130, dt.date(2026, 1, 10))
    late = msgspec.structs.replace(result("acad-a", 1.2), as_of=dt.date(2026, 3, 3))
    dataset = msgspec.structs.replace(
        _dataset(), models=(msgspec.structs.replace(a, results=[*a.results, late]),)
    )
    jan, feb, mar = replay(dataset)
    assert (feb.date, feb.scores) == (FEB, jan.scores)
    assert feb.scores == published(compute_scores(dataset_as_of(dataset, FEB)))
    assert mar.scores != jan.scores


def test_the_frontier_chart_follows_the_replayed_snapshots() -> None:
    dataset = _dataset()
    documents = build_documents(dataset, compute_scores(dataset), SiteConfig())
    plot = frontier(SiteDocuments(documents))
    # the month ends' top models (above): Jan a 130, Feb c 140, Mar d 150; every model is
    # by the one provider "Test Lab", so its line is the best line
    best = (Holder("A", 130), Holder("C", 140), Holder("D", 150))
    assert plot.months == ("2026-01-31", "2026-02-28", "2026-03-31")
    assert plot.best.values == best
    assert [(line.label, line.values) for line in plot.providers] == [("Test Lab", best)]


def _released_by(dataset: Dataset, date: dt.date) -> Dataset:
    """The dataset as of `date`, model by model, as the replay's definition states it."""
    models = []
    for model in dataset.models:
        entered = model.release_date or min((r.as_of for r in model.results), default=None)
        if entered is not None and entered <= date:
            kept = [r for r in model.results if r.as_of <= date]
            models.append(msgspec.structs.replace(model, results=kept))
    domains = tuple(
        msgspec.structs.replace(d, results=[r for r in d.results if r.as_of <= date])
        for d in dataset.domains
    )
    return msgspec.structs.replace(dataset, models=tuple(models), domains=domains)


def test_the_timeline_gives_each_month_its_models_and_result_counts(tmp_path: Path) -> None:
    """`_Timeline` takes whole the models whose results all came by then and counts results
    from per-model totals: the same datasets and counts as filtering every model."""
    write_dataset(SynthSpec(models=200, benchmarks=14, seed=3), tmp_path / "data")
    loaded = load_dataset(tmp_path / "data")
    undated = [  # every third result stands at its model's release ("not-before")
        msgspec.structs.replace(
            m,
            results=[
                msgspec.structs.replace(r, as_of_kind="not-before") if i % 3 == 0 else r
                for i, r in enumerate(m.results)
            ],
        )
        for m in loaded.models
    ]
    dataset = msgspec.structs.replace(loaded, models=tuple(undated))
    timeline = _Timeline(dataset)
    whole = {m.id: len(m.results) for m in dataset.models}
    partial = 0
    for date in snapshot_dates(dataset):
        then = _released_by(dataset, date)
        assert timeline.as_of(date) == then
        assert timeline.results(date) == count_results(then)
        partial += sum(len(m.results) < whole[m.id] for m in then.models)
    assert partial > 0 and count_results(dataset).by_release_date > 0  # both paths taken


def test_no_shipped_month_end_counts_a_result_before_its_benchmark_existed(
    shipped_scores: tuple[Dataset, Scores],
) -> None:
    # Every shipped benchmark states when it was published, with a source; at each month
    # end, each result the snapshot holds counts from on or before it, and its benchmark
    # was published by then (ARC-AGI-2, GDPval and APEX-Agents results dated by release
    # date no longer count before those benchmarks existed). The last month end is the one
    # of the month of the newest evidence date (a result or a release), not of a stamp.
    dataset, _ = shipped_scores
    published = publication_dates(dataset.benchmarks)
    assert set(published) == {b.id for b in dataset.benchmarks}
    assert all(b.published_on_source for b in dataset.benchmarks)
    dates = snapshot_dates(dataset)
    newest = newest_evidence(dataset)
    assert newest is not None and dates[-1] == month_end(newest)
    stamps = [m.updated.date() for m in dataset.models] + [dataset.methodology.updated.date()]
    assert month_end(max(stamps)) > dates[-1]  # a later stamp did not extend it
    timeline = _Timeline(dataset)
    held = 0
    for date in dates:
        for model in timeline.as_of(date).models:
            for r in model.results:
                if r.benchmark not in published:
                    continue  # an unscored benchmark (no ladder yet): counted nowhere
                assert published[r.benchmark] <= date, (date, model.id, r.benchmark)
                assert counts_from(r, published, model.release_date) <= date
                held += 1
    assert held > 1000
    # Before the fix: apex-agents (published January 2026) counted from April 2025
    apex = [
        d
        for d in dates
        for m in timeline.as_of(d).models
        for r in m.results
        if r.benchmark == "apex-agents"
    ]
    assert min(apex) == dt.date(2026, 1, 31)


def test_the_shipped_history_and_feed_mark_provisional_composites_as_the_live_ones(
    shipped_site: Path, shipped_scores: tuple[Dataset, Scores]
) -> None:
    # Issue 42: a composite on fewer than provisionalBelow direct dimensions is provisional in
    # the history (the last month end's leaderboard, each model's history) and in the feed
    # (/changes, /feed.atom) as in /models, for every model whose data at the last month end
    # is all of its data. A flag reads only the model's own counted results, so its newest
    # results entry's month end (after which none of its results count) has it too.
    dataset, scores = shipped_scores
    api = shipped_site / "api" / "v1"
    below = dataset.methodology.parameters.provisional_below
    last = snapshot_dates(dataset)[-1]
    then = {m.id: m for m in dataset_as_of(dataset, last).models}
    same = [m.id for m in dataset.models if then.get(m.id) == m]
    live = {
        m["id"]: m["provisional"] for m in json.loads((api / "models.json").read_bytes())["models"]
    }
    detail = json.loads((api / "history" / last.isoformat()).read_bytes())
    entries = {e["id"]: e["provisional"] for e in detail["models"]}
    changes = json.loads((api / "changes.json").read_bytes())["changes"]
    newest = {}  # model -> its newest results entry (changes are newest first)
    for change in changes:
        if change["kind"] == "results_added":
            newest.setdefault(change["model"], change)
    provisional = [m for m in same if live[m]]
    assert len(provisional) >= 2 and len(same) >= 0.9 * len(dataset.models)
    assert all(scores.models[m].direct_dimensions < below for m in provisional)
    for m in same:
        assert live[m] == scores.models[m].provisional
        assert entries.get(m, False) == live[m], m  # unranked: no entry, nothing provisional
        points = json.loads((api / "model-history" / m).read_bytes())["snapshots"]
        assert points[-1]["date"] == last.isoformat() and points[-1]["provisional"] == live[m]
        if m in newest:
            assert newest[m]["provisionalAfter"] == live[m], m
    assert {m for m in provisional if m in newest} == {
        m for m in same if newest.get(m, {}).get("provisionalAfter")
    }
    # The Atom feed: the category `provisional` exactly on the entries whose composite is
    feed = ET.fromstring((shipped_site / "feed.atom").read_bytes())
    atom = "{http://www.w3.org/2005/Atom}"
    marked = [
        any(c.get("term") == "provisional" for c in e.findall(atom + "category"))
        for e in feed.findall(atom + "entry")
    ]
    assert marked == [c["provisionalAfter"] for c in changes[: len(marked)]]
    assert any(marked)


def test_the_shipped_history_pages_mark_each_provisional_composite(shipped_site: Path) -> None:
    # Each snapshot page marks its provisional rows (and says what the mark means), and a
    # model page marks the month ends at which its composite was provisional.
    api, mark = shipped_site / "api" / "v1", '<span class="sub prov">provisional</span>'
    dates = [s["date"] for s in json.loads((api / "history.json").read_bytes())["snapshots"]]
    months: dict[str, list[tuple[str, int, bool]]] = {}
    for date in dates:
        entries = json.loads((api / "history" / date).read_bytes())["models"]
        page = (shipped_site / "history" / date / "index.html").read_text()
        body = page.split("<tbody>")[1].split("</tbody>")[0]
        assert body.count(mark) == sum(e["provisional"] for e in entries), date
        assert "A provisional composite rested on fewer than three" in page
        for e in entries:
            months.setdefault(e["id"], []).append((date, e["iq"], e["provisional"]))
    assert any(p for rows in months.values() for _, _, p in rows)
    for model_id, rows in months.items():
        page = (shipped_site / "models" / model_id / "index.html").read_text()
        for date, iq, provisional in rows:
            row = f'{date}</a></th><td class="num">'
            cell = f'<td class="num">{iq}{" " + mark if provisional else ""}</td></tr>'
            assert row in page and cell in page.split(row, 1)[1].split("\n", 1)[0], model_id


def test_a_month_end_the_history_no_longer_has_answers_its_own_404(shipped_site: Path) -> None:
    # Version 4 ends the shipped history at the month of the newest evidence (vals.ai's tables
    # of 2026-10-06): November 2026's end, which a stamp's date would give, is not published,
    # and its URL answers the history's JSON 404 (code history_not_found)
    api = shipped_site / "api" / "v1"
    dates = [s["date"] for s in json.loads((api / "history.json").read_bytes())["snapshots"]]
    assert dates[-1] == "2026-10-31"
    assert not (api / "history" / "2026-11-30").exists()
    rules = (shipped_site / "_redirects").read_text(encoding="utf-8").splitlines()
    assert "/api/v1/history/* /api/_errors/history_not_found.json 404" in rules
    error = json.loads((shipped_site / "api" / "_errors" / "history_not_found.json").read_bytes())
    assert error == {"error": error["error"], "code": "history_not_found"}
