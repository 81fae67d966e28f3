"""The ranking documents: the catalog `/rankings` and one `/rankings/{id}` each.

Catalog order (contract): composite-iq, effective-cost, one `<dimension>-iq` ranking per
dimension, then one ranking per scored benchmark in catalogue order. Every rank comes
from `scoring.rank_entries` on the published (rounded) score.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import msgspec

from generator.api.contract import (
    DIMENSION_SLUGS,
    RANKING,
    RANKINGS,
    Direction,
    RankedModel,
    RankingCatalogEntry,
    RankingDetail,
    RankingList,
    RankingType,
)
from generator.api.urls import SiteConfig, ranking_page_url
from generator.documents.common import (
    EnvelopeFields,
    cost_or_none,
    iq_or_none,
    model_urls,
    scored_benchmarks,
)
from generator.errors import BuildError
from generator.input.records import Dataset, ModelRecord
from generator.scoring import rank_entries
from generator.scoring.types import ModelScores, RankBand, Scores
from generator.vocabulary import DIMENSION_NAMES

COMPOSITE_ID = "composite-iq"
COMPOSITE_NAME = "Composite IQ"
COST_ID = "effective-cost"
COST_NAME = "Effective cost"
UNSET = msgspec.UNSET


@dataclass(frozen=True)
class _Ranking:
    """A ranking before rendering: its catalog fields and `(model id, score)` items."""

    id: str
    name: str
    type: RankingType
    dimension: str | None
    direction: Direction
    items: tuple[tuple[str, float], ...]
    field: str | None = None
    category: str | None = None
    unit: str | None = None
    imputed: Mapping[str, bool] | None = None  # dimension rankings: row flag by model id
    bands: Mapping[str, RankBand] | None = None  # composite and dimension rankings, by model id
    provisional: Mapping[str, bool] | None = None  # the composite ranking: row flag by model id
    row_urls: bool = False  # benchmark rankings: rows carry the model profile URL


def ranking_documents(
    dataset: Dataset, scores: Scores, config: SiteConfig, env: EnvelopeFields
) -> dict[str, msgspec.Struct]:
    """`/rankings` (the catalog) and every `/rankings/{id}`."""
    rankings = _rankings(dataset, scores)
    ids = [r.id for r in rankings]
    if len(set(ids)) != len(ids):
        clash = sorted({i for i in ids if ids.count(i) > 1})
        raise BuildError(f"ranking ids clash (a benchmark id equals a derived ranking id): {clash}")
    models = {m.id: m for m in dataset.models}
    urls = model_urls(dataset, config)
    version = dataset.methodology.version
    documents: dict[str, msgspec.Struct] = {
        RANKINGS.path: RankingList(
            **env, rankings=[_catalog_entry(r, config, version) for r in rankings]
        )
    }
    for ranking in rankings:
        documents[RANKING.api_path(ranking.id)] = _detail(ranking, models, urls, config, env)
    return documents


def _rankings(dataset: Dataset, scores: Scores) -> list[_Ranking]:
    models = scores.models
    rankings = [
        _Ranking(
            id=COMPOSITE_ID,
            name=COMPOSITE_NAME,
            type="derived",
            dimension=None,
            direction="higher_is_better",
            items=_items(models, lambda s: s.iq),
            bands={m: s.rank_band for m, s in models.items() if s.rank_band is not None},
            provisional={m: s.provisional for m, s in models.items()},
        ),
        _Ranking(
            id=COST_ID,
            name=COST_NAME,
            type="derived",
            dimension=None,
            direction="lower_is_better",
            items=_items(models, lambda s: cost_or_none(s.cost.effective_per_1m)),
            unit=dataset.methodology.cost_unit,
        ),
    ]
    for index, slug in enumerate(DIMENSION_SLUGS):
        rankings.append(
            _Ranking(
                id=f"{slug}-iq",
                name=f"{DIMENSION_NAMES[slug]} IQ",
                type="dimension",
                dimension=slug,
                direction="higher_is_better",
                items=_items(models, _dimension_score(index)),
                imputed={m: s.dimensions[index].imputed for m, s in models.items()},
                bands={
                    m: band
                    for m, s in models.items()
                    if (band := s.dimension_bands[index]) is not None
                },
            )
        )
    rankings.extend(_benchmark_rankings(dataset, scores))
    return rankings


def _dimension_score(index: int) -> Callable[[ModelScores], float | None]:
    def score(s: ModelScores) -> float | None:
        return iq_or_none(s.dimensions[index].value)

    return score


def _items(
    models: Mapping[str, ModelScores], score: Callable[[ModelScores], float | None]
) -> tuple[tuple[str, float], ...]:
    """`(model id, published score)` for every model that has a score, by id."""
    pairs = ((model_id, score(s)) for model_id, s in sorted(models.items()))
    return tuple((model_id, value) for model_id, value in pairs if value is not None)


def _benchmark_rankings(dataset: Dataset, scores: Scores) -> list[_Ranking]:
    """One ranking per scored benchmark: each model's chosen result (as scored), raw."""
    raw: dict[str, list[tuple[str, float]]] = {b.id: [] for b in scored_benchmarks(dataset)}
    for model in dataset.models:
        for benchmark_id, scored in scores.models[model.id].results.items():
            if benchmark_id in raw:
                raw[benchmark_id].append((model.id, scored.projection.raw))
    return [
        _Ranking(
            id=b.id,
            name=b.name,
            type="benchmark",
            dimension=b.dimension,
            direction=b.direction,
            items=tuple(raw[b.id]),
            field=b.field,
            category=b.category,
            unit=b.unit,
            row_urls=True,
        )
        for b in scored_benchmarks(dataset)
    ]


