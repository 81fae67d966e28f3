"""What the history documents cost beside the replay: `/history/{date}` and
`/models/{id}/history`, built and encoded from the same replayed snapshots.

    .venv/bin/python -m bench.history_docs --sizes 1000,10000

For each N it synthesises data (`bench.synth`), replays the history once (not timed),
then times in CPU seconds, garbage collector off: building each family of documents and
encoding it (the published bytes of one tree; the alias tree doubles them). Prints a
Markdown table.
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec

from bench.synth import SynthSpec, write_dataset
from generator.api.urls import SiteConfig
from generator.documents.assemble import encode
from generator.documents.common import envelope
from generator.documents.history import history_documents, model_history_documents
from generator.input.load import load_dataset
from generator.scoring.history import replay

Documents = Mapping[str, msgspec.Struct]


@dataclass(frozen=True)
class Row:
    """One family of documents at one N."""

    models: int
    snapshots: int
    family: str
    documents: int
    build_cpu: float
    encode_cpu: float
    bytes: int


def _cpu(work: Callable[[], object]) -> tuple[float, object]:
    started = time.process_time()
    result = work()
    return time.process_time() - started, result


def measure(data: Path) -> list[Row]:
    """Both families of history documents for the dataset in `data`."""
    dataset = load_dataset(data)
    snapshots = replay(dataset)
    env, config = envelope(dataset), SiteConfig()
    families: dict[str, Callable[[], Documents]] = {
        "/history/{date}": lambda: history_documents(snapshots, config, env),
        "/models/{id}/history": lambda: model_history_documents(dataset, snapshots, config, env),
    }
    rows = []
    for family, build in families.items():
        build_cpu, built = _cpu(build)
        assert isinstance(built, Mapping)
        encode_cpu, encoded = _cpu(lambda built=built: [encode(d) for d in built.values()])
        assert isinstance(encoded, list)
        size = sum(len(data) for data in encoded)
        row = Row(
            len(dataset.models), len(snapshots), family, len(built), build_cpu, encode_cpu, size
        )
        rows.append(row)
    return rows


def table(rows: Sequence[Row]) -> str:
    lines = [
        "| models | snapshots | documents | count | build CPU s | encode CPU s | MB (one tree) |",
        "|-------:|----------:|-----------|------:|------------:|-------------:|--------------:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.models:,} | {r.snapshots} | `{r.family}` | {r.documents:,} | "
            f"{r.build_cpu:.2f} | {r.encode_cpu:.2f} | {r.bytes / 1e6:.1f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="1000", help="comma-separated model counts")
    parser.add_argument("--benchmarks", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows: list[Row] = []
    gc.disable()
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            data = Path(tmp) / f"data-{size}"
            write_dataset(SynthSpec(models=size, benchmarks=args.benchmarks, seed=args.seed), data)
            rows += measure(data)
            gc.collect()
    print(table(rows))


if __name__ == "__main__":
    main()
