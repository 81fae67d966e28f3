"""Helpers for the reliability and security tests: the bad-data corpus and site manifests."""
