"""modelscores: a static JSON API of AI model scores."""

import os

# numpy's OpenBLAS starts a thread per CPU when it is imported, and each spins for about 0.1
# CPU second before it sleeps. The scoring calls no BLAS routine (numpy's elementwise code
# only) and a build spreads its work over processes, so those threads only cost: a build of
# tests/data took 0.52 CPU s with them, 0.39 without. Set before any module imports numpy
# (only generator/scoring/ does); a value the caller set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
