"""Stage 6 (output): the caches beside the site, the worker pool, and the atomic write of
`site_out/`."""