def _catalog_entry(ranking: _Ranking, config: SiteConfig, version: str) -> RankingCatalogEntry:
    return RankingCatalogEntry(
        id=ranking.id,
        ranking_name=ranking.name,
        ranking_type=ranking.type,
        dimension=ranking.dimension,
        direction=ranking.direction,
        model_count=len(ranking.items),
        url=ranking_page_url(config, ranking.id),
        field=_opt(ranking.field),
        category=_opt(ranking.category),
        methodology_version=version if ranking.type != "benchmark" else UNSET,
        unit=_opt(ranking.unit),
    )


def _detail(
    ranking: _Ranking,
    models: Mapping[str, ModelRecord],
    urls: Mapping[str, str],
    config: SiteConfig,
    env: EnvelopeFields,
) -> RankingDetail:
    """A ranking's rows (`urls`: each model's profile page, for the rows that link it)."""
    rows = []
    for entry in rank_entries(ranking.items, ranking.direction):
        model_id = entry.model_id
        model = models[model_id]
        band = ranking.bands.get(model_id) if ranking.bands is not None else None
        rows.append(
            RankedModel(
                id=model_id,
                name=model.name,
                provider=model.provider,
                rank=entry.rank,
                score=entry.score,
                imputed=ranking.imputed[model_id] if ranking.imputed is not None else UNSET,
                url=urls[model_id] if ranking.row_urls else UNSET,
                rank_low=UNSET if band is None else band.low,
                rank_high=UNSET if band is None else band.high,
                provisional=UNSET if ranking.provisional is None else ranking.provisional[model_id],
            )
        )
    return RankingDetail(
        **env,
        id=ranking.id,
        ranking_name=ranking.name,
        ranking_type=ranking.type,
        dimension=ranking.dimension,
        direction=ranking.direction,
        model_count=len(rows),
        url=ranking_page_url(config, ranking.id),
        field=_opt(ranking.field),
        category=_opt(ranking.category),
        unit=_opt(ranking.unit),
        models=rows,
    )


def _opt(value: str | None) -> str | msgspec.UnsetType:
    return UNSET if value is None else value
