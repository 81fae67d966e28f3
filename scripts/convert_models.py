"""Model files for data/models/ (see scripts/convert_sources.py)."""

from __future__ import annotations

import datetime as dt
import json
import math
from collections import defaultdict
from typing import Any

from convert_common import (
    LITELLM_URL,
    MODELS_DEV_BLOB,
    VALS_SCRAPE,
    Sources,
    midnight,
    read_csv,
)
from convert_results import (
    Catalog,
    epoch_bases,
    model_results,
    reasoning_configurations,
)

Doc = dict[str, Any]

# family, generation (1-based position in the family's release chain), predecessor.
# A predecessor is only recorded where it is the same family and tier.
LINEAGE: dict[str, tuple[str, int, str | None]] = {
    "claude-opus-4.1": ("claude-opus", 1, None),
    "claude-opus-4.5": ("claude-opus", 2, "claude-opus-4.1"),
    "claude-opus-4.6": ("claude-opus", 3, "claude-opus-4.5"),
    "claude-opus-4.7": ("claude-opus", 4, "claude-opus-4.6"),
    "claude-opus-4.8": ("claude-opus", 5, "claude-opus-4.7"),
    "claude-sonnet-4": ("claude-sonnet", 1, None),
    "claude-sonnet-4.5": ("claude-sonnet", 2, "claude-sonnet-4"),
    "claude-sonnet-4.6": ("claude-sonnet", 3, "claude-sonnet-4.5"),
    "claude-haiku-4.5": ("claude-haiku", 1, None),
    "gpt-5": ("gpt-5", 1, None),
    "gpt-5.1": ("gpt-5", 2, "gpt-5"),
    "gpt-5.2": ("gpt-5", 3, "gpt-5.1"),
    "gpt-5.4": ("gpt-5", 4, "gpt-5.2"),
    "gpt-5.5": ("gpt-5", 5, "gpt-5.4"),
    "gpt-5-pro": ("gpt-5-pro", 1, None),
    "gpt-5.4-pro": ("gpt-5-pro", 2, "gpt-5-pro"),
    "gpt-5.5-pro": ("gpt-5-pro", 3, "gpt-5.4-pro"),
    "gpt-5-mini": ("gpt-5-mini", 1, None),
    "gpt-5.4-mini": ("gpt-5-mini", 2, "gpt-5-mini"),
    "gpt-5-nano": ("gpt-5-nano", 1, None),
    "gpt-5.4-nano": ("gpt-5-nano", 2, "gpt-5-nano"),
    "gpt-5.1-codex-max": ("gpt-codex", 1, None),
    "gpt-5.2-codex": ("gpt-codex", 2, "gpt-5.1-codex-max"),
    "gpt-5.3-codex": ("gpt-codex", 3, "gpt-5.2-codex"),
    "gpt-4.1": ("gpt-4.1", 1, None),
    "o3": ("o-series", 1, None),
    "o3-pro": ("o-series-pro", 1, None),
    "o4-mini": ("o-series-mini", 1, None),
    "gpt-oss-120b": ("gpt-oss", 1, None),
    "gpt-oss-20b": ("gpt-oss-small", 1, None),
    "gemini-2.5-pro": ("gemini-pro", 1, None),
    "gemini-3-pro": ("gemini-pro", 2, "gemini-2.5-pro"),
    "gemini-3.1-pro": ("gemini-pro", 3, "gemini-3-pro"),
    "gemini-2.5-flash": ("gemini-flash", 1, None),
    "gemini-3-flash": ("gemini-flash", 2, "gemini-2.5-flash"),
    "gemini-3.1-flash-lite": ("gemini-flash-lite", 1, None),
    "gemma-4-31b": ("gemma", 1, None),
    "glm-4.5": ("glm", 1, None),
    "glm-4.6": ("glm", 2, "glm-4.5"),
    "glm-4.7": ("glm", 3, "glm-4.6"),
    "glm-5": ("glm", 4, "glm-4.7"),
    "glm-5.1": ("glm", 5, "glm-5"),
    "kimi-k2-0905": ("kimi-k2", 1, None),
    "kimi-k2-thinking": ("kimi-k2", 2, "kimi-k2-0905"),
    "kimi-k2.5": ("kimi-k2", 3, "kimi-k2-thinking"),
    "kimi-k2.6": ("kimi-k2", 4, "kimi-k2.5"),
    "deepseek-r1-0528": ("deepseek", 1, None),
    "deepseek-v3.1": ("deepseek", 2, "deepseek-r1-0528"),
    "deepseek-v3.2": ("deepseek", 3, "deepseek-v3.1"),
    "deepseek-v4-pro": ("deepseek", 4, "deepseek-v3.2"),
    "deepseek-v4-flash": ("deepseek-flash", 1, None),
    "minimax-m2.1": ("minimax-m2", 1, None),
    "minimax-m2.5": ("minimax-m2", 2, "minimax-m2.1"),
    "minimax-m2.7": ("minimax-m2", 3, "minimax-m2.5"),
    "qwen3-235b-a22b-thinking-2507": ("qwen-open", 1, None),
    "qwen3.5-397b-a17b": ("qwen-open", 2, "qwen3-235b-a22b-thinking-2507"),
    "qwen3-max": ("qwen-max", 1, None),
    "qwen3.6-plus": ("qwen-plus", 1, None),
    "qwen3-coder-480b": ("qwen-coder", 1, None),
    "grok-4": ("grok", 1, None),
    "grok-4.20": ("grok", 2, "grok-4"),
    "grok-4-fast": ("grok-fast", 1, None),
    "grok-4.1-fast": ("grok-fast", 2, "grok-4-fast"),
    "llama-4-maverick": ("llama", 1, None),
    "muse-spark": ("muse", 1, None),
    "mistral-large-3": ("mistral-large", 1, None),
    "mistral-medium-3.1": ("mistral-medium", 1, None),
}

