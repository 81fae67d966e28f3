"""Today's scores in two parts: the price-independent one kept between builds, by its inputs.

`score_models` reads scoring inputs only (`kept_inputs`); `price_scores` adds what reads
prices, usage and domains. A build whose scoring inputs did not change (a price edit) takes
the first part from a `KeptStore` (`generator/output/kept_scores.py`, beside the site) and
recomputes the second: the same `Scores`, byte for byte (`tests/output/test_score_reuse.py`).
"""

from __future__ import annotations

from typing import Protocol

import msgspec

from generator.digests import digest
from generator.input.records import Dataset
from generator.scoring.engine import price_scores, score_models
from generator.scoring.history import scoring_inputs
from generator.scoring.tasks import TaskMap, in_process
from generator.scoring.types import ModelScores, Projection, ScoredResult, Scores


class KeptResult(msgspec.Struct, array_like=True, frozen=True):
    """One `ScoredResult` with its row named by place: the row itself is in the dataset."""

    benchmark: str
    row: int  # the chosen row's index in the model's results
    raw: float
    iq: float
    offset: float | None


class Kept(msgspec.Struct, frozen=True, kw_only=True):
    """`score_models`' scores as kept: each model's results as `KeptResult`s (decoding the
    rows again would cost more than scoring them)."""

    scores: Scores  # every model's `results` left empty
    results: dict[str, tuple[KeptResult, ...]]  # model id -> its results, in order


class KeptStore(Protocol):
    """Price-independent scores (`score_models`) kept by the digest of their inputs."""

    code: bytes  # the generator's version, part of every key

    def get(self, key: bytes) -> Kept | None: ...

    def put(self, key: bytes, kept: Kept) -> None: ...


def reuse_scores(dataset: Dataset, store: KeptStore, run: TaskMap = in_process) -> Scores:
    """`compute_scores(dataset)`, its price-independent part taken from `store` when kept
    under the digest of `kept_inputs(dataset)` (else computed and kept there)."""
    key = kept_key(dataset, store.code)
    kept = store.get(key)
    scores = unpack(dataset, kept) if kept is not None else None
    if scores is None:
        scores = score_models(dataset, run)
        packed = pack(dataset, scores)
        if packed is not None:
            store.put(key, packed)
    return price_scores(dataset, scores)


def pack(dataset: Dataset, scores: Scores) -> Kept | None:
    """`scores` (`score_models(dataset)`) as kept; None if a chosen row is not in the data."""
    models = {m.id: m for m in dataset.models}
    results: dict[str, tuple[KeptResult, ...]] = {}
    for model_id, model_scores in scores.models.items():
        places = {id(row): i for i, row in enumerate(models[model_id].results)}
        kept = []
        for benchmark, result in model_scores.results.items():
            place = places.get(id(result.row))
            if place is None:
                return None
            projection = result.projection
            kept.append(KeptResult(benchmark, place, projection.raw, projection.iq, result.offset))
        results[model_id] = tuple(kept)
    bare = {m: msgspec.structs.replace(s, results={}) for m, s in scores.models.items()}
    return Kept(scores=msgspec.structs.replace(scores, models=bare), results=results)


def unpack(dataset: Dataset, kept: Kept) -> Scores | None:
    """The scores `pack` kept, each row taken from `dataset` (which has the same results:
    they are part of the key); None if the rows are not there."""
    models = {m.id: m for m in dataset.models}
    scores: dict[str, ModelScores] = {}
    try:
        for model_id, model_scores in kept.scores.models.items():
            rows = models[model_id].results
            results = {
                r.benchmark: ScoredResult(
                    row=rows[r.row],
                    projection=Projection(benchmark=r.benchmark, raw=r.raw, iq=r.iq),
                    offset=r.offset,
                )
                for r in kept.results[model_id]
            }
            scores[model_id] = msgspec.structs.replace(model_scores, results=results)
    except (KeyError, IndexError):
        return None
    return msgspec.structs.replace(kept.scores, models=scores)


def kept_inputs(dataset: Dataset) -> Dataset:
    """`dataset` with only what `score_models` reads: `history.scoring_inputs` (no names,
    prices, usage, domains, charts) with each result row whole, as `results` publishes it."""
    inputs = scoring_inputs(dataset)
    return msgspec.structs.replace(
        inputs,
        models=tuple(
            msgspec.structs.replace(kept, results=model.results)
            for kept, model in zip(inputs.models, dataset.models, strict=True)
        ),
    )


def kept_key(dataset: Dataset, code: bytes) -> bytes:
    """The digest `score_models(dataset)` is kept under: the code and `kept_inputs`."""
    return digest(b"kept-scores", code, msgspec.msgpack.encode(kept_inputs(dataset)))
