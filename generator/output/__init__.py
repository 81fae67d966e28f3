"""Stage 6 (output), bytes and paths only: the atomic write of `site_out/` (and its spare
tree), the worker pool, and the files kept beside the site. The caches that know what the
bytes mean are the layer above (`generator/cache/`)."""
