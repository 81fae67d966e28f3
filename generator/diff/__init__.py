"""`modelscores diff`: what a change does to the published site, for a reviewer."""
