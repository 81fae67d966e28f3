"""What the pages work out once per build is what each page worked out for itself.

The landing view orders the compare page's pickers and counts the ranking page's imputed
dimensions; the dimension names and the benchmark index are read once from the documents.
"""

from __future__ import annotations

from markupsafe import escape
from msgspec.structs import replace
from support.documents import BASE, sample_documents

from generator.api.contract import BENCHMARKS, BenchmarkList
from generator.api.urls import SiteConfig
from generator.pages import views
from generator.pages.render import render_pages
from generator.pages.sitedocs import SiteDocuments


def test_views_from_the_landing_view_are_the_ones_made_alone() -> None:
    docs = SiteDocuments(sample_documents())
    landing = views.landing_view(docs)
    assert views.compare_view(docs, landing) == views.compare_view(docs)
    counted = views.imputed_counts(docs, landing)
    assert counted == views.imputed_counts(docs)
    assert list(counted) == list(docs.model_details)
    assert any(counted.values())  # the sample has imputed dimensions to count


def test_a_benchmark_is_found_by_id_then_field_the_first_in_catalog_order() -> None:
    documents = dict(sample_documents())
    catalog = documents[BENCHMARKS.api_path()]
    assert isinstance(catalog, BenchmarkList)
    first, second = catalog.benchmarks[0], catalog.benchmarks[1]
    # A later benchmark whose field is the first one's id, and one repeating the second's
    # field: the first in catalog order is found, as a scan finds it.
    extra = [
        replace(second, id="later", field=first.id),
        replace(first, id="dup", field=second.field),
    ]
    documents[BENCHMARKS.api_path()] = replace(catalog, benchmarks=[*catalog.benchmarks, *extra])
    docs = SiteDocuments(documents)
    assert docs.benchmark(first.id) is first
    assert docs.benchmark(second.field) is second
    assert docs.benchmark("later") is extra[0]
    assert docs.benchmark("no-such-benchmark") is None


def test_ranked_rows_link_their_own_url_or_the_models_profile() -> None:
    """A benchmark ranking's rows carry a `url`; a derived ranking's rows do not and link the
    profile (`profile_urls`), as the rows paired with their URLs did."""
    documents = sample_documents()
    docs = SiteDocuments(documents)
    pages = render_pages(documents, SiteConfig(base_url=BASE))
    for entry in docs.rankings.rankings:
        ranking = docs.ranking_details[entry.id]
        html = pages[f"rankings/{entry.id}/index.html"].decode()
        urls = views.profile_urls(docs, ranking)
        for model in ranking.models:
            url = model.url if isinstance(model.url, str) else docs.model_url(model.id)
            assert url is not None
            href = url.removeprefix(BASE + "/")
            assert f'<a href="../../{href}">{escape(model.name)}</a>' in html
            assert (model.id in urls) is not isinstance(model.url, str)
    own = [m for r in docs.ranking_details.values() for m in r.models if isinstance(m.url, str)]
    assert own and len(own) < sum(len(r.models) for r in docs.ranking_details.values())
