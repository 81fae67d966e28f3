"""The diff report posted as a pull request comment (generator/diff/report.py) against hostile
data: its size is counted as posted, and GitHub links, mentions and draws nothing that a
model's name, id or source URL holds."""

from __future__ import annotations

import re

import msgspec
from markdown_it import MarkdownIt

from generator.diff.changes import (
    Cause,
    Diff,
    MethodologyChange,
    ModelChange,
    Move,
    PlaceMove,
    RankingChange,
    summary,
)
from generator.diff.report import MAX_MARKDOWN, MAX_SUMMARY_BYTES, heading, render
from generator.encoders import github_text

COMMENT_LIMIT = 65_536  # GitHub refuses a longer comment
MARKDOWN = MarkdownIt("commonmark").enable(["table", "strikethrough"])
HOSTILE = [
    "@octocat",
    "@github/security-team",
    "#123",
    "GH-42",
    ":tada:",
    "www.evil.example",
    "https://evil.example/x",
    "<img src=x onerror=alert(1)>",
    "x@example.com",
]
# What GitHub finds in one text node of a rendered comment: a mention, an issue reference,
# an emoji shortcode, a URL or `www.` link (prose such as "noise: inside" is not one).
GITHUB_FINDS = re.compile(r"(?i)@[\w-]|#\d|(?<![a-z0-9])gh-\d|:[\w+-]+:|[a-z]:/|www\.")


def _changed(model_id: str, name: str, *, before: str = "old", after: str = "new") -> ModelChange:
    move = Move(before, after)
    return ModelChange(
        id=model_id, name=name, own_data_changed=True, fields={"cost.priceSourceUrl": move}
    )


def _inline_text(markdown: str) -> list[list[str]]:
    """The text nodes of every inline run (a cell, a heading, a line) of the rendered report."""
    runs = []
    for token in MARKDOWN.parse(markdown):
        if token.type != "inline":
            continue
        nodes = []
        for child in token.children or []:
            if child.type == "html_inline":
                assert child.content in ("<!-- -->", "<details>", "<summary>", "</summary>")
            elif child.type == "text":
                nodes.append(child.content)
            else:
                assert child.type in ("strong_open", "strong_close", "code_inline"), child
        runs.append(nodes)
    return runs


def test_a_hostile_name_id_or_source_url_shows_literally_and_pings_no_one() -> None:
    diff = Diff(
        summary="3 models changed",
        models_changed=[
            _changed(f"m-{n}", f"{text} model", before=text, after=f"{text}/v2")
            for n, text in enumerate(HOSTILE)
        ],
        causes=[Cause(id="m-0", name="@octocat model", cause="its source :tada: #9 changed")],
        rankings=[
            RankingChange(
                id="composite-iq",
                name="@octocat's #1 ranking",
                moves=[PlaceMove(id=f"m-{n}", name=text, before=n + 1, after=n + 2)
                       for n, text in enumerate(HOSTILE)],
            )
        ],
    )  # fmt: skip
    markdown = render(diff, "markdown")
    runs = _inline_text(markdown)
    shown = ["".join(nodes) for nodes in runs]
    for n, text in enumerate(HOSTILE):
        assert f"{text} model (m-{n})" in shown, text  # literally, in its own cell
        assert f"{text}/v2" in shown, text
    assert "#2" in shown  # a place, not a link to issue 2
    for nodes in runs:
        for node in nodes:
            assert not GITHUB_FINDS.search(node), node


def test_the_markdown_budget_counts_the_escaped_text() -> None:
    """3,000 changed models whose names escape to twice their length or more: the comment
    still fits (it was 103,688 characters when the budget counted the raw text)."""
    name = "@[*]#:" * 10
    models = [_changed(f"m-{n}", f"{name}{n}", before=name, after=name) for n in range(3000)]
    markdown = render(Diff(summary="3000 models changed", models_changed=models), "markdown")
    assert len(markdown) <= len(markdown.encode()) <= MAX_MARKDOWN < COMMENT_LIMIT
    assert "more rows: the whole report is" in markdown


def test_the_budget_counts_bytes_so_the_comment_script_never_cuts_it() -> None:
    """`scripts/ci/comment-pr` cuts a body over 60,000 bytes at a line; names of three-byte
    characters must not push the report past it."""
    name = "模型" * 30
    models = [_changed(f"m-{n}", f"{name}{n}", before=name, after=name) for n in range(3000)]
    markdown = render(Diff(summary="3000 models changed", models_changed=models), "markdown")
    assert len(markdown.encode()) <= MAX_MARKDOWN
    assert markdown.rstrip().endswith("</details>")


def test_many_sections_still_fit_with_the_rest_counted() -> None:
    """2,000 rankings that each moved: every section cut to nothing cannot fit either, so the
    last sections are left out and counted."""
    name = "@[*]#:" * 10
    rankings = [
        RankingChange(
            id=f"r-{r}",
            name=f"{name} {r}",
            moves=[PlaceMove(id=f"m-{n}", name=f"{name}{n}", before=n, after=n + 1)
                   for n in range(1, 8)],
        )
        for r in range(2000)
    ]  # fmt: skip
    markdown = render(Diff(summary="2000 rankings changed", rankings=rankings), "markdown")
    assert len(markdown.encode()) <= MAX_MARKDOWN
    body = markdown.partition("\n### Left out\n")[0]
    counted = re.findall(r"\.\.\. and (\d+) more rows?:", body)
    shown_rows = sum(1 for line in body.splitlines() if line.startswith("| ") and "#" in line)
    named, rest = _left_out(markdown)
    left_out = sum(n for _, n in named) + (rest[1] if rest else 0)
    assert shown_rows + sum(map(int, counted)) + left_out == 2000 * 7


