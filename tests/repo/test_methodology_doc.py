"""docs/METHODOLOGY.md stays true to the code: it names every parameter as the data does, every
section the code cites exists, and every function it points at is defined where it says."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from generator.input.records import ParametersRecord

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "METHODOLOGY.md"
# "docs/METHODOLOGY.md section 2.2", "METHODOLOGY 3.2", "METHODOLOGY.md sections 2.1 and 2.2"
CITATION = re.compile(r"METHODOLOGY(?:\.md)? (?:sections? )?(\d(?:\.\d)?)(?: and (\d(?:\.\d)?))?")
HEADING = re.compile(r"^#{2,3} (\d(?:\.\d)?)\.? ", re.M)
# "`best_results` (`generator/scoring/observations.py`)" or "(`combine`, `generator/...py`)": a
# function and the file defining it
POINTER = re.compile(r"`(\w+)`(?:\s\(|,\s)`((?:generator|bench)/[\w/]+\.py)`")
CITING = ["generator", "mcp_server", "bench"]


def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def _parameter_table(text: str) -> list[str]:
    section = text.split("\n## Parameters\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `(\w+)` \|", section, re.M)


def test_the_parameter_table_names_every_parameter_of_the_data() -> None:
    fields = [f.encode_name for f in msgspec.structs.fields(ParametersRecord)]
    assert sorted(_parameter_table(_text())) == sorted(fields)


def test_every_cited_section_exists() -> None:
    sections = set(HEADING.findall(_text()))
    cited = {
        f"{path.relative_to(REPO)}: {number}"
        for root in CITING
        for path in sorted((REPO / root).rglob("*.py"))
        for match in CITATION.finditer(path.read_text(encoding="utf-8"))
        for number in match.groups()
        if number is not None and number not in sections
    }
    assert not cited, cited


def test_the_citation_finder_reads_every_form() -> None:
    text = "(docs/METHODOLOGY.md section 2.2), METHODOLOGY 3.2; METHODOLOGY.md sections 2.1 and 2.2"
    found = [n for m in CITATION.finditer(text) for n in m.groups() if n]
    assert found == ["2.2", "3.2", "2.1", "2.2"]
    assert HEADING.findall("## 3. Composite\n### 3.1 Uncertainty\n#### 9 no\n") == ["3", "3.1"]
    pointed = "`a` (`generator/x.py`), (`b`,\n`bench/y.py`), `c` in `generator/z.py`"
    assert POINTER.findall(pointed) == [("a", "generator/x.py"), ("b", "bench/y.py")]


def test_every_function_the_doc_points_at_is_defined_there() -> None:
    pointers = POINTER.findall(_text())
    assert len(pointers) >= 15
    missing = [
        f"{name} in {path}"
        for name, path in pointers
        if not re.search(rf"^\s*(?:def|class) {name}\b", (REPO / path).read_text(), re.M)
    ]
    assert not missing, missing
