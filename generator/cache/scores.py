"""Today's scores in two parts, the price-independent one kept between builds by its inputs.

`score_models` (`generator/scoring/engine.py`) reads scoring inputs only (`kept_inputs`);
`price_scores` adds what reads prices, usage and domains. A build whose scoring inputs did
not change (a price edit) takes the first part from `KeptScores` and recomputes the
second: the same `Scores`, byte for byte (`tests/output/test_score_reuse.py`).

`KeptScores` is one file beside the site (`kept_scores_path`, outside the published tree):
the format, the key (`kept_key`: the digest of the scoring inputs and of the generator's
code), the digest of the encoded scores and the scores. They are reused only when all
four check out, so a missing, truncated, foreign, renamed or edited file means scoring
again, never wrong scores. The file is written to a temporary name and renamed (a killed
build leaves the old file or the new one, and a temporary file the next build removes).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import msgspec

from generator.cache import manifest
from generator.digests import digest
from generator.input.records import Dataset
from generator.output.files import read_cache_file, replace_cache_file, temporary_path
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


def reuse_scores(dataset: Dataset, store: KeptScores, run: TaskMap = in_process) -> Scores:
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


FORMAT = 1
KEPT_SCORES_SUFFIX = ".build-cache-scores"


class _Entry(msgspec.Struct, array_like=True, frozen=True):
    format: int
    key: bytes
    content: bytes  # digest of `scores`
    scores: bytes  # msgpack of the `Kept` scores


def kept_scores_path(out_dir: Path) -> Path:
    """The file of today's price-independent scores for the site at `out_dir`."""
    out_dir = Path(os.path.abspath(out_dir))
    return out_dir.parent / f".{out_dir.name}{KEPT_SCORES_SUFFIX}"


class KeptScores:
    """The price-independent scores (`score_models`) kept by the digest of their inputs, in
    the file beside the site at `out_dir`."""

    def __init__(self, out_dir: Path) -> None:
        self.path = kept_scores_path(out_dir)
        self.code = manifest.CODE  # the generator's version, part of every key
        self.hit = False
        with contextlib.suppress(OSError):  # a killed build's (the writer's lock is held)
            os.unlink(temporary_path(self.path))

    def get(self, key: bytes) -> Kept | None:
        """The scores kept under `key`, or None (missing, damaged or from another key)."""
        try:
            entry = msgspec.msgpack.decode(read_cache_file(self.path), type=_Entry)
            if entry.format != FORMAT or entry.key != key or digest(entry.scores) != entry.content:
                return None
            kept = msgspec.msgpack.decode(entry.scores, type=Kept)
        except (OSError, ValueError, msgspec.DecodeError):
            return None
        self.hit = True
        return kept

    def put(self, key: bytes, kept: Kept) -> None:
        """Keep `kept` under `key`, replacing the file; failing to costs time, never correctness."""
        data = msgspec.msgpack.encode(kept)
        entry = _Entry(format=FORMAT, key=key, content=digest(data), scores=data)
        with contextlib.suppress(OSError):  # the old file, if any, stays valid under its own key
            replace_cache_file(self.path, msgspec.msgpack.encode(entry))