# Dated provider checkpoints behind a mutable id, each found in the sources below.
REVISIONS: dict[str, list[tuple[str, str]]] = {
    "claude-sonnet-4": [("claude-sonnet-4-20250514", "2025-05-14")],
    "claude-opus-4.1": [("claude-opus-4-1-20250805", "2025-08-05")],
    "claude-sonnet-4.5": [("claude-sonnet-4-5-20250929", "2025-09-29")],
    "claude-haiku-4.5": [("claude-haiku-4-5-20251001", "2025-10-01")],
    "claude-opus-4.5": [("claude-opus-4-5-20251101", "2025-11-01")],
    "claude-opus-4.6": [("claude-opus-4-6-20260205", "2026-02-05")],
    "claude-opus-4.7": [("claude-opus-4-7-20260416", "2026-04-16")],
    "gpt-4.1": [("gpt-4.1-2025-04-14", "2025-04-14")],
    "o3": [("o3-2025-04-16", "2025-04-16")],
    "o4-mini": [("o4-mini-2025-04-16", "2025-04-16")],
    "o3-pro": [("o3-pro-2025-06-10", "2025-06-10")],
    "gpt-5": [("gpt-5-2025-08-07", "2025-08-07")],
    "gpt-5-mini": [("gpt-5-mini-2025-08-07", "2025-08-07")],
    "gpt-5-nano": [("gpt-5-nano-2025-08-07", "2025-08-07")],
    "gpt-5-pro": [("gpt-5-pro-2025-10-06", "2025-10-06")],
    "gpt-5.1": [("gpt-5.1-2025-11-13", "2025-11-13")],
    "gpt-5.2": [("gpt-5.2-2025-12-11", "2025-12-11")],
    "gpt-5.4": [("gpt-5.4-2026-03-05", "2026-03-05")],
    "gpt-5.4-pro": [("gpt-5.4-pro-2026-03-05", "2026-03-05")],
    "gpt-5.4-mini": [("gpt-5.4-mini-2026-03-17", "2026-03-17")],
    "gpt-5.4-nano": [("gpt-5.4-nano-2026-03-17", "2026-03-17")],
    "gpt-5.5": [("gpt-5.5-2026-04-23", "2026-04-23")],
    "gpt-5.5-pro": [("gpt-5.5-pro-2026-04-23", "2026-04-23")],
    "qwen3-max": [("qwen3-max-2025-09-23", "2025-09-23")],
    "grok-4": [("grok-4-0709", "2025-07-09")],
    "grok-4.20": [("grok-4.20-0309-reasoning", "2026-03-09")],
    "kimi-k2-0905": [("kimi-k2-0905-preview", "2025-09-05")],
    "mistral-medium-3.1": [("mistral-medium-2508", "2025-08-12")],
}

# Llama 4 Maverick is free at its first-party source (models.dev llama provider, 0/0);
# vals.ai ran it through Fireworks, whose per-token price litellm records.
HOSTED = {
    "llama-4-maverick": (
        "Fireworks AI",
        "fireworks_ai/accounts/fireworks/models/llama4-maverick-instruct-basic",
    ),
}

