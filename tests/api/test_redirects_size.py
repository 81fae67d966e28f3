"""The built `_redirects` is bounded in bytes as well as in rules (generator/api/hosting.py):
300 models with 32 long aliases each stay under the rule limit but made an 18.9 MB file; now
one build error naming the aliases, while 50,000 models' history rules still fit. Lines are
not padded to the widest rule (one 100-character alias made every line 100 characters wide),
and the size is counted by arithmetic before any rule is made, so a refusal is cheap."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.paths import FIXTURE_DATA
from support.sitetree import tree_manifest

from generator import build
from generator.api import hosting
from generator.api.contract import MODEL, MODEL_HISTORY
from generator.api.hosting import MAX_REDIRECT_BYTES, MAX_REDIRECT_RULES, render_hosting
from generator.api.urls import SiteConfig
from generator.cli import cli
from generator.errors import BuildError

LONGEST_SHIPPED_ID = 43  # data/models/: the longest file name, less `.toml`


def _paths(ids: list[str]) -> list[str]:
    return [path for i in ids for path in (MODEL.api_path(i), MODEL_HISTORY.api_path(i))]


def test_300_models_with_32_long_aliases_are_one_error_naming_the_aliases() -> None:
    ids = [f"model-{n:03}".ljust(LONGEST_SHIPPED_ID, "x") for n in range(300)]
    aliases = {i: [f"{i[:9]}-Alias-{j:02}".ljust(100, "y") for j in range(32)] for i in ids}
    with pytest.raises(BuildError) as raised:
        render_hosting(SiteConfig(), True, aliases, _paths(ids))
    message = str(raised.value)
    assert message == (
        "_redirects: 17,361,453 bytes (the limit is 16 MiB): 17,280,000 of its 17,361,453 bytes"
        f" are for the aliases of 300 models (the most: models/{ids[0]}.toml, 32 aliases):"
        " fewer or shorter aliases"
    )
    assert "\n" not in message and 96_623 < MAX_REDIRECT_RULES  # the rule count alone passed


def test_fifty_thousand_models_history_rules_fit() -> None:
    """The rule limit's catalogue (two rules a model: 49,988 models and 23 fixed rules make
    99,999) with every id as long as the longest shipped one: 13,397,837 bytes (12.8 MiB),
    3,379,379 under the bound (each line `/api/v1/models/ID/history
    /api/v1/model-history/ID.json 200`, 134 bytes at 43-character ids)."""
    ids = [f"m{n:05}".ljust(LONGEST_SHIPPED_ID, "x") for n in range(49_988)]
    redirects = render_hosting(SiteConfig(), True, {}, _paths(ids))["_redirects"]
    assert redirects.count(b"\n") - 1 == 2 * 49_988 + 23 <= MAX_REDIRECT_RULES  # less the comment
    assert len(redirects) == 13_397_837
    assert MAX_REDIRECT_BYTES - len(redirects) == 3_379_379


def test_long_aliases_widen_only_their_own_lines() -> None:
    """43,000 models with 43-character ids and one alias of 100 characters: 11,525,953 bytes.
    Every line was padded to the longest source and target, so this one alias made it
    16.86 MB, refused as 'fewer models or shorter ids'. The rest of the rule budget as
    100-character aliases beside those models (2,795 of them, 13,975 rules) fits too."""
    ids = [f"m{n:05}".ljust(LONGEST_SHIPPED_ID, "x") for n in range(43_000)]
    plain = render_hosting(SiteConfig(), True, {}, _paths(ids))["_redirects"]
    one = render_hosting(SiteConfig(), True, {ids[0]: ["a" * 100]}, _paths(ids))["_redirects"]
    assert len(one) == 11_525_953
    assert set(plain.splitlines()) <= set(one.splitlines())  # no line of the others changed
    budget = (MAX_REDIRECT_RULES - (2 * len(ids) + 23)) // 5  # five rules a lower-case alias
    aliases: dict[str, list[str]] = {}
    for n in range(budget):
        aliases.setdefault(ids[n], []).append(f"alias-{n:05}".ljust(100, "z"))
    full = render_hosting(SiteConfig(), True, aliases, _paths(ids))["_redirects"]
    assert (budget, full.count(b"\n") - 1, len(full)) == (2_795, 99_998, 14_040_553)


def test_the_size_is_counted_before_any_alias_rule_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """4,000 models with 32 aliases (640,000 rules): refused from the counts alone."""

    def made(*_: object) -> None:
        raise AssertionError("a rule was made")

    monkeypatch.setattr(hosting, "alias_rules", made)
    monkeypatch.setattr(hosting, "canonical_links", made)
    ids = [f"model-{n:04}" for n in range(4_000)]
    aliases = {i: [f"{i}-alias-{j:02}" for j in range(32)] for i in ids}
    with pytest.raises(BuildError, match=r"^_redirects: 648,023 rules \(the limit is 100,000\)"):
        render_hosting(SiteConfig(), True, aliases, _paths(ids))


@pytest.mark.parametrize("seed", range(40))
def test_the_counted_size_is_the_written_size(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The arithmetic is exact: a bound of the written size passes, one byte less refuses."""
    rng = random.Random(seed)
    ids = [f"m{n}-" + "x" * rng.randint(0, 40) for n in range(rng.randint(0, 12))]
    aliases = {
        i: [f"{i}-A{j}" + "y" * rng.randint(0, 60) for j in range(rng.randint(0, 4))]
        for i in ids
        if rng.random() < 0.7
    }
    config = SiteConfig(base_url="https://x.example", mcp_origin="https://mcp.example")
    for site in (SiteConfig(), config):
        monkeypatch.setattr(hosting, "MAX_REDIRECT_BYTES", MAX_REDIRECT_BYTES)
        written = render_hosting(site, seed % 2 == 0, aliases, _paths(ids))["_redirects"]
        monkeypatch.setattr(hosting, "MAX_REDIRECT_BYTES", len(written))
        render_hosting(site, seed % 2 == 0, aliases, _paths(ids))
        monkeypatch.setattr(hosting, "MAX_REDIRECT_BYTES", len(written) - 1)
        with pytest.raises(BuildError, match=f"^_redirects: {len(written):,} bytes"):
            render_hosting(site, seed % 2 == 0, aliases, _paths(ids))