def _rankings(count: int, name: str) -> list[RankingChange]:
    """`count` moved rankings, ranking r with r % 5 + 1 place moves (so each one's count of
    rows left out is its own)."""
    return [
        RankingChange(
            id=f"r-{r}",
            name=f"{name} {r}",
            moves=[PlaceMove(id=f"m-{n}", name=f"{name}{n}", before=n, after=n + 1)
                   for n in range(1, r % 5 + 2)],
        )
        for r in range(count)
    ]  # fmt: skip


def _left_out(markdown: str) -> tuple[list[tuple[str, int]], tuple[int, int] | None]:
    """The closing "Left out" section's table: (heading, rows) named, and (sections, rows)
    of its last row when it counts the rest without naming them."""
    _, _, tail = markdown.partition("\n### Left out\n")
    rows = re.findall(r"^\| (.+) \| (\d+) \|$", tail, re.M)
    named = [(cell, int(n)) for cell, n in rows if not cell.startswith("and ")]
    rest = [re.fullmatch(r"and (\d+) more sections?", c) for c, _ in rows if c.startswith("and ")]
    others = [int(n) for c, n in rows if c.startswith("and ")]
    assert len(rest) <= 1 and all(rest)
    return named, (int(rest[0][1]), others[0]) if rest and rest[0] else None


def test_sections_left_out_whole_are_named_with_their_rows_at_the_end() -> None:
    """400 moved rankings do not fit even as bare headings: those left out are each named
    at the end with the rows each lost (`... and N more rows` counted them under the last
    section kept, naming none), and the text of the names stays inert."""
    rankings = _rankings(400, "@octocat #1 :tada:")
    markdown = render(Diff(summary="400 rankings changed", rankings=rankings), "markdown")
    assert len(markdown.encode()) <= MAX_MARKDOWN
    named, rest = _left_out(markdown)
    assert rest is None  # every section left out is named
    body = markdown.partition("\n### Left out\n")[0]
    kept = re.findall(r"^### Ranking", body, re.M)
    expected = [(github_text(heading(r.id, r.name)), len(r.moves)) for r in rankings]
    assert 0 < len(kept) < 400 and named == expected[len(kept) :]
    assert f"{len(named)} more sections ({sum(n for _, n in named)} rows) did not fit" in markdown
    cut_rows = sum(map(int, re.findall(r"\.\.\. and (\d+) more rows?:", body)))
    shown_rows = sum(1 for line in body.splitlines() if line.startswith("| ") and "#" in line)
    assert shown_rows + cut_rows == sum(len(r.moves) for r in rankings[: len(kept)])
    for nodes in _inline_text(markdown):
        for node in nodes:
            assert not GITHUB_FINDS.search(node), node


def test_too_many_sections_to_name_are_named_while_they_fit_and_the_rest_counted() -> None:
    name = "@[*]#:" * 10
    rankings = _rankings(2000, name)
    markdown = render(Diff(summary="2000 rankings changed", rankings=rankings), "markdown")
    assert len(markdown.encode()) <= MAX_MARKDOWN
    named, rest = _left_out(markdown)
    assert named and rest is not None
    kept = len(re.findall(r"^### Ranking", markdown, re.M))
    expected = [(github_text(heading(r.id, r.name)), len(r.moves)) for r in rankings]
    assert named == expected[kept : kept + len(named)]
    assert rest == (2000 - kept - len(named), sum(n for _, n in expected[kept + len(named) :]))


def test_a_long_summary_line_is_cut_so_the_comment_keeps_its_budget() -> None:
    """The summary quotes the methodology versions: one of `2026-02-01-` and 6,000 `www.`
    (each escaped longer) made a 72,255-byte comment, the head line past the whole budget.
    The line is cut; every byte of the comment, head included, stays within it."""
    version = Move("2026-02-01", "2026-02-01-" + "www." * 6000)
    rankings = _rankings(300, "ranking")
    draft = Diff(summary="", rankings=rankings, methodology=MethodologyChange(version=version))
    diff = msgspec.structs.replace(draft, summary=summary(draft))
    assert len(diff.summary.encode()) > MAX_MARKDOWN / 3
    markdown = render(diff, "markdown")
    assert len(markdown.encode()) <= MAX_MARKDOWN
    head = markdown.splitlines()[2]
    assert head.startswith(
        "**300 rankings changed, methodology 2026-02-01 -\\> 2026-02-01-www<!-- -->.www"
    )
    assert head.endswith("\u2026**") and len(head.encode()) <= MAX_SUMMARY_BYTES


def test_one_row_left_out_is_one_more_row() -> None:
    """Six changed models of 11,000-byte names: five fit the budget, and the sixth is
    counted in the singular."""
    models = [_changed(f"m-{n}", f"{n}{'x' * 11_000}") for n in range(6)]
    markdown = render(Diff(summary="6 models changed", models_changed=models), "markdown")
    assert len(markdown.encode()) <= MAX_MARKDOWN
    assert "... and 1 more row: the whole report is" in markdown
    assert "more rows" not in markdown
