"""Methodology, benchmarks, domains and charts for data/ (see scripts/convert_sources.py)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from convert_common import (
    COLLECTED,
    EPOCH_NAME,
    EPOCH_PAGE,
    FAMILIES,
    Sources,
    epoch_effort,
    judgment_ladder,
    midnight,
    parse_day,
    source_value,
    suffix_effort,
    value_bounds,
)

Doc = dict[str, Any]
VERSION_2 = dt.date(2026, 11, 25)  # methodology version 2: the label and its changelog date
LADDER_COLUMNS = ("iq_70", "iq_85", "iq_100", "iq_115", "iq_130", "iq_145", "iq_160")

# --- methodology -------------------------------------------------------------

PARAMETERS: list[tuple[str, float | int, str]] = [
    (
        "legacy_weight",
        0.5,
        "Abstract reasoning without ARC results: w * legacy + (1 - w) * predicted.\n"
        "0.5 = no reason to trust the legacy estimate more or less than the prediction.",
    ),
    (
        "offset_shrinkage",
        2,
        "k_offset: a benchmark offset is sum / (n + k); 2 = an offset seen on two\n"
        "models is halved, so a thin benchmark cannot move a dimension much.",
    ),
    (
        "sigma_benchmark",
        8,
        "sd (IQ points) of one projected benchmark result around the true dimension\n"
        "score: about half a ladder step (15 points), the typical ladder fit residual.",
    ),
    (
        "sigma_predecessor",
        10,
        "Prior sd when a compatible predecessor's estimate is the prior mean: one\n"
        "generation moves a dimension by up to about one ladder step.",
    ),
    (
        "sigma_cross",
        12,
        "Prior sd when the mean of the model's other direct dimensions is the prior:\n"
        "dimensions of one model differ more than successive generations do.",
    ),
    (
        "sigma_population",
        15,
        "Prior sd around the population mean of a dimension: one full ladder step.",
    ),
    (
        "kappa_noise",
        4,
        "kappa: sigma_b^2 = (n_b * s_b^2 + kappa * sigma_benchmark^2) / (n_b + kappa); a\n"
        "benchmark's estimated noise counts as much as 4 models' worth of sigma_benchmark.",
    ),
    (
        "min_direct_dimensions",
        2,
        "A composite IQ needs direct results in at least this many dimensions.",
    ),
    (
        "sigma_domain_prior",
        10,
        "tau: sd of a domain score around the model's composite (partial pooling).",
    ),
    (
        "sigma_domain_benchmark",
        8,
        "sigma: sd of one projected domain benchmark result (as sigma_benchmark).",
    ),
    (
        "peer_count",
        3,
        "Usage-multiplier waterfall step d: geometric mean of this many closest measured peers.",
    ),
    (
        "default_usage_multiplier",
        1.0,
        "Usage-multiplier waterfall step e: assumed multiplier for positive-price models.",
    ),
    (
        "interval_z",
        1.96,
        "Stated ranges are mean +/- z * sd (95% under normality; not empirically calibrated).",
    ),
]

DIMENSIONS: list[tuple[str, str, str]] = [
    (
        "abstract-reasoning",
        "Abstract reasoning",
        "Novel pattern and puzzle solving: the ARC-family benchmarks and SimpleBench.",
    ),
    (
        "mathematical-reasoning",
        "Mathematical reasoning",
        "Competition and research-level mathematics with checkable answers.",
    ),
    (
        "academic-reasoning",
        "Academic reasoning",
        "Graduate- and expert-level questions across academic fields.",
    ),
    (
        "programmatic-reasoning",
        "Programmatic reasoning",
        "Writing and fixing code: repository issues, coding exercises, agentic coding.",
    ),
    (
        "computer-use",
        "Computer use",
        "Acting in terminals and desktop environments over long tasks.",
    ),
    (
        "reliability",
        "Reliability",
        "Factual accuracy without hallucination, and calibrated confidence.",
    ),
    (
        "knowledge-work",
        "Knowledge work",
        "Economically valuable professional deliverables judged against experts.",
    ),
]

RULES = [
    "Composite IQ averages seven equally weighted dimensions onto IQ 70-160 expected-score"
    " ladders.",
    "Abstract reasoning equally averages the available direct ARC-family and puzzle"
    " projections; models without them use a blend of a legacy estimate and a predicted"
    " estimate, and predicted ARC coverage stays zero.",
    "Dimensions 2 to 7 use Bayesian posterior means from direct projected scores and benchmark"
    " offsets. The prior combines, by precision, the compatible predecessor's estimate moved by"
    " the model's own average lead over that predecessor in its other dimensions"
    " (sigma_predecessor) with the mean of the model's other direct dimensions (sigma_cross);"
    " with only one of the two it is that one, with neither the population mean. Inherited"
    " estimates keep zero direct coverage.",
    "Benchmark noise sigma_b is estimated per benchmark from the data: how far a model's result"
    " lies from its other results in the same dimension, less the noise of those results,"
    " shrunk toward sigma_benchmark with weight kappa_noise; fixed points are iterated to"
    " 1e-9. Benchmarks with a noise value in their data file keep it.",
    "Uncertainty: each dimension has a posterior sd and a 95% range (estimate +/- interval_z"
    " sd); the composite's sd is sqrt(sum of the seven dimension variances) / 7. A model's rank"
    " band runs from 1 + the number of models clearly above it to 1 + the number not clearly"
    " below it, where clearly means a gap of at least interval_z combined sds; models whose"
    " bands overlap are not distinguishable at this confidence. Stated ranges and bands are"
    " not empirically calibrated: they reflect this method's own noise, not differences"
    " between methods.",
    "Effective cost base = input price plus output price (1M input tokens and 1M output"
    " tokens). Free, zero-dollar or rate-limited rows stay null unless a specific nonzero"
    " hosted-provider price is recorded.",
    "Usage-multiplier waterfall, in order: (a) measured benchmark multiplier from validated"
    " token usage and price-adjusted task-cost residuals; (b) one-generation-back same-family"
    " same-lineage multiplier; (c) two-generations-back same-family same-lineage multiplier;"
    " (d) geometric average of the three closest measured peers; (e) assumed multiplier of 1"
    " for positive-price models.",
    "Emotional Reasoning is built from two EQ benchmarks and stays outside the composite.",
]

WATERFALL = [
    "a. Measured: the benchmark multiplier recorded for the model (validated token usage and"
    " price-adjusted task-cost residuals).",
    "b. Lineage, one generation back: the measured multiplier of the model's same-family"
    " predecessor.",
    "c. Lineage, two generations back: the measured multiplier of the predecessor's predecessor.",
    "d. Peers: the geometric mean of the three closest measured models (closest composite IQ,"
    " then closest release date).",
    "e. Assumed: 1 for models with a positive price; no price means no multiplier.",
]

# Contract "Versioning" item 7, newest first. The contract gives no dates: every entry is
# dated with the day it was recorded here (the methodology version); order is kept.
CHANGELOG: list[tuple[bool, str]] = [
    (
        False,
        "Methodology 2026-11-25 (version 2): the prior of dimensions 2-7 now combines a"
        " drift-adjusted predecessor with the model's other dimensions (successors scored about"
        " 7.5 points above their predecessor's estimate, so the version-1 prior biased every"
        " imputed dimension low and stacked guesses down a lineage); benchmark noise is"
        " estimated per benchmark from the data (new parameter kappa_noise); composites and"
        " dimensions publish an sd and a 95% range, ranks a band (iqSd, iqLow95, iqHigh95,"
        " rankLow, rankHigh; noiseSd on benchmarks). Scores move; no field was removed.",
    ),
    (
        False,
        "Methodology 2026-11-22: first release of this dataset (20 scored benchmarks over"
        " seven dimensions, 2 EQ benchmarks, 10 domains).",
    ),
    (
        False,
        "Knowledge work became the seventh dimension (slug knowledge-work); composite averages"
        " seven dimensions.",
    ),
    (
        False,
        "Added finance domain. Earlier domain additions: cybersecurity, bio, machine-learning,"
        " software-engineering, webdev-design; emotional reasoning became a domain.",
    ),
    (
        True,
        "Abstract reasoning uses the three ARC-family benchmarks and averages only direct"
        " projections available for the model; a chess-puzzle benchmark was removed.",
    ),
    (True, "Composite moved from seven dimensions to six at one point, then back to seven."),
    (
        True,
        "Ranking list became a catalog without inline model rows; full leaderboards moved to"
        " the ranking detail endpoint.",
    ),
    (False, "Added domain composite scores (models array on domain detail)."),
    (
        False,
        "Added domains endpoints, OpenAPI endpoint, the versioned alias, CORS and Cache-Control"
        " headers, uniform JSON 404 with a code, per-benchmark chart URLs.",
    ),
    (
        True,
        "Two dimension slugs (app-building, production-engineering) were renamed to"
        " frontend-engineering and backend-engineering in all responses; they no longer appear,"
        " and later versions of the scheme no longer list these dimensions among the seven.",
    ),
]


def methodology_doc() -> tuple[Doc, dict[str, str]]:
    """data/methodology.toml and the comments on its parameters."""
    doc: Doc = {
        "version": VERSION_2.isoformat(),
        "summary": (
            "Composite IQ is the mean of seven equally weighted capability dimensions, each"
            " projected onto an IQ 70-160 scale through per-benchmark expected-score ladders."
            " Emotional reasoning and the ten applied domains are scored separately and never"
            " enter the composite. Effective cost is the input plus output price per 1M tokens"
            " times a usage multiplier."
        ),
        "updated": midnight(VERSION_2),
        "cost_unit": "USD per 1M input/output tokens",
        "rules": RULES,
        "parameters": {name: value for name, value, _ in PARAMETERS},
        "dimensions": [
            {
                "id": f"D{index}",
                "slug": slug,
                "name": name,
                "description": description,
                "min_benchmarks": 1,
            }
            for index, (slug, name, description) in enumerate(DIMENSIONS, start=1)
        ],
        "cost_breakdown": [
            {
                "id": "base-price",
                "name": "Base price",
                "summary": "Input price plus output price, USD per 1M tokens each.",
                "inputs": ["cost.inputPer1M: Input price", "cost.outputPer1M: Output price"],
            },
            {
                "id": "usage-multiplier",
                "name": "Usage multiplier",
                "summary": "The first step of the waterfall that applies.",
                "steps": WATERFALL,
            },
        ],
        "changelog": [
            {"date": VERSION_2 if index == 0 else COLLECTED, "breaking": breaking, "text": text}
            for index, (breaking, text) in enumerate(CHANGELOG)
        ],
    }
    comments = {f"parameters.{name}": comment for name, _, comment in PARAMETERS}
    comments["parameters"] = "Every tunable number of the scoring methodology (design doc)."
    return doc, comments


# --- benchmarks --------------------------------------------------------------

BLURBS = {
    "arc-agi-1": "ARC Prize's Abstraction and Reasoning Corpus: novel grid puzzles solved from a"
    " few examples.",
    "arc-agi-2": "ARC-AGI-2: harder ARC grid puzzles designed to resist brute-force search.",
    "simplebench": "SimpleBench: trick questions on spatio-temporal reasoning, social"
    " intelligence and linguistic robustness (average of five runs).",
    "frontiermath-tier-1-3": "FrontierMath tiers 1-3: unpublished research-level mathematics"
    " problems with automatically checkable answers (Epoch AI's own runs).",
    "frontiermath-tier-4": "FrontierMath tier 4: the hardest research-level problems (Epoch AI's"
    " own runs).",
    "otis-mock-aime": "OTIS Mock AIME 2024-2025: competition mathematics in the AIME format"
    " (Epoch AI's own runs).",
    "livebench-mathematics": "LiveBench mathematics category: mean of the AMPS_Hard,"
    " integrals_with_game, math_comp and olympiad task scores.",
    "hle": "Humanity's Last Exam: expert-written closed-ended questions across academic fields.",
    "gpqa-diamond": "GPQA Diamond: graduate-level biology, chemistry and physics multiple-choice"
    " questions (Epoch AI's own runs).",
    "swe-bench-verified": "SWE-bench Verified: human-validated GitHub issues resolved with a"
    " patch (Epoch AI's own runs).",
    "swe-bench-verified-bash-only": "SWE-bench Verified with a minimal bash-only agent"
    " (swebench.com leaderboard).",
    "livebench-agentic-coding": "LiveBench agentic coding category: mean of the javascript,"
    " typescript and python task scores.",
    "aider-polyglot": "Aider Polyglot: hard Exercism exercises in six languages, edited through"
    " aider.",
    "terminal-bench-2": "Terminal-Bench 2.0: hard tasks done in a terminal by an agent harness"
    " (the best published harness per model).",
    "osworld": "OSWorld: open-ended tasks in real desktop operating-system environments.",
    "metr-time-horizon": "METR 50% time horizon: the length, in human-expert minutes, of"
    " software tasks the model completes with 50% success.",
    "simpleqa-verified": "SimpleQA Verified: short factual questions; rewards knowing and not"
    " hallucinating (Epoch AI's own runs).",
    "hle-calibration-error": "Humanity's Last Exam calibration error: the gap between stated"
    " confidence and accuracy; lower is better.",
    "gdpval": "GDPval: win rate against industry experts on economically valuable"
    " knowledge-work deliverables.",
    "apex-agents": "APEX-Agents: long-horizon professional tasks done by an agent (pass@1).",
    "eq-bench-3": "EQ-Bench 3: emotional intelligence in multi-turn role-plays judged pairwise;"
    " normalised Elo (o3 = 1500).",
    "spiral-bench": "Spiral-Bench v1: safety score for resisting sycophancy and delusion"
    " reinforcement in long conversations.",
}

NON_EPOCH_SOURCES = {
    "livebench-mathematics": ("LiveBench", "https://livebench.ai/"),
    "livebench-agentic-coding": ("LiveBench", "https://livebench.ai/"),
    "eq-bench-3": ("EQ-Bench 3 (eqbench.com)", "https://eqbench.com/"),
    "spiral-bench": ("Spiral-Bench v1 (eqbench.com)", "https://eqbench.com/spiral-bench.html"),
}


def ladder_of(row: dict[str, str]) -> list[float]:
    """The seven ladder points of a catalogue row."""
    return [float(row[column]) for column in LADDER_COLUMNS]


def describe(blurb: str, row: dict[str, str]) -> str:
    """Description text: blurb, unit, ladder confidence and the catalogue note."""
    parts = [blurb, f"Unit: {row['unit']}."]
    if row["confidence"] == "judgment":
        parts.append("Ladder confidence: judgment (set by hand, not fitted).")
    else:
        fit = f"fitted on {row['fit_points']} models"
        parts.append(f"Ladder confidence: {row['confidence']} ({fit}).")
    if row["note"]:
        parts.append(f"Ladder note: {row['note']}.")
    return " ".join(parts)


def benchmark_docs(sources: Sources, updated: dict[str, dt.date]) -> dict[str, Doc]:
    """data/benchmarks/<id>.toml for the iq and eq rows of the catalogue."""
    docs: dict[str, Doc] = {}
    for row in sources.rows("catalog.csv"):
        if row["category"] not in ("iq", "eq"):
            continue
        bench_id = row["id"]
        name, url = NON_EPOCH_SOURCES.get(bench_id, (EPOCH_NAME, EPOCH_PAGE))
        docs[bench_id] = {
            "id": bench_id,
            "field": row["field"],
            "name": row["name"],
            "description": describe(BLURBS[bench_id], row),
            "category": row["category"],
            "dimension": row["dimension"] or None,
            "direction": row["direction"],
            "unit": row["unit"],
            "family": FAMILIES.get(bench_id),
            **value_bounds(row["unit"]),
            "ladder": ladder_of(row),
            "confidence": row["confidence"],
            "source_name": name,
            "source_url": url,
            "updated": midnight(updated.get(bench_id, COLLECTED)),
        }
    return docs


# --- domains -----------------------------------------------------------------

DOMAINS: list[tuple[str, str, str]] = [
    ("cybersecurity", "Cybersecurity", "Capture-the-flag security tasks."),
    (
        "bio",
        "Biology",
        "Biology and virology knowledge and lab-protocol troubleshooting benchmarks.",
    ),
    (
        "machine-learning",
        "Machine learning",
        "Solving unusual machine-learning tasks and post-training models end to end.",
    ),
    ("finance", "Finance", "Corporate-finance questions, tax questions and finance agents."),
    ("writing", "Writing", "Creative short-story writing graded against a rubric."),
    (
        "software-engineering",
        "Software engineering",
        "Optimising real code bases and building applications from a specification.",
    ),
    ("webdev-design", "Web development and design", "Head-to-head web app building votes."),
    (
        "emotional-reasoning",
        "Emotional reasoning",
        "Emotional intelligence and safe handling of vulnerable users; the EQ score.",
    ),
    ("legal", "Legal", "Legal reasoning tasks and legal agent work."),
    ("healthcare", "Healthcare", "Medical question answering and clinical note writing."),
]

# Bio benchmarks of domain_results.csv that the catalogue gives no ladder: a judgment
# ladder from the random baseline stated in the study's raw file (`baselines.random`).
BIO_EXTRA: dict[str, tuple[str, str, float]] = {
    "lab_bench_protocolqa": ("lab-bench-protocolqa", "LAB-Bench ProtocolQA", 0.232),
    "lab_bench_litqa2": ("lab-bench-litqa2", "LAB-Bench LitQA2 (no retrieval)", 0.244),
    "mmlu_biology": ("mmlu-biology", "MMLU biology subtasks", 0.25),
    "pubmedqa": ("pubmedqa", "PubMedQA (labeled, test)", 0.333),
    "wmdp_bio": ("wmdp-bio", "WMDP-Bio", 0.25),
}
# Domain benchmarks left out on purpose (no ladder can be identified), with the reason.
OMITTED = {
    "vals_harvey_legal_agent_bench": "Harvey's Legal Agent Benchmark: no catalogue ladder and"
    " 10 of its 18 rows score 0 (floor effect), so no ladder can be fitted or judged",
}
JUSTEN = (
    "Justen, 'LLMs outperform experts on challenging biology benchmarks' (arXiv 2505.06108)",
    "https://github.com/lennijusten/biology-benchmarks",
)


def domain_source(url: str) -> tuple[str, str]:
    """Source name and page of a domain benchmark, from one of its result URLs."""
    if url.startswith("https://epoch.ai"):
        return EPOCH_NAME, EPOCH_PAGE
    if url.startswith("https://www.vals.ai"):
        return "vals.ai", url
    if "lennijusten" in url:
        return JUSTEN
    if "spiral" in url:
        return "Spiral-Bench v1 (eqbench.com)", url
    return "EQ-Bench 3 (eqbench.com)", url


def result_as_of(text: str) -> dt.date:
    """A domain row's as-of date; rows the source gives no day for use the collection date."""
    return parse_day(text) or COLLECTED


