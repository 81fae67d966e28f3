"""schemathesis against the served fixture site: every documented operation, all checks.

Runs the real CLI (with the repository's schemathesis.toml) against `modelscores serve`,
once through the versioned base and once (lighter) through the bare alias.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import REPO

from generator.api.contract import DOCUMENTS

SCHEMATHESIS = shutil.which("schemathesis", path=str(Path(sys.executable).parent)) or shutil.which(
    "schemathesis"
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(SCHEMATHESIS is None, reason="schemathesis is not installed"),
]


# Examples per operation in the fuzzing and stateful phases (the examples and coverage phases
# do not depend on it). Every path parameter is an enum of the fixture's few published values,
# so 50 reach each of them many times over; the rest are invalid values, each answered by the
# same JSON 404. At 100 the versioned run sent 1,200 requests in 34 s, at 50 660 in 18 s.
@pytest.mark.parametrize(
    ("schema_prefix", "base", "examples"),
    [
        ("/api/v1", "/api/v1", 50),
        ("/api", "/api", 20),  # the same bytes: lighter
    ],
    ids=["api-v1", "api-alias"],
)
def test_schemathesis_finds_no_failures(
    server: str,
    schema_prefix: str,
    base: str,
    examples: int,
    tmp_path: Path,
) -> None:
    assert SCHEMATHESIS is not None
    config = REPO / "schemathesis.toml"
    assert config.is_file()
    result = subprocess.run(
        [
            SCHEMATHESIS,
            "--config-file",
            str(config),
            "run",
            f"{server}{schema_prefix}/openapi.json",
            "--checks",
            "all",
            "--url",
            f"{server}{base}",
            "--max-examples",
            str(examples),
        ],
        cwd=tmp_path,  # its caches (.schemathesis/, .hypothesis/) stay out of the repository
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    assert "No issues found" in output
    assert f"Tested: {len(DOCUMENTS)}" in output, output[-3000:]
