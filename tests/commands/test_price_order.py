"""Prices in the order a buyer would trust them (generator/importers/prices.py): the lab's
own listing, its cloud partners', resellers'; a listing no provider entry names never wins."""

from __future__ import annotations

import datetime as dt

from generator.importers.identity import ModelInfo
from generator.importers.prices import Found, offers, price_doc
from generator.input.providers import ProviderTable
from generator.input.records import ProviderRecord

AS_OF = dt.date(2026, 11, 22)
LABS = ProviderTable(
    [
        ProviderRecord(
            id="deepseek", name="DeepSeek", country="China", first_party=["deepseek"], cloud=[]
        ),
        ProviderRecord(
            id="microsoft",
            name="Microsoft",
            country="United States of America",
            first_party=["azure_ai"],
        ),  # fmt: skip
        ProviderRecord(
            id="crusoe", name="Crusoe", country="United States of America", first_party=["crusoe"]
        ),
    ]
)


def _found(host: str, key: str, io: tuple[float, float], **kw: object) -> Found:
    info = ModelInfo(
        key=key, url=f"https://example.org/{key}", prices={"input": io[0], "output": io[1]},
        host=host, **kw,  # type: ignore[arg-type]
    )  # fmt: skip
    return Found("litellm", 1, info, AS_OF, False)


def test_the_labs_own_listing_wins_over_cloud_and_resellers_that_sort_first() -> None:
    found = [
        _found("azure_ai", "azure_ai/deepseek-r1", (1.35, 5.4)),
        _found("crusoe", "crusoe/deepseek-r1", (3.0, 7.0)),
        _found("deepseek", "deepseek/deepseek-r1", (0.55, 2.19)),
    ]
    ranked = offers("DeepSeek", found, LABS)
    assert [(o.info.key, o.kind) for o in ranked] == [
        ("deepseek/deepseek-r1", "first-party"),
        ("crusoe/deepseek-r1", "reseller"),  # resellers by their entry's id: crusoe,
        ("azure_ai/deepseek-r1", "reseller"),  # microsoft (not DeepSeek's cloud partner)
    ]
    new, conflict = price_doc({}, ranked)
    assert conflict is None
    assert (new["input"], new["output"], new["kind"]) == (0.55, 2.19, "first-party")
    assert new["source_url"] == "https://example.org/deepseek/deepseek-r1"  # its own entry


def test_a_hostile_new_host_that_sorts_first_never_wins() -> None:
    found = [
        _found("crusoe", "crusoe/deepseek-v3-0324", (1.5, 1.5)),
        _found("!!!aaa_cheap", "!!!aaa_cheap/deepseek-v3-0324", (0.0001, 0.0001)),
        _found("0000", "0000/deepseek-v3-0324", (0.01, 0.01)),
    ]
    ranked = offers("DeepSeek", found, LABS)
    assert [o.info.key for o in ranked] == ["crusoe/deepseek-v3-0324"]
    assert price_doc({}, ranked)[0]["kind"] == "reseller"  # labelled: no first-party listing


def test_a_retired_listing_is_marked_and_a_live_one_preferred() -> None:
    gone = _found("deepseek", "deepseek/old", (0.5, 2.0), retires_on=dt.date(2026, 8, 13))
    ranked = offers("DeepSeek", [gone], LABS)
    assert price_doc({}, ranked)[0]["retired"] is True
    live = _found("deepseek", "deepseek/new", (0.6, 2.2))
    assert offers("DeepSeek", [gone, live], LABS)[0].info.key == "deepseek/new"


def test_without_a_trusted_listing_the_table_is_kept_as_it_is() -> None:
    held = {"input": 1.0, "output": 2.0, "source": "litellm:x/y", "kind": "reseller"}
    assert price_doc(
        held, offers("DeepSeek", [_found("new_host", "new_host/y", (0.1, 0.1))], LABS)
    ) == (
        held,
        None,
    )
