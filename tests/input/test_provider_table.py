"""The provider table (data/providers/): one name per lab, checked in one line per problem."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.input.load import load_dataset
from generator.input.providers import ProviderTable

FIXTURE = Path(__file__).resolve().parents[1] / "data"
ALPHA = """id = "alpha"
name = "Alpha Labs"
country = "United States of America"
names = ["Alpha", "alpha-ai"]
first_party = ["alpha"]
cloud = ["bigcloud"]
"""


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "data")
    (tmp_path / "data" / "providers").mkdir()
    (tmp_path / "data" / "providers" / "alpha.toml").write_text(ALPHA)
    monkeypatch.chdir(tmp_path)
    return tmp_path / "data"


def _check_lines() -> list[str]:
    result = CliRunner().invoke(cli, ["check", "--data-dir", "data"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    return result.output.splitlines()[:-1]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_the_table_loads_and_models_carry_the_display_name(data: Path) -> None:
    dataset = load_dataset(data)
    assert [p.name for p in dataset.providers] == ["Alpha Labs"]
    table = ProviderTable(dataset.providers)
    assert table.display("ALPHA-AI") == "Alpha Labs"  # any name, any case
    assert table.display("Beta AI") == "Beta AI"  # a lab the table does not list


def test_another_name_of_the_lab_and_another_country_are_refused(data: Path) -> None:
    _edit(data / "models" / "alpha-1.toml", 'provider = "Alpha Labs"', 'provider = "Alpha"')
    _edit(
        data / "models" / "alpha-2.toml",
        'country = "United States of America"',
        'country = "Canada"',
    )
    assert _check_lines() == [
        "data/models/alpha-1.toml: provider: 'Alpha' is another name of 'Alpha Labs'"
        " (data/providers/alpha.toml): write 'Alpha Labs' (one name per lab)",
        "data/models/alpha-2.toml: country: 'Canada', but Alpha Labs is in 'United States of"
        " America' (data/providers/alpha.toml)",
    ]


def test_a_name_or_an_own_listing_belongs_to_one_provider(data: Path) -> None:
    (data / "providers" / "beta.toml").write_text(
        'id = "beta"\nname = "Beta AI"\ncountry = "France"\nnames = ["alpha"]\n'
        'first_party = ["ALPHA"]\n'
    )
    assert _check_lines() == [
        "data/providers/beta.toml: first_party[0]: 'ALPHA' is data/providers/alpha.toml's own"
        " listing",
        "data/providers/beta.toml: names[0]: 'alpha' is also a name in data/providers/alpha.toml",
    ]


def test_price_kinds_follow_the_labs_entry(data: Path) -> None:
    (data / "providers" / "hoster.toml").write_text(
        'id = "hoster"\nname = "Hoster"\ncountry = "France"\nfirst_party = ["hoster"]\n'
    )
    table = ProviderTable(load_dataset(data).providers)
    kinds = [table.price_kind("Alpha Labs", h) for h in ("Alpha", "bigcloud", "hoster", "new")]
    assert kinds == ["first-party", "cloud", "reseller", None]  # a host nobody lists: none
    assert table.price_kind("Hoster", "hoster") == "first-party"
    assert table.price_kind("Beta AI", "alpha") == "reseller"  # Alpha's own, not Beta's
