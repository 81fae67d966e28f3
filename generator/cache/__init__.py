"""The cache layer: the build's stages memoised by the digest of their inputs.

The stages below (`input`, `scoring`, `documents`, `pages`) are pure functions of their
inputs and know nothing of what is kept; `output` knows bytes and paths. This layer, above
them all and below the commands, keeps beside the site what a rebuild can reuse and
hands it to the stages through their memo protocols: the manifest (is the site current?
`manifest.py`), parsed records (`records.py`), the price-independent scores
(`scores.py`), the history's months and documents (`snapshots.py`, `history.py`) and every
output file by its key (`outputs.py`). `memo.BuildMemo` is what `generator/build.py` asks.
"""
