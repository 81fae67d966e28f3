"""The build pauses the cyclic garbage collector and restores it afterwards, even on error."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from generator import build
from generator.api.urls import SiteConfig
from generator.errors import DataError

DATA = Path(__file__).resolve().parents[1] / "data"


def test_collector_paused_during_the_build_and_restored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    real = build.load_dataset

    def spying(data_dir: Path, *args: Any) -> object:  # the records cache comes second
        seen.append(gc.isenabled())
        return real(data_dir, *args)

    monkeypatch.setattr(build, "load_dataset", spying)
    assert gc.isenabled()
    build.build_site(DATA, tmp_path / "out", SiteConfig())
    assert seen == [False]
    assert gc.isenabled()


def test_restored_after_a_failed_build(tmp_path: Path) -> None:
    with pytest.raises(DataError):
        build.build_site(tmp_path / "missing", tmp_path / "out", SiteConfig())
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    try:
        with build.gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
