"""The loader: the shipped data, the fixture dataset, privacy, and every data error."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from generator.api.contract import DIMENSION_SLUGS
from generator.cli import cli
from generator.errors import DataError
from generator.input.decode import validation_problem
from generator.input.load import load_dataset, summarize
from generator.input.records import Dataset
from generator.scoring.types import Scores

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "data"
FIXTURE = ROOT / "tests" / "data"


# --- the shipped data -------------------------------------------------------


def test_shipped_data_loads_with_published_models_only(
    shipped_scores: tuple[Dataset, Scores],
) -> None:
    dataset, _ = shipped_scores
    assert len(dataset.models) == 146  # 67 curated + 79 imported, published by the one rule
    assert all(model.published for model in dataset.models)
    assert len(dataset.benchmarks) == 28  # 22 hand-set, 6 fitted (vals.ai; one of round 2)
    assert len(dataset.domains) == 10
    assert [d.slug for d in dataset.methodology.dimensions] == list(DIMENSION_SLUGS)


def test_shipped_summary_counts_unpublished_models_separately() -> None:
    assert summarize(SHIPPED).describe() == (
        "182 models (146 published), 28 benchmarks, 10 domains, 759 domain results,"
        " 1482 benchmark results, 27 charts"
    )


def test_shipped_data_leaks_no_private_table_or_unpublished_model(
    shipped_scores: tuple[Dataset, Scores],
) -> None:
    encoded = msgspec.json.encode(shipped_scores[0])
    for secret in (
        b"data-team",  # reviewer in [private] tables
        b"needs-review",
        b"epoch_alias",
        b"Fictional pre-release",
        b'"acme-nova-2-preview"',
        b'"codex-mini"',  # a draft (one dimension)
        b"Acme AI",
    ):
        assert secret not in encoded, secret


def test_dataset_order_is_catalogue_then_ids(shipped_scores: tuple[Dataset, Scores]) -> None:
    dataset, _ = shipped_scores
    iq = [b for b in dataset.benchmarks if b.category == "iq"]
    eq = [b for b in dataset.benchmarks if b.category == "eq"]
    assert dataset.benchmarks == (*iq, *eq)
    order = [DIMENSION_SLUGS.index(b.dimension or "") for b in iq]
    assert order == sorted(order)
    assert [b.id for b in eq] == ["eq-bench-3", "spiral-bench"]
    for group in (dataset.models, dataset.domains, dataset.charts):
        ids = [item.id for item in group]
        assert ids == sorted(ids)


def test_check_prints_the_summary_and_exits_0() -> None:
    result = CliRunner().invoke(cli, ["check", "--data-dir", str(SHIPPED)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("182 models (146 published)")


# --- the fixture dataset ----------------------------------------------------


def test_fixture_dataset_loads() -> None:
    dataset = load_dataset(FIXTURE)
    assert [m.id for m in dataset.models] == ["alpha-1", "alpha-2", "alpha-3", "beta-1", "gamma-1"]
    assert [b.id for b in dataset.benchmarks] == [
        "arc-agi-1",
        "otis-mock-aime",
        "gpqa-diamond",
        "hle-calibration-error",
        "eq-bench-3",
    ]
    assert [d.id for d in dataset.domains] == ["coding", "emotional-reasoning"]
    assert [c.id for c in dataset.charts] == [
        "benchmark-gpqa-diamond",
        "iq-distribution",
        "iq-vs-cost-experimental",
    ]
    assert summarize(FIXTURE).describe() == (
        "6 models (5 published), 5 benchmarks, 2 domains, 9 domain results,"
        " 18 benchmark results, 3 charts"
    )


def test_fixture_private_material_never_reaches_the_dataset() -> None:
    encoded = msgspec.json.encode(load_dataset(FIXTURE))
    assert b"PRIVATE" not in encoded
    assert b"delta-preview" not in encoded


# --- corruptions ------------------------------------------------------------

Edit = Callable[[Path], None]


def replace(name: str, old: str, new: str) -> Edit:
    """Replace the first `old` in `data/<name>` by `new`."""

    def edit(data: Path) -> None:
        path = data / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def append(name: str, text: str) -> Edit:
    """Append `text` to `data/<name>` (after its last table: add a new table)."""

    def edit(data: Path) -> None:
        with (data / name).open("a", encoding="utf-8") as handle:
            handle.write(text)

    return edit


def write(name: str, content: bytes) -> Edit:
    def edit(data: Path) -> None:
        (data / name).write_bytes(content)

    return edit


def remove(name: str) -> Edit:
    def edit(data: Path) -> None:
        target = data / name
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink()

    return edit


def empty_dir(data: Path) -> None:
    shutil.rmtree(data)
    data.mkdir()


A1 = "models/alpha-1.toml"
M = "data/models/alpha-1.toml"
CORRUPTIONS: list[tuple[str, Edit, str]] = [
    (
        "toml-syntax",
        replace(A1, 'name = "Alpha 1"', "name = Alpha 1"),
        f"{M}: line 3: invalid TOML: string values must be quoted,"
        " expected literal string (column 8)",
    ),
    (
        "not-utf8",
        write(A1, b'id = "alpha-1"\nname = "\xff"\n'),
        f"{M}: file: not UTF-8 (byte 0xff at 23)",
    ),
    (
        "too-large",
        write(A1, b"#" * (5 * 1024 * 1024 + 1)),
        f"{M}: file: too large (5242881 bytes; the limit is 5 MB)",
    ),
    (
        "missing-methodology",
        remove("methodology.toml"),
        "data/methodology.toml: file: missing (every data dir needs one)",
    ),
    (
        "wrong-type",
        replace(A1, "value = 0.3", 'value = "0.3"'),
        f'{M}: results[0].value: Expected `float`, got `str` (value: "0.3")',
    ),
    (
        "unknown-field",
        replace(A1, 'name = "Alpha 1"', 'name = "Alpha 1"\nnmae = "typo"'),
        f"{M}: nmae: unknown field (did you mean 'name'?)",
    ),
    (
        "unknown-nested-field",
        replace(A1, "cache_read = 0.1", "cache_reed = 0.1"),
        f"{M}: prices.cache_reed: unknown field (did you mean 'cache_read'?)",
    ),
    (
        "missing-field",
        replace(A1, 'provider = "Alpha Labs"\n', ""),
        f"{M}: provider: missing",
    ),
    (
        "id-not-file-name",
        replace(A1, 'id = "alpha-1"', 'id = "alpha-one"'),
        f"{M}: id: must equal the file name 'alpha-1' (value: \"alpha-one\")",
    ),
    (
        "unsafe-id",
        write(
            "charts/Bad Chart.toml",
            b'id = "Bad Chart"\ntitle = "t"\ndescription = "d"\nkind = "frontier"\n',
        ),
        "data/charts/Bad Chart.toml: id: must be a slug: 1 to 64 of a-z, 0-9, '.', '_', '-',"
        ' starting and ending with a letter or digit (value: "Bad Chart")',
    ),
    (
        "unknown-benchmark-in-results",
        replace(A1, 'benchmark = "arc-agi-1"', 'benchmark = "foo"'),
        f"{M}: results[0].benchmark: unknown benchmark 'foo'",
    ),
    (
        "duplicate-result",
        replace(A1, 'benchmark = "otis-mock-aime"', 'benchmark = "arc-agi-1"'),
        f"{M}: results[1].benchmark: duplicate result for 'arc-agi-1' (also results[0])",
    ),
    (
        "nan",
        replace(A1, "value = 0.3", "value = nan"),
        f"{M}: results[0].value: not a finite number (nan)",
    ),
    (
        "inf",
        replace(A1, "input = 1.0", "input = inf"),
        f"{M}: prices.input: not a finite number (inf)",
    ),
    (
        "negative-price",
        replace(A1, "input = 1.0", "input = -1.0"),
        f"{M}: prices.input: Expected `float` >= 0.0 (value: -1.0)",
    ),
    (
        "release-after-updated",
        replace(A1, "release_date = 2025-06-01", "release_date = 2026-06-01"),
        f"{M}: release_date: 2026-06-01 is after the file's updated 2026-01-10",
    ),
    (
        "as-of-after-updated",
        replace(A1, "as_of = 2026-01-10\n\n[[results]]", "as_of = 2026-02-10\n\n[[results]]"),
        f"{M}: usage.as_of: 2026-02-10 is after the file's updated 2026-01-10",
    ),
    (
        "date-before-2000",
        replace(A1, "release_date = 2025-06-01", "release_date = 1999-06-01"),
        f"{M}: release_date: date 1999-06-01 is before 2000",
    ),
    (
        "datetime-without-offset",
        replace(A1, "updated = 2026-01-10T00:00:00Z", "updated = 2026-01-10T00:00:00"),
        f"{M}: updated: a date-time needs a UTC offset (e.g. 2026-04-24T00:00:00Z)",
    ),
    (
        "dangling-predecessor",
        replace("models/alpha-2.toml", 'predecessor = "alpha-1"', 'predecessor = "alpha-0"'),
        "data/models/alpha-2.toml: lineage.predecessor: unknown model 'alpha-0'"
        " (did you mean 'alpha-3', 'alpha-1'?)",
    ),
    (
        "predecessor-cycle",
        replace(A1, "generation = 1", 'generation = 1\npredecessor = "alpha-2"'),
        f"{M}: lineage.predecessor: predecessor cycle alpha-1 -> alpha-2 -> alpha-1",
    ),
    (
        "unpublished-predecessor",
        append(
            "models/gamma-1.toml",
            '\n[lineage]\nfamily = "alpha"\ngeneration = 5\npredecessor = "delta-preview"\n',
        ),
        "data/models/gamma-1.toml: lineage.predecessor: 'delta-preview' is unpublished",
    ),
    (
        "incompatible-predecessor",
        replace("models/beta-1.toml", "generation = 1", 'generation = 2\npredecessor = "alpha-1"'),
        "data/models/beta-1.toml: lineage.predecessor: 'alpha-1' is not compatible:"
        " its family is 'alpha', not 'beta'",
    ),
    (
        "duplicate-reasoning-config",
        replace("models/alpha-3.toml", 'id = "alpha-3_none"', 'id = "alpha-3_high"'),
        "data/models/alpha-3.toml: reasoning_configurations[1].id: duplicate id 'alpha-3_high'"
        " (also reasoning_configurations[0])",
    ),
    (
        "unknown-config-value-field",
        replace("models/alpha-3.toml", "arcAgi1 = 0.7", "arcAgi9 = 0.7"),
        "data/models/alpha-3.toml: reasoning_configurations[0].values.arcAgi9:"
        " unknown benchmark field (did you mean 'arcAgi1'?)",
    ),
    (
        "unknown-dimension",
        replace(
            "benchmarks/gpqa-diamond.toml",
            'dimension = "academic-reasoning"',
            'dimension = "frontend-engineering"',
        ),
        "data/benchmarks/gpqa-diamond.toml: dimension: unknown dimension 'frontend-engineering'",
    ),
    (
        "iq-benchmark-without-dimension",
        replace("benchmarks/gpqa-diamond.toml", 'dimension = "academic-reasoning"\n', ""),
        "data/benchmarks/gpqa-diamond.toml: dimension: an iq benchmark needs a dimension",
    ),
    (
        "eq-benchmark-with-dimension",
        replace(
            "benchmarks/eq-bench-3.toml",
            'category = "eq"',
            'category = "eq"\ndimension = "reliability"',
        ),
        "data/benchmarks/eq-bench-3.toml: dimension: an eq benchmark has no dimension",
    ),
    (
        "duplicate-field",
        replace("benchmarks/eq-bench-3.toml", 'field = "eqBenchElo"', 'field = "gpqa"'),
        "data/benchmarks/gpqa-diamond.toml: field: duplicate field 'gpqa'"
        " (also data/benchmarks/eq-bench-3.toml)",
    ),
    (
        "ladder-too-short",
        replace("benchmarks/gpqa-diamond.toml", "0.3, 0.4,", "0.4,"),
        "data/benchmarks/gpqa-diamond.toml: ladder: must have 7 points (IQ 70..160), got 6",
    ),
    (
        "ladder-not-monotone",
        replace("benchmarks/gpqa-diamond.toml", "0.5, 0.6, 0.7", "0.5, 0.5, 0.7"),
        "data/benchmarks/gpqa-diamond.toml: ladder[3]: must be strictly increasing for"
        " higher_is_better (0.5 then 0.5)",
    ),
    (
        "ladder-wrong-direction",
        replace(
            "benchmarks/hle-calibration-error.toml",
            "[90.0, 80.0, 70.0, 60.0, 50.0, 40.0, 30.0]",
            "[30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0]",
        ),
        "data/benchmarks/hle-calibration-error.toml: ladder[1]: must be strictly decreasing for"
        " lower_is_better (30.0 then 40.0)",
    ),
    (
        "dimensions-not-seven-in-order",
        replace("methodology.toml", 'slug = "computer-use"', 'slug = "backend-engineering"'),
        "data/methodology.toml: dimensions: must be exactly the seven dimensions in order"
        " (abstract-reasoning, mathematical-reasoning, academic-reasoning,"
        " programmatic-reasoning, computer-use, reliability, knowledge-work);"
        " got abstract-reasoning, mathematical-reasoning, academic-reasoning,"
        " programmatic-reasoning, backend-engineering, reliability, knowledge-work",
    ),
    (
        "domain-result-unknown-model",
        replace("domains/coding.toml", 'model = "beta-1"', 'model = "beta-9"'),
        "data/domains/coding.toml: results[4].model: unknown model 'beta-9'"
        " (did you mean 'beta-1'?)",
    ),
    (
        "domain-result-unpublished-model",
        replace("domains/coding.toml", 'model = "beta-1"', 'model = "delta-preview"'),
        "data/domains/coding.toml: results[4].model: names unpublished model 'delta-preview'"
        " (would leak it)",
    ),
    (
        "domain-result-unknown-benchmark",
        replace(
            "domains/coding.toml",
            'model = "beta-1"\nbenchmark = "repo-fix"',
            'model = "beta-1"\nbenchmark = "repo-break"',
        ),
        "data/domains/coding.toml: results[4].benchmark: unknown benchmark 'repo-break'"
        " in this domain",
    ),
    (
        "domain-without-benchmarks",
        write(
            "domains/empty.toml",
            b'id = "empty"\nname = "Empty"\nupdated = 2026-01-01T00:00:00Z\nbenchmarks = []\n',
        ),
        "data/domains/empty.toml: benchmarks: a domain needs at least one benchmark",
    ),
    (
        "domain-duplicate-row",
        replace("domains/coding.toml", 'harness = "Agent Y"', 'harness = "Agent X"'),
        "data/domains/coding.toml: results[3]: duplicate row for 'alpha-3' on 'repo-fix'"
        " with the same harness (also results[2])",
    ),
    (
        "chart-unknown-benchmark",
        replace("charts/benchmark-gpqa-diamond.toml", '["gpqa-diamond"]', '["gpqa-platinum"]'),
        "data/charts/benchmark-gpqa-diamond.toml: related_benchmarks[0]:"
        " unknown benchmark 'gpqa-platinum'",
    ),
    (
        "private-table-unknown-field",
        replace("models/alpha-3.toml", 'review_status = "approved"', 'status = "approved"'),
        "data/models/alpha-3.toml: private.status: unknown field (did you mean 'review_status'?)",
    ),
    (
        "stray-toml-file",
        write("model.toml", b'id = "x"\n'),
        "data/model.toml: file: unexpected data file (use methodology.toml or a record folder)",
    ),
    (
        "not-a-toml-file",
        write("models/alpha-4.tml", b'id = "alpha-4"\n'),
        "data/models/alpha-4.tml: file: not a .toml data file",
    ),
]


@pytest.fixture
def data_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture dataset at `./data` in a temporary working directory."""
    shutil.copytree(FIXTURE, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "data"


@pytest.mark.parametrize(
    ("edit", "expected"),
    [pytest.param(edit, expected, id=name) for name, edit, expected in CORRUPTIONS],
)
def test_check_reports_each_corruption_on_one_line(
    data_copy: Path, edit: Edit, expected: str
) -> None:
    edit(data_copy)
    result = CliRunner().invoke(cli, ["check", "--data-dir", "data"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.output.splitlines() == [expected, "Aborted: 1 data error"]


def test_empty_data_dir_reports_missing_files(data_copy: Path) -> None:
    empty_dir(data_copy)
    result = CliRunner().invoke(cli, ["check", "--data-dir", "data"])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "data: directory: no data files",
        "data/methodology.toml: file: missing (every data dir needs one)",
        "Aborted: 2 data errors",
    ]


def test_missing_data_dir(data_copy: Path) -> None:
    result = CliRunner().invoke(cli, ["check", "--data-dir", "nowhere"])
    assert result.exit_code == 1
    assert result.output.splitlines() == ["nowhere: directory: not found", "Aborted: 1 data error"]


def test_unreadable_file(data_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.open

    def refuse(path: str | os.PathLike[str], flags: int, *args: int) -> int:
        if Path(path).name == "beta-1.toml":
            raise PermissionError(13, "Permission denied")
        return real(path, flags, *args)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(DataError) as caught:
        load_dataset(Path("data"))
    assert caught.value.problems == [
        "data/models/beta-1.toml: file: cannot read (Permission denied)"
    ]


def test_independent_problems_in_different_files_are_all_reported(data_copy: Path) -> None:
    replace("benchmarks/gpqa-diamond.toml", "0.5, 0.6, 0.7", "0.5, 0.5, 0.7")(data_copy)
    replace("models/beta-1.toml", "value = 0.2", "value = nan")(data_copy)
    replace("charts/iq-distribution.toml", 'kind = "iq-distribution"', 'kind = "pie"')(data_copy)
    result = CliRunner().invoke(cli, ["check", "--data-dir", "data"])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "data/benchmarks/gpqa-diamond.toml: ladder[3]: must be strictly increasing for"
        " higher_is_better (0.5 then 0.5)",
        "data/charts/iq-distribution.toml: kind: Invalid enum value 'pie'",
        "data/models/beta-1.toml: results[0].value: not a finite number (nan)",
        "Aborted: 3 data errors",
    ]


def test_a_broken_file_does_not_cascade_into_references(data_copy: Path) -> None:
    # alpha-1 fails to parse; alpha-2's predecessor and the domain rows naming it
    # must not add "unknown model 'alpha-1'" problems.
    replace(A1, 'name = "Alpha 1"', "name = Alpha 1")(data_copy)
    with pytest.raises(DataError) as caught:
        load_dataset(Path("data"))
    assert len(caught.value.problems) == 1


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "Expected `int`, got `str` - at `$.results[3].value`",
            ("results[3].value", "Expected `int`, got `str`"),
        ),
        ("Object contains unknown field `foo`", ("foo", "unknown field")),
        ("Object missing required field `name` - at `$.lineage`", ("lineage.name", "missing")),
        ("Expected `object`, got `str`", ("$", "Expected `object`, got `str`")),
    ],
)
def test_validation_problem_turns_msgspec_paths_into_fields(
    message: str, expected: tuple[str, str]
) -> None:
    assert validation_problem(message) == expected


def test_a_methodology_version_over_its_length_is_one_line(tmp_path: Path) -> None:
    """The version is quoted in the diff comment's summary line and on every page: 64
    characters at most (`2026-02-01-` and 6,000 `www.` made a 72,255-byte comment)."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURE, data)
    methodology = data / "methodology.toml"
    text = methodology.read_text(encoding="utf-8")
    longest = "2026-02-01-" + "a" * 53
    methodology.write_text(text.replace('version = "2026-02-01"', f'version = "{longest}"', 1))
    assert load_dataset(data).methodology.version == longest
    methodology.write_text(text.replace('version = "2026-02-01"', f'version = "{longest}a"', 1))
    with pytest.raises(DataError) as caught:
        load_dataset(data)
    assert caught.value.problems == [
        f"{methodology}: version: Expected `str` of length <= 64 (value:"
        f' "2026-02-01-{"a" * 47}\u2026)'
    ]