def test_past_the_limit_the_build_fails_in_one_line_and_keeps_the_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, out = tmp_path / "data", tmp_path / "site_out"
    shutil.copytree(FIXTURE_DATA, data)
    built = CliRunner().invoke(cli, ["build", "--data-dir", str(data), "--out-dir", str(out)])
    assert built.exit_code == 0, built.output
    before = tree_manifest(out)
    (data / "models" / "alpha-2.toml").write_text(
        (data / "models" / "alpha-2.toml").read_text(encoding="utf-8") + "\n# changed\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(hosting, "MAX_REDIRECT_BYTES", 1000)
    result = CliRunner().invoke(cli, ["build", "--data-dir", str(data), "--out-dir", str(out)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: _redirects: ") and "bytes (the limit is 1,000 bytes)" in line
    assert tree_manifest(out) == before


def test_a_build_too_large_for_the_rules_stops_before_scoring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused right after loading (the published models and their aliases make the rules):
    before, a 4,000-model tree with 32 aliases a model was refused only after the whole
    build, 45 CPU s and 502 MB peak."""

    def scored(*_: object) -> None:
        raise AssertionError("the build went on past loading")

    monkeypatch.setattr(build.BuildMemo, "history", scored)
    monkeypatch.setattr(hosting, "MAX_REDIRECT_RULES", 10)
    out = tmp_path / "site_out"
    result = CliRunner().invoke(
        cli, ["build", "--data-dir", str(FIXTURE_DATA), "--out-dir", str(out)]
    )
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: _redirects: ") and "rules (the limit is 10): " in line, line
    assert "the history rewrites of " in line and "fewer models or shorter ids" in line
