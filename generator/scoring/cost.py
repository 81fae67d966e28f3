"""Effective cost: base price times a usage multiplier (docs/METHODOLOGY.md section 6)."""

from __future__ import annotations

import datetime as dt
import math
from bisect import bisect_left
from collections.abc import Mapping, Sequence

from generator.input.records import ModelRecord, ParametersRecord, PricesRecord
from generator.scoring.rounding import round_to
from generator.scoring.types import CostEstimate, CostStep, UsageSource

COST_DIGITS = 4
IO_DIGITS = 6  # the sum of two prices, rounded only to drop float artefacts
_NO_DATE = math.inf


def base_price(prices: PricesRecord) -> float | None:
    """`ioPer1M`: input + output when a positive price is recorded, else the hosted price.

    Free, zero-dollar and rate-limited rows (and rows missing either price)
    have no base unless a nonzero hosted-provider price is recorded.
    """
    own = None
    if not prices.free and not prices.rate_limited:
        if prices.input is not None and prices.output is not None:
            own = prices.input + prices.output
    if own is not None and own > 0:
        return round_to(own, IO_DIGITS)
    hosted = prices.hosted
    if hosted is not None and hosted.input + hosted.output > 0:
        return round_to(hosted.input + hosted.output, IO_DIGITS)
    return None


def measured_ancestor(
    model: ModelRecord, models: Mapping[str, ModelRecord], generations: int
) -> ModelRecord | None:
    """The ancestor `generations` steps up the predecessor chain, if it is measured.

    Every step must stay in the model's family; the chain is the recorded
    `lineage.predecessor` links between published models.
    """
    if model.lineage is None:
        return None
    family = model.lineage.family
    current = model
    for _ in range(generations):
        lineage = current.lineage
        if lineage is None or lineage.predecessor is None:
            return None
        parent = models.get(lineage.predecessor)
        if parent is None or parent.lineage is None or parent.lineage.family != family:
            return None
        current = parent
    return current if current.usage is not None else None


def _days(date: dt.date | None, other: dt.date | None) -> float:
    if date is None or other is None:
        return _NO_DATE
    return float(abs((date - other).days))


class PeerIndex:
    """Measured models with a composite, sorted by composite, made once per dataset.

    `closest(model, count)` walks outward from the model's composite and stops once the
    `count`-th distance is passed (ties at it kept, then sorted by the full key):
    O(log n + count) per query.
    """

    def __init__(
        self, models: Mapping[str, ModelRecord], composites: Mapping[str, float | None]
    ) -> None:
        self.composites = composites
        measured: list[tuple[float, str, ModelRecord]] = []
        for peer in models.values():
            peer_iq = composites.get(peer.id)
            if peer.usage is not None and peer_iq is not None:
                measured.append((peer_iq, peer.id, peer))
        measured.sort(key=lambda item: (item[0], item[1]))
        self._iqs = [item[0] for item in measured]
        self._peers = [item[2] for item in measured]

    def closest(self, model: ModelRecord, count: int) -> list[ModelRecord]:
        """The `count` measured models closest to `model`: by composite distance, then
        days between the release dates (unknown: last), then id; none without a composite."""
        own = self.composites.get(model.id)
        if own is None or count <= 0:
            return []
        iqs, peers = self._iqs, self._peers
        right = bisect_left(iqs, own)
        left = right - 1
        picked: list[tuple[tuple[float, float, str], ModelRecord]] = []
        threshold = math.inf
        while True:  # distances come in non-decreasing order: merge the two sides
            to_left = abs(iqs[left] - own) if left >= 0 else math.inf
            to_right = abs(iqs[right] - own) if right < len(iqs) else math.inf
            distance = min(to_left, to_right)
            if distance == math.inf or distance > threshold:
                break
            if to_left <= to_right:
                peer, left = peers[left], left - 1
            else:
                peer, right = peers[right], right + 1
            if peer.id == model.id:
                continue
            key = (distance, _days(model.release_date, peer.release_date), peer.id)
            picked.append((key, peer))
            if len(picked) == count:
                threshold = distance  # keep every tie at this distance, then sort
        picked.sort(key=lambda item: item[0])
        return [peer for _, peer in picked[:count]]


def geometric_mean(values: Sequence[float]) -> float:
    """exp(mean(log v)) of positive values."""
    return math.exp(math.fsum(math.log(v) for v in values) / len(values))


def estimate_cost(
    model: ModelRecord,
    models: Mapping[str, ModelRecord],
    composites: Mapping[str, float | None],
    params: ParametersRecord,
    peer_index: PeerIndex | None = None,
) -> CostEstimate:
    """The waterfall a-e for one model; every multiplier source is named in `multiplier_from`.

    `peer_index` (built once per dataset) makes step d fast; without it one is made here.
    """
    base = base_price(model.prices)
    if base is None:
        return CostEstimate(
            io_per_1m=None,
            usage_multiplier=None,
            usage_multiplier_source=None,
            effective_per_1m=None,
            step="none",
        )
    if model.usage is not None:
        return _priced(base, model.usage.multiplier, "measured", "a", (model.id,))
    lineage_steps: tuple[tuple[int, CostStep], ...] = ((1, "b"), (2, "c"))
    for generations, step in lineage_steps:
        ancestor = measured_ancestor(model, models, generations)
        if ancestor is not None and ancestor.usage is not None:
            source = (ancestor.id,)
            return _priced(base, ancestor.usage.multiplier, "lineage-imputed", step, source)
    index = peer_index if peer_index is not None else PeerIndex(models, composites)
    peers = index.closest(model, params.peer_count)
    if peers:
        multiplier = round_to(
            geometric_mean([p.usage.multiplier for p in peers if p.usage is not None]),
            COST_DIGITS,
        )
        return _priced(base, multiplier, "peer-imputed", "d", tuple(p.id for p in peers))
    return _priced(base, params.default_usage_multiplier, None, "e", ())


def _priced(
    base: float,
    multiplier: float,
    source: UsageSource | None,
    step: CostStep,
    multiplier_from: tuple[str, ...],
) -> CostEstimate:
    return CostEstimate(
        io_per_1m=base,
        usage_multiplier=multiplier,
        usage_multiplier_source=source,
        effective_per_1m=round_to(base * multiplier, COST_DIGITS),
        step=step,
        multiplier_from=multiplier_from,
    )
