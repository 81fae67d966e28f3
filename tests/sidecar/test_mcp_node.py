"""The sidecar against the MCP project's own Node tools: the conformance suite and the Inspector.

Both are pinned and installed into .tools/ by scripts/install_tools.sh (which CI runs); the
tests skip, saying so, only when that has not been done.
"""

from __future__ import annotations

import json
import platform
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.documents import write_site
from support.mcp_live import Live, serve

from mcp_server.app import create_app
from mcp_server.resources import URI_ROOT

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / ".tools"
_ARCH = "arm64" if platform.machine() in ("aarch64", "arm64") else "x64"
NODE = TOOLS / f"node22/node_modules/node-linux-{_ARCH}/bin/node"
MCP_MODULES = TOOLS / "mcp/node_modules/@modelcontextprotocol"
CONFORMANCE = MCP_MODULES / "conformance/dist/index.js"
INSPECTOR = MCP_MODULES / "inspector/clients/launcher/build/index.js"
BASELINE = Path(__file__).parents[1] / "mcp_conformance_baseline.yml"

# The scenarios of conformance 0.1.16 a read-only tool server passes outright.
PASSING = {
    "server-initialize",
    "ping",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-error",
    "resources-list",
    "prompts-list",
    "dns-rebinding-protection",
}


def _require(*paths: Path) -> None:
    missing = [str(p.relative_to(REPO)) for p in paths if not p.exists()]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}; run scripts/install_tools.sh")


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_site(tmp_path_factory.mktemp("node") / "site_out")


@pytest.fixture(scope="module")
def live(site_dir: Path) -> Iterator[Live]:
    with serve(create_app(site_dir)) as running:
        yield running


_COMPILE_CACHE: dict[str, str] = {}


@pytest.fixture(scope="module", autouse=True)
def _node_compile_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One V8 code cache (NODE_COMPILE_CACHE) for this module's Node processes.

    Node compiles the Inspector's modules again in every process; with the cache the
    second and later processes read the compiled code instead (Node checks it against the
    source), about 6 % of each call's CPU. Nothing else about the processes changes.
    """
    _COMPILE_CACHE["NODE_COMPILE_CACHE"] = str(tmp_path_factory.mktemp("node-compile-cache"))
    yield
    _COMPILE_CACHE.clear()


def node(args: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    home = cwd / "home"  # the Inspector writes ~/.mcp-inspector
    home.mkdir(exist_ok=True)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "NO_COLOR": "1", **_COMPILE_CACHE}
    return subprocess.run(
        [str(NODE), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


# --- conformance --------------------------------------------------------------------


def _checks(output_dir: Path) -> dict[str, list[dict[str, Any]]]:
    """Scenario name to its checks, from the suite's results/server-<scenario>-<time>/."""
    found: dict[str, list[dict[str, Any]]] = {}
    for path in output_dir.glob("server-*/checks.json"):
        scenario = re.sub(
            r"-\d{4}-\d\d-\d\dT[\d-]+Z$", "", path.parent.name.removeprefix("server-")
        )
        found[scenario] = json.loads(path.read_text())
    return found


@pytest.mark.slow
def test_conformance_suite_passes_against_the_baseline(live: Live, tmp_path: Path) -> None:
    _require(NODE, CONFORMANCE)
    args = [str(CONFORMANCE), "server", "--url", live.mcp_url]
    args += ["--expected-failures", str(BASELINE), "-o", str(tmp_path / "results")]
    run = node(args, tmp_path)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "Baseline check passed" in run.stdout

    checks = _checks(tmp_path / "results")
    passed = {
        name
        for name, items in checks.items()
        if items and all(check["status"] == "SUCCESS" for check in items)
    }
    assert passed == PASSING
    assert [c["status"] for c in checks["dns-rebinding-protection"]] == ["SUCCESS", "SUCCESS"]
    # The one non-fixture baseline entry: only the stateless server's missing session id.
    (warning,) = checks["server-sse-multiple-streams"]
    assert (warning["id"], warning["status"]) == ("server-sse-multiple-streams-session", "WARNING")
    baseline = {
        line.strip().removeprefix("- ")
        for line in BASELINE.read_text().splitlines()
        if line.strip().startswith("- ")
    }
    assert baseline | PASSING == set(checks)  # every scenario ran, each accounted for once
    assert not baseline & PASSING


# --- the Inspector CLI ------------------------------------------------------------------

