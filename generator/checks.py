"""Whole-site checks, run in memory before anything is written (and by `build_api`).

Cheap invariants of the files a build is about to publish: every versioned API file
decodes into its document kind's response type, every alias file equals its versioned
twin, every `_redirects` target exists. A failure is one `BuildError` line.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import msgspec

from generator.api.hosting import parse_redirects
from generator.api.urls import API_PREFIX, API_PREFIXES, api_file, api_path_of_file, endpoint_for
from generator.errors import BuildError


def check_site(files: Mapping[str, bytes], passed: Collection[str] = ()) -> None:
    """Cheap whole-site invariants, checked before anything is written.

    `passed`: files whose exact bytes this code already checked (the last build's, by
    digest); their documents are not decoded again.
    """
    problems = check_api(files, passed)
    rules = parse_redirects(files["_redirects"].decode())
    rewrites = {r.source: r.target for r in rules if r.status == 200}  # a path served elsewhere
    for rule in rules:
        served = rewrites.get(rule.target, rule.target) if rule.status != 200 else rule.target
        target = served.lstrip("/") + ("index.html" if served.endswith("/") else "")
        if "://" not in served and target not in files:
            problems.append(f"_redirects: {rule.source} -> missing {rule.target}")
    fail_on(problems)


def fail_on(problems: list[str]) -> None:
    """`BuildError` naming the first of `problems`, if any."""
    if problems:
        raise BuildError(f"{len(problems)} site check failures, first: {problems[0]}")


def check_api(files: Mapping[str, bytes], passed: Collection[str] = ()) -> list[str]:
    """What is wrong with the API files among `files`: a versioned document that does not
    decode into its response type, an alias file that differs from the versioned one."""
    problems: list[str] = []
    root = API_PREFIX.lstrip("/") + "/"
    skip = set(passed)
    for path, data in sorted(files.items()):
        if not path.startswith(root) or path.endswith("/openapi.json") or path in skip:
            continue
        problems.extend(_check_document(path, data))
    for prefix in API_PREFIXES[1:]:
        for path, data in files.items():
            if path.startswith(root):
                alias = prefix.lstrip("/") + "/" + path[len(root) :]
                if files.get(alias) != data:
                    problems.append(f"{alias}: differs from {path}")
    return problems


def _check_document(path: str, data: bytes) -> list[str]:
    """A versioned API file decodes into its response type (constraints included)."""
    rel = path[len(API_PREFIX) :]  # "api/v1/..." minus "api/v1/"
    api_path = api_path_of_file(rel)
    kind = endpoint_for(api_path) if api_path is not None else None
    if api_path is None or kind is None:
        return [f"{path}: not the file of any document kind"]
    if api_file(api_path) != path:
        return [f"{path}: not where {api_path} belongs"]
    try:
        msgspec.json.decode(data, type=kind.response)
    except msgspec.ValidationError as exc:
        return [f"{path}: {exc}"]
    return []
