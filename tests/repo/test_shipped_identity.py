"""The shipped data/ holds one identity per lab and model, each result its own model's, and
prices in the order a buyer would trust them (issue 43). Each check reads the files
themselves (drafts included), not the code that enforces the rule."""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data"


def _models() -> dict[str, dict[str, Any]]:
    return {
        path.stem: tomllib.loads(path.read_text(encoding="utf-8"))
        for path in sorted((DATA / "models").glob("*.toml"))
    }


def test_no_result_is_dated_more_than_30_days_before_its_models_release() -> None:
    early = []
    for model_id, doc in _models().items():
        released: dt.date | None = doc.get("release_date")
        for result in doc.get("results", []):
            pinned_with_reason = result.get("pinned") and result.get("note")
            if released and (released - result["as_of"]).days > 30 and not pinned_with_reason:
                early.append(f"{model_id}: {result['benchmark']} {result['as_of']}")
    assert early == []


def test_one_provider_name_per_lab() -> None:
    # The names a lab went by: each group may appear under one spelling only.
    labs = {
        "google": {"Google", "Google DeepMind"},
        "meta": {"Meta", "Meta AI"},
        "mistral": {"Mistral", "Mistral AI"},
        "moonshot": {"Moonshot", "Moonshot AI"},
        "zai": {"Z.ai", "Z.ai (Zhipu AI)", "Zhipu AI"},
    }
    used = {str(doc["provider"]) for doc in _models().values()}
    assert {lab: sorted(used & names) for lab, names in labs.items()} == {
        "google": ["Google DeepMind"],
        "meta": ["Meta"],
        "mistral": ["Mistral AI"],
        "moonshot": ["Moonshot AI"],
        "zai": ["Z.ai"],
    }
    assert "Unknown" not in used
    # ... and every provider the table knows is named by its one display name
    table = [tomllib.loads(p.read_text()) for p in sorted((DATA / "providers").glob("*.toml"))]
    other_names = {n.casefold() for t in table for n in t.get("names", [])}
    assert sorted(p for p in used if p.casefold() in other_names) == []


def test_no_model_under_two_ids() -> None:
    models = _models()
    owner = {
        str(name).lower(): model_id
        for model_id, doc in models.items()
        for name in (model_id, *doc.get("aliases", []))
    }
    # each merged id answers as an alias of the one model kept
    assert {
        merged: owner.get(merged)
        for merged in ("grok-3", "grok-3-mini", "gemini-2.5-pro-preview-03-25")
    } == {
        "grok-3": "grok-3-beta",
        "grok-3-mini": "grok-3-mini-beta",
        "gemini-2.5-pro-preview-03-25": "gemini-2.5-pro-exp-03-25",
    }

    # no two files are one model under a beta/preview/experimental suffix
    def base(model_id: str) -> str:
        # `x-beta` is `x`; `x-exp-03-25` and `x-preview-03-25` are the one dated `x-03-25`
        return re.sub(r"-(?:exp|preview)(-\d\d-\d\d)$", r"\1", model_id.removesuffix("-beta"))

    bases: dict[str, list[str]] = {}
    for model_id in models:
        bases.setdefault(base(model_id), []).append(model_id)
    assert {b: ids for b, ids in bases.items() if len(ids) > 1} == {}


def test_release_dates_settled_by_hand_state_source_and_reason() -> None:
    mistral = _models()["mistral-large-3"]
    assert mistral["release_date"] == dt.date(2025, 12, 2)  # not models.dev's 2024-11-01
    assert mistral["release_date_source"].startswith("https://")
    assert "2024-11-01" in mistral["release_date_note"]


def test_the_four_models_are_priced_first_party_or_labelled() -> None:
    models = _models()
    kinds = {m: (models[m]["prices"].get("kind"), models[m]["prices"]["source"]) for m in (
        "deepseek-r1", "deepseek-v3-0324", "gemma-4-31b", "qwen3-235b-a22b-instruct-2507"
    )}  # fmt: skip
    assert kinds == {
        "deepseek-r1": ("first-party", "litellm:deepseek/deepseek-r1"),
        # no listing by DeepSeek, Google or Alibaba themselves: labelled a reseller's
        "deepseek-v3-0324": ("reseller", "litellm:crusoe/deepseek-ai/DeepSeek-V3-0324"),
        "gemma-4-31b": ("reseller", "litellm:cerebras/gemma-4-31b"),
        "qwen3-235b-a22b-instruct-2507": (
            "reseller",
            "litellm:crusoe/Qwen/Qwen3-235B-A22B-Instruct-2507",
        ),
    }
    # DeepSeek's own listing, not Azure's 1.35/5.40
    assert (
        models["deepseek-r1"]["prices"]["input"],
        models["deepseek-r1"]["prices"]["output"],
    ) == (
        0.55,
        2.19,
    )
    # every imported price says who lists it
    unlabelled = [
        m for m, doc in models.items()
        if str(doc.get("prices", {}).get("source", "")).startswith(("litellm:", "models-dev:"))
        and "kind" not in doc["prices"]
    ]  # fmt: skip
    assert unlabelled == []


def test_pages_show_one_provider_per_lab_and_who_lists_the_price(shipped_site: Path) -> None:
    home = (shipped_site / "index.html").read_text(encoding="utf-8")
    select = home[home.index('<select id="f-provider"') :]
    options = re.findall(r"<option>([^<]*)</option>", select[: select.index("</select>")])
    assert options == [
        "Alibaba", "Ant Group", "Anthropic", "Cohere", "DeepSeek", "Google DeepMind", "Meta",
        "MiniMax", "Mistral AI", "Moonshot AI", "NVIDIA", "OpenAI", "Thinking Machines", "xAI",
        "Z.ai",
    ]  # fmt: skip

    def page(model: str) -> str:
        return (shipped_site / "models" / model / "index.html").read_text(encoding="utf-8")

    assert "Listed by DeepSeek itself." in page("deepseek-r1")
    assert "Listed by a reseller (no priced listing of Google DeepMind" in page("gemma-4-31b")
