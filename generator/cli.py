"""The `modelscores` command line. Parses options, calls the core and wires the MCP sidecar
(`mcp_server/`) to it: the core never imports the sidecar. No logic here."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import click
from click.decorators import FC

from generator.api.urls import DEFAULT_BASE_URL

if TYPE_CHECKING:
    from starlette.types import ASGIApp

DATA_DIR = click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("data"),
    show_default=True,
    help="Directory of hand-edited data files.",
)
OUT_DIR = click.option(
    "--out-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("site_out"),
    show_default=True,
    help="Directory the built site is written to (swapped in atomically).",
)
HOST = click.option(
    "--host", default="127.0.0.1", show_default=True, help="Interface to listen on."
)


def _port(default: int) -> Callable[[FC], FC]:
    return click.option(
        "--port",
        type=click.IntRange(0, 65535),
        default=default,
        show_default=True,
        help="Port to listen on.",
    )


def _base_url(default: str | None) -> Callable[[FC], FC]:
    """`--base-url`; without a default (serve) it is the address served."""
    shown = "" if default else " [default: http://HOST:PORT, the address served]"
    return click.option(
        "--base-url",
        default=default,
        show_default=default is not None,
        envvar="MODELSCORES_BASE_URL",
        help=f"Public base URL the site is served from; every `url` field starts with it.{shown}",
    )


MCP_ORIGIN = click.option(
    "--mcp-origin",
    default=None,
    envvar="MODELSCORES_MCP_ORIGIN",
    help="Origin of the deployed MCP sidecar; /api/mcp is proxied to it.",
)
ISSUES_URL = click.option(
    "--issues-url",
    default=None,
    envvar="MODELSCORES_ISSUES_URL",
    help="New-issue URL of the issue tracker (e.g. https://github.com/OWNER/REPO/issues/new); "
    "each model page links prefilled reports of a wrong value to it.",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="modelscores")
def cli() -> None:
    """Build and serve a static JSON API of AI model scores."""


@cli.command()
@DATA_DIR
def check(data_dir: Path) -> None:
    """Validate data/ and print a short summary."""
    from generator.input.load import summarize

    click.echo(summarize(data_dir).describe())


@cli.command()
@DATA_DIR
@OUT_DIR
@_base_url(DEFAULT_BASE_URL)
@MCP_ORIGIN
@ISSUES_URL
def build(
    data_dir: Path, out_dir: Path, base_url: str, mcp_origin: str | None, issues_url: str | None
) -> None:
    """Build the site (JSON API, OpenAPI, pages, hosting rules) from data/ into --out-dir."""
    from generator.api.urls import site_config
    from generator.cache.report import up_to_date_report

    config = site_config(base_url, mcp_origin, issues_url)
    report = up_to_date_report(data_dir, out_dir, config)  # before importing the pipeline
    if report is None:
        from generator.build import build_site

        report = build_site(data_dir, out_dir, config)
    click.echo(report.describe())


@cli.command()
@DATA_DIR
@OUT_DIR
@_base_url(None)
@MCP_ORIGIN
@ISSUES_URL
@HOST
@_port(8000)
@click.option("--no-build", is_flag=True, help="Serve --out-dir as it is, without building.")
def serve(
    data_dir: Path,
    out_dir: Path,
    base_url: str | None,
    mcp_origin: str | None,
    issues_url: str | None,
    host: str,
    port: int,
    no_build: bool,
) -> None:
    """Build the site if needed, then serve it (API, pages, MCP) like the static host does."""
    from generator.api.urls import site_config
    from generator.launch import listen, run_app
    from generator.serve import create_app, prepare_site

    with listen(host, port) as sock:  # a port in use fails before the build, not after
        served = f"http://{host}:{sock.getsockname()[1]}"
        config = site_config(base_url or served, mcp_origin, issues_url)  # default: as served
        report = prepare_site(data_dir, out_dir, config, build=not no_build)
        if report is not None:
            click.echo(report.describe())
        else:
            skipped = "--no-build" if no_build else "data unchanged"
            click.echo(f"{out_dir}: not rebuilt ({skipped})")
        run_app(create_app(out_dir, _sidecar(out_dir)), sock, served + "/")


@cli.command()
@DATA_DIR
@click.argument("model")
def explain(data_dir: Path, model: str) -> None:
    """Print how every score of MODEL (an id) was computed."""
    from generator.explain import explain_model
    from generator.input.load import load_dataset
    from generator.scoring import compute_scores

    dataset = load_dataset(data_dir)
    click.echo(explain_model(dataset, compute_scores(dataset), model))


@cli.command()
@click.argument("base")
@click.argument("new")
@click.option(
    "--format",
    "output",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
    help="markdown: for a pull request comment or a CI job summary.",
)
@click.option("--fail-on-change", is_flag=True, help="Exit 1 when anything changed.")
def diff(
    base: str, new: str, output: Literal["text", "markdown", "json"], fail_on_change: bool
) -> None:
    """Print what changed from BASE to NEW: models, scores, ranks, costs, domains, benchmarks,
    methodology. Each is a built site, a data directory (built first) or git:REV (data/ at
    that revision of this repository, built first). Exits 0 unless --fail-on-change."""
    import tempfile

    from generator.diff.changes import compare
    from generator.diff.report import render
    from generator.diff.sources import snapshot_of

    with tempfile.TemporaryDirectory(prefix="modelscores-diff-") as scratch:
        sides = [snapshot_of(side, Path(scratch)) for side in (base, new)]
    result = compare(*sides)
    click.echo(render(result, output), nl=False)
    if fail_on_change and result.changed:
        raise SystemExit(1)


@cli.command(name="import")
@DATA_DIR
@click.option(
    "--raw",
    "raw_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("raw"),
    show_default=True,
    help="Folder of downloaded upstream files (paths as data/sources/*.toml name them); the"
    " refresh fills raw/ (scripts/ci/refresh-download raw), git-ignored.",
)
@click.option(
    "--report",
    "report_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the report to this file, its folder made if needed (build/ is git-ignored).",
)
@click.option(
    "--format",
    "output",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
    help="Report format.",
)
@click.option(
    "--dry-run", is_flag=True, help="Run every check, report what would change; write nothing."
)
@click.option(
    "--accept",
    "accept",
    multiple=True,
    metavar="SOURCE",
    help="Let this source's rows remove over a quarter of its results, or change the scale"
    " of most of its values (each stops the import otherwise); the report says so.",
)
def import_(
    data_dir: Path,
    raw_dir: Path,
    report_file: Path | None,
    output: Literal["text", "markdown", "json"],
    dry_run: bool,
    accept: tuple[str, ...],
) -> None:
    """Refresh data/ from its sources' upstream files (data/sources/*.toml): best published
    row per benchmark, new models, prices; pinned values are kept. Validates the whole new
    tree before writing anything, and prints a report of every change and conflict."""
    from generator.importers.report import render
    from generator.importers.run import run_import

    text = render(run_import(data_dir, raw_dir, dry_run=dry_run, accept=accept), output)
    if report_file is not None:
        try:
            report_file.parent.mkdir(parents=True, exist_ok=True)  # a run's artefact, e.g. build/
            report_file.write_text(text, encoding="utf-8")
        except OSError as exc:
            message = f"{report_file}: cannot write the report ({exc.strerror})"
            raise click.ClickException(message) from None
    click.echo(text, nl=False)


@cli.group()
def ladders() -> None:
    """Ladders the project fits itself (docs/METHODOLOGY.md 1.3)."""


@ladders.command(name="fit")
@DATA_DIR
@click.argument("benchmarks", nargs=-1, required=True)
@click.option(
    "--as-of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Fit on the results dated on or before this day. [default: the stored fit's date,"
    " else the newest result on the benchmark]",
)
@click.option(
    "--write",
    is_flag=True,
    help="Store each ladder and its fit in data/benchmarks/<id>.toml (never over a hand-set"
    " ladder); a fit that is not used leaves the benchmark unscored.",
)
@click.option(
    "--round",
    "fit_round",
    type=click.IntRange(1, 100),
    default=None,
    help="The fitting round: targets from the hand-set ladders and the stored fitted ladders"
    " of lower rounds only. [default: the stored fit's round, else 1]",
)
def ladders_fit(
    data_dir: Path,
    benchmarks: tuple[str, ...],
    as_of: dt.datetime | None,
    write: bool,
    fit_round: int | None,
) -> None:
    """Fit, check and print the ladder of each of BENCHMARKS (ids) against the models'
    leave-benchmark-out direct estimates from the hand-set ladders and the fitted ladders of
    lower rounds."""
    from generator.ladders.run import fit_benchmarks

    day = as_of.date() if as_of is not None else None
    click.echo(fit_benchmarks(data_dir, benchmarks, day, write, fit_round), nl=False)


@ladders.command(name="status")
@DATA_DIR
def ladders_status(data_dir: Path) -> None:
    """List every benchmark's ladder: hand-set, fitted (with its fit) or none (unscored)."""
    from generator.input.load import load_dataset
    from generator.ladders.status import ladder_status

    click.echo("\n".join(ladder_status(load_dataset(data_dir))))


