"""The history documents: `/history` (the snapshot dates), one `/history/{date}` each, and
one `/models/{id}/history` per published model.

Each snapshot is `scoring.history.replay`'s scores of the dataset as it stood at a month
end; its leaderboard lists the ranked models by composite rank, then id. A model's history
has one point per snapshot from the month it entered (released, or its first result).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from generator.api.contract import (
    HISTORY,
    HISTORY_NOTE,
    HISTORY_SNAPSHOT,
    MODEL_HISTORY,
    HistoryDetail,
    HistoryEntry,
    HistoryList,
    HistorySnapshot,
    HistoryTopModel,
    ModelHistory,
    ModelHistoryPoint,
)
from generator.api.urls import SiteConfig, api_url, model_page_url
from generator.documents.common import EnvelopeFields, spread_or_none
from generator.documents.models import dimension_scores
from generator.input.records import Dataset
from generator.scoring.history import Snapshot, SnapshotModel


def history_documents(
    snapshots: Sequence[Snapshot], config: SiteConfig, env: EnvelopeFields
) -> dict[str, msgspec.Struct]:
    """`/history` and every `/history/{date}`."""
    return history_list([snapshot_detail(s, config, env) for s in snapshots], config, env)


def history_list(
    details: Sequence[HistoryDetail], config: SiteConfig, env: EnvelopeFields
) -> dict[str, msgspec.Struct]:
    """`/history` and every `/history/{date}`, from each snapshot's `snapshot_detail`."""
    documents: dict[str, msgspec.Struct] = {
        HISTORY.path: HistoryList(
            **env, note=HISTORY_NOTE, snapshots=[_summary(d, config) for d in details]
        )
    }
    for detail in details:
        documents[HISTORY_SNAPSHOT.api_path(detail.date.isoformat())] = detail
    return documents


def _entries(snapshot: Snapshot, config: SiteConfig) -> list[HistoryEntry]:
    models = {m.id: m for m in snapshot.dataset.models}
    ranked = sorted(
        (s for s in snapshot.scores.models.values() if s.rank is not None and s.iq is not None),
        key=lambda s: (s.rank, s.model_id),
    )
    return [
        HistoryEntry(
            id=s.model_id,
            name=models[s.model_id].name,
            provider=models[s.model_id].provider,
            rank=s.rank,
            iq=s.iq,
            iq_low95=spread_or_none(s.composite_low95),
            iq_high95=spread_or_none(s.composite_high95),
            rank_low=s.rank_band.low if s.rank_band is not None else None,
            rank_high=s.rank_band.high if s.rank_band is not None else None,
            url=model_page_url(config, s.model_id),
        )
        for s in ranked
        if s.rank is not None and s.iq is not None
    ]


def snapshot_detail(snapshot: Snapshot, config: SiteConfig, env: EnvelopeFields) -> HistoryDetail:
    """`/history/{date}` of one snapshot."""
    entries = _entries(snapshot, config)
    return HistoryDetail(
        **env,
        date=snapshot.date,
        note=HISTORY_NOTE,
        model_count=len(snapshot.dataset.models),
        ranked_model_count=len(entries),
        result_count=snapshot.results.placed,
        release_dated_result_count=snapshot.results.by_release_date,
        models=entries,
    )


def _summary(detail: HistoryDetail, config: SiteConfig) -> HistorySnapshot:
    top = detail.models[0] if detail.models else None
    return HistorySnapshot(
        date=detail.date,
        model_count=detail.model_count,
        ranked_model_count=detail.ranked_model_count,
        result_count=detail.result_count,
        release_dated_result_count=detail.release_dated_result_count,
        top_model=None
        if top is None
        else HistoryTopModel(id=top.id, name=top.name, iq=top.iq, url=top.url),
        url=api_url(config, HISTORY_SNAPSHOT.api_path(detail.date.isoformat())),
    )


def model_history_documents(
    dataset: Dataset, snapshots: Sequence[Snapshot], config: SiteConfig, env: EnvelopeFields
) -> dict[str, msgspec.Struct]:
    """One `/models/{id}/history` per published model: its point at every snapshot whose
    dataset holds it, oldest first (empty for a model that never entered)."""
    points = history_points(dataset)
    for snapshot in snapshots:
        add_points(points, snapshot, config)
    return model_histories(dataset, points, config, env)


Points = dict[str, list[ModelHistoryPoint]]
"""Each published model's history points so far, by id."""


def history_points(dataset: Dataset) -> Points:
    """No point yet for each published model of `dataset`."""
    return {m.id: [] for m in dataset.models}


def add_points(points: Points, snapshot: Snapshot, config: SiteConfig) -> None:
    """`snapshot`'s point for each model of `points` it holds (snapshots in date order)."""
    url = api_url(config, HISTORY_SNAPSHOT.api_path(snapshot.date.isoformat()))
    for model_id, score in snapshot.scores.models.items():
        if model_id in points:
            points[model_id].append(_point(snapshot, score, url))


def model_histories(
    dataset: Dataset, points: Points, config: SiteConfig, env: EnvelopeFields
) -> dict[str, msgspec.Struct]:
    """One `/models/{id}/history` per published model, of its `points`."""
    return {
        MODEL_HISTORY.api_path(m.id): ModelHistory(
            **env,
            id=m.id,
            name=m.name,
            release_date=m.release_date,
            note=HISTORY_NOTE,
            url=model_page_url(config, m.id),
            snapshots=points[m.id],
        )
        for m in dataset.models
    }


def _point(snapshot: Snapshot, score: SnapshotModel, url: str) -> ModelHistoryPoint:
    ranked = score.rank is not None and score.iq is not None
    band = score.rank_band if ranked else None
    return ModelHistoryPoint(
        date=snapshot.date,
        rank=score.rank if ranked else None,
        iq=score.iq if ranked else None,
        iq_low95=spread_or_none(score.composite_low95) if ranked else None,
        iq_high95=spread_or_none(score.composite_high95) if ranked else None,
        rank_low=band.low if band is not None else None,
        rank_high=band.high if band is not None else None,
        dimensions=dimension_scores(score.dimensions),
        snapshot=url,
    )
