"""`/changes`: what changed, derived from the data only (never from the build's clock).

Three kinds of entry, each dated by the data and linking its page:
- `model_released`: a model's release date;
- `results_added`: a model's results dated in one month (one entry per model and month,
  dated by the newest of them; a result whose source gives no date counts from the model's
  release, and the summary names it), with its composite IQ and rank at the end of the month
  before and at the end of that month, from the replayed history, and whether each composite
  is provisional (said in the summary too);
- `methodology`: a dated entry of the methodology changelog.
Ids are built from the kind, the model and the date, so an entry keeps its id as
long as the data that made it stays. Newest first; ties by kind, then id (methodology
entries of one date in the changelog's order).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

import msgspec

from generator.api.contract import CHANGES, Change, ChangeList
from generator.api.urls import SiteConfig, methodology_page_url, model_page_url
from generator.documents.common import EnvelopeFields
from generator.input.records import ChangelogRecord, Dataset, ModelRecord
from generator.scoring.history import (
    Published,
    Snapshot,
    counts_from,
    month_end,
    publication_dates,
)

Standing = tuple[int | None, int | None, bool]  # (iq, rank, provisional) in one snapshot
UNRANKED: Standing = (None, None, False)


def changes_documents(
    dataset: Dataset, snapshots: Sequence[Snapshot], config: SiteConfig, env: EnvelopeFields
) -> dict[str, msgspec.Struct]:
    """`/changes`: every change, newest first."""
    return changes_of(dataset, {s.date: snapshot_standings(s) for s in snapshots}, config, env)


def changes_of(
    dataset: Dataset,
    standings: Mapping[dt.date, Mapping[str, Standing]],
    config: SiteConfig,
    env: EnvelopeFields,
) -> dict[str, msgspec.Struct]:
    """`/changes` from each snapshot's `snapshot_standings`, by date."""
    changes: list[Change] = []
    published = publication_dates(dataset.benchmarks)
    for model in dataset.models:
        changes.extend(_model_changes(model, standings, published, config))
    changes.sort(key=lambda c: c.id)
    changelog = dataset.methodology.changelog
    changes.extend(
        Change(
            id=change_id,
            kind="methodology",
            date=entry.date,
            title=f"Methodology {'breaking ' if entry.breaking else ''}change",
            summary=entry.text,
            url=methodology_page_url(config),
            model=None,
        )
        for change_id, entry in zip(methodology_ids(changelog), changelog, strict=True)
    )
    # Stable: entries of one date and kind keep the order above (the changelog's own).
    changes.sort(key=lambda c: (c.date, c.kind), reverse=True)
    return {CHANGES.path: ChangeList(**env, changes=changes)}


def methodology_ids(changelog: Sequence[ChangelogRecord]) -> list[str]:
    """`methodology:<date>:<n>`, n counting the entries of that date from the oldest.

    The changelog is newest first and grows at the top, so counting from the bottom never
    renames an entry already published (a feed reader would show it again as new).
    """
    counts: Counter[dt.date] = Counter()
    ids: list[str] = []
    for entry in reversed(changelog):
        ids.append(f"methodology:{entry.date.isoformat()}:{counts[entry.date]}")
        counts[entry.date] += 1
    return ids[::-1]


def snapshot_standings(snapshot: Snapshot) -> dict[str, Standing]:
    """Each model's (iq, rank, provisional) in `snapshot`."""
    return {m: (s.iq, s.rank, s.provisional) for m, s in snapshot.scores.models.items()}


def _previous_month_end(day: dt.date) -> dt.date:
    return day.replace(day=1) - dt.timedelta(days=1)


def _model_changes(
    model: ModelRecord,
    standings: Mapping[dt.date, Mapping[str, Standing]],
    published: Published,
    config: SiteConfig,
) -> list[Change]:
    url = model_page_url(config, model.id)
    changes = []
    if model.release_date is not None:
        changes.append(
            Change(
                id=f"released:{model.id}",
                kind="model_released",
                date=model.release_date,
                title=f"{model.name} released",
                summary=f"{model.name} by {model.provider} released on {model.release_date}.",
                url=url,
                model=model.id,
            )
        )
    by_month: dict[dt.date, list[tuple[dt.date, str, bool]]] = defaultdict(list)
    for r in model.results:  # in the month the history counts it from (`counts_from`)
        day = counts_from(r, published, model.release_date)
        by_month[month_end(day)].append((day, r.benchmark, r.as_of_kind == "not-before"))
    for end, dated in sorted(by_month.items()):
        before = standings.get(_previous_month_end(end), {}).get(model.id, UNRANKED)
        after = standings.get(end, {}).get(model.id, UNRANKED)
        ended = end in standings  # not when the month end lies after the newest date in the data
        changes.append(_results_added(model, url, max(dated)[0], dated, before, after, ended))
    return changes


def _results_added(
    model: ModelRecord,
    url: str,
    date: dt.date,
    dated: list[tuple[dt.date, str, bool]],
    before: Standing,
    after: Standing,
    ended: bool,
) -> Change:
    benchmarks = sorted({b for _, b, _ in dated})
    undated = sorted({b for _, b, not_before in dated if not_before})
    if not ended:
        effect = "their month has not ended by the newest date in the data"
    elif before == after == UNRANKED:
        effect = "no composite IQ or rank yet at the month end"
    else:
        effect = f"composite IQ {_iq(before)} -> {_iq(after)}, "
        effect += f"rank {_show(before[1])} -> {_show(after[1])} (month ends)"
    return Change(
        id=f"results:{model.id}:{date.strftime('%Y-%m')}",
        kind="results_added",
        date=date,
        title=f"{model.name}: {len(benchmarks)} new benchmark result{_plural(benchmarks)}",
        summary=f"New results on {', '.join(benchmarks)}; {effect}.{_undated(undated)}",
        url=url,
        model=model.id,
        iq_before=before[0],
        iq_after=after[0],
        rank_before=before[1],
        rank_after=after[1],
        provisional_before=before[2],
        provisional_after=after[2],
    )


def _undated(benchmarks: list[str]) -> str:
    """What the summary says of results dated by the model's release ("not before")."""
    if not benchmarks:
        return ""
    return f" Dated by the model's release (the source gives no date): {', '.join(benchmarks)}."


def _plural(items: Sequence[object]) -> str:
    return "s" if len(items) > 1 else ""


def _iq(standing: Standing) -> str:
    """A composite as the summary shows it: `none`, `125` or `125 (provisional)`."""
    return _show(standing[0], "none") + (" (provisional)" if standing[2] else "")


def _show(value: int | None, missing: str = "unranked") -> str:
    return missing if value is None else str(value)
