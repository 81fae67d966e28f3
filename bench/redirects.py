"""How many `_redirects` rules a catalogue needs, and what they are for.

`python -m bench.redirects` synthesises data for each N (default 1,000 and 10,000 models,
`bench/synth.py`: no aliases), loads it, and counts the rules `generator/api/hosting.py`
generates for its published models, by purpose: one exact history rewrite per published
model and API tree, the rules of the models' aliases (four API rewrites and one page
redirect per alias spelling), and the rest (index and list rewrites, 404s, whose number
does not depend on the catalogue). `--data DIR` counts a data directory instead (the
shipped `data/`, say). Only the loader runs, not a build: the rules depend on nothing but
the published ids and aliases (tests/api/test_hosting.py checks the count on the shipped
data equals the built `_redirects`).
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.measure import table
from bench.synth import SynthSpec, write_dataset
from generator.api.contract import DOCUMENTS, MODEL, MODEL_HISTORY
from generator.api.hosting import redirect_rules
from generator.api.urls import SiteConfig
from generator.input.load import load_dataset
from generator.input.records import Dataset

HEADERS = ("data", "published models", "aliases", "history", "alias rules", "other", "total")


def dataset_rules(dataset: Dataset) -> list[tuple[str, str, str]]:
    """The (source, target, status) of every `_redirects` rule a build of `dataset` writes
    (the site has its HTML 404 page and no MCP origin, as a default build)."""
    paths = [kind.path for kind in DOCUMENTS if kind.param is None]
    paths += [kind.api_path(m.id) for m in dataset.models for kind in (MODEL, MODEL_HISTORY)]
    aliases = {m.id: list(m.aliases) for m in dataset.models if m.aliases}
    rules = redirect_rules(SiteConfig(), html_404=True, model_aliases=aliases, api_paths=paths)
    return [(r.source, r.target, str(r.status)) for r in rules]


def count_row(label: str, dataset: Dataset) -> list[object]:
    """One table row: the rules of `dataset` by purpose."""
    rules = dataset_rules(dataset)
    ids = {m.id for m in dataset.models}
    history = sum(1 for s, _, _ in rules if s.endswith("/history") and s.split("/")[-2] in ids)
    alias = sum(1 for s, t, st in rules if st in ("200", "301") and "/models/" in s) - history
    aliases = sum(len(m.aliases) for m in dataset.models)
    other = len(rules) - history - alias
    return [label, len(dataset.models), aliases, history, alias, other, len(rules)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.redirects", description=__doc__)
    parser.add_argument("--models", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--data", type=Path, help="count this data directory instead")
    args = parser.parse_args(argv)
    if args.data is not None:
        rows = [count_row(str(args.data), load_dataset(args.data))]
    else:
        rows = []
        with tempfile.TemporaryDirectory() as tmp:
            for n in args.models:
                data = Path(tmp) / f"data-{n}"
                write_dataset(SynthSpec(models=n), data)
                rows.append(count_row(f"synthetic, {n:,} models", load_dataset(data)))
    print(table(HEADERS, rows))


if __name__ == "__main__":
    main()
