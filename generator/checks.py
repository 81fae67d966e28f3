"""Whole-site checks, run before anything is published (and by `build_api`).

Cheap invariants of the files a build is about to publish: every versioned API file
decodes into its document kind's response type, every alias file equals its versioned
twin, every `_redirects` target exists. A build streams its files to disk as it makes
them, so `SiteCheck` takes each file as it goes by and keeps only paths and digests; a
failure is one `BuildError` line, raised before the new tree is swapped in.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import msgspec

from generator.api.hosting import parse_redirects
from generator.api.urls import API_PREFIX, API_PREFIXES, api_file, api_path_of_file, endpoint_for
from generator.errors import BuildError

_ROOT = API_PREFIX.lstrip("/") + "/"


class SiteCheck:
    """The whole-site checks, fed one file at a time.

    `passed`: path -> digest of files whose exact bytes this code checked before (the last
    build's, from the writer's record); their documents are not decoded again.
    """

    def __init__(self, passed: Mapping[str, bytes]) -> None:
        self.passed = passed
        self.problems: list[str] = []

    def document_problems(self, path: str, data: bytes, digest: bytes) -> list[str]:
        """What is wrong with one file as it is produced (`digest`: the writer's digest of
        `data`); the caller adds them to `problems` (a worker hands them back)."""
        if _is_document(path) and self.passed.get(path) != digest:
            return _check_document(path, data)
        return []

    def finish(self, digests: Mapping[str, bytes], redirects: bytes) -> None:
        """The checks over the whole site (`digests`: every file's digest, by path)."""
        problems = sorted(self.problems)
        problems.extend(_alias_problems(digests))
        problems.extend(_redirect_problems(redirects, digests))
        fail_on(problems)


def _is_document(path: str) -> bool:
    return path.startswith(_ROOT) and not path.endswith("/openapi.json")


def _alias_problems(files: Mapping[str, object]) -> list[str]:
    """An alias file that differs from its versioned twin (`files`: bytes or digests)."""
    problems: list[str] = []
    for prefix in API_PREFIXES[1:]:
        for path, data in files.items():
            if path.startswith(_ROOT):
                alias = prefix.lstrip("/") + "/" + path[len(_ROOT) :]
                if files.get(alias) != data:
                    problems.append(f"{alias}: differs from {path}")
    return problems


def _redirect_problems(redirects: bytes, files: Collection[str]) -> list[str]:
    """A `_redirects` rule whose target is not a file of the site."""
    problems: list[str] = []
    rules = parse_redirects(redirects.decode())
    rewrites = {r.source: r.target for r in rules if r.status == 200}  # a path served elsewhere
    for rule in rules:
        served = rewrites.get(rule.target, rule.target) if rule.status != 200 else rule.target
        target = served.lstrip("/") + ("index.html" if served.endswith("/") else "")
        if "://" not in served and target not in files:
            problems.append(f"_redirects: {rule.source} -> missing {rule.target}")
    return problems


def check_site(files: Mapping[str, bytes], passed: Collection[str] = ()) -> None:
    """The same checks over a site held whole (`passed`: files checked before, by path)."""
    problems = check_api(files, passed)
    problems.extend(_redirect_problems(files["_redirects"], files))
    fail_on(problems)


def fail_on(problems: list[str]) -> None:
    """`BuildError` naming the first of `problems`, if any."""
    if problems:
        raise BuildError(f"{len(problems)} site check failures, first: {problems[0]}")


def check_api(files: Mapping[str, bytes], passed: Collection[str] = ()) -> list[str]:
    """What is wrong with the API files among `files`: a versioned document that does not
    decode into its response type, an alias file that differs from the versioned one."""
    problems: list[str] = []
    skip = set(passed)
    for path, data in sorted(files.items()):
        if _is_document(path) and path not in skip:
            problems.extend(_check_document(path, data))
    problems.extend(_alias_problems(files))
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
