"""render: documents built from tests/data follow the contract field by field."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import TypeVar

import msgspec
import pytest

from generator.api.contract import (
    DIMENSION_SLUGS,
    ERROR_CODES,
    ApiIndex,
    BenchmarkList,
    ChartList,
    DomainDetail,
    DomainList,
    Methodology,
    ModelDetail,
    ModelList,
    RankingDetail,
    RankingList,
)
from generator.api.urls import SiteConfig
from generator.documents.assemble import build_documents, encode, render_api
from generator.errors import BuildError
from generator.input.load import load_dataset
from generator.input.records import BenchmarkResultRecord, Dataset
from generator.scoring import compute_scores
from generator.scoring.types import Scores

FIXTURE_DATA = Path(__file__).parents[1] / "data"
CONFIG = SiteConfig(base_url="https://scores.example.org/")
BASE = "https://scores.example.org"
Documents = dict[str, msgspec.Struct]
T = TypeVar("T")


@pytest.fixture(scope="module")
def dataset() -> Dataset:
    return load_dataset(FIXTURE_DATA)


@pytest.fixture(scope="module")
def scores(dataset: Dataset) -> Scores:
    return compute_scores(dataset)


@pytest.fixture(scope="module")
def documents(dataset: Dataset, scores: Scores) -> Documents:
    return build_documents(dataset, scores, CONFIG)


def _get(documents: Documents, path: str, kind: type[T]) -> T:
    document = documents[path]
    assert isinstance(document, kind), path
    return document


def _json(document: msgspec.Struct) -> dict[str, object]:
    result: dict[str, object] = json.loads(encode(document))
    return result


def test_document_keys_cover_every_endpoint(documents: Documents) -> None:
    assert set(documents) == {
        "/",
        "/models",
        *(f"/models/{m}" for m in ("alpha-1", "alpha-2", "alpha-3", "beta-1", "gamma-1")),
        *(f"/models/{m}/history" for m in ("alpha-1", "alpha-2", "alpha-3", "beta-1", "gamma-1")),
        "/benchmarks",
        "/rankings",
        *(f"/rankings/{r}" for r in _ranking_ids()),
        "/charts",
        "/methodology",
        "/domains",
        "/domains/coding",
        "/domains/emotional-reasoning",
        "/history",
        "/history/2026-01-31",  # every result of tests/data is dated in January 2026
        "/changes",
    }


def _ranking_ids() -> list[str]:
    return [
        "composite-iq",
        "effective-cost",
        *(f"{slug}-iq" for slug in DIMENSION_SLUGS),
        "arc-agi-1",
        "otis-mock-aime",
        "gpqa-diamond",
        "hle-calibration-error",
    ]


def test_envelope_on_every_document(dataset: Dataset, documents: Documents) -> None:
    newest = max([m.updated for m in dataset.models] + [b.updated for b in dataset.benchmarks])
    for path, document in documents.items():
        body = _json(document)
        assert body["apiVersion"] == "1", path
        assert body["methodologyVersion"] == "2026-02-01", path
        if not path.startswith("/models/"):  # a model detail's updatedAt is the model's own
            assert body["updatedAt"] == newest.isoformat().replace("+00:00", "Z"), path


def test_unpublished_models_appear_nowhere(documents: Documents) -> None:
    for path, document in documents.items():
        assert b"delta-preview" not in encode(document), path


def test_model_list_is_in_rank_order_unranked_last(documents: Documents) -> None:
    models = _get(documents, "/models", ModelList).models
    assert [(m.id, m.rank) for m in models] == [
        ("alpha-3", 1),
        ("alpha-2", 2),
        ("alpha-1", 3),
        ("beta-1", 4),
        ("gamma-1", None),
    ]
    gamma = models[-1]
    assert gamma.iq is None and gamma.dimensions.academic_reasoning == 108


def test_summary_dimension_map_has_seven_slugs_in_order(documents: Documents) -> None:
    body = _json(documents["/models"])
    models = body["models"]
    assert isinstance(models, list)
    for model in models:
        assert list(model["dimensions"]) == list(DIMENSION_SLUGS)


def test_latest_revision_only_when_revisions_exist(documents: Documents) -> None:
    alpha3 = _json(documents["/models/alpha-3"])
    assert alpha3["latestRevision"] == "alpha-3-20260105"
    assert alpha3["latestRevisionDate"] == "2026-01-05"
    alpha1 = _json(documents["/models/alpha-1"])
    assert "latestRevision" not in alpha1 and "latestRevisionDate" not in alpha1
    assert alpha1["revisions"] == []


def test_cost_object_has_every_price_field(documents: Documents) -> None:
    cost = _json(documents["/models/alpha-1"])["cost"]
    assert cost == {
        "inputPer1M": 1.0,
        "outputPer1M": 4.0,
        "cacheReadPer1M": 0.1,
        "cacheWritePer1M": None,
        "cacheWrite1hPer1M": None,
        "cacheStorageHourlyPer1M": None,
        "ioPer1M": 5.0,  # 1 + 4
        "usageMultiplier": 2.0,
        "usageMultiplierSource": "measured",
        "effectivePer1M": 10.0,  # 5 x 2
        "unit": "USD per 1M input/output tokens",
        "priceSource": "test price sheet",  # alpha-1's [prices] source, URL and as_of
        "priceSourceUrl": "https://example.org/alpha/pricing",
        "priceAsOf": "2026-01-12",
        "priceKind": None,  # the fixture's price states no kind (first-party, cloud, reseller)
    }
    alpha2 = _json(documents["/models/alpha-2"])["cost"]  # prices without a stated source
    assert (alpha2["priceSource"], alpha2["priceSourceUrl"], alpha2["priceAsOf"]) == (
        None,
        None,
        None,
    )


def test_cost_names_who_lists_the_price(dataset: Dataset) -> None:
    alpha = dataset.models[0]
    prices = msgspec.structs.replace(alpha.prices, kind="reseller")
    changed = msgspec.structs.replace(
        dataset, models=(msgspec.structs.replace(alpha, prices=prices), *dataset.models[1:])
    )
    built = build_documents(changed, compute_scores(changed), CONFIG)
    cost = _json(built["/models/alpha-1"])["cost"]
    assert isinstance(cost, dict) and cost["priceKind"] == "reseller"


def test_model_detail_fields(documents: Documents) -> None:
    detail = _get(documents, "/models/alpha-1", ModelDetail)
    assert detail.url == f"{BASE}/models/alpha-1/"
    assert detail.iq_coverage is not msgspec.UNSET
    assert (detail.iq_coverage.direct_dimensions, detail.iq_coverage.total_dimensions) == (4, 7)
    body = _json(detail)
    assert list(body["dimensions"]) == list(DIMENSION_SLUGS)  # type: ignore[arg-type]
    assert detail.dimensions.abstract_reasoning.estimation_method == "posterior"  # version 3
    results = detail.benchmark_results
    assert sorted(results) == [
        "arc-agi-1",
        "eq-bench-3",
        "gpqa-diamond",
        "hle-calibration-error",
        "otis-mock-aime",
    ]
    assert results["eq-bench-3"].category == "eq" and results["eq-bench-3"].dimension is None
    assert results["hle-calibration-error"].direction == "lower_is_better"
    assert results["arc-agi-1"].projected_iq == 100.0
    assert results["arc-agi-1"].as_of == dt.date(2026, 1, 10)


def test_benchmark_result_uses_the_best_row_of_several(dataset: Dataset) -> None:
    model = next(m for m in dataset.models if m.id == "alpha-1")
    extra = BenchmarkResultRecord(
        benchmark="gpqa-diamond",
        value=0.7,
        source_name="Other source",
        source_url="https://example.org/other",
        as_of=dt.date(2026, 1, 11),
        harness="Better harness",
    )
    richer = msgspec.structs.replace(model, results=[*model.results, extra])
    models = tuple(richer if m.id == "alpha-1" else m for m in dataset.models)
    data = msgspec.structs.replace(dataset, models=models)
    docs = build_documents(data, compute_scores(data), CONFIG)
    result = _get(docs, "/models/alpha-1", ModelDetail).benchmark_results["gpqa-diamond"]
    assert (result.value, result.harness, result.source_name) == (
        0.7,
        "Better harness",
        "Other source",
    )
    ranking = _get(docs, "/rankings/gpqa-diamond", RankingDetail)
    assert {row.id: row.score for row in ranking.models}["alpha-1"] == 0.7


def test_benchmarks_lists_only_the_scored_iq_benchmarks(documents: Documents) -> None:
    benchmarks = _get(documents, "/benchmarks", BenchmarkList).benchmarks
    assert [b.id for b in benchmarks] == [
        "arc-agi-1",
        "otis-mock-aime",
        "gpqa-diamond",
        "hle-calibration-error",
    ]
    assert all(b.category == "iq" and b.dimension in DIMENSION_SLUGS for b in benchmarks)
    assert benchmarks[0].url == f"{BASE}/benchmarks/arc-agi-1/"


def test_ranking_catalog_order_and_fields(documents: Documents) -> None:
    catalog = _get(documents, "/rankings", RankingList).rankings
    assert [r.id for r in catalog] == _ranking_ids()
    by_id = {r.id: r for r in catalog}
    assert by_id["composite-iq"].ranking_type == "derived"
    assert by_id["composite-iq"].methodology_version == "2026-02-01"
    assert by_id["effective-cost"].direction == "lower_is_better"
    assert by_id["effective-cost"].unit == "USD per 1M input/output tokens"
    assert by_id["reliability-iq"].ranking_type == "dimension"
    assert by_id["reliability-iq"].dimension == "reliability"
    hle = by_id["hle-calibration-error"]
    assert (hle.ranking_type, hle.direction, hle.field, hle.category) == (
        "benchmark",
        "lower_is_better",
        "hleCalibrationError",
        "iq",
    )
    assert hle.methodology_version is msgspec.UNSET
    for entry in catalog:
        detail = _get(documents, f"/rankings/{entry.id}", RankingDetail)
        assert entry.model_count == detail.model_count == len(detail.models)
        assert entry.url == detail.url == f"{BASE}/rankings/{entry.id}/"
        assert [row.rank for row in detail.models] == list(range(1, len(detail.models) + 1))


def test_composite_ranking_is_by_iq(documents: Documents) -> None:
    rows = _get(documents, "/rankings/composite-iq", RankingDetail).models
    assert [(r.id, r.rank, r.score) for r in rows] == [
        ("alpha-3", 1, 130),  # every result of the fixture's models sits at one level
        ("alpha-2", 2, 115),
        ("alpha-1", 3, 100),
        ("beta-1", 4, 85),
    ]
    # 15 points apart with composite sds near 3: every band is the rank itself
    assert [(r.rank_low, r.rank_high) for r in rows] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    body = _json(documents["/rankings/composite-iq"])
    keys = {"id", "name", "provider", "rank", "score", "rankLow", "rankHigh", "provisional"}
    assert all(set(row) == keys for row in body["models"])  # type: ignore[union-attr]


def test_effective_cost_ranking_lists_only_priced_models_cheapest_first(
    documents: Documents,
) -> None:
    rows = _get(documents, "/rankings/effective-cost", RankingDetail).models
    assert [(r.id, r.score) for r in rows] == [
        ("beta-1", 3.4642),
        ("alpha-1", 10.0),
        ("alpha-2", 15.0),
        ("alpha-3", 22.5),
    ]


def test_dimension_rankings_rows_carry_imputed(documents: Documents) -> None:
    detail = _get(documents, "/rankings/academic-reasoning-iq", RankingDetail)
    assert [(r.id, r.score) for r in detail.models] == [
        ("alpha-3", 130),
        ("alpha-2", 115),
        ("gamma-1", 108),  # no composite, but a dimension value: ranked here
        ("alpha-1", 100),
        ("beta-1", 85),
    ]
    assert all(r.imputed is False and r.url is msgspec.UNSET for r in detail.models)
    beta = {r.id: r for r in _get(documents, "/rankings/computer-use-iq", RankingDetail).models}
    assert beta["beta-1"].imputed is True


def test_benchmark_rankings_use_raw_values_in_the_benchmark_direction(
    documents: Documents,
) -> None:
    detail = _get(documents, "/rankings/hle-calibration-error", RankingDetail)
    assert [(r.id, r.rank, r.score) for r in detail.models] == [
        ("alpha-2", 1, 60.0),  # lower is better
        ("alpha-1", 2, 70.0),
        ("beta-1", 3, 80.0),
    ]
    assert detail.models[0].url == f"{BASE}/models/alpha-2/"
    assert detail.models[0].imputed is msgspec.UNSET


def test_charts_are_the_promoted_ones_with_page_and_image(documents: Documents) -> None:
    charts = _get(documents, "/charts", ChartList).charts
    assert [c.id for c in charts] == ["benchmark-gpqa-diamond", "iq-distribution"]
    chart = charts[1]
    assert chart.url == f"{BASE}/charts/iq-distribution/"
    assert chart.image == f"{BASE}/charts/iq-distribution.png"
    assert chart.tags == ["iq", "distribution", "iq-distribution"]  # the kind is a tag


def test_methodology_document(dataset: Dataset, documents: Documents) -> None:
    method = _get(documents, "/methodology", Methodology)
    assert method.version == "2026-02-01" and method.url == f"{BASE}/methodology/"
    composite, cost = method.derived_rankings
    assert (composite.id, composite.score_field, composite.direction) == (
        "composite-iq",
        "iq",
        "higher_is_better",
    )
    assert composite.dimensions is not msgspec.UNSET
    assert [d.slug for d in composite.dimensions] == list(DIMENSION_SLUGS)
    assert [(b.field, b.name) for b in composite.dimensions[0].benchmarks] == [
        ("arcAgi1", "ARC-AGI-1")
    ]
    assert composite.dimensions[3].benchmarks == []
    assert (cost.id, cost.direction, cost.unit) == (
        "effective-cost",
        "lower_is_better",
        "USD per 1M input/output tokens",
    )
    assert cost.breakdown is not msgspec.UNSET
    assert [b.id for b in cost.breakdown] == ["base-price", "usage-multiplier"]
    assert msgspec.structs.asdict(method.parameters) == msgspec.structs.asdict(
        dataset.methodology.parameters
    )
    assert method.rules == list(dataset.methodology.rules)


def test_domains(documents: Documents) -> None:
    summaries = _get(documents, "/domains", DomainList).domains
    assert [(d.id, d.benchmark_count) for d in summaries] == [
        ("coding", 1),
        ("emotional-reasoning", 2),
    ]
    coding = _get(documents, "/domains/coding", DomainDetail)
    assert coding.url == f"{BASE}/domains/coding/"
    assert [e.model for e in coding.models] == ["alpha-3", "alpha-2", "alpha-1", "beta-1"]
    top = coding.models[0]
    # one result, 137.5; prior the composite 130: (137.5/64 + 130/100) / (1/64 + 1/100) = 134.57
    assert (top.composite_iq, top.rank_status, top.observed_composite_iq) == (135, "full", 137.5)
    assert top.model_url == f"{BASE}/models/alpha-3/"
    (bench,) = coding.benchmarks
    scores = [row.score for row in bench.results]
    assert scores == sorted(scores, reverse=True)  # higher is better: best first
    assert {row.harness for row in bench.results} >= {"Agent X", "Agent Y"}


def test_discovery_index(documents: Documents) -> None:
    index = _get(documents, "/", ApiIndex)
    assert index.openapi == f"{BASE}/api/openapi.json"
    assert index.mcp == f"{BASE}/api/mcp"
    assert index.docs == f"{BASE}/docs/"
    assert index.endpoints[0].url == f"{BASE}/api/v1/models"


def test_ranking_id_clash_is_a_build_error(dataset: Dataset) -> None:
    clash = msgspec.structs.replace(dataset.benchmarks[0], id="composite-iq")
    data = msgspec.structs.replace(dataset, benchmarks=(clash, *dataset.benchmarks[1:]))
    with pytest.raises(BuildError, match="ranking ids clash"):
        build_documents(data, compute_scores(data), CONFIG)


def test_encode_is_indented_deterministic_and_newline_terminated(documents: Documents) -> None:
    data = encode(documents["/models/alpha-1"])
    assert data.endswith(b"}\n") and data.startswith(b'{\n  "apiVersion": "1",\n')
    assert encode(documents["/models/alpha-1"]) == data


def test_render_api_writes_both_trees_errors_and_openapi(documents: Documents) -> None:
    files = render_api(documents, CONFIG)
    assert files["api/v1/models.json"] == files["api/models.json"]
    assert files["api/v1/models/alpha-1"] == files["api/models/alpha-1"]
    assert files["api/v1/index.json"] == files["api/index.json"]
    assert files["api/v1/openapi.json"] == files["api/openapi.json"]
    assert {f for f in files if f.startswith("api/_errors/")} == {
        f"api/_errors/{code}.json" for code in ERROR_CODES
    }
    assert len(files) == 2 * (len(documents) + 1) + len(ERROR_CODES)
