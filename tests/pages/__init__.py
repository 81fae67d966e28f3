"""Page and browser tests (a package, so that conftest.py's package fixtures end with it)."""