def domain_docs(sources: Sources) -> dict[str, Doc]:
    """data/domains/<slug>.toml: benchmarks from the catalogue plus all result rows."""
    rows = sources.rows("domain_results.csv")
    benches: dict[str, list[Doc]] = {slug: [] for slug, _, _ in DOMAINS}
    bench_ids: dict[tuple[str, str], str] = {}
    first_url = {(r["domain"], r["benchmark_id"]): r["source_url"] for r in reversed(rows)}
    for row in sources.rows("catalog.csv"):
        if row["category"] != "domain":
            continue
        key = (row["domain"], row["source_column"])
        bench_ids[key] = row["id"]
        name, url = domain_source(first_url.get(key, "https://epoch.ai"))
        benches[row["domain"]].append(_domain_bench(row["id"], row, name, url))
    for column, (bench_id, title, chance) in BIO_EXTRA.items():
        bench_ids[("bio", column)] = bench_id
        row = {
            "name": title,
            "unit": "fraction 0-1",
            "confidence": "judgment",
            "fit_points": "0",
            "note": (
                f"no catalogue ladder: judgment ladder from the study's random baseline"
                f" {chance} (chance + (1 - chance) * the catalogue's judgment curve)"
            ),
            "direction": "higher_is_better",
        }
        doc = _domain_bench(bench_id, row, *JUSTEN)
        doc["ladder"] = judgment_ladder(chance)
        benches["bio"].append(doc)
    docs: dict[str, Doc] = {}
    for slug, name, description in DOMAINS:
        results = _domain_results(sources, rows, slug, bench_ids, [b["id"] for b in benches[slug]])
        newest = max((r["as_of"] for r in results), default=COLLECTED)
        docs[slug] = {
            "id": slug,
            "name": name,
            "description": description,
            "updated": midnight(newest),
            "benchmarks": benches[slug],
            "results": results,
        }
    return docs


