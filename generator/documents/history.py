"""The history documents: `/history` (the snapshot dates), one `/history/{date}` each, and
one `/models/{id}/history` per published model.

Each snapshot is `scoring.history.replay`'s scores of the dataset as it stood at a month
end; its leaderboard lists the ranked models by composite rank, then id. A model's history
has one point per snapshot from the month it entered (released, or its first result).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import msgspec

from generator.api.contract import (
    HISTORY,
    HISTORY_NOTE,
    HISTORY_SNAPSHOT,
    MODEL_HISTORY,
    DimensionScores,
    HistoryDetail,
    HistoryEntry,
    HistoryList,
    HistorySnapshot,
    HistoryTopModel,
    ModelHistory,
    ModelHistoryPoint,
)
from generator.api.urls import SiteConfig, api_url, model_page_url
from generator.documents.common import SPREAD_DECIMALS, EnvelopeFields, model_urls
from generator.documents.models import dimension_scores_many
from generator.input.records import Dataset
from generator.scoring.history import Snapshot, SnapshotModel
from generator.scoring.rounding import round_known, round_to


def history_documents(
    snapshots: Sequence[Snapshot], config: SiteConfig, env: EnvelopeFields
) -> dict[str, msgspec.Struct]:
    """`/history` and every `/history/{date}`."""
    parts = HistoryParts(config, env)
    for snapshot in snapshots:
        parts.add(snapshot)
    return parts.history_list()


def model_history_documents(
    dataset: Dataset, snapshots: Sequence[Snapshot], config: SiteConfig, env: EnvelopeFields
) -> dict[str, msgspec.Struct]:
    """One `/models/{id}/history` per published model: its point at every snapshot whose
    dataset holds it, oldest first (empty for a model that never entered)."""
    parts = HistoryParts(config, env, dataset)
    for snapshot in snapshots:
        parts.add(snapshot)
    return parts.model_histories(dataset)


class HistoryParts:
    """The history's documents made one snapshot at a time (`add`, oldest first): each
    snapshot is read once, so its scores may be dropped as soon as it is added. A model's
    `/history/{date}` entry is made from its point of that month (the same rounded values,
    made once) and its profile URL once per build. `dataset`: the published models whose
    points are kept (none without it)."""

    def __init__(self, config: SiteConfig, env: EnvelopeFields, dataset: Dataset | None = None):
        self._config = config
        self._env = env
        self._urls = {} if dataset is None else model_urls(dataset, config)
        self.details: list[HistoryDetail] = []
        self.points: dict[str, list[ModelHistoryPoint]] = (
            {} if dataset is None else {m.id: [] for m in dataset.models}
        )

    def add(self, snapshot: Snapshot) -> None:
        """`snapshot`'s `/history/{date}` and each kept model's point in it."""
        url = api_url(self._config, HISTORY_SNAPSHOT.api_path(snapshot.date.isoformat()))
        ranked: list[tuple[int, str, int, ModelHistoryPoint]] = []
        scores = list(snapshot.scores.models.items())
        dimensions = dimension_scores_many([score.dimensions for _, score in scores])
        ranges = iter(_ranges([s for _, s in scores if s.rank is not None and s.iq is not None]))
        for (model_id, score), dims in zip(scores, dimensions, strict=True):
            shown = score.rank is not None and score.iq is not None
            point = _point(snapshot, score, url, dims, next(ranges) if shown else (None, None))
            kept = self.points.get(model_id)
            if kept is not None:
                kept.append(point)
            if score.rank is not None and score.iq is not None:
                ranked.append((score.rank, model_id, score.iq, point))
        ranked.sort(key=lambda r: (r[0], r[1]))
        models = {m.id: m for m in snapshot.dataset.models}
        entries = [
            HistoryEntry(
                id=model_id,
                name=models[model_id].name,
                provider=models[model_id].provider,
                rank=rank,
                iq=iq,
                iq_low95=point.iq_low95,
                iq_high95=point.iq_high95,
                rank_low=point.rank_low,
                rank_high=point.rank_high,
                provisional=point.provisional,
                url=self._url(model_id),
            )
            for rank, model_id, iq, point in ranked
        ]
        self.details.append(
            HistoryDetail(
                **self._env,
                date=snapshot.date,
                note=HISTORY_NOTE,
                model_count=len(snapshot.dataset.models),
                ranked_model_count=len(entries),
                result_count=snapshot.results.placed,
                release_dated_result_count=snapshot.results.by_release_date,
                models=entries,
            )
        )

    def history_list(self) -> dict[str, msgspec.Struct]:
        """`/history` and every `/history/{date}` added."""
        documents: dict[str, msgspec.Struct] = {
            HISTORY.path: HistoryList(
                **self._env,
                note=HISTORY_NOTE,
                snapshots=[_summary(d, self._config) for d in self.details],
            )
        }
        for detail in self.details:
            documents[HISTORY_SNAPSHOT.api_path(detail.date.isoformat())] = detail
        return documents

    def model_histories(self, dataset: Dataset) -> dict[str, msgspec.Struct]:
        """One `/models/{id}/history` per published model, of its points added."""
        return {
            MODEL_HISTORY.api_path(m.id): ModelHistory(
                **self._env,
                id=m.id,
                name=m.name,
                release_date=m.release_date,
                note=HISTORY_NOTE,
                url=self._url(m.id),
                snapshots=self.points.get(m.id, []),
            )
            for m in dataset.models
        }

    def _url(self, model_id: str) -> str:
        url = self._urls.get(model_id)
        if url is None:
            url = self._urls[model_id] = model_page_url(self._config, model_id)
        return url


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
        else HistoryTopModel(
            id=top.id, name=top.name, iq=top.iq, provisional=top.provisional, url=top.url
        ),
        url=api_url(config, HISTORY_SNAPSHOT.api_path(detail.date.isoformat())),
    )


def _ranges(ranked: Sequence[SnapshotModel]) -> list[tuple[float | None, float | None]]:
    """Each ranked model's 95% range as published (`spread_or_none`)."""
    ends = [end for s in ranked for end in (s.composite_low95, s.composite_high95)]
    rounded = round_known(ends, partial(round_to, digits=SPREAD_DECIMALS))
    return list(zip(rounded[0::2], rounded[1::2], strict=True))


def _point(
    snapshot: Snapshot,
    score: SnapshotModel,
    url: str,
    dimensions: DimensionScores,
    spread: tuple[float | None, float | None],
) -> ModelHistoryPoint:
    """`score` at `snapshot` (`spread`: its range as published when ranked)."""
    ranked = score.rank is not None and score.iq is not None
    band = score.rank_band if ranked else None
    return ModelHistoryPoint(
        date=snapshot.date,
        rank=score.rank if ranked else None,
        iq=score.iq if ranked else None,
        iq_low95=spread[0],
        iq_high95=spread[1],
        rank_low=band.low if band is not None else None,
        rank_high=band.high if band is not None else None,
        provisional=score.provisional and ranked,
        dimensions=dimensions,
        snapshot=url,
    )
