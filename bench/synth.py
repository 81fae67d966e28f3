"""Synthetic `data/` for benchmarks: N models, B benchmarks, deterministic from a seed.

The shape follows the shipped data: the declared dimensions, two EQ benchmarks, the ten
domains, ladders in the sources' units (fractions, percents, Elo, minutes, one
lower-is-better error rate), sparse coverage (most models report a minority of
benchmarks), lineage chains within families, reasoning configurations,
revisions, prices with the free / hosted / rate-limited cases, measured usage
multipliers, `[private]` tables and a share of unpublished models.

Usage: `python -m bench.synth --models 1000 --out /tmp/data` (see --help).
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import random
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rtoml

from generator.api.contract import DIMENSION_SLUGS
from generator.vocabulary import LADDER_IQS

# Domain slug -> (name, number of domain benchmarks); counts as in the shipped catalogue.
DOMAINS: dict[str, tuple[str, int]] = {
    "bio": ("Biology", 3),
    "cybersecurity": ("Cybersecurity", 1),
    "emotional-reasoning": ("Emotional reasoning", 2),
    "finance": ("Finance", 3),
    "healthcare": ("Healthcare", 2),
    "legal": ("Legal", 1),
    "machine-learning": ("Machine learning", 2),
    "software-engineering": ("Software engineering", 2),
    "webdev-design": ("Web development and design", 1),
    "writing": ("Writing", 1),
}
CHART_KINDS = ("iq-distribution", "iq-vs-cost", "frontier", "dimension-profile", "benchmark-scores")
PROVIDER_STEMS = (
    "acme", "borealis", "cirrus", "delta", "ember", "fathom", "granite", "helix", "ion",
    "juniper", "kestrel", "lumen", "meridian", "nimbus", "orbit", "prism", "quasar", "ridge",
    "summit", "tundra", "umbra", "vertex", "willow", "xenon", "yonder", "zephyr",
)  # fmt: skip
FAMILY_STEMS = (
    "nova", "atlas", "sage", "pilot", "spark", "echo", "crest", "drift", "flux", "glide",
    "halo", "iris", "jade", "koda", "lyra", "mira", "nexa", "opal", "pulse", "quill",
)  # fmt: skip
DIMENSION_ABBREVIATIONS = {
    "abstract-reasoning": "abs",
    "mathematical-reasoning": "math",
    "academic-reasoning": "acad",
    "programmatic-reasoning": "prog",
    "computer-use": "cu",
    "reliability": "rel",
    "knowledge-work": "kw",
}
COUNTRIES = ("United States", "China", "France", "United Kingdom", "Canada", "Israel", "Korea")
TIERS = ("", "mini", "pro", "flash", "nano")
EFFORTS = ("low", "medium", "high", "xhigh")
SOURCE_URL = "https://example.org/synthetic"
UPDATED = dt.datetime(2026, 4, 1, 12, 0, tzinfo=dt.UTC)
EPOCH = dt.date(2022, 1, 1)
SPAN_DAYS = 4 * 365 + 180


@dataclass(frozen=True)
class SynthSpec:
    """What to generate. Everything else follows from the seed."""

    models: int
    benchmarks: int = 40
    seed: int = 1
    unpublished_share: float = 0.04


@dataclass(frozen=True)
class Benchmark:
    """A generated scored (iq) or EQ benchmark."""

    id: str
    field: str
    dimension: str | None
    ladder: tuple[float, ...]
    unit: str
    direction: str
    popularity: float


@dataclass
class Model:
    """A generated model, before it is turned into a TOML table."""

    id: str
    provider: str
    family: str
    generation: float
    tier: str
    predecessor: str | None
    release: dt.date
    ability: float
    published: bool = True
    leaf: bool = True
    table: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SynthReport:
    """What was written."""

    models: int
    published: int
    benchmarks: int
    results: int
    domain_results: int
    files: int


# --- ladders and values ------------------------------------------------------


def _sig(x: float, digits: int = 6) -> float:
    if x == 0:
        return 0.0
    return round(x, digits - 1 - int(math.floor(math.log10(abs(x)))))


def _strict(values: list[float], increasing: bool) -> tuple[float, ...]:
    """Make a rounded ladder strictly monotone by nudging ties."""
    out = list(values)
    for i in range(1, len(out)):
        if increasing and out[i] <= out[i - 1]:
            out[i] = _sig(out[i - 1] + abs(out[i - 1]) * 1e-4 + 1e-6)
        if not increasing and out[i] >= out[i - 1]:
            out[i] = _sig(out[i - 1] - abs(out[i - 1]) * 1e-4 - 1e-6)
    return tuple(out)


def _logistic_ladder(rng: random.Random, top: float) -> list[float]:
    center = rng.uniform(95, 140)
    scale = rng.uniform(10, 20)
    floor = rng.uniform(0.0, 0.3) * top
    ceiling = top * (1 - rng.uniform(0.0, 0.08))
    span = ceiling - floor
    return [_sig(floor + span / (1 + math.exp(-(iq - center) / scale))) for iq in LADDER_IQS]


def make_ladder(rng: random.Random, unit: str, direction: str) -> tuple[float, ...]:
    """A ladder (a point per `LADDER_IQS` step) in the benchmark's unit, strictly monotone
    in its direction."""
    if unit == "elo":
        base, step = rng.uniform(800, 1100), rng.uniform(9, 18)
        points = [_sig(base + step * (iq - 70)) for iq in LADDER_IQS]
    elif unit == "minutes":
        base, rate = math.log(rng.uniform(3, 10)), math.log(rng.uniform(2.5, 4)) / 15
        points = [_sig(math.exp(base + rate * (iq - 70))) for iq in LADDER_IQS]
    elif unit == "percent 0-100":
        points = _logistic_ladder(rng, 100.0)
    else:
        points = _logistic_ladder(rng, 1.0)
    increasing = direction == "higher_is_better"
    if not increasing:
        points = [_sig(100.0 - p) for p in points]
    return _strict(points, increasing)


# Bounds of a valid raw value per unit, as the shipped data declares them.
UNIT_BOUNDS: dict[str, dict[str, float]] = {
    "fraction 0-1": {"min_value": 0.0, "max_value": 1.0},
    "percent 0-100": {"min_value": 0.0, "max_value": 100.0},
    "elo": {"min_value": 0.0, "max_value": 4000.0},
    "minutes": {"min_value": 0.0},
}


def raw_at(ladder: Sequence[float], iq: float) -> float:
    """The raw score a ladder expects at an IQ (inverse of the projection)."""
    iq = min(max(iq, LADDER_IQS[0]), LADDER_IQS[-1])
    for i in range(len(LADDER_IQS) - 1):
        lo, hi = LADDER_IQS[i], LADDER_IQS[i + 1]
        if iq <= hi:
            t = (iq - lo) / (hi - lo)
            return ladder[i] + t * (ladder[i + 1] - ladder[i])
    return ladder[-1]


def _round_value(unit: str, value: float) -> float:
    if unit in ("elo", "minutes"):
        return round(value, 1)
    if unit == "percent 0-100":
        return round(value, 2)
    return round(value, 4)


# --- benchmarks --------------------------------------------------------------


def make_benchmarks(rng: random.Random, count: int) -> list[Benchmark]:
    """`count` iq benchmarks spread round-robin over the dimensions, then two EQ."""
    out: list[Benchmark] = []
    per_dim: dict[str, int] = {}
    for i in range(count):
        dim = DIMENSION_SLUGS[i % len(DIMENSION_SLUGS)]
        n = per_dim[dim] = per_dim.get(dim, 0) + 1
        unit = rng.choices(
            ("fraction 0-1", "percent 0-100", "elo", "minutes"), weights=(60, 28, 6, 6)
        )[0]
        direction = "higher_is_better"
        if dim == "reliability" and n == 2:
            unit, direction = "percent 0-100", "lower_is_better"
        abbrev = DIMENSION_ABBREVIATIONS[dim]
        out.append(
            Benchmark(
                id=f"{abbrev}-bench-{n}",
                field=f"{abbrev}Bench{n}",
                dimension=dim,
                ladder=make_ladder(rng, unit, direction),
                unit=unit,
                direction=direction,
                popularity=rng.uniform(0.15, 1.0) ** 2,
            )
        )
    for n, unit in ((1, "elo"), (2, "percent 0-100")):
        out.append(
            Benchmark(
                id=f"eq-bench-{n}",
                field=f"eqBench{n}",
                dimension=None,
                ladder=make_ladder(rng, unit, "higher_is_better"),
                unit=unit,
                direction="higher_is_better",
                popularity=0.3,
            )
        )
    return out


def benchmark_table(bench: Benchmark, index: int) -> dict[str, Any]:
    """The TOML table of one benchmark file."""
    return {
        "id": bench.id,
        "field": bench.field,
        "name": f"Synthetic {bench.id}",
        "description": f"Synthetic benchmark {index} for performance tests.",
        "category": "iq" if bench.dimension else "eq",
        "dimension": bench.dimension,
        "direction": bench.direction,
        "unit": bench.unit,
        **UNIT_BOUNDS[bench.unit],
        "ladder": list(bench.ladder),
        "confidence": "normal" if index % 5 else "low-confidence",
        "source_name": "Synthetic source",
        "source_url": f"{SOURCE_URL}/benchmarks/{bench.id}",
        "updated": UPDATED - dt.timedelta(days=index),
    }


# --- models ------------------------------------------------------------------


def make_lineage(rng: random.Random, count: int) -> list[Model]:
    """Families of models over generations; each tier's predecessor is its previous generation."""
    providers = max(4, count // 60)
    models: list[Model] = []
    family_no = 0
    while len(models) < count:
        provider = f"{PROVIDER_STEMS[family_no % len(PROVIDER_STEMS)]}{family_no % providers}"
        family = f"{FAMILY_STEMS[family_no % len(FAMILY_STEMS)]}{family_no // len(FAMILY_STEMS)}"
        family_no += 1
        generations = rng.randint(1, 8)
        tiers = TIERS[: rng.randint(1, 3)]
        start = rng.uniform(0, SPAN_DAYS * 0.6)
        base = rng.gauss(92, 9)
        gen = 1.0
        previous: dict[str, Model] = {}
        for g in range(generations):
            day = start + g * rng.uniform(90, 240)
            if day > SPAN_DAYS:
                break
            for tier in tiers:
                if len(models) >= count:
                    break
                pred = previous.get(tier)
                tier_shift = {"": 0, "mini": -6, "pro": 5, "flash": -4, "nano": -10}[tier]
                model = Model(
                    id="-".join(p for p in (provider, family, f"{gen:g}", tier) if p),
                    provider=provider,
                    family=family,
                    generation=gen,
                    tier=tier,
                    predecessor=pred.id if pred else None,
                    release=EPOCH + dt.timedelta(days=int(day)),
                    ability=base + 11 * day / 365 + tier_shift + rng.gauss(0, 4),
                )
                if pred:
                    pred.leaf = False
                previous[tier] = model
                models.append(model)
            gen = gen + rng.choice((0.5, 1.0, 1.0))
    return models


def _weighted_sample(rng: random.Random, items: Sequence[Benchmark], k: int) -> list[Benchmark]:
    keyed = sorted(items, key=lambda b: -(rng.random() ** (1 / b.popularity)))
    return keyed[:k]


def _coverage(rng: random.Random, model: Model, total: int) -> int:
    recency = (model.release - EPOCH).days / SPAN_DAYS
    share = rng.betavariate(1.2, 4.5) * (0.6 + 0.8 * recency)
    if rng.random() < 0.05:
        return 0
    return max(1, min(total, round(share * total)))


def make_results(
    rng: random.Random, model: Model, benches: Sequence[Benchmark]
) -> list[dict[str, Any]]:
    """Raw results for a coverage-sized, popularity-weighted subset of the iq benchmarks."""
    scored = [b for b in benches if b.dimension]
    offsets = {dim: rng.gauss(0, 6) for dim in DIMENSION_SLUGS}
    chosen = _weighted_sample(rng, scored, _coverage(rng, model, len(scored)))
    if rng.random() < 0.15:
        chosen += [b for b in benches if not b.dimension and rng.random() < 0.7]
    rows = []
    for bench in sorted(chosen, key=lambda b: b.id):
        iq = model.ability + offsets.get(bench.dimension or "", 0.0) + rng.gauss(0, 4)
        as_of = model.release + dt.timedelta(days=rng.randint(5, 200))
        row: dict[str, Any] = {
            "benchmark": bench.id,
            "value": _round_value(bench.unit, raw_at(bench.ladder, iq)),
            "source_name": "Synthetic hub",
            "source_url": f"{SOURCE_URL}/results/{bench.id}",
            "as_of": as_of,
        }
        if rng.random() < 0.3:
            row["harness"] = rng.choice(("default", "agentic", "tool-use"))
        if rng.random() < 0.4:
            row["source_model"] = f"{model.id}_{rng.choice(EFFORTS)}"
        rows.append(row)
    return rows


def make_prices(rng: random.Random, model: Model, open_weights: bool) -> dict[str, Any]:
    """Prices: mostly paid, some free or rate-limited, some free with a hosted price."""
    roll = rng.random()
    if roll < 0.08:
        return {}
    scale = math.exp((model.ability - 100) / 20)
    price_in = _sig(rng.lognormvariate(0, 0.6) * scale, 3)
    price_out = _sig(price_in * rng.uniform(3, 8), 3)
    if open_weights and roll < 0.35:
        prices: dict[str, Any] = {"input": 0.0, "output": 0.0, "free": True}
        if rng.random() < 0.5:
            prices["hosted"] = {
                "provider": "Synthetic host",
                "input": price_in,
                "output": price_out,
                "source_url": f"{SOURCE_URL}/hosts/{model.id}",
            }
        return prices
    prices = {"input": price_in, "output": price_out, "source": "synthetic price list"}
    if rng.random() < 0.4:
        prices["cache_read"] = _sig(price_in * 0.1, 3)
    if rng.random() < 0.2:
        prices["cache_write"] = _sig(price_in * 1.25, 3)
    if rng.random() < 0.03:
        prices["rate_limited"] = True
    return prices


def make_revisions(rng: random.Random, model: Model) -> list[dict[str, Any]]:
    """Dated checkpoints after the release date."""
    out = []
    day = model.release
    for n in range(rng.randint(1, 4)):
        day = day + dt.timedelta(days=rng.randint(20, 120))
        out.append(
            {
                "id": f"{model.id}-{day:%Y%m%d}",
                "label": f"{model.id} {day:%Y-%m-%d}",
                "available_date": day,
                "kind": rng.choice(("snapshot", "checkpoint")) if n else None,
                "source_urls": [f"{SOURCE_URL}/changelog/{model.id}"],
            }
        )
    return out


def make_configurations(
    rng: random.Random, model: Model, results: Sequence[dict[str, Any]], fields: dict[str, str]
) -> list[dict[str, Any]]:
    """Per-effort variants; their values sit at or below the model's best results."""
    efforts = EFFORTS[: rng.randint(2, 4)]
    out = []
    for i, effort in enumerate(efforts):
        shrink = 1 - 0.08 * (len(efforts) - 1 - i)
        values = {fields[r["benchmark"]]: round(r["value"] * shrink, 4) for r in results[:5]}
        out.append(
            {
                "id": f"{model.id}-{effort}",
                "source_model": f"{model.id}_{effort}",
                "source_model_id": f"{model.id}_{effort}",
                "effort_key": effort,
                "effort_label": effort.capitalize() if i % 2 == 0 else None,
                "reasoning": effort != "low",
                "source": "synthetic",
                "source_name": "Synthetic hub",
                "source_url": f"{SOURCE_URL}/configs/{model.id}",
                "captured": "2026-03-01",
                "values": values,
            }
        )
    return out


def model_table(
    rng: random.Random, model: Model, benches: Sequence[Benchmark], fields: dict[str, str]
) -> dict[str, Any]:
    """The TOML table of one model file."""
    open_weights = rng.random() < 0.3
    results = make_results(rng, model, benches)
    table: dict[str, Any] = {
        "id": model.id,
        "name": model.id.replace("-", " ").title(),
        "provider": model.provider.capitalize(),
        "country": COUNTRIES[sum(map(ord, model.provider)) % len(COUNTRIES)],
        "release_date": model.release.replace(day=1) if rng.random() < 0.1 else model.release,
        "open_weights": open_weights,
        "updated": None,  # set last: no later than any date in the file
    }
    if table["release_date"] != model.release:
        table["release_date_precision"] = "month"
    if not model.published:
        table["published"] = False
    if rng.random() < 0.6:
        table["parameters_b"] = float(rng.choice((7, 8, 14, 32, 70, 120, 235, 405, 671)))
    if rng.random() < 0.8:
        table["context_window"] = rng.choice((32768, 128000, 200000, 262144, 1000000))
        table["max_output_tokens"] = rng.choice((8192, 16384, 32768, 65536))
    if rng.random() < 0.1:
        table["legacy_abstract_estimate"] = round(min(max(model.ability, 70.0), 160.0), 1)
    table["lineage"] = {
        "family": model.family,
        "generation": model.generation,
        "predecessor": model.predecessor,
    }
    table["prices"] = make_prices(rng, model, open_weights)
    if table["prices"].get("input") and rng.random() < 0.15:
        table["usage"] = {
            "multiplier": round(rng.lognormvariate(0.2, 0.4), 3),
            "method": "token-usage regression",
            "samples": rng.randint(3, 40),
            "source_name": "Synthetic cost study",
            "source_url": f"{SOURCE_URL}/usage/{model.id}",
            "as_of": model.release + dt.timedelta(days=60),
        }
    if rng.random() < 0.25:
        table["speed"] = {
            "response_time_sec": round(rng.uniform(0.3, 30), 2),
            "median_tokens_per_second": round(rng.uniform(20, 300), 1),
            "source_name": "Synthetic speed test",
            "source_url": f"{SOURCE_URL}/speed",
        }
    if rng.random() < 0.12:
        table["revisions"] = make_revisions(rng, model)
    if results and rng.random() < 0.15:
        table["reasoning_configurations"] = make_configurations(rng, model, results, fields)
    table["results"] = results
    table["updated"] = _updated(rng, table)
    if rng.random() < 0.1:
        table["private"] = {"notes": "synthetic private note", "reviewer": "bench"}
    return table


def _updated(rng: random.Random, table: dict[str, Any]) -> dt.datetime:
    """A file's `updated`: a few days after the newest date it holds."""
    dates = [table["release_date"]]
    dates += [r["as_of"] for r in table["results"]]
    dates += [r["available_date"] for r in table.get("revisions", [])]
    if "usage" in table:
        dates.append(table["usage"]["as_of"])
    day = max(dates) + dt.timedelta(days=rng.randint(0, 30))
    return dt.datetime.combine(day, dt.time(9), dt.UTC)


# --- domains, methodology, charts --------------------------------------------


def domain_table(
    rng: random.Random, slug: str, index: int, published: Sequence[Model]
) -> dict[str, Any]:
    """One domain: its benchmarks and results for about a fifth of the published models."""
    name, count = DOMAINS[slug]
    benches: list[dict[str, Any]] = []
    for n in range(1, count + 1):
        unit = rng.choice(("fraction 0-1", "percent 0-100"))
        benches.append(
            {
                "id": f"{slug}-bench-{n}",
                "name": f"{name} benchmark {n}",
                "description": "Synthetic domain benchmark.",
                "direction": "higher_is_better",
                "unit": unit,
                **UNIT_BOUNDS[unit],
                "ladder": list(make_ladder(rng, unit, "higher_is_better")),
                "confidence": "normal",
                "source_name": "Synthetic domain source",
                "source_url": f"{SOURCE_URL}/domains/{slug}/{n}",
            }
        )
    rows = []
    for model in published:
        if rng.random() >= 0.2:
            continue
        for bench in benches:
            if count > 1 and rng.random() < 0.4:
                continue
            harnesses = ("default", "agentic") if rng.random() < 0.1 else (None,)
            for harness in harnesses:
                iq = model.ability + rng.gauss(0, 6)
                score = _round_value(bench["unit"], raw_at(bench["ladder"], iq))
                rows.append(
                    {
                        "model": model.id,
                        "benchmark": bench["id"],
                        "score": score,
                        "harness": harness,
                        "source_name": "Synthetic domain source",
                        "source_url": f"{SOURCE_URL}/domains/{slug}",
                        "as_of": model.release + dt.timedelta(days=30),
                    }
                )
    return {
        "id": slug,
        "name": name,
        "description": f"Synthetic {name.lower()} domain.",
        "updated": max(
            [UPDATED - dt.timedelta(days=index)]
            + [dt.datetime.combine(r["as_of"], dt.time(12), dt.UTC) for r in rows]
        ),
        "benchmarks": benches,
        "results": rows,
    }


def methodology_table() -> dict[str, Any]:
    """`methodology.toml` with the methodology's default parameters."""
    return {
        "version": "2026-04-01-synthetic",
        "summary": "Synthetic data set for performance benchmarks.",
        "updated": UPDATED,
        "cost_unit": "USD per 1M input/output tokens",
        "rules": ["Synthetic data: numbers mean nothing."],
        "parameters": {
            "offset_shrinkage": 3.0,
            "sigma_benchmark": 6.0,
            "sigma_predecessor": 8.0,
            "sigma_cross_scale": 100.0,
            "sigma_population": 15.0,
            "kappa_noise": 4.0,
            "min_direct_dimensions": 2,
            "sigma_domain_prior": 8.0,
            "sigma_domain_benchmark": 6.0,
            "peer_count": 3,
            "default_usage_multiplier": 1.0,
            "interval_z": 1.96,
        },
        "dimensions": [{"slug": slug, "min_benchmarks": 1} for slug in DIMENSION_SLUGS],
        "cost_breakdown": [
            {"id": "io-price", "name": "Input plus output price", "inputs": ["input", "output"]},
            {"id": "usage", "name": "Usage multiplier", "steps": ["measured", "lineage", "peer"]},
        ],
        "changelog": [{"date": dt.date(2026, 4, 1), "text": "Synthetic data set."}],
    }


def chart_tables(benches: Sequence[Benchmark]) -> list[dict[str, Any]]:
    """One promoted chart per kind."""
    return [
        {
            "id": kind,
            "title": f"Synthetic {kind.replace('-', ' ')}",
            "description": "A synthetic chart.",
            "kind": kind,
            "related_benchmarks": [benches[0].id] if kind == "benchmark-scores" else [],
            "tags": ["iq", kind],
        }
        for kind in CHART_KINDS
    ]


# --- writing -----------------------------------------------------------------


def build_models(spec: SynthSpec) -> tuple[list[Benchmark], list[Model]]:
    """Generate benchmarks and models (with their TOML tables), deterministically."""
    rng = random.Random(spec.seed)
    benches = make_benchmarks(rng, spec.benchmarks)
    fields = {b.id: b.field for b in benches}
    models = make_lineage(rng, spec.models)
    leaves = [m for m in models if m.leaf]
    for model in rng.sample(leaves, min(len(leaves), round(spec.unpublished_share * len(models)))):
        model.published = False
    for model in models:
        model.table = model_table(rng, model, benches, fields)
    return benches, models


def write_dataset(spec: SynthSpec, out: Path) -> SynthReport:
    """Write a complete `data/` directory to `out` (replacing it)."""
    if out.exists():
        shutil.rmtree(out)
    for sub in ("models", "benchmarks", "domains", "charts"):
        (out / sub).mkdir(parents=True)
    benches, models = build_models(spec)
    rng = random.Random(spec.seed + 1)
    files = 0

    def put(rel: str, table: dict[str, Any]) -> None:
        nonlocal files
        (out / rel).write_text(rtoml.dumps(table, none_value=None), encoding="utf-8")
        files += 1

    put("methodology.toml", methodology_table())
    for i, bench in enumerate(benches):
        put(f"benchmarks/{bench.id}.toml", benchmark_table(bench, i))
    for model in models:
        put(f"models/{model.id}.toml", model.table)
    published = [m for m in models if m.published]
    domain_rows = 0
    for i, slug in enumerate(sorted(DOMAINS)):
        table = domain_table(rng, slug, i, published)
        domain_rows += len(table["results"])
        put(f"domains/{slug}.toml", table)
    for chart in chart_tables(benches):
        put(f"charts/{chart['id']}.toml", chart)
    return SynthReport(
        models=len(models),
        published=len(published),
        benchmarks=len(benches),
        results=sum(len(m.table["results"]) for m in models),
        domain_results=domain_rows,
        files=files,
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: write a synthetic data set and print what was written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--models", type=int, default=1000)
    parser.add_argument("--benchmarks", type=int, default=40, help="scored (iq) benchmarks")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--unpublished-share", type=float, default=0.04)
    parser.add_argument("--out", type=Path, required=True, help="data directory to (re)create")
    parser.add_argument("--check", action="store_true", help="load it with generator.input.load")
    args = parser.parse_args(argv)
    spec = SynthSpec(args.models, args.benchmarks, args.seed, args.unpublished_share)
    report = write_dataset(spec, args.out)
    print(report)
    if args.check:
        from generator.input.load import load_dataset

        dataset = load_dataset(args.out)
        print(f"loaded: {len(dataset.models)} published models, {len(dataset.benchmarks)} bench")


if __name__ == "__main__":
    main()
