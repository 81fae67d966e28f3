"""The weekly refresh's own steps (`scripts/ci/refresh-*`): downloading the upstream files."""