VALS_CODES = {
    "corp_fin_v2",
    "tax_eval_v2",
    "legal_bench",
    "medscribe",
    "vibe-code",
    "medqa",
    "hlab",
    "fabv2",
}


class ModelBuilder:
    """Builds model documents from models.csv, observations.csv and raw/."""

    def __init__(self, sources: Sources) -> None:
        self.sources = sources
        self.catalog = Catalog.load(sources)
        self.observations = sources.rows("observations.csv")
        self.obs_by_key = {(o["model_id"], o["column"]): o for o in self.observations}
        raw = sources.root / "raw"
        litellm_path = raw / "litellm" / "model_prices_and_context_window_backup.json"
        self.litellm: dict[str, Any] = json.loads(litellm_path.read_text(encoding="utf-8"))
        self.models_dev = raw / "models_dev"
        self.epoch_keys = {
            r.get("Model version", "")
            for path in sorted((raw / "epoch_benchmark_data").glob("*.csv"))
            for r in read_csv(path)
        }

    def build(self, row: dict[str, str], usage: Doc | None) -> Doc:
        """The document of one models.csv row."""
        day, precision = _release(row["release_date"])
        results = model_results(self.sources, self.catalog, row, self.obs_by_key)
        bases = epoch_bases(row["id"], self.observations)
        configs = reasoning_configurations(self.sources, self.catalog, bases)
        revisions = self.revisions(row["id"])
        doc: Doc = {
            "id": row["id"],
            "name": row["name"],
            "aliases": aliases(row["id"], row["name"], [r["id"] for r in revisions]),
            "provider": row["provider"],
            "country": row["country"],
            "release_date": day,
            "release_date_precision": precision,
            "parameters_b": _number(row["params_total_b"]),
            "active_parameters_b": _number(row["params_active_b"]),
            "context_window": _int(row["context_window"]),
            "max_output_tokens": _int(row["max_output_tokens"]),
            "knowledge_cutoff": row["knowledge_cutoff"] or None,
            "open_weights": row["open_weights"] == "true",
            "updated": None,
            "lineage": self.lineage(row["id"]),
            "prices": self.prices(row),
            "usage": usage,
            "revisions": revisions,
            "reasoning_configurations": configs,
            "results": results,
        }
        doc["updated"] = midnight(newest_date(doc))
        return doc

    def lineage(self, model_id: str) -> Doc:
        family, generation, predecessor = LINEAGE[model_id]
        return {"family": family, "generation": generation, "predecessor": predecessor}

    def prices(self, row: dict[str, str]) -> Doc:
        source = row["price_source"]
        if not source:
            return {}
        doc: Doc = {
            "input": _number(row["price_input_per_1m"]),
            "output": _number(row["price_output_per_1m"]),
            "cache_read": _number(row["price_cache_read_per_1m"]),
            "cache_write": _number(row["price_cache_write_per_1m"]),
        }
        if doc["input"] == 0 and doc["output"] == 0:
            doc["free"] = True
        if row["id"] in HOSTED:
            provider, key = HOSTED[row["id"]]
            entry = self.litellm[key]
            doc["hosted"] = {
                "provider": provider,
                "input": round(entry["input_cost_per_token"] * 1e6, 6),
                "output": round(entry["output_cost_per_token"] * 1e6, 6),
                "source_url": LITELLM_URL,
            }
        doc["source"] = source
        doc["source_url"] = self.models_dev_url(source.split(";")[0].removeprefix("models.dev:"))
        return doc

    def models_dev_url(self, path: str) -> str:
        """GitHub URL (at the stored commit) of a models.dev provider file; it must exist."""
        if not (self.models_dev / f"{path}.toml").is_file():
            raise FileNotFoundError(f"models.dev file missing: {path}")
        return f"{MODELS_DEV_BLOB}/{path}.toml"

    def revisions(self, model_id: str) -> list[Doc]:
        docs = []
        for revision_id, day in REVISIONS.get(model_id, []):
            urls = self.revision_sources(revision_id)
            if not urls:
                raise ValueError(f"revision {revision_id} of {model_id} is in no source")
            docs.append(
                {
                    "id": revision_id,
                    "label": f"{revision_id} (dated snapshot)",
                    "available_date": dt.date.fromisoformat(day),
                    "kind": "dated-snapshot",
                    "source_urls": urls,
                }
            )
        return docs

    def revision_sources(self, revision_id: str) -> list[str]:
        """Where a dated checkpoint id appears: models.dev, litellm, Epoch AI."""
        urls = []
        for provider_dir in sorted(self.models_dev.iterdir()):
            if (provider_dir / "models" / f"{revision_id}.toml").is_file():
                urls.append(self.models_dev_url(f"{provider_dir.name}/models/{revision_id}"))
        if revision_id in self.litellm:
            urls.append(LITELLM_URL)
        if any(key.split("_")[0] == revision_id for key in self.epoch_keys):
            urls.append("https://epoch.ai/data/benchmark_data.zip")
        return urls


