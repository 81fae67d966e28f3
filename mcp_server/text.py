"""Readable text forms of the tool answers (the structured content holds the full data).

Each function takes the answer's JSON object and returns plain text: a header line, one line
per row, and a closing line with the envelope. Every line goes through `one_line`, so no
field it quotes (a name, a summary, a rule) can add a line an agent would read as ours.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

Json = Mapping[str, Any]


def _value(value: Any, unit: str = "") -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        value = f"{value:.4f}".rstrip("0").rstrip(".")
    return f"{value}{unit}"


def _cost(cost: Json) -> str:
    return "n/a" if cost["effectivePer1M"] is None else f"${_value(cost['effectivePer1M'])}/1M"


def _envelope(data: Json) -> str:
    return (
        f"(API v{data['apiVersion']}, methodology {data['methodologyVersion']}, "
        f"data updated {_value(data['updatedAt'])})"
    )


_BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""Line breaks (every one `str.splitlines` knows), tab and the other control characters."""


def one_line(line: str) -> str:
    """`line` with each line break or control character written as its escape (`\\n`)."""
    return _BREAKING.sub(lambda match: repr(match[0])[1:-1], line)


def _lines(*parts: str | Sequence[str]) -> str:
    out: list[str] = []
    for part in parts:
        out.extend([part] if isinstance(part, str) else part)
    return "\n".join(one_line(line) for line in out)


# --- models -----------------------------------------------------------------


def _model_row(row: Json) -> str:
    rank = f"#{row['rank']}" if row["rank"] is not None else "unranked"
    return (
        f"- {row['name']} (id {row['id']}, {row['provider']}): {rank}, IQ {_value(row['iq'])}"
        f"{_provisional(row)}, "
        f"EQ {_value(row['emotionalReasoning'])}, effective cost {_cost(row['cost'])}, "
        f"{_per_task(row)}, context {_value(row['contextWindow'])}, "
        f"released {_value(row['releaseDate'])}, "
        f"open source {_value(row['openSource'])}"
    )


def _per_task(row: Json) -> str:
    """Measured seconds and dollars per task (methodology 6.1)."""
    usd = row["costPerTask"]["usd"]
    return (
        f"response time {_value(row['speed']['responseTimeSec'], ' s')}/task, "
        f"cost {'n/a' if usd is None else f'${_value(usd)}'}/task"
    )


def _task_source(label: str, source: Json) -> str:
    """Where a per-task figure comes from, or why it is missing."""
    if source["reason"] is not None:
        return f"{label}: n/a ({source['reason']})"
    return (
        f"{label}: {source['source']}, {source['runs']} runs of {source['configuration']}, "
        f"as of {source['asOf']}, at the {source['reference']} (multi-step tasks: "
        "methodology 6.1)"
    )


def _provisional(data: Json) -> str:
    """` (provisional)` after a composite that rests on too few measured dimensions."""
    return " (provisional)" if data.get("provisional") else ""


def _date(result: Json) -> str:
    """A result's date as what it is: `as of D`, `table of D` or `not before D`."""
    kind = result.get("asOfKind", "measured")
    words = {"published": "table updated", "not-before": "not before"}.get(kind, "as of")
    return f"{words} {result['asOf']}"


def _cutoff(result: Json) -> str:
    """`, published after the model's knowledge cutoff` (or before it), when that is known."""
    after = result.get("postCutoff")
    if after is None:
        return ""
    return f", published {'after' if after else 'before'} the model's knowledge cutoff"


def _knowledge(data: Json) -> str:
    """`, knowledge cutoff C (N results post-cutoff)` when the model states a cutoff."""
    if data.get("knowledgeCutoff") is None:
        return ""
    count = data.get("postCutoffResults")
    return f", knowledge cutoff {data['knowledgeCutoff']} ({_value(count)} results post-cutoff)"


def _range(data: Json) -> str:
    """` (95% range low-high)` when the object publishes one."""
    if data.get("iqLow95") is None:
        return ""
    return f" (95% range {data['iqLow95']:g}-{data['iqHigh95']:g})"


def _band(data: Json) -> str:
    """`, rank band low-high` when the object publishes one."""
    if data.get("rankLow") is None:
        return ""
    return f", rank band {data['rankLow']}-{data['rankHigh']}"


