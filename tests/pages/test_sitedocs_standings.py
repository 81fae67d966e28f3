"""`SiteDocuments.domain_standings` (indexed once) equals a scan of every domain per model."""

from __future__ import annotations

from pathlib import Path

from generator.api.urls import SiteConfig
from generator.documents.assemble import build_documents
from generator.input.load import load_dataset
from generator.pages.sitedocs import SiteDocuments
from generator.scoring import compute_scores

DATA = Path(__file__).resolve().parents[1] / "data"


def test_standings_match_a_full_scan() -> None:
    dataset = load_dataset(DATA)
    docs = SiteDocuments(build_documents(dataset, compute_scores(dataset), SiteConfig()))
    seen = 0
    for model_id in [*docs.model_details, "no-such-model"]:
        expected = [
            (domain, position, len(domain.models))
            for domain in docs.domain_details.values()
            for position, entry in enumerate(domain.models, 1)
            if entry.model == model_id
        ]
        assert docs.domain_standings(model_id) == expected
        seen += len(expected)
    assert seen > 0  # the fixture has domain results
