"""The bad-data corpus: each case is one minimal change to the valid fixture `tests/data/`.

A case names what it breaks, how (`mutate` edits a fresh copy of the fixture in place),
and the exact problem lines the build must print (`{data}` stands for the data directory
as given on the command line). Structural edits parse the file, change one value and write
it back (`rtoml.dumps`); syntax and byte-level edits change the text itself.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtoml import dumps
from support.paths import FIXTURE_DATA

from generator.errors import problem_order

Mutation = Callable[[Path], None]
Doc = dict[str, Any]


@dataclass(frozen=True)
class Case:
    """One broken input and the problem lines it must produce (in the build's order)."""

    name: str
    mutate: Mutation
    expected: tuple[str, ...]
    needs_permissions: bool = False  # the child must obey file modes (see without_dac_override)

    def lines(self, data_dir: Path) -> list[str]:
        """The exact stderr lines: each problem, then the `Aborted:` summary."""
        count = len(self.expected)
        noun = "data error" if count == 1 else "data errors"
        problems = sorted((line.format(data=data_dir) for line in self.expected), key=problem_order)
        return [*problems, f"Aborted: {count} {noun}"]


# --- mutations ------------------------------------------------------------------


def edit(rel: str, change: Callable[[Doc], object]) -> Mutation:
    """Parse `rel`, apply `change` to the document, write it back as TOML."""

    def mutate(data: Path) -> None:
        path = data / rel
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        change(doc)
        path.write_text(dumps(doc), encoding="utf-8")

    return mutate


def setitem(rel: str, dotted: str, value: Any) -> Mutation:
    """Set one value; `dotted` is a path like `prices.input` or `results.0.value`."""
    *parents, last = dotted.split(".")

    def change(doc: Doc) -> None:
        node: Any = doc
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return edit(rel, change)


def delitem(rel: str, dotted: str) -> Mutation:
    """Remove one key; `dotted` as in `setitem`."""
    *parents, last = dotted.split(".")

    def change(doc: Doc) -> None:
        node: Any = doc
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        del node[last]

    return edit(rel, change)


def replace(rel: str, old: str, new: str) -> Mutation:
    """Replace the one occurrence of `old` in the file's text."""

    def mutate(data: Path) -> None:
        path = data / rel
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{rel}: {old!r} occurs {text.count(old)} times"
        path.write_text(text.replace(old, new), encoding="utf-8")

    return mutate


def write_bytes(rel: str, data_bytes: bytes, *, append: bool = False) -> Mutation:
    def mutate(data: Path) -> None:
        path = data / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((path.read_bytes() if append else b"") + data_bytes)

    return mutate


def remove(*rels: str) -> Mutation:
    def mutate(data: Path) -> None:
        for rel in rels:
            path = data / rel
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()

    return mutate


def copy(rel: str, new_rel: str) -> Mutation:
    """Add a copy of a data file under another name."""
    return lambda data: shutil.copyfile(data / rel, data / new_rel)


def empty_data_dir(data: Path) -> None:
    for child in data.iterdir():
        remove(child.name)(data)


def mkdir(rel: str) -> Mutation:
    return lambda data: (data / rel).mkdir()


def chmod(rel: str, mode: int) -> Mutation:
    return lambda data: os.chmod(data / rel, mode)


def both(*mutations: Mutation) -> Mutation:
    def mutate(data: Path) -> None:
        for mutation in mutations:
            mutation(data)

    return mutate


def appended(key: str, value: Any) -> Callable[[Doc], object]:
    """A change that appends `value` to the list at `key`."""
    return lambda doc: doc[key].append(value)


# --- the cases --------------------------------------------------------------------

A2 = "models/alpha-2.toml"
A3 = "models/alpha-3.toml"
A1 = "models/alpha-1.toml"
GAMMA = "models/gamma-1.toml"
GPQA = "benchmarks/gpqa-diamond.toml"
HLE = "benchmarks/hle-calibration-error.toml"
EQB = "benchmarks/eq-bench-3.toml"
OTIS = "benchmarks/otis-mock-aime.toml"
CODING = "domains/coding.toml"
EMOTION = "domains/emotional-reasoning.toml"
CHART = "charts/benchmark-gpqa-diamond.toml"
METH = "methodology.toml"
RESULT = {
    "benchmark": "gpqa-diamond",
    "value": 0.5,
    "source_name": "Test source",
    "source_url": "https://example.org/gpqa",
    "as_of": tomllib.loads("d = 2026-01-15")["d"],
}
FRACTION, PERCENT, ELO = "[0.0, 1.0]", "[0.0, 100.0]", "[0.0, 4000.0]"  # the fixture's bounds
HUGE_COMMENT = b"# " + b"x" * (6 * 1024 * 1024) + b"\n"  # over the 5 MB limit


SLUG_PROBLEM = (
    "must be a slug: 1 to 64 of a-z, 0-9, '.', '_', '-', starting and ending with a letter or digit"
)

ALIAS_PROBLEM = (
    "must be an alias: 1 to 100 of A-Z, a-z, 0-9, space, '.', '_', '-', '(', ')', '+', ',',"
    " not starting or ending with a space, not '.' or '..'"
)


LADDER_FIT = {
    "method": "linear",
    "parameters": [0.1, 0.005],
    "as_of": dt.date(2026, 1, 10),
    "models": 12,
    "residual_sd": 4.0,
    "check_models": 10,
    "coverage": 0.9,
    "mean_log_predictive_density": -3.0,
    "mean_absolute_error": 3.5,
}


def _slug(value: str) -> str:
    return f'{SLUG_PROBLEM} (value: "{value}")'


def _m(rel: str, field: str, problem: str) -> str:
    return f"{{data}}/{rel}: {field}: {problem}"


def _line(rel: str, needle: str, below: int = 0) -> str:
    """`line N`: the fixture line holding `needle`, plus `below` (1-based, as TOML errors)."""
    lines = (FIXTURE_DATA / rel).read_text(encoding="utf-8").splitlines()
    return f"line {next(i for i, text in enumerate(lines, 1) if needle in text) + below}"


def _offset(rel: str, needle: bytes, plus: int) -> int:
    return (FIXTURE_DATA / rel).read_bytes().index(needle) + plus


def _size(rel: str) -> int:
    return (FIXTURE_DATA / rel).stat().st_size


def _reversed_ladder_problem(rel: str) -> str:
    """The first violation once a lower-is-better ladder is reversed: its last two points."""
    ladder = tomllib.loads((FIXTURE_DATA / rel).read_text(encoding="utf-8"))["ladder"]
    return f"must be strictly decreasing for lower_is_better ({ladder[-1]!r} then {ladder[-2]!r})"


def _undecodable_names(data: Path) -> None:
    """A model file, a folder and a stray file whose names are not UTF-8 (the OS hands
    them over as lone surrogates, which the build cache's digest could not encode)."""
    (data / "models" / os.fsdecode(b"\xff.toml")).write_bytes(b"x")
    folder = data / os.fsdecode(b"caf\xe9")
    folder.mkdir()
    (folder / "inside.toml").write_bytes(b'id = "x"\n')
    (data / "benchmarks" / os.fsdecode(b"gpqa-\xc3(.toml")).write_bytes(b"")


def _non_utf8(data: Path) -> None:
    """A Latin-1 byte inside the model name (`Alpha 2` -> `Alpha \\xff2`)."""
    path = data / A2
    raw = path.read_bytes()
    assert raw.count(b"Alpha 2") == 1
    path.write_bytes(raw.replace(b"Alpha 2", b"Alpha \xff2"))


def _after_last_line(rel: str) -> str:
    return f"line {len((FIXTURE_DATA / rel).read_text(encoding='utf-8').splitlines()) + 1}"


CASES: tuple[Case, ...] = (
    # a knowledge cutoff that is not a month or a day (METHODOLOGY 1.4)
    Case(
        "knowledge-cutoff-not-a-calendar-day",
        replace(
            A2, "open_weights = false", 'open_weights = false\nknowledge_cutoff = "2025-02-30"'
        ),
        (_m(A2, "knowledge_cutoff", "'2025-02-30' is not a calendar date"),),
    ),
    # syntax errors in a data file
    Case(
        "syntax-unclosed-string",
        replace(A2, 'name = "Alpha 2"', 'name = "Alpha 2'),
        (
            _m(
                A2,
                _line(A2, "name ="),
                'invalid TOML: invalid basic string, expected `"` (column 16)',
            ),
        ),
    ),
    Case(
        "syntax-duplicate-key",
        replace(A2, 'provider = "Alpha Labs"', 'provider = "Alpha Labs"\nname = "Again"'),
        (_m(A2, _line(A2, "provider =", 1), "invalid TOML: duplicate key (column 1)"),),
    ),
    Case(
        "syntax-unclosed-table-header",
        replace(A2, "[prices]", "[prices"),
        (
            _m(
                A2,
                _line(A2, "[prices]"),
                "invalid TOML: unclosed table, expected `]` (column 8)",
            ),
        ),
    ),
    Case(
        "syntax-bare-word-value",
        replace(GPQA, 'direction = "higher_is_better"', "direction = higher_is_better"),
        (
            _m(
                GPQA,
                _line(GPQA, "direction ="),
                "invalid TOML: string values must be quoted, expected literal string (column 13)",
            ),
        ),
    ),
    Case(
        "syntax-nul-byte",
        write_bytes(A2, b"\x00\n", append=True),
        (_m(A2, _after_last_line(A2), "invalid TOML: key with no value, expected `=` (column 2)"),),
    ),
    Case(
        "syntax-missing-equals",
        replace(A2, "open_weights = false", "open_weights false"),
        (
            _m(
                A2,
                _line(A2, "open_weights ="),
                "invalid TOML: key with no value, expected `=` (column 14)",
            ),
        ),
    ),
    Case(
        "syntax-invalid-calendar-date",
        replace(A2, "release_date = 2025-10-01", "release_date = 2025-02-30"),
        (
            _m(
                A2,
                _line(A2, "release_date ="),
                "invalid TOML: invalid date, expected day between 01 and 28 (column 16)",
            ),
        ),
    ),
    # wrong types
    Case(
        "type-string-for-integer",
        setitem(A2, "context_window", "big"),
        (_m(A2, "context_window", 'Expected `int | null`, got `str` (value: "big")'),),
    ),
    Case(
        "type-string-for-boolean",
        setitem(A2, "open_weights", "yes"),
        (_m(A2, "open_weights", 'Expected `bool`, got `str` (value: "yes")'),),
    ),
    Case(
        "type-string-for-result-value",
        setitem(A2, "results.0.value", "0.5"),
        (_m(A2, "results[0].value", 'Expected `float`, got `str` (value: "0.5")'),),
    ),
    Case(
        "type-string-in-ladder",
        setitem(GPQA, "ladder.3", "0.6"),
        (_m(GPQA, "ladder[3]", 'Expected `float`, got `str` (value: "0.6")'),),
    ),
    Case(
        "type-float-for-integer-parameter",
        setitem(METH, "parameters.peer_count", 2.5),
        (_m(METH, "parameters.peer_count", "Expected `int`, got `float` (value: 2.5)"),),
    ),
    Case(
        "type-table-for-string",
        setitem(A2, "provider", {"name": "Alpha Labs"}),
        (_m(A2, "provider", "Expected `str`, got `object` (value: a table)"),),
    ),
    Case(
        "type-unknown-enum-value",
        setitem(GPQA, "direction", "sideways"),
        (
            _m(
                GPQA,
                "direction",
                "Invalid enum value 'sideways'",
            ),
        ),
    ),
    Case(
        "type-private-config-not-string",
        setitem(GPQA, "private.config", {"fit": 3}),
        (_m(GPQA, "private.config.fit", "Expected `str`, got `int` (value: 3)"),),
    ),
    # unknown fields
    Case(
        "unknown-field-top-level",
        setitem(A2, "colour", "red"),
        (_m(A2, "colour", "unknown field (did you mean 'country'?)"),),
    ),
    Case(
        "unknown-field-nested-table",
        setitem(A2, "prices.discount", 0.1),
        (_m(A2, "prices.discount", "unknown field"),),
    ),
    Case(
        "unknown-field-in-private-table",
        setitem(GPQA, "private.secret_key", "x"),
        (_m(GPQA, "private.secret_key", "unknown field"),),
    ),
    Case(
        "unknown-field-misspelt-published",
        setitem("models/delta-preview.toml", "publishd", False),
        (
            _m(
                "models/delta-preview.toml",
                "publishd",
                "unknown field (did you mean 'published'?)",
            ),
        ),
    ),
    # bidi controls and invisible characters in a source URL (a provenance link a reader
    # follows): refused with the field and the code point, as in a one-line field
    Case(
        "bidi-override-in-result-source-url",
        setitem(A2, "results.0.source_url", "https://example.org/\u202egpj.exe"),
        (
            _m(
                A2,
                "results[0].source_url",
                'bidi control U+202E in a URL (value: "https://example.org/\\u202egpj.exe")',
            ),
        ),
    ),
    Case(
        "bidi-isolate-in-domain-result-source-url",
        setitem(CODING, "results.1.source_url", "https://\u2066example.org/x"),
        (
            _m(
                CODING,
                "results[1].source_url",
                'bidi control U+2066 in a URL (value: "https://\\u2066example.org/x")',
            ),
        ),
    ),
    Case(
        "zero-width-space-in-usage-source-url",
        setitem(A2, "usage.source_url", "https://exa\u200bmple.org/cost"),
        (
            _m(
                A2,
                "usage.source_url",
                "invisible format character U+200B in a URL"
                ' (value: "https://exa\\u200bmple.org/cost")',
            ),
        ),
    ),
    # a source URL whose text is not where it goes: user info before the host, a host
    # that is not ASCII as written (a look-alike letter), a backslash (read as "/")
    Case(
        "userinfo-in-result-source-url",
        setitem(A2, "results.0.source_url", "https://good.example@evil.example/"),
        (
            _m(
                A2,
                "results[0].source_url",
                'user info "good.example@" before a URL\'s host (the link goes to evil.example)'
                ' (value: "https://good.example@evil.example/")',
            ),
        ),
    ),
    Case(
        "look-alike-host-in-domain-result-source-url",
        setitem(CODING, "results.1.source_url", "https://ex\u0430mple.org/x"),
        (
            _m(
                CODING,
                "results[1].source_url",
                "non-ASCII U+0430 in a URL's host (write the host in punycode, xn--)"
                ' (value: "https://ex\u0430mple.org/x")',
            ),
        ),
    ),
    Case(
        "backslash-host-in-usage-source-url",
        setitem(A2, "usage.source_url", "https://evil.example\\good.example/cost"),
        (
            _m(
                A2,
                "usage.source_url",
                "'\\' in a URL's host (a host is ASCII letters, digits, '.', '-', '_' and a :port)"
                ' (value: "https://evil.example\\\\good.example/cost")',
            ),
        ),
    ),
    # missing required fields
    Case("missing-model-name", delitem(A2, "name"), (_m(A2, "name", "missing"),)),
    Case(  # a file without a ladder is an unscored benchmark; its fit without one is an error
        "benchmark-ladder-fit-without-ladder",
        both(
            delitem(GPQA, "ladder"),
            setitem(GPQA, "fitted_iq", [70, 130]),
            setitem(GPQA, "ladder_fit", LADDER_FIT),
        ),
        (_m(GPQA, "ladder_fit", "a fit needs the ladder it made (ladder is empty)"),),
    ),
    Case(
        "missing-domain-result-source",
        delitem(CODING, "results.1.source_url"),
        (_m(CODING, "results[1].source_url", "missing"),),
    ),
    Case(
        "missing-methodology-parameters",
        delitem(METH, "parameters"),
        (_m(METH, "parameters", "missing"),),
    ),
    Case(
        "empty-model-file",
        write_bytes(A2, b""),
        tuple(
            _m(A2, name, "missing")
            for name in ("id", "name", "provider", "country", "open_weights", "updated")
        ),
    ),
    # duplicate ids
    Case(
        "duplicate-result-benchmark",
        edit(A2, appended("results", RESULT)),
        (_m(A2, "results[5].benchmark", "duplicate result for 'gpqa-diamond' (also results[2])"),),
    ),
    Case(
        "duplicate-domain-benchmark-id",
        edit(CODING, lambda doc: doc["benchmarks"].append(dict(doc["benchmarks"][0]))),
        (_m(CODING, "benchmarks[1].id", "duplicate id 'repo-fix' (also benchmarks[0])"),),
    ),
    Case(
        "duplicate-benchmark-field",
        setitem(OTIS, "field", "arcAgi1"),
        (_m(OTIS, "field", "duplicate field 'arcAgi1' (also {data}/benchmarks/arc-agi-1.toml)"),),
    ),
    Case(
        "duplicate-domain-row",
        edit(CODING, lambda doc: doc["results"].append(dict(doc["results"][0]))),
        (
            _m(
                CODING,
                "results[5]",
                "duplicate row for 'alpha-1' on 'repo-fix' with the same harness (also results[0])",
            ),
        ),
    ),
    # aliases: unique ignoring case across every id and alias, safe in a URL
    Case(
        "duplicate-alias-of-another-model",
        setitem(A2, "aliases", ["Alpha 1 Preview"]),
        (
            _m(
                A2,
                "aliases[0]",
                "duplicate alias 'Alpha 1 Preview' (also aliases[1] of {data}/models/alpha-1.toml)",
            ),
        ),
    ),
    Case(
        "alias-is-another-models-id",
        setitem(A2, "aliases", ["Alpha 2", "ALPHA-1"]),
        (
            _m(
                A2,
                "aliases[1]",
                "duplicate alias 'ALPHA-1' (also the id of {data}/models/alpha-1.toml)",
            ),
        ),
    ),
    Case(
        "alias-repeated-in-one-file",
        setitem(A2, "aliases", ["alpha two", "Alpha Two"]),
        (_m(A2, "aliases[1]", "duplicate alias 'Alpha Two' (also aliases[0])"),),
    ),
    Case(
        "unsafe-alias-slash",
        setitem(A2, "aliases", ["alpha/2"]),
        (_m(A2, "aliases[0]", ALIAS_PROBLEM + ' (value: "alpha/2")'),),
    ),
    Case(
        "two-unsafe-aliases-each-named",  # a list of plain values is checked item by item
        setitem(A2, "aliases", ["alpha/2", "Alpha 2", "alpha?2"]),
        (
            _m(A2, "aliases[0]", ALIAS_PROBLEM + ' (value: "alpha/2")'),
            _m(A2, "aliases[2]", ALIAS_PROBLEM + ' (value: "alpha?2")'),
        ),
    ),
    Case(
        "two-bad-ladder-steps-each-named",
        both(setitem(GPQA, "ladder.1", "x"), setitem(GPQA, "ladder.4", True)),
        (
            _m(GPQA, "ladder[1]", 'Expected `float`, got `str` (value: "x")'),
            _m(GPQA, "ladder[4]", "Expected `float`, got `bool` (value: true)"),
        ),
    ),
    # unsafe ids
    Case(
        "unsafe-id-traversal",
        setitem(A2, "id", "../x"),
        (_m(A2, "id", _slug("../x")),),
    ),
    Case(
        "unsafe-id-space",
        setitem(A2, "id", "alpha 2"),
        (_m(A2, "id", _slug("alpha 2")),),
    ),
    Case(
        "unsafe-id-upper-case",
        setitem(A2, "id", "Alpha-2"),
        (_m(A2, "id", _slug("Alpha-2")),),
    ),
    Case(
        "unsafe-id-empty",
        setitem(A2, "id", ""),
        (_m(A2, "id", _slug("")),),
    ),
    Case(
        "unsafe-id-very-long",
        setitem(A2, "id", "a" * 300),
        (_m(A2, "id", 'Expected `str` of length <= 64 (value: "' + "a" * 58 + "…)"),),
    ),
    Case(
        "unsafe-file-name",
        both(copy(GAMMA, "models/Gamma 2.toml"), setitem("models/Gamma 2.toml", "id", "Gamma 2")),
        (_m("models/Gamma 2.toml", "id", _slug("Gamma 2")),),
    ),
    Case(
        "id-differs-from-file-name",
        setitem(A2, "id", "alpha-9"),
        (_m(A2, "id", "must equal the file name 'alpha-2' (value: \"alpha-9\")"),),
    ),
    # unknown references
    Case(
        "unknown-benchmark-in-result",
        setitem(A2, "results.0.benchmark", "no-such-bench"),
        (_m(A2, "results[0].benchmark", "unknown benchmark 'no-such-bench'"),),
    ),
    Case(
        "unknown-dimension",
        setitem(GPQA, "dimension", "telepathy"),
        (_m(GPQA, "dimension", "unknown dimension 'telepathy'"),),
    ),
    Case(
        "iq-benchmark-without-dimension",
        delitem(GPQA, "dimension"),
        (_m(GPQA, "dimension", "an iq benchmark needs a dimension"),),
    ),
    Case(
        "eq-benchmark-with-dimension",
        setitem(EQB, "dimension", "reliability"),
        (_m(EQB, "dimension", "an eq benchmark has no dimension"),),
    ),
    Case(
        "domain-result-for-unknown-model",
        setitem(CODING, "results.0.model", "ghost-model"),
        (_m(CODING, "results[0].model", "unknown model 'ghost-model'"),),
    ),
    Case(
        "domain-result-for-unknown-benchmark",
        setitem(CODING, "results.0.benchmark", "gpqa-diamond"),
        (_m(CODING, "results[0].benchmark", "unknown benchmark 'gpqa-diamond' in this domain"),),
    ),
    Case(
        "domain-result-for-unpublished-model",
        setitem(CODING, "results.0.model", "delta-preview"),
        (
            _m(
                CODING,
                "results[0].model",
                "names unpublished model 'delta-preview' (would leak it)",
            ),
        ),
    ),
    Case(
        "chart-unknown-benchmark",
        setitem(CHART, "related_benchmarks", ["gpqa-diamond", "no-such-bench"]),
        (_m(CHART, "related_benchmarks[1]", "unknown benchmark 'no-such-bench'"),),
    ),
    Case(
        "reasoning-config-unknown-field",
        setitem(
            A2,
            "reasoning_configurations",
            [
                {
                    "id": "high",
                    "source_model": "alpha-2",
                    "source_model_id": "alpha-2_high",
                    "effort_key": "high",
                    "reasoning": True,
                    "values": {"noSuchField": 0.5},
                }
            ],
        ),
        (_m(A2, "reasoning_configurations[0].values.noSuchField", "unknown benchmark field"),),
    ),
    # ladders
    Case(
        "ladder-not-increasing",
        setitem(GPQA, "ladder.4", 0.55),
        (
            _m(
                GPQA,
                "ladder[4]",
                "must be strictly increasing for higher_is_better (0.6 then 0.55)",
            ),
        ),
    ),
    Case(
        "ladder-not-decreasing",
        edit(HLE, lambda doc: doc["ladder"].reverse()),
        (_m(HLE, "ladder[1]", _reversed_ladder_problem(HLE)),),
    ),
    Case(
        "ladder-too-short",
        edit(GPQA, lambda doc: doc["ladder"].pop()),
        (_m(GPQA, "ladder", "must have 7 points (IQ 70..160), got 6"),),
    ),
    Case(
        "ladder-flat-domain-benchmark",
        setitem(CODING, "benchmarks.0.ladder", [0.0, 10.0, 10.0, 30.0, 40.0, 50.0, 60.0]),
        (
            _m(
                CODING,
                "benchmarks[0].ladder[2]",
                "must be strictly increasing for higher_is_better (10.0 then 10.0)",
            ),
        ),
    ),
    # NaN and infinities
    Case(
        "nan-result-value",
        setitem(A2, "results.0.value", float("nan")),
        (_m(A2, "results[0].value", "not a finite number (nan)"),),
    ),
    Case(
        "infinite-price",
        setitem(A2, "prices.input", float("inf")),
        (_m(A2, "prices.input", "not a finite number (inf)"),),
    ),
    Case(
        "negative-infinity-in-ladder",
        setitem(GPQA, "ladder.0", float("-inf")),
        (_m(GPQA, "ladder[0]", "not a finite number (-inf)"),),
    ),
    # raw values outside their benchmark's bounds, effort settings mixed in a family
    Case(
        "value-fraction-above-one",
        setitem(A2, "results.2.value", 1.7),
        (
            _m(
                A2,
                "results[2].value",
                f"1.7 is outside the bounds {FRACTION} of benchmark 'gpqa-diamond'",
            ),
        ),
    ),
    Case(
        "value-percent-above-hundred",
        setitem(A2, "results.3.value", 140.0),
        (
            _m(
                A2,
                "results[3].value",
                f"140.0 is outside the bounds {PERCENT} of benchmark 'hle-calibration-error'",
            ),
        ),
    ),
    Case(
        "value-negative-time",
        both(
            setitem(OTIS, "unit", "minutes"),
            delitem(OTIS, "max_value"),
            setitem(A2, "results.1.value", -5.0),
        ),
        (
            _m(
                A2,
                "results[1].value",
                "-5.0 is outside the bounds [0.0, no upper bound] of benchmark 'otis-mock-aime'",
            ),
        ),
    ),
    Case(
        "value-eq-elo-negative",
        setitem(A2, "results.4.value", -20.0),
        (
            _m(
                A2,
                "results[4].value",
                f"-20.0 is outside the bounds {ELO} of benchmark 'eq-bench-3'",
            ),
        ),
    ),
    Case(
        "value-domain-score-above-hundred",
        setitem(CODING, "results.0.score", 120.0),
        (
            _m(
                CODING,
                "results[0].score",
                f"120.0 is outside the bounds {PERCENT} of benchmark 'repo-fix'",
            ),
        ),
    ),
    Case(
        "value-eq-domain-score-negative",
        setitem(EMOTION, "results.0.score", -1.0),
        (
            _m(
                EMOTION,
                "results[0].score",
                f"-1.0 is outside the bounds {ELO} of benchmark 'eq-bench-3'",
            ),
        ),
    ),
    Case(
        "bounds-missing",
        delitem(GPQA, "min_value"),
        (
            _m(
                GPQA,
                "min_value",
                "missing (every benchmark declares the bounds of a valid raw value)",
            ),
        ),
    ),
    Case(
        "bounds-reversed",
        setitem(GPQA, "max_value", -1.0),
        (_m(GPQA, "max_value", "-1.0 must be above min_value 0.0"),),
    ),
    # prices
    Case(
        "negative-price",
        setitem(A2, "prices.input", -1.0),
        (_m(A2, "prices.input", "Expected `float` >= 0.0 (value: -1.0)"),),
    ),
    Case(
        "absurd-price",
        setitem(A2, "prices.output", 1e9),
        (_m(A2, "prices.output", "Expected `float` <= 100000.0 (value: 1000000000.0)"),),
    ),
    Case(
        "zero-usage-multiplier",
        setitem(A2, "usage.multiplier", 0.0),
        (_m(A2, "usage.multiplier", "Expected `float` > 0.0 (value: 0.0)"),),
    ),
    # dates
    Case(
        "date-before-2000",
        setitem(A2, "release_date", tomllib.loads("d = 1999-12-31")["d"]),
        (_m(A2, "release_date", "date 1999-12-31 is before 2000"),),
    ),
    Case(
        "datetime-without-offset",
        replace(A2, "updated = 2026-01-15T00:00:00Z", "updated = 2026-01-15T00:00:00"),
        (_m(A2, "updated", "a date-time needs a UTC offset (e.g. 2026-04-24T00:00:00Z)"),),
    ),
    Case(
        "result-dated-after-file-update",
        setitem(A2, "results.1.as_of", tomllib.loads("d = 2030-01-01")["d"]),
        (_m(A2, "results[1].as_of", "2030-01-01 is after the file's updated 2026-01-15"),),
    ),
    Case(
        "release-after-file-update",
        setitem(A2, "release_date", tomllib.loads("d = 2027-01-01")["d"]),
        (_m(A2, "release_date", "2027-01-01 is after the file's updated 2026-01-15"),),
    ),
    Case(
        "domain-row-dated-after-update",
        setitem(CODING, "results.0.as_of", tomllib.loads("d = 2030-05-05")["d"]),
        (_m(CODING, "results[0].as_of", "2030-05-05 is after the file's updated 2026-01-20"),),
    ),
    # lineage
    Case(
        "predecessor-cycle",
        setitem(A1, "lineage.predecessor", "alpha-3"),
        (
            _m(
                A1,
                "lineage.predecessor",
                "predecessor cycle alpha-1 -> alpha-3 -> alpha-2 -> alpha-1",
            ),
        ),
    ),
    Case(
        "predecessor-is-itself",
        setitem(A1, "lineage.predecessor", "alpha-1"),
        (_m(A1, "lineage.predecessor", "predecessor cycle alpha-1 -> alpha-1"),),
    ),
    Case(
        "lineage-to-unpublished-model",
        both(
            setitem(A3, "lineage.predecessor", "delta-preview"),
            delitem("models/delta-preview.toml", "lineage.predecessor"),
        ),
        (_m(A3, "lineage.predecessor", "'delta-preview' is unpublished"),),
    ),
    Case(
        "lineage-to-unknown-model",
        setitem(A3, "lineage.predecessor", "alpha-0"),
        (
            _m(
                A3,
                "lineage.predecessor",
                "unknown model 'alpha-0' (did you mean 'alpha-2', 'alpha-1'?)",
            ),
        ),
    ),
    Case(
        "lineage-across-families",
        setitem("models/beta-1.toml", "lineage.predecessor", "alpha-1"),
        (
            _m(
                "models/beta-1.toml",
                "lineage.predecessor",
                "'alpha-1' is not compatible: its family is 'alpha', not 'beta'",
            ),
        ),
    ),
    # domains and methodology
    Case(
        "domain-without-benchmarks",
        edit(CODING, lambda doc: doc.update(benchmarks=[], results=[])),
        (_m(CODING, "benchmarks", "a domain needs at least one benchmark"),),
    ),
    Case(
        "methodology-six-dimensions",
        edit(METH, lambda doc: doc["dimensions"].pop()),
        (
            _m(
                METH,
                "dimensions",
                "must be exactly the seven dimensions in order (abstract-reasoning, "
                "mathematical-reasoning, academic-reasoning, programmatic-reasoning, "
                "computer-use, reliability, knowledge-work); got abstract-reasoning, "
                "mathematical-reasoning, academic-reasoning, programmatic-reasoning, "
                "computer-use, reliability",
            ),
        ),
    ),
    # every mistake at once: several in one file, cross-record checks included
    Case(
        "several-mistakes-in-one-file",
        both(
            setitem(A2, "results.2.benchmark", "gpqa-diamnd"),
            setitem(A2, "results.3.value", "high"),
            setitem(A2, "prices.input", -3.0),
            setitem(A2, "name", "ALPHA 1"),
            setitem(A2, "contxt_window", 1000),
        ),
        (
            _m(A2, "contxt_window", "unknown field (did you mean 'context_window'?)"),
            _m(A2, "name", "duplicate name 'ALPHA 1' (also {data}/models/alpha-1.toml)"),
            _m(A2, "prices.input", "Expected `float` >= 0.0 (value: -3.0)"),
            _m(
                A2,
                "results[2].benchmark",
                "unknown benchmark 'gpqa-diamnd' (did you mean 'gpqa-diamond'?)",
            ),
            _m(A2, "results[3].value", 'Expected `float`, got `str` (value: "high")'),
        ),
    ),
    Case(
        "mistakes-in-several-files",
        both(
            setitem(A1, "open_weights", "no"),
            setitem(A1, "lineage.predecessor", "alpha-0"),
            setitem(GPQA, "dimension", "academic-reasonin"),
            setitem(GPQA, "ladder.0", float("nan")),
        ),
        (
            _m(A1, "open_weights", 'Expected `bool`, got `str` (value: "no")'),
            _m(
                A1,
                "lineage.predecessor",
                "unknown model 'alpha-0' (did you mean 'alpha-3', 'alpha-2'?)",
            ),
            _m(
                GPQA,
                "dimension",
                "unknown dimension 'academic-reasonin' (did you mean 'academic-reasoning'?)",
            ),
            _m(GPQA, "ladder[0]", "not a finite number (nan)"),
        ),
    ),
    Case(
        "copied-model-keeps-name-revision-and-configuration-ids",
        both(copy(A3, "models/alpha-4.toml"), setitem("models/alpha-4.toml", "id", "alpha-4")),
        (
            _m("models/alpha-4.toml", "name", "duplicate name 'Alpha 3' (also {data}/" + A3 + ")"),
            _m(
                "models/alpha-4.toml",
                "aliases[0]",
                "duplicate alias 'Alpha 3' (also aliases[0] of {data}/" + A3 + ")",
            ),
            _m(
                "models/alpha-4.toml",
                "aliases[1]",
                "duplicate alias 'alpha-3-20260105' (also aliases[1] of {data}/" + A3 + ")",
            ),
            _m(
                "models/alpha-4.toml",
                "revisions[0].id",
                "id 'alpha-3-20260105' belongs to another model ({data}/" + A3 + ")",
            ),
            _m(
                "models/alpha-4.toml",
                "reasoning_configurations[0].id",
                "id 'alpha-3_high' belongs to another model ({data}/" + A3 + ")",
            ),
            _m(
                "models/alpha-4.toml",
                "reasoning_configurations[1].id",
                "id 'alpha-3_none' belongs to another model ({data}/" + A3 + ")",
            ),
        ),
    ),
    Case(
        "duplicate-name-differs-only-in-case",
        setitem(GAMMA, "name", "beta 1"),
        (_m(GAMMA, "name", "duplicate name 'beta 1' (also {data}/models/beta-1.toml)"),),
    ),
    # files and directories
    Case(
        "empty-data-dir",
        empty_data_dir,
        (
            f"{{data}}/{METH}: file: missing (every data dir needs one)",
            "{data}: directory: no data files",
        ),
    ),
    Case(
        "missing-methodology-file",
        remove(METH),
        (f"{{data}}/{METH}: file: missing (every data dir needs one)",),
    ),
    Case(
        "unreadable-file",
        chmod(A2, 0o000),
        (_m(A2, "file", "cannot read (Permission denied)"),),
        needs_permissions=True,
    ),
    Case(
        "non-utf8-bytes",
        _non_utf8,
        (_m(A2, "file", f"not UTF-8 (byte 0xff at {_offset(A2, b'Alpha 2', 6)})"),),
    ),
    Case(
        "file-and-folder-names-not-utf8",  # was a UnicodeEncodeError traceback in the cache
        _undecodable_names,
        (
            _m("models/\\xff.toml", "file", "name is not UTF-8 (byte 0xff at 0)"),
            _m("caf\\xe9", "directory", "name is not UTF-8 (byte 0xe9 at 3)"),
            _m("benchmarks/gpqa-\\xc3(.toml", "file", "name is not UTF-8 (byte 0xc3 at 5)"),
        ),
    ),
    Case(
        "huge-file",
        write_bytes(A2, HUGE_COMMENT, append=True),
        (_m(A2, "file", f"too large ({_size(A2) + len(HUGE_COMMENT)} bytes; the limit is 5 MB)"),),
    ),
    Case(
        "stray-non-toml-file",
        write_bytes("models/notes.txt", b"remember to publish\n"),
        (_m("models/notes.txt", "file", "not a .toml data file"),),
    ),
    Case(
        "directory-named-like-a-data-file",
        mkdir("models/alpha-4.toml"),
        (_m("models/alpha-4.toml", "directory", "unknown folder (models/ holds .toml files)"),),
    ),
    Case(  # a typo of a record folder: its files were silently not read
        "stray-folder-typo-of-models",
        both(mkdir("modles"), copy("models/alpha-2.toml", "modles/alpha-9.toml")),
        (_m("modles", "directory", "unknown folder (did you mean 'models'?)"),),
    ),
    Case(
        "stray-subfolder-in-a-record-folder",
        both(mkdir("models/old"), copy("models/alpha-2.toml", "models/old/alpha-2.toml")),
        (_m("models/old", "directory", "unknown folder (models/ holds .toml files)"),),
    ),
    Case(
        "stray-folder-unlike-any",
        mkdir("scratch"),
        (
            _m(
                "scratch",
                "directory",
                "unknown folder (the data folders are benchmarks, charts, domains, models,"
                " providers, sources)",
            ),
        ),
    ),
    Case(
        "stray-top-level-other-file",
        write_bytes("notes.txt", b"remember to publish\n"),
        (
            _m(
                "notes.txt",
                "file",
                "unexpected file (data/ holds README.md, methodology.toml and the data folders)",
            ),
        ),
    ),
    Case(
        "stray-top-level-toml",
        write_bytes("settings.toml", b'id = "x"\n'),
        (
            _m(
                "settings.toml",
                "file",
                "unexpected data file (use methodology.toml or a record folder)",
            ),
        ),
    ),
    # a source URL host a browser reads as another one (010.010.010.010 goes to 8.8.8.8) or
    # refuses (an xn-- label that is not punycode: the decoder asks the whole rule)
    Case(
        "octal-ipv4-host-in-result-source-url",
        setitem(A2, "results.0.source_url", "http://010.010.010.010/"),
        (
            _m(
                A2,
                "results[0].source_url",
                'numeric host "010.010.010.010" in a URL (an IPv4 address is written a.b.c.d,'
                ' each 0 to 255 without leading zeros) (value: "http://010.010.010.010/")',
            ),
        ),
    ),
    Case(
        "bad-punycode-host-in-domain-result-source-url",
        setitem(CODING, "results.1.source_url", "https://xn--zz-zzzz.example/x"),
        (
            _m(
                CODING,
                "results[1].source_url",
                'label "xn--zz-zzzz" in a URL\'s host is not punycode (an xn-- label is the'
                ' ASCII form of a name that is not ASCII) (value: "https://xn--zz-zzzz.example/x")',
            ),
        ),
    ),
)