@cli.command()
@click.option(
    "--site-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("site_out"),
    show_default=True,
    help="The built site to serve (a new build swapped in is picked up without a restart).",
)
@HOST
@_port(8001)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    help="Host header value to accept (repeatable; `name:*` = any port). Default: localhost.",
)
@click.option(
    "--allowed-origin",
    "allowed_origins",
    multiple=True,
    help="Browser Origin to accept (repeatable; `*` = any). Default: http://localhost.",
)
def mcp(
    site_dir: Path,
    host: str,
    port: int,
    allowed_hosts: tuple[str, ...],
    allowed_origins: tuple[str, ...],
) -> None:
    """Serve the MCP sidecar (nine read-only tools) at /api/mcp over the built site."""
    from generator.api.urls import MCP_PATH
    from generator.launch import listen, run_app

    with listen(host, port) as sock:
        url = f"http://{host}:{sock.getsockname()[1]}{MCP_PATH}"
        run_app(_sidecar(site_dir, allowed_hosts or None, allowed_origins or None), sock, url)


def _sidecar(
    site_dir: Path,
    allowed_hosts: tuple[str, ...] | None = None,
    allowed_origins: tuple[str, ...] | None = None,
) -> ASGIApp:
    """The MCP sidecar over the build in `site_dir`, started from it loaded once, or
    `ServeError` unless `site_dir` holds a complete, valid build (before uvicorn starts)."""
    from generator.launch import BUILD_HINT, ServeError
    from mcp_server.app import create_app
    from mcp_server.site import SiteError, load_snapshot

    try:
        first = load_snapshot(site_dir)
    except SiteError as exc:
        raise ServeError(f"{exc}; {BUILD_HINT}") from None
    return create_app(site_dir, allowed_hosts, allowed_origins, first=first)
