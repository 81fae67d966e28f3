"""Convert the seed data sources into data/, one TOML file per record.

    python scripts/convert_sources.py --sources ../shared/data-sources --out data

Deterministic: the same sources give the same bytes. Every value keeps its
provenance (source name, URL, as-of date). See data/README.md for the layout,
the licences and the rules applied here.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path
from typing import Any

from convert_catalog import benchmark_docs, chart_docs, domain_docs, methodology_doc
from convert_common import Sources, midnight
from convert_models import ModelBuilder, base_price, newest_date, usage_multipliers
from convert_unpublished import PRIVATE, acme_nova, gemini_3_5_flash
from toml_writer import dumps

Doc = dict[str, Any]
HEADER = "Converted from the seed sources by scripts/convert_sources.py (see data/README.md)."
FOLDERS = ("models", "benchmarks", "domains", "charts")


def build_models(sources: Sources) -> dict[str, Doc]:
    """Every model document: the 67 of models.csv plus the unpublished entries."""
    builder = ModelBuilder(sources)
    docs = {row["id"]: builder.build(row, None) for row in sources.rows("models.csv")}
    prices = {model_id: base_price(doc) for model_id, doc in docs.items()}
    for model_id, usage in usage_multipliers(sources, prices).items():
        docs[model_id]["usage"] = usage
        docs[model_id]["updated"] = midnight(newest_date(docs[model_id]))
    for extra in (acme_nova(), gemini_3_5_flash(sources)):
        docs[extra["id"]] = extra
    return docs


def benchmark_updates(models: dict[str, Doc]) -> dict[str, dt.date]:
    """Newest as-of date of each benchmark's results, over published models."""
    newest: dict[str, dt.date] = {}
    for doc in models.values():
        if doc.get("published", True) is False:
            continue
        for result in doc["results"]:
            bench = result["benchmark"]
            newest[bench] = max(result["as_of"], newest.get(bench, result["as_of"]))
    return newest


def write_all(out: Path, sources: Sources) -> int:
    """Write data/ under `out`; return how many files were written."""
    models = build_models(sources)
    benchmarks = benchmark_docs(sources, benchmark_updates(models))
    groups: dict[str, dict[str, Doc]] = {
        "models": models,
        "benchmarks": benchmarks,
        "domains": domain_docs(sources),
        "charts": chart_docs(benchmarks),
    }
    methodology, comments = methodology_doc()
    (out / "methodology.toml").write_text(
        dumps(methodology, header=HEADER, comments=comments), encoding="utf-8"
    )
    count = 1
    for folder in FOLDERS:
        target = out / folder
        target.mkdir(parents=True, exist_ok=True)
        for stale in target.glob("*.toml"):
            stale.unlink()
        for record_id, doc in sorted(groups[folder].items()):
            private = PRIVATE.get(f"{folder}/{record_id}")
            if private is not None:
                doc = {**doc, "private": private}
            (target / f"{record_id}.toml").write_text(dumps(doc, header=HEADER), encoding="utf-8")
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, required=True, help="the seed data folder")
    parser.add_argument("--out", type=Path, required=True, help="the data/ folder to write")
    args = parser.parse_args(argv)
    if not (args.sources / "catalog.csv").is_file():
        parser.error(f"{args.sources} has no catalog.csv")
    args.out.mkdir(parents=True, exist_ok=True)
    count = write_all(args.out, Sources(args.sources.resolve()))
    print(f"wrote {count} files under {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
