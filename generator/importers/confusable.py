"""Names that look alike: the confusable skeleton of Unicode Technical Standard 39.

`Claude` and `Сlaude` (a Cyrillic Es) differ to a program and not to a reader: NFKC folds
neither into the other. Two names with the same skeleton (ICU's `uspoof_getSkeleton`, from
the PyICU package, the `refresh` extra) after NFKC, case and space folding are duplicates.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Any

from generator.importers.upstream import UpstreamError


@cache
def _checker() -> Any:
    try:
        import icu  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        needs = "needs PyICU for confusable names: pip install 'modelscores[refresh]'"
        raise UpstreamError([f"modelscores import: {needs}"]) from None
    return icu.SpoofChecker()


def looks(name: str) -> str:
    """What `name` looks like: equal for names a reader cannot tell apart."""
    folded = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    return str(_checker().getSkeleton(0, folded)).casefold()
