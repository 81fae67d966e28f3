"""Unpublished model entries and `[private]` tables, as a maintainer keeps them.

Neither is ever published: the loader strips `[private]` tables and keeps
unpublished models out of the dataset (they are validated only).
"""

from __future__ import annotations

import datetime as dt
import json
import tomllib
from typing import Any

from convert_common import LIVEBENCH_AS_OF, MODELS_DEV_BLOB, Sources, midnight

Doc = dict[str, Any]

PRIVATE: dict[str, Doc] = {
    "models/gpt-5.5": {
        "notes": "Epoch's pre-release rows count as this model (seed merge rule).",
        "reviewer": "data-team",
        "review_status": "approved",
        "config": {"epoch_alias": "gpt-5.5-pre-release"},
    },
    "models/deepseek-v3.2": {
        "notes": "Epoch deepseek-reasoner rows counted only where the release date is 2025-12-01.",
        "reviewer": "data-team",
        "review_status": "approved",
    },
    "models/gemini-2.5-pro": {
        "notes": "The 06-05 preview is counted as GA.",
        "review_status": "approved",
    },
    "models/mistral-large-3": {
        "notes": (
            "models.dev gives release_date 2024-11-01 for mistral-large-2512, which looks like"
            " the 2411 model's date. Kept as the source says; check upstream."
        ),
        "reviewer": "data-team",
        "review_status": "needs-review",
    },
    "benchmarks/osworld": {
        "notes": "Only 5 fit points; ladder rests on strong priors. Refit when more land.",
        "reviewer": "ladders-wg",
        "review_status": "needs-review",
        "config": {"fit": "4pl-strong-prior"},
    },
    "benchmarks/metr-time-horizon": {
        "notes": "Log-linear fit on minutes; the 160 point is a long extrapolation.",
        "config": {"fit": "log-linear"},
    },
    "domains/bio": {
        "notes": "Five benchmarks use judgment ladders from the study's random baselines.",
        "reviewer": "ladders-wg",
        "review_status": "provisional",
    },
    "domains/cybersecurity": {
        "notes": "Thin: 7 models. vals CyberBench lists only models newer than the merged set.",
        "review_status": "needs-more-data",
    },
    "charts/iq-vs-cost-open-weights": {
        "notes": "Experimental; promote once the open-weights price coverage is better.",
        "review_status": "experimental",
    },
}


def acme_nova() -> Doc:
    """A fictional pre-release model: exercises the unpublished path end to end."""
    day = dt.date(2026, 11, 15)
    return {
        "id": "acme-nova-2-preview",
        "name": "Acme Nova 2 (preview)",
        "provider": "Acme AI",
        "country": "United States of America",
        "release_date": day,
        "open_weights": False,
        "published": False,
        "updated": midnight(day),
        "prices": {"input": 4.0, "output": 16.0, "source": "Acme AI pre-release price sheet"},
        "results": [
            {
                "benchmark": "gpqa-diamond",
                "value": 0.9,
                "source_name": "Acme AI pre-release evaluation report (embargoed)",
                "source_url": "https://acme.example/nova-2/evaluation",
                "as_of": day,
            }
        ],
        "private": {
            "notes": "Fictional pre-release entry; never publish.",
            "reviewer": "data-team",
            "review_status": "embargoed",
            "config": {"embargo_until": "2026-12-15"},
        },
    }


def gemini_3_5_flash(sources: Sources) -> Doc:
    """Gemini 3.5 Flash: dropped from the seed merge (4 values); held back, unpublished.

    Identity and prices from models.dev; its LiveBench mathematics and agentic coding
    values derived from the raw LiveBench table exactly as the merge derives them.
    """
    path = "google/models/gemini-3.5-flash"
    meta = tomllib.loads((sources.root / "raw/models_dev" / f"{path}.toml").read_text("utf-8"))
    day = dt.date.fromisoformat(meta["release_date"])
    cats_path = sources.root / "raw/livebench/categories_2026_01_08.json"
    cats = json.loads(cats_path.read_text("utf-8"))
    key = "gemini-3.5-flash-high"
    row = next(r for r in sources.rows("raw/livebench/table_2026_01_08.csv") if r["model"] == key)
    results = []
    for bench, category in (
        ("livebench-mathematics", "Mathematics"),
        ("livebench-agentic-coding", "Agentic Coding"),
    ):
        tasks = cats[category]
        value = round(sum(float(row[t]) for t in tasks) / len(tasks), 2)
        results.append(
            {
                "benchmark": bench,
                "value": value,
                "source_name": "LiveBench",
                "source_url": "https://livebench.ai/",
                "as_of": LIVEBENCH_AS_OF,
                "source_model": key,
                "note": f"derived: mean of {'/'.join(tasks)} tasks",
            }
        )
    cost = meta["cost"]
    return {
        "id": "gemini-3.5-flash",
        "name": meta["name"],
        "provider": "Google",
        "country": "United States of America",
        "release_date": day,
        "context_window": meta["limit"]["context"],
        "max_output_tokens": meta["limit"]["output"],
        "knowledge_cutoff": meta["knowledge"],
        "open_weights": meta["open_weights"],
        "published": False,
        "updated": midnight(max(day, LIVEBENCH_AS_OF)),
        "lineage": {"family": "gemini-flash", "generation": 3, "predecessor": "gemini-3-flash"},
        "prices": {
            "input": float(cost["input"]),
            "output": float(cost["output"]),
            "cache_read": float(cost["cache_read"]),
            "source": f"models.dev:{path}",
            "source_url": f"{MODELS_DEV_BLOB}/{path}.toml",
        },
        "results": results,
        "private": {
            "notes": "Dropped from the seed merge with only 4 benchmark values; publish at 5+.",
            "reviewer": "data-team",
            "review_status": "held-back",
        },
    }
