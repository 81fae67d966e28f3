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
from generator.scoring.types import Scores


class KeptStore(Protocol):
    """Price-independent scores (`score_models`) kept by the digest of their inputs."""

    code: bytes  # the generator's version, part of every key

    def get(self, key: bytes) -> Scores | None: ...

    def put(self, key: bytes, kept: Scores) -> None: ...


def reuse_scores(dataset: Dataset, store: KeptStore, run: TaskMap = in_process) -> Scores:
    """`compute_scores(dataset)`, its price-independent part taken from `store` when kept
    under the digest of `kept_inputs(dataset)` (else computed and kept there)."""
    key = kept_key(dataset, store.code)
    kept = store.get(key)
    if kept is None:
        kept = score_models(dataset, run)
        store.put(key, kept)
    return price_scores(dataset, kept)


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
