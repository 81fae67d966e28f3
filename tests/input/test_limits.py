"""The whole-tree and output limits (generator/input/limits.py, the `_redirects` rule limit,
the capped problem list) hold, and leave room for the catalogue to grow: the benchmark's
20,000-model tree passes every limit (issue 23)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from support.paths import FIXTURE_DATA as FIXTURE
from support.paths import REPO

from bench.synth import SynthSpec, write_dataset
from generator.api.hosting import (
    MAX_REDIRECT_BYTES,
    MAX_REDIRECT_RULES,
    check_redirects,
    redirect_rules,
    render_hosting,
)
from generator.api.urls import SiteConfig
from generator.errors import MAX_SHOWN_PROBLEMS, BuildError, DataError
from generator.input.limits import (
    MAX_ALIASES,
    MAX_FILE_LINES,
    MAX_FILE_PROBLEMS,
    MAX_FILE_VALUES,
    MAX_MODEL_FILES,
    MAX_TREE_BYTES,
    MAX_TREE_ENTRIES,
    MAX_TREE_LINES,
    tree_problems,
)
from generator.input.load import MAX_FILE_BYTES, load_dataset
from generator.input.validate import _capped


def test_problem_output_is_capped_with_a_count_of_the_rest() -> None:
    problems = [f"data/models/m{i:04}.toml: name: bad" for i in range(1_000)]
    lines = DataError(problems).format_message().splitlines()
    assert lines[:MAX_SHOWN_PROBLEMS] == sorted(problems)[:MAX_SHOWN_PROBLEMS]
    assert lines[MAX_SHOWN_PROBLEMS:] == ["... and 800 more", "Aborted: 1000 data errors"]
    assert DataError(problems).problems == sorted(problems)  # every problem kept for callers
    exact = DataError(problems[:MAX_SHOWN_PROBLEMS]).format_message().splitlines()
    assert len(exact) == MAX_SHOWN_PROBLEMS + 1 and not any(x.startswith("...") for x in exact)


@pytest.mark.parametrize(("extra", "counted"), [(1, "1 more problem"), (2, "2 more problems")])
def test_a_file_past_its_problem_cap_counts_the_rest_in_words(
    tmp_path: Path, extra: int, counted: str
) -> None:
    # MAX_FILE_PROBLEMS + extra unknown keys in one model file: the cap lists 100, then one
    # line counts the `extra` left over, singular for one
    data = tmp_path / "data"
    shutil.copytree(FIXTURE, data)
    model = data / "models" / "alpha-1.toml"
    keys = "".join(f"k{i} = 1\n" for i in range(MAX_FILE_PROBLEMS + extra))
    model.write_text(keys + model.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(DataError) as raised:
        load_dataset(data)
    tail = f"{model}: file: {counted} (only the first {MAX_FILE_PROBLEMS} of a file are listed)"
    assert [line for line in raised.value.problems if ": file: " in line] == [tail]


@pytest.mark.parametrize(("extra", "counted"), [(1, "1 more problem"), (3, "3 more problems")])
def test_checks_past_a_files_problem_cap_count_the_rest_in_words(extra: int, counted: str) -> None:
    problems = [f"models/m.toml: aliases: clash {i}" for i in range(MAX_FILE_PROBLEMS + extra)]
    capped = _capped(problems)
    assert capped[:-1] == problems[:MAX_FILE_PROBLEMS]
    assert capped[-1] == (
        f"models/m.toml: file: {counted} with other records"
        f" (only the first {MAX_FILE_PROBLEMS} of a file are listed)"
    )


def test_redirect_rules_past_the_limit_are_one_build_error() -> None:
    # 3,200 models with 32 aliases each: 10 rules an alias (declared and lower case, two
    # document kinds under two prefixes, plus the page), about 1,024,000 rules in all
    flood = {f"m{i}": [f"M{i}-Alias-{j}" for j in range(32)] for i in range(3_200)}
    with pytest.raises(BuildError, match=r"^_redirects: 1,024,\d{3} rules \(the limit is"):
        render_hosting(SiteConfig(), True, flood)
    fine = {f"m{i}": [f"m{i}-alias"] for i in range(MAX_REDIRECT_RULES // 10)}
    assert render_hosting(SiteConfig(), True, fine)["_redirects"].count(b"\n") < MAX_REDIRECT_RULES


def test_one_alias_past_the_redirect_rule_limit_is_refused_and_one_fewer_fits() -> None:
    # rules = the fixed rules + five a lower-case alias (two kinds under two prefixes, the
    # page); measured, not assumed: 23 + 5 x 19,996 = 100,003 > 100,000 >= 99,998
    fixed = len(redirect_rules(SiteConfig(), True))
    per_alias = len(redirect_rules(SiteConfig(), True, {"m0": ["m0-a"]})) - fixed
    fits = (MAX_REDIRECT_RULES - fixed) // per_alias
    aliases = {f"m{i}": [f"m{i}-a"] for i in range(fits + 1)}
    over = f"{fixed + per_alias * (fits + 1):,}"
    with pytest.raises(BuildError, match=rf"^_redirects: {over} rules \(the limit is 100,000\)"):
        check_redirects(SiteConfig(), True, aliases)
    del aliases[f"m{fits}"]
    check_redirects(SiteConfig(), True, aliases)
    assert fixed + per_alias * fits <= MAX_REDIRECT_RULES


def test_the_tree_walk_counts_nested_folders_and_never_follows_links(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "a" / "b").mkdir(parents=True)
    (data / "a" / "b" / "f").write_bytes(b"x" * 10)
    (data / "link").symlink_to("/")  # followed, it would count the whole machine
    assert tree_problems(data) == []


@pytest.mark.slow
def test_the_benchmarks_twenty_thousand_models_pass_every_limit(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_dataset(SynthSpec(models=20_000), data)
    assert tree_problems(data) == []
    files = [path for path in data.rglob("*") if path.is_file()]
    assert MAX_MODEL_FILES >= len(list((data / "models").iterdir())) == 20_000
    assert len(files) < MAX_TREE_ENTRIES and sum(f.stat().st_size for f in files) < MAX_TREE_BYTES
    for path in files:
        text = path.read_bytes()
        assert len(text) <= MAX_FILE_BYTES and text.count(b"\n") <= MAX_FILE_LINES, path
    assert sum(path.read_bytes().count(b"\n") for path in files) < MAX_TREE_LINES * 0.6


@pytest.mark.parametrize("doc", ["SECURITY.md", "data/README.md"])
def test_the_docs_state_every_limit_as_the_code_has_it(doc: str) -> None:
    text = " ".join((REPO / doc).read_text(encoding="utf-8").split())
    stated = {
        "entries": f"{MAX_TREE_ENTRIES:,}",
        "model files": f"{MAX_MODEL_FILES:,}",
        "bytes": f"{MAX_TREE_BYTES // (1024 * 1024)} MiB",
        "tree lines": f"{MAX_TREE_LINES:,}",
        "lines and values": f"{MAX_FILE_LINES:,}",
        "aliases": f"{MAX_ALIASES}",
        "rules": f"{MAX_REDIRECT_RULES:,}",
        "redirect bytes": f"{MAX_REDIRECT_BYTES // (1024 * 1024)} MiB",
        "problems": f"{MAX_FILE_PROBLEMS}",
        "shown": f"{MAX_SHOWN_PROBLEMS}",
        "file bytes": f"{MAX_FILE_BYTES // (1024 * 1024)} MB",
    }
    assert MAX_FILE_VALUES == MAX_FILE_LINES  # stated once for both
    missing = [what for what, value in stated.items() if value not in text]
    assert missing == []


# Every place SECURITY.md states the `_redirects` rule limit: the limits table, its refusal
# line and the coverage table's row for this file ("over N `_redirects` rules are one build
# error"). Each must be found, so a reworded row fails here rather than drifting unchecked.
RULE_LIMIT_CLAIMS = (
    r"rules in the built `_redirects` \| ([\d,]+) \|",
    r"_redirects: N rules \(the limit is ([\d,]+)\)",
    r"\| whole-tree limits \| `tests/input/test_limits\.py` \|"
    r"[^|]*?over ([\d,]+) `_redirects` rules",
)


@pytest.mark.parametrize("claim", RULE_LIMIT_CLAIMS)
def test_security_md_states_the_redirect_rule_limit_the_code_has(claim: str) -> None:
    text = " ".join((REPO / "SECURITY.md").read_text(encoding="utf-8").split())
    stated = re.findall(claim, text)
    assert stated, f"SECURITY.md no longer says {claim!r}"
    assert set(stated) == {f"{MAX_REDIRECT_RULES:,}"}