def _domain_bench(bench_id: str, row: dict[str, str], name: str, url: str) -> Doc:
    blurb = f"{row['name']}."
    return {
        "id": bench_id,
        "name": row["name"],
        "description": describe(blurb, row),
        "direction": row["direction"],
        "unit": row["unit"],
        **value_bounds(row["unit"]),
        "ladder": ladder_of(row) if "iq_70" in row else [],
        "confidence": row["confidence"],
        "source_name": name,
        "source_url": url,
    }


# vals.ai benchmark of each vals domain benchmark column (raw/valsai `benchmark`).
VALS_BENCHMARKS = {
    "vals_corpfin_v2": "corp_fin_v2",
    "vals_finance_agent_v2": "fabv2",
    "vals_harvey_legal_agent_bench": "hlab",
    "vals_legalbench": "legal_bench",
    "vals_medqa": "medqa",
    "vals_medscribe": "medscribe",
    "vals_taxeval_v2": "tax_eval_v2",
    "vals_vibe_code_bench_v1_1": "vibe-code",
}
VALS_RAW = "raw/valsai/scores_overall_subset.csv"


def domain_effort(sources: Sources, row: dict[str, str]) -> str | None:
    """The effort setting of a domain row, where its source names one."""
    key = row["source_model"]
    if row["benchmark_id"] in VALS_BENCHMARKS:
        bench = VALS_BENCHMARKS[row["benchmark_id"]]
        raw = [r for r in sources.rows(VALS_RAW) if r["benchmark"] == bench and r["model"] == key]
        stated = raw[0]["reasoning_effort"] if raw else ""
        return stated or suffix_effort(key)
    if row["source_url"].startswith("https://epoch.ai"):
        return epoch_effort(key)
    return None


