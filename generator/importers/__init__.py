"""`modelscores import`: data/ refreshed from its upstream files (data/sources/<id>.toml).

One adapter module per upstream format reads the raw files as untrusted input
(`upstream`); `matching` maps upstream model keys to our models; `merge` picks each
model's best row per benchmark and applies it to a copy of data/ (pinned values win);
`newmodels` drafts or publishes models we do not have; `run` validates the copy and
swaps it in; `report` says what changed and why.
"""
