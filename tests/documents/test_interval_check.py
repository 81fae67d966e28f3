"""The methodology's `intervalCheck` object: the bench's figures, rounded, and their sentence."""

from __future__ import annotations

import json

import msgspec
import pytest
from support.paths import FIXTURE_DATA

from generator.api.contract import Methodology
from generator.api.urls import SiteConfig
from generator.documents.assemble import build_documents, encode
from generator.documents.interval_check import interval_check, statement
from generator.input.load import load_dataset
from generator.input.records import HeldOutCheckRecord, IntervalCheckRecord
from generator.scoring import compute_scores

CONFIG = SiteConfig(base_url="https://scores.example.org/")


def _check(check_id: str, coverage: float) -> HeldOutCheckRecord:
    return HeldOutCheckRecord(
        id=check_id,  # type: ignore[arg-type]
        cases=422,
        models=45,
        coverage=coverage,
        mean_log_predictive_density=-3.12345,
        mean_absolute_error=4.56789,
        previous_coverage=0.98512,
        previous_mean_log_predictive_density=-3.2,
        previous_mean_absolute_error=4.6,
        lpd_gain=0.06949,
        lpd_gain_low95=0.04,
        lpd_gain_high95=0.0975,
    )


RECORD = IntervalCheckRecord(
    nominal=0.95,
    previous_version="2026-11-25",
    bootstrap_resamples=1000,
    checks=[_check("benchmark-hold-out", 0.92891), _check("dimension-hold-out", 0.94615)],
)


def test_statement_gives_both_coverages_and_the_limit() -> None:
    # 0.92891 -> 92.9%, 0.94615 -> 94.6%, nominal 0.95 -> 95%
    assert statement(RECORD) == (
        "On this data, 92.9% of held-out benchmark results and 94.6% of held-out dimensions"
        " fell inside 95% ranges built this way; the ranges do not cover differences"
        " between scoring methods."
    )


def test_published_figures_are_rounded() -> None:
    check = interval_check(RECORD).checks[0]
    assert (check.coverage, check.previous_coverage) == (0.929, 0.985)
    assert (check.mean_log_predictive_density, check.mean_absolute_error) == (-3.123, 4.568)
    assert (check.lpd_gain, check.lpd_gain_low95, check.lpd_gain_high95) == (0.069, 0.04, 0.098)
    assert check.description.startswith("Each benchmark result of a model")


@pytest.fixture(scope="module")
def methodologies() -> tuple[dict[str, object], dict[str, object]]:
    """The methodology document of the test data without and with a check."""
    dataset = load_dataset(FIXTURE_DATA)
    checked = msgspec.structs.replace(
        dataset,
        methodology=msgspec.structs.replace(dataset.methodology, interval_check=RECORD),
    )
    bodies = []
    for data in (dataset, checked):
        document = build_documents(data, compute_scores(data), CONFIG)["/methodology"]
        body = json.loads(encode(document))
        msgspec.json.decode(encode(document), type=Methodology)  # the contract accepts it
        bodies.append(body)
    return bodies[0], bodies[1]


def test_the_document_carries_the_check_only_when_the_data_does(
    methodologies: tuple[dict[str, object], dict[str, object]],
) -> None:
    plain, checked = methodologies
    assert "intervalCheck" not in plain
    published = checked["intervalCheck"]
    assert isinstance(published, dict)
    assert published["statement"] == statement(RECORD)
    assert [c["id"] for c in published["checks"]] == ["benchmark-hold-out", "dimension-hold-out"]
    assert published["checks"][1]["coverage"] == 0.946
    assert published["previousVersion"] == "2026-11-25"