CALLS: dict[str, tuple[dict[str, Any], str]] = {
    "list_models": ({}, "models.json"),
    "get_model": ({"id": "alpha-1"}, "models/alpha-1"),
    "list_rankings": ({}, "rankings.json"),
    "get_ranking": ({"id": "composite-iq"}, "rankings/composite-iq"),
    "list_benchmarks": ({}, "benchmarks"),
    "list_domains": ({}, "domains.json"),
    "get_domain": ({"slug": "cybersecurity"}, "domains/cybersecurity"),
    "get_methodology": ({}, "methodology"),
    "compare_models": ({"ids": ["alpha-1", "beta-2"]}, ""),
}


def inspector(live: Live, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    _require(NODE, INSPECTOR)
    return node([str(INSPECTOR), "--cli", live.mcp_url, "--format", "json", *args], cwd)


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_inspector_lists_nine_portable_tools(live: Live, tmp_path: Path, era: str) -> None:
    run = inspector(live, tmp_path, "--method", "tools/list", "--strict", "--protocol-era", era)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""  # --strict reports each schema portability problem here
    tools = json.loads(run.stdout)["result"]["tools"]
    assert sorted(tool["name"] for tool in tools) == sorted(CALLS)
    assert all(tool["annotations"]["readOnlyHint"] for tool in tools)
    assert all(tool["outputSchema"]["type"] == "object" for tool in tools)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_inspector_calls_each_tool(live: Live, site_dir: Path, tmp_path: Path, name: str) -> None:
    arguments, rel = CALLS[name]
    run = inspector(
        live, tmp_path, "--method", "tools/call", "--tool-name", name,
        "--tool-args-json", json.dumps(arguments),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)["result"]
    assert result.get("isError") in (None, False)
    assert result["content"][0]["type"] == "text" and result["content"][1]["text"]
    content = result["structuredContent"]
    assert json.loads(result["content"][0]["text"]) == content
    assert content["apiVersion"] == "1"
    if rel:
        assert content == json.loads((site_dir / "api/v1" / rel).read_bytes())


def test_inspector_sees_unknown_ids_as_tool_errors(live: Live, tmp_path: Path) -> None:
    run = inspector(
        live, tmp_path, "--method", "tools/call", "--tool-name", "get_model",
        "--tool-args-json", json.dumps({"id": "alpha-9"}),
    )  # fmt: skip
    assert run.returncode == 5  # the Inspector's exit code for a result with isError: true
    assert "tool_is_error" in run.stderr
    result = json.loads(run.stdout)["result"]
    assert result["isError"] is True
    assert "Unknown model 'alpha-9'. Did you mean: alpha-1?" in result["content"][0]["text"]


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_inspector_lists_resources_and_templates(live: Live, tmp_path: Path, era: str) -> None:
    listed = {}  # (the Inspector's --strict applies to tools/list only: test above)
    for method in ("resources/list", "resources/templates/list"):
        run = inspector(live, tmp_path, "--method", method, "--protocol-era", era)
        assert run.returncode == 0, run.stderr
        assert run.stderr == ""
        listed[method] = json.loads(run.stdout)["result"]
    uris = {r["uri"] for r in listed["resources/list"]["resources"]}
    assert uris == {f"{URI_ROOT}/{n}" for n in ("models", "benchmarks", "rankings", "domains")} | {
        f"{URI_ROOT}/methodology",
        "modelscores://downloads/models.csv",
    }
    templates = {t["uriTemplate"] for t in listed["resources/templates/list"]["resourceTemplates"]}
    assert templates == {
        f"{URI_ROOT}/models/{{id}}",
        f"{URI_ROOT}/rankings/{{id}}",
        f"{URI_ROOT}/domains/{{slug}}",
        "modelscores://downloads/model-history/{id}.csv",
        "modelscores://downloads/rankings/{id}.csv",
        "modelscores://downloads/domains/{slug}.csv",
    }


@pytest.mark.parametrize(
    ("path", "rel"),
    [
        ("/methodology", "methodology"),  # a fixed resource
        ("/models/beta-2", "models/beta-2"),  # one of each template
        ("/rankings/composite-iq", "rankings/composite-iq"),
        ("/domains/finance", "domains/finance"),
    ],
)
def test_inspector_reads_each_kind_of_resource(
    live: Live, site_dir: Path, tmp_path: Path, path: str, rel: str
) -> None:
    run = inspector(live, tmp_path, "--method", "resources/read", "--uri", URI_ROOT + path)
    assert run.returncode == 0, run.stderr
    (content,) = json.loads(run.stdout)["result"]["contents"]
    assert content["mimeType"] == "application/json"
    assert content["text"].encode() == (site_dir / "api/v1" / rel).read_bytes()
