"""Stage 5: write the built files into `site_out/` atomically."""
