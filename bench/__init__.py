"""Performance benchmarks: synthetic data, build timing and sidecar load (docs/PERFORMANCE.md)."""