def model_list(data: Json, total: int) -> str:
    """The model list, one line per model."""
    rows = data["models"]
    return _lines(
        f"{len(rows)} of {total} published models:",
        [_model_row(row) for row in rows],
        _envelope(data),
    )


def model_detail(data: Json) -> str:
    """One model in full: identity, scores, each dimension, cost, speed and benchmark results."""
    cost, speed = data["cost"], data["speed"]
    dimensions = [
        f"- {slug}: IQ {_value(dim['iq'])}{_range(dim)} "
        f"({dim['benchmarksCovered']}/{dim['benchmarksTotal']} "
        f"benchmarks{', imputed' if dim['imputed'] else ''}"
        f"{', ' + dim['estimationMethod'] if 'estimationMethod' in dim else ''})"
        for slug, dim in data["dimensions"].items()
    ]
    results = [
        f"- {result['name']}: {_value(result['value'])} (projected IQ "
        f"{'bound ' if result.get('extrapolated') else ''}{_value(result['projectedIq'])}; "
        f"{result['sourceName']}, {_date(result)}{_cutoff(result)})"
        for result in data["benchmarkResults"].values()
    ]
    return _lines(
        f"{data['name']} (id {data['id']}) by {data['provider']}, {data['country']}",
        f"Composite IQ {_value(data['iq'])}{_range(data)}{_measured(data)}, "
        f"rank {_value(data['rank'])}"
        f"{_band(data)}; emotional reasoning {_value(data['emotionalReasoning'])}",
        f"Cost: input ${_value(cost['inputPer1M'])}/1M, output ${_value(cost['outputPer1M'])}/1M, "
        f"usage multiplier {_value(cost['usageMultiplier'])} "
        f"({_value(cost['usageMultiplierSource'])}), effective {_cost(cost)}",
        f"Speed: {_value(speed['medianTokensPerSecond'])} tokens/s, "
        f"response time {_value(speed['responseTimeSec'], ' s')} per task",
        _task_source("Response time", data["speedSource"]),
        f"Cost per task: {_value(data['costPerTask']['usd'], ' USD')}",
        _task_source("Cost per task", data["costPerTask"]),
        f"Context window {_value(data['contextWindow'])} tokens, parameters "
        f"{_value(data['parametersB'], 'B')}, released {_value(data['releaseDate'])}"
        f"{_knowledge(data)}, open source {_value(data['openSource'])}",
        "Dimensions:",
        dimensions,
        f"Benchmark results ({len(results)}):",
        results,
        f"Reasoning configurations: {len(data['reasoningConfigurations'])}; "
        f"revisions: {len(data['revisions'])}",
        _history(data["history"]) if "history" in data else [],
        f"Profile: {data['url']}",
        _envelope(data),
    )


def _measured(data: Json) -> str:
    """` (provisional: 2 of N dimensions measured)` for a provisional composite (N: the
    dimension count)."""
    coverage = data.get("iqCoverage")
    if not data.get("provisional") or coverage is None:
        return _provisional(data)
    return (
        f" (provisional: {coverage['directDimensions']} of {coverage['totalDimensions']}"
        " dimensions measured)"
    )


def _history(points: list[Json]) -> list[str]:
    """A model's month ends: rank, IQ (provisional or not) and its 95% range (or unranked),
    oldest first."""
    rows = [
        f"- {p['date']}: "
        + (
            f"rank {p['rank']}, IQ {p['iq']}{_provisional(p)}{_range(p)}"
            if p["rank"] is not None
            else "unranked"
        )
        for p in points
    ]
    ends = "month end" if len(rows) == 1 else "month ends"
    return [f"History ({len(rows)} {ends}, replayed from the data):", *rows]


def _distinguishability(verdict: Json) -> list[str]:
    """Which compared pairs the rank bands separate at 95% confidence, and which not."""
    lines = [f"- {a} ranks above {b}" for a, b in verdict["distinguishable"]]
    lines += [f"- {a} and {b}: not distinguishable" for a, b in verdict["notDistinguishable"]]
    lines += [f"- {model_id}: unranked, no band" for model_id in verdict["unranked"]]
    if not lines:
        return []
    return ["By composite IQ at 95% confidence (rank bands that do not overlap):", *lines]