def aliases(model_id: str, name: str, revision_ids: list[str]) -> list[str]:
    """What else leads to the model: its display name (unless it is the id) and the dated
    revision ids providers serve it under (data/README.md, "Aliases")."""
    return [alias for alias in (name, *revision_ids) if alias != model_id]


def newest_date(doc: Doc) -> dt.date:
    """The newest date a model file states (results, usage, release, revisions)."""
    days: list[dt.date] = [r["as_of"] for r in doc["results"]]
    days += [r["available_date"] for r in doc["revisions"]]
    if doc.get("usage"):
        days.append(doc["usage"]["as_of"])
    if doc.get("release_date"):
        days.append(doc["release_date"])
    return max(days)


def _release(text: str) -> tuple[dt.date | None, str]:
    if not text:
        return None, "day"
    if len(text) == 7:
        return dt.date.fromisoformat(f"{text}-01"), "month"
    return dt.date.fromisoformat(text), "day"


def _number(text: str) -> float | None:
    return float(text) if text else None


def _int(text: str) -> int | None:
    return int(text) if text else None


# --- measured usage multipliers ----------------------------------------------


def base_price(doc: Doc) -> float | None:
    """Input plus output price; a hosted price stands in for a free first-party price."""
    prices = doc["prices"]
    hosted = prices.get("hosted")
    if prices.get("free") and hosted:
        return float(hosted["input"] + hosted["output"])
    total = (prices.get("input") or 0.0) + (prices.get("output") or 0.0)
    return total if total > 0 else None


def usage_multipliers(sources: Sources, prices: dict[str, float | None]) -> dict[str, Doc]:
    """Measured usage multipliers from vals.ai cost per test (data/README.md, "Usage").

    Per vals benchmark: ratio = cost_per_test / (input + output price) for each mapped
    model with a positive price, normalised by the geometric mean of the benchmark's
    ratios. A model's multiplier is the geometric mean of its normalised ratios, kept
    when it appears on at least two benchmarks.
    """
    raw = {
        (r["benchmark"], r["model"], r["reasoning_effort"]): r
        for r in sources.rows("raw/valsai/scores_overall_subset.csv")
    }
    by_key = {(b, m): r for (b, m, _), r in raw.items()}
    ratios: dict[str, dict[str, float]] = defaultdict(dict)
    updated: dict[str, dt.date] = {}
    for row in sources.rows("domain_results.csv"):
        code = row["source_url"].removeprefix("https://www.vals.ai/benchmarks/")
        if code not in VALS_CODES or row["harness"]:
            continue
        vals = by_key[(code, row["source_model"])]
        cost = float(vals["cost_per_test"]) if vals["cost_per_test"] else 0.0
        price = prices.get(row["model_id"])
        if cost > 0 and price:
            ratios[code][row["model_id"]] = cost / price
            updated[code] = dt.date.fromisoformat(vals["benchmark_updated"])
    normalised: dict[str, dict[str, float]] = defaultdict(dict)
    for code, per_model in sorted(ratios.items()):
        centre = _geomean(list(per_model.values()))
        for model_id, ratio in per_model.items():
            normalised[model_id][code] = ratio / centre
    docs = {}
    for model_id, per_code in sorted(normalised.items()):
        if len(per_code) < 2:
            continue
        docs[model_id] = {
            "multiplier": round(_geomean(list(per_code.values())), 4),
            "method": (
                "geometric mean over vals.ai benchmarks ("
                + ", ".join(sorted(per_code))
                + ") of cost_per_test / (input + output price), each divided by the"
                " benchmark's geometric-mean ratio"
            ),
            "samples": len(per_code),
            "source_name": f"vals.ai cost per test (via {VALS_SCRAPE})",
            "source_url": "https://www.vals.ai/benchmarks",
            "as_of": max(updated[code] for code in per_code),
        }
    return docs


def _geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))
