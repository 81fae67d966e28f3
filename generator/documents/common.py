"""What every rendered document shares: the envelope, published precisions, lookups."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from generator.api.contract import API_VERSION, DIMENSION_SLUGS, Envelope, LadderFit
from generator.api.urls import SiteConfig, model_page_url
from generator.input.records import BenchmarkRecord, Dataset
from generator.scoring import round_half_up, round_to

COST_DECIMALS = 4
PROJECTED_IQ_DECIMALS = 2
SPREAD_DECIMALS = 2  # sds and the ends of stated 95% ranges


EnvelopeFields = dict[str, Any]
"""The envelope (`contract.Envelope`), as keyword arguments of a top-level document."""


def envelope(dataset: Dataset) -> EnvelopeFields:
    """`apiVersion`, `methodologyVersion`, and `updatedAt` = the newest model or benchmark file."""
    stamps = [m.updated for m in dataset.models] + [b.updated for b in dataset.benchmarks]
    fields = Envelope(
        api_version=API_VERSION,
        methodology_version=dataset.methodology.version,
        updated_at=max(stamps) if stamps else None,
    )
    return msgspec.structs.asdict(fields)


def scored_benchmarks(dataset: Dataset) -> list[BenchmarkRecord]:
    """The iq benchmarks of the scored dimensions, in catalogue order."""
    return [b for b in dataset.benchmarks if b.category == "iq" and b.dimension in DIMENSION_SLUGS]


def ladder_fit(benchmark: BenchmarkRecord) -> LadderFit | None:
    """The benchmark's `[ladder_fit]` as published (null: a hand-set ladder). The figures are
    stored to six significant digits already and published as stored."""
    fit, fitted = benchmark.ladder_fit, benchmark.fitted_iq
    if fit is None or fitted is None:
        return None
    return LadderFit(
        method=fit.method,
        parameters=list(fit.parameters),
        as_of=fit.as_of,
        round=fit.round,
        models=fit.models,
        fitted_iq_low=fitted[0],
        fitted_iq_high=fitted[1],
        residual_sd=fit.residual_sd,
        check_models=fit.check_models,
        coverage=fit.coverage,
        mean_log_predictive_density=fit.mean_log_predictive_density,
        mean_absolute_error=fit.mean_absolute_error,
    )


def model_urls(dataset: Dataset, config: SiteConfig) -> dict[str, str]:
    """Profile page URL of every published model, by id."""
    return {m.id: model_page_url(config, m.id) for m in dataset.models}


def iq_or_none(value: float | None) -> int | None:
    """A dimension estimate as published: rounded half up, or null."""
    return None if value is None else round_half_up(value)


def spread_or_none(value: float | None) -> float | None:
    """An sd or a range end as published: 2 decimals, or null."""
    return None if value is None else round_to(value, SPREAD_DECIMALS)


def cost_or_none(value: float | None) -> float | None:
    """A price-derived number as published: 4 decimals, or null."""
    return None if value is None else round_to(value, COST_DECIMALS)


class Published(msgspec.Struct, frozen=True):
    """A document this build does not hold: the last build published it from the same
    inputs, so its file is kept as it is. `read` gives its bytes back (checked against
    their digest) for whatever is still made from it, such as a CSV lost since; `load`
    the document itself."""

    response: type[msgspec.Struct]
    read: Callable[[], bytes]

    def load(self) -> msgspec.Struct:
        return msgspec.json.decode(self.read(), type=self.response)