def comparison(data: Json) -> str:
    """The compared models, their best metrics, and any names that matched no model."""
    best = [f"- {metric}: {', '.join(ids)}" for metric, ids in data["best"].items()]
    missing = [
        f"- {query!r} is not a published model"
        + (f" (did you mean {', '.join(found)}?)" if (found := data["suggestions"][query]) else "")
        for query in data["missing"]
    ]
    return _lines(
        f"Comparing {len(data['compared'])} models:",
        [
            _model_row(model)
            + "; dimensions "
            + ", ".join(f"{slug} {_value(d['iq'])}" for slug, d in model["dimensions"].items())
            for model in data["compared"]
        ],
        "Best per metric (highest; lowest for effectivePer1M):" if best else [],
        best,
        _distinguishability(data["distinguishability"]),
        ["Not found:", *missing] if missing else [],
        _envelope(data),
    )


# --- rankings, benchmarks, domains, methodology ------------------------------


def ranking_list(data: Json) -> str:
    """The ranking catalog, one line per ranking."""
    rows = [
        f"- {r['id']}: {r['rankingName']} ({r['rankingType']}, {r['direction']}, "
        f"{r['modelCount']} models)"
        for r in data["rankings"]
    ]
    return _lines(f"{len(rows)} rankings (get_ranking gives the rows):", rows, _envelope(data))


def ranking_detail(data: Json) -> str:
    """One ranking, one line per ranked model."""
    unit = f", unit {data['unit']}" if "unit" in data else ""
    rows = [
        f"{row['rank']}. {row['name']} (id {row['id']}, {row['provider']}): "
        f"{_value(row['score'])}{' (imputed)' if row.get('imputed') else ''}"
        f"{_provisional(row)}{_band(row)}"
        for row in data["models"]
    ]
    return _lines(
        f"{data['rankingName']} (id {data['id']}; {data['rankingType']}, {data['direction']}"
        f"{unit}), {data['modelCount']} models:",
        rows,
        _envelope(data),
    )


def benchmark_list(data: Json) -> str:
    """The benchmarks of the scored dimensions, one line each."""
    rows = [
        f"- {b['id']}: {b['name']} (dimension {_value(b['dimension'])}, {b['direction']}, "
        f"unit {_value(b['unit'])}, source {b['sourceName']})"
        for b in data["benchmarks"]
    ]
    return _lines(f"{len(rows)} benchmarks:", rows, _envelope(data))


def domain_list(data: Json) -> str:
    """The domains, one line each."""
    rows = [f"- {d['id']}: {d['name']} ({d['benchmarkCount']} benchmarks)" for d in data["domains"]]
    return _lines(f"{len(rows)} domains (get_domain gives each one):", rows, _envelope(data))


def domain_detail(data: Json) -> str:
    """A domain's composite leaderboard, then its benchmarks."""
    leaders = [
        f"{position}. {entry['modelName']} (id {entry['model']}): composite IQ "
        f"{entry['compositeIQ']} ({entry['rankStatus']}, {entry['benchmarksCovered']}/"
        f"{entry['benchmarksTotal']} benchmarks)"
        for position, entry in enumerate(data["models"], start=1)
    ]
    benchmarks = [
        f"- {b['id']}: {b['name']} ({b['direction']}, {len(b['results'])} results, "
        f"source {b['source']['name']})"
        for b in data["benchmarks"]
    ]
    return _lines(
        f"Domain {data['name']} (id {data['id']})",
        "Leaderboard:",
        leaders,
        "Benchmarks:",
        benchmarks,
        _envelope(data),
    )


def methodology(data: Json) -> str:
    """The methodology's summary, rules, derived rankings and parameters."""
    derived = [
        f"- {r['id']}: {r['rankingName']} ({r['direction']}, field {r['scoreField']})"
        for r in data["derivedRankings"]
    ]
    parameters = ", ".join(f"{key} {_value(v)}" for key, v in data["parameters"].items())
    return _lines(
        f"Methodology {data['version']}: {data['summary']}",
        "Rules:",
        [f"{n}. {rule}" for n, rule in enumerate(data["rules"], start=1)],
        "Derived rankings:",
        derived,
        f"Parameters: {parameters}",
        f"Full text: {data['url']}",
        _envelope(data),
    )
