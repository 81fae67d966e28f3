"""Page keys that hold the digest of an API document's published bytes instead of the
encoded document (`generator/pages/render.py`, `_Renderer.page`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import msgspec
from support.paths import FIXTURE_DATA

from generator.api.contract import MODEL, ModelDetail
from generator.api.urls import SiteConfig
from generator.digests import content_digest
from generator.documents.assemble import build_documents, encode
from generator.input.load import load_dataset
from generator.pages.render import emit_pages
from generator.pages.reuse import Collect, RenderAll
from generator.scoring import compute_scores

Documents = dict[str, msgspec.Struct]


class _Keys(RenderAll):
    """Nothing kept: every page rendered, and the key it was asked by noted."""

    def __init__(self) -> None:
        self.keys: dict[str, bytes] = {}

    def kept(self, path: str, key: bytes) -> bytes | None:
        self.keys[path] = key
        return None


def _documents() -> Documents:
    dataset = load_dataset(FIXTURE_DATA)
    return build_documents(dataset, compute_scores(dataset), SiteConfig())


def _published(documents: Mapping[str, msgspec.Struct]) -> Callable[[str], bytes | None]:
    return lambda path: content_digest(encode(documents[path])) if path in documents else None


def _pages(
    documents: Documents, published: Callable[[str], bytes | None] | None
) -> tuple[dict[str, bytes], dict[str, bytes]]:
    keys, sink = _Keys(), Collect()
    emit_pages(documents, SiteConfig(), sink, outputs=keys, published=published)
    return keys.keys, sink.files


def _renamed(documents: Documents, model_id: str) -> Documents:
    path = MODEL.api_path(model_id)
    model = documents[path]
    assert isinstance(model, ModelDetail)
    return {**documents, path: msgspec.structs.replace(model, name=model.name + " II")}


def test_a_model_page_key_follows_its_published_document() -> None:
    documents = _documents()
    first, second = sorted(d.id for d in documents.values() if isinstance(d, ModelDetail))[:2]
    page = f"models/{first}/index.html"
    other = f"models/{second}/index.html"
    keys, files = _pages(documents, _published(documents))
    changed = _renamed(documents, first)
    keys_after, files_after = _pages(changed, _published(changed))
    assert keys_after[page] != keys[page]
    assert keys_after[other] == keys[other]
    assert files_after[page] != files[page]
    # The same pages as with every document encoded into the keys.
    plain_keys, plain_files = _pages(documents, None)
    assert plain_files == files
    assert plain_keys[page] != keys[page]  # the stand-in was used
