"""bench/methodology.py: runs at small size, and docs/METHODOLOGY_CHECK.md is its real output."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from support.scoring import PARAMETERS

from bench.methodology import RULES, Case, cases, evaluate, main, report, update_doc
from bench.synth import SynthSpec, write_dataset
from generator.input.load import load_dataset
from generator.input.records import Dataset, ParametersRecord
from generator.scoring.types import Scores

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "METHODOLOGY_CHECK.md"


def test_runs_on_a_small_synthetic_dataset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_dataset(SynthSpec(models=40, benchmarks=14, seed=5), tmp_path)
    assert main(["--data-dir", str(tmp_path)]) == 0  # python -m bench.methodology --data-dir
    text = capsys.readouterr().out
    assert text.rstrip("\n") == report(load_dataset(tmp_path))
    for name, _ in RULES:
        assert text.count(f"| {name}") == 2  # all cases, and cases with a predecessor
    assert "| benchmark " in text and "weight vs default" in text


def test_evaluate_by_hand() -> None:
    # Two held-out means, 100 and 110, both predicted 104 with prior sd 3 and own variance 16:
    #   errors +4 and -6: bias -1, RMSE sqrt((16 + 36) / 2) = sqrt(26)
    #   variance 9 + 16 = 25; LPD = -0.5 ln(2 pi 25) - mean(16, 36) / 50 = -2.4604 - 0.52
    def rule(case: Case, params: ParametersRecord) -> tuple[float, float]:
        return 104.0, 3.0

    items = [Case("m", "x", target, 16.0, {}, None, None) for target in (100.0, 110.0)]
    score = evaluate("fixed", rule, items, PARAMETERS)
    assert (score.cases, score.bias) == (2, pytest.approx(-1.0))
    assert score.rmse == pytest.approx(26**0.5)
    assert score.lpd == pytest.approx(-0.5 * math.log(2 * math.pi * 25) - 0.52)


def test_the_shipped_rule_beats_version_1_on_the_shipped_data(
    shipped_scores: tuple[Dataset, Scores],
) -> None:
    dataset, _ = shipped_scores
    items = [c for c in cases(dataset) if c.predecessor is not None]
    params = dataset.methodology.parameters
    scores = {name: evaluate(name, rule, items, params) for name, rule in RULES}
    best = max(scores.values(), key=lambda s: s.lpd)
    assert best.rule.startswith("shipped")
    v1, v2 = scores[RULES[0][0]], scores[RULES[1][0]]
    assert abs(v2.bias) < abs(v1.bias) and v2.rmse < v1.rmse


def test_the_docs_table_is_the_scripts_output(shipped_scores: tuple[Dataset, Scores]) -> None:
    dataset, _ = shipped_scores
    block = re.search(r"```text\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S)
    assert block is not None
    assert block.group(1) == report(dataset), "rerun: python -m bench.methodology --update-docs"


def test_update_docs_rewrites_only_the_table(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("intro\n```text\nold\ntable\n```\nafter\n", encoding="utf-8")
    update_doc("new", page)
    assert page.read_text(encoding="utf-8") == "intro\n```text\nnew\n```\nafter\n"
