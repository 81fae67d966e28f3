"""A client generated from the built openapi.json (openapi-python-client, offline) calls every
operation at the document's own server, against `modelscores serve`, and gets a 200 with the
documented response type parsed."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.api.contract import DOCUMENTS

GENERATOR = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
PACKAGE = "modelscores_generated_client"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def generated(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The client package, generated into a temporary folder put on `sys.path`."""
    assert GENERATOR is not None, "openapi-python-client is a test dependency (pyproject.toml)"
    folder = tmp_path_factory.mktemp("client")
    config = folder / "config.yaml"
    config.write_text("post_hooks: []\n")  # no ruff run on the generated code
    run = subprocess.run(
        [
            GENERATOR,
            "generate",
            "--path",
            str(built_site / "api/v1/openapi.json"),
            "--meta",
            "none",
            "--output-path",
            str(folder / PACKAGE),
            "--config",
            str(config),
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Warning" not in run.stdout + run.stderr, run.stdout + run.stderr
    sys.path.insert(0, str(folder))
    try:
        yield folder
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def _module(operation_id: str) -> Any:
    name = re.sub(r"(?<!^)([A-Z])", r"_\1", operation_id).lower()
    return importlib.import_module(f"{PACKAGE}.api.default.{name}")


@pytest.mark.parametrize("prefix", ["/api/v1", "/api"])
def test_the_generated_client_calls_every_operation_with_a_200(
    generated: Path, server: str, built_site: Path, prefix: str
) -> None:
    openapi = json.loads((built_site / "api/v1/openapi.json").read_bytes())
    client_module = importlib.import_module(PACKAGE)
    models = importlib.import_module(f"{PACKAGE}.models")
    called = []
    with client_module.Client(base_url=server + prefix, raise_on_unexpected_status=True) as client:
        for path, item in openapi["paths"].items():
            operation = item["get"]
            module = _module(operation["operationId"])
            hints = typing.get_type_hints(module.sync_detailed)
            arguments = (
                {p["name"]: hints[p["name"]](p["example"]) for p in operation["parameters"]}
                if "parameters" in operation
                else {}
            )
            response = module.sync_detailed(client=client, **arguments)
            assert response.status_code == 200, (path, response.content[:300])
            schema = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
            expected = getattr(models, schema.rsplit("/", 1)[1])
            assert isinstance(response.parsed, expected), (path, type(response.parsed))
            called.append(path)
    assert len(called) == len(DOCUMENTS)