def _domain_results(
    sources: Sources,
    rows: list[dict[str, str]],
    slug: str,
    bench_ids: dict[tuple[str, str], str],
    order: list[str],
) -> list[Doc]:
    results: list[Doc] = []
    for row in rows:
        if row["domain"] != slug or row["benchmark_id"] in OMITTED:
            continue
        results.append(
            {
                "model": row["model_id"],
                "benchmark": bench_ids[(slug, row["benchmark_id"])],
                "score": source_value(row["score"]),
                "harness": row["harness"] or None,
                "source_name": row["source_name"],
                "source_url": row["source_url"],
                "as_of": result_as_of(row["as_of"]),
                "source_model": row["source_model"] or None,
                "effort": domain_effort(sources, row),
                "note": row["note"] or None,
            }
        )
    results.sort(key=lambda r: (order.index(r["benchmark"]), r["model"], r["harness"] or ""))
    return results


# --- charts ------------------------------------------------------------------


def chart_docs(benchmarks: dict[str, Doc]) -> dict[str, Doc]:
    """data/charts/<id>.toml: the promoted canonical charts and one experimental chart."""
    docs: dict[str, Doc] = {
        "iq-distribution": {
            "title": "Composite IQ distribution",
            "description": "How the ranked models spread over the IQ 70-160 scale.",
            "kind": "iq-distribution",
            "tags": ["iq", "distribution"],
        },
        "iq-vs-cost": {
            "title": "Composite IQ against effective cost",
            "description": "Each ranked model's composite IQ against its effective cost per"
            " 1M input plus output tokens (log scale).",
            "kind": "iq-vs-cost",
            "tags": ["iq", "cost"],
        },
        "frontier-over-time": {
            "title": "The IQ frontier over time",
            "description": "The best composite IQ at each month end of the replayed score"
            " history (thick line), and the best model of each of the five providers whose best"
            " model ranks highest in the latest snapshot (one line each).",
            "kind": "frontier",
            "tags": ["iq", "frontier"],
        },
        "composite-iq-ranges": {
            "title": "Composite IQ with its 95% range",
            "description": "Every ranked model's composite IQ (dot) and stated 95% range (line),"
            " best first: where lines overlap, the data cannot tell the models apart.",
            "kind": "iq-ranges",
            "tags": ["iq", "uncertainty"],
        },
        "dimension-profiles": {
            "title": "Dimension profiles of the top models",
            "description": "The seven dimension scores of the highest-ranked models side by side.",
            "kind": "dimension-profile",
            "tags": ["iq", "dimension-profile"],
        },
    }
    for bench in benchmarks.values():
        if bench["category"] != "iq":
            continue
        docs[f"benchmark-{bench['id']}"] = {
            "title": f"{bench['name']} scores",
            "description": f"Raw {bench['name']} results of every model with one, in the"
            f" benchmark's unit ({bench['unit']}), with the IQ ladder marked.",
            "kind": "benchmark-scores",
            "related_benchmarks": [bench["id"]],
            "tags": ["iq", "benchmark-scores", bench["dimension"]],
        }
    docs["iq-vs-cost-open-weights"] = {
        "title": "Open-weights models: IQ against effective cost",
        "description": "Experimental: the IQ-versus-cost chart restricted to open-weights models.",
        "kind": "iq-vs-cost",
        "tags": ["iq", "cost", "open-weights"],
        "promoted": False,
    }
    return {chart_id: {"id": chart_id, **doc} for chart_id, doc in docs.items()}
