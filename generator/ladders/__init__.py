"""Ladders the project fits itself (docs/METHODOLOGY.md 1.3): `modelscores ladders fit`."""
