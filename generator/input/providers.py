"""The provider table (`data/providers/<id>.toml`): one name per lab, and which price
listings are the lab's own, its cloud partners' or a reseller's.

A model's `provider` is its lab's display name; another name of the lab (`Google` for
`Google DeepMind`) is refused in one line, and so is a country other than the lab's. A
provider the table does not list stands for itself (a new lab needs no entry to be added).
"""

from __future__ import annotations

from collections.abc import Sequence

from generator.input.loaded import Records
from generator.input.records import PriceKind, ProviderRecord

__all__ = ["KIND_ORDER", "PriceKind", "ProviderTable", "check_providers", "fold"]

KIND_ORDER: dict[PriceKind, int] = {"first-party": 0, "cloud": 1, "reseller": 2}


def fold(name: str) -> str:
    """A name as matched: case and runs of spaces folded."""
    return " ".join(name.casefold().split())


class ProviderTable:
    """The providers by every name sources use for them, and price hosts by kind."""

    def __init__(self, providers: Sequence[ProviderRecord]) -> None:
        self.providers = {p.id: p for p in providers}
        self._by_name: dict[str, ProviderRecord] = {}
        self._host_owner: dict[str, ProviderRecord] = {}
        for provider in sorted(providers, key=lambda p: p.id):
            for name in (provider.name, *provider.names, provider.id):
                self._by_name.setdefault(fold(name), provider)
            for host in (*provider.first_party, *provider.cloud):
                self._host_owner.setdefault(host.casefold(), provider)

    def find(self, name: str) -> ProviderRecord | None:
        """The provider any of whose names is `name` (ignoring case and spacing)."""
        return self._by_name.get(fold(name))

    def display(self, name: str) -> str:
        """The one display name for `name`: its provider's, else `name` itself."""
        found = self.find(name)
        return found.name if found is not None else name

    def price_rank(self, lab: str, host: str) -> tuple[int, int, str] | None:
        """How far a buyer trusts `host`'s price of a model by `lab` (lower first): the lab's
        own listing, then its cloud partners, then resellers the table knows (by the id of
        the entry naming them). None for a host no entry names: never chosen, so a new key
        that sorts first cannot win."""
        kind = self.price_kind(lab, host)
        if kind is None:
            return None
        provider = self.find(lab)
        own = [h.casefold() for h in provider.first_party] if provider else []
        cloud = [h.casefold() for h in provider.cloud] if provider else []
        listed = own if kind == "first-party" else cloud if kind == "cloud" else []
        where = listed.index(host.casefold()) if host.casefold() in listed else 0
        owner = self._host_owner[host.casefold()].id if kind == "reseller" else ""
        return (KIND_ORDER[kind], where, owner)

    def price_kind(self, lab: str, host: str) -> PriceKind | None:
        """`first-party`, `cloud` or `reseller` for `host`'s listing of a `lab` model; None
        for a host no entry names."""
        provider = self.find(lab)
        key = host.casefold()
        if provider is not None and key in (h.casefold() for h in provider.first_party):
            return "first-party"
        if provider is not None and key in (h.casefold() for h in provider.cloud):
            return "cloud"
        return "reseller" if key in self._host_owner else None


def check_providers(records: Records) -> list[str]:
    """Every provider-table problem and every model naming a lab by another of its names."""
    problems = _check_table(records)
    table = ProviderTable([p.record for p in records.providers])
    for item in records.models:
        model = item.record
        found = table.find(model.provider)
        if found is None:
            continue
        where = f"data/providers/{found.id}.toml"
        if model.provider != found.name:
            problems.append(
                f"{item.label}: provider: '{model.provider}' is another name of '{found.name}'"
                f" ({where}): write '{found.name}' (one name per lab)"
            )
        elif model.country != found.country:
            problems.append(
                f"{item.label}: country: '{model.country}', but {found.name} is in"
                f" '{found.country}' ({where})"
            )
    return problems


def _check_table(records: Records) -> list[str]:
    """A name belongs to one provider, and a price-file key is one provider's own listing."""
    problems: list[str] = []
    names: dict[str, str] = {}
    own: dict[str, str] = {}
    for item in sorted(records.providers, key=lambda p: p.record.id):
        provider = item.record
        for index, name in enumerate((provider.name, *provider.names)):
            where = "name" if index == 0 else f"names[{index - 1}]"
            owner = names.setdefault(fold(name), item.label)
            if owner != item.label:
                problems.append(f"{item.label}: {where}: '{name}' is also a name in {owner}")
        for index, host in enumerate(provider.first_party):
            owner = own.setdefault(host.casefold(), item.label)
            if owner != item.label:
                problems.append(
                    f"{item.label}: first_party[{index}]: '{host}' is {owner}'s own listing"
                )
    return problems
