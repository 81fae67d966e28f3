# shellcheck shell=bash
# The pytest-xdist workers scripts/test runs (sourced): one more than the CPUs this process
# may run on, so a worker waiting on a child (a server, netlify dev, Chromium) leaves its CPU
# to another. (`nproc` would also follow OMP_NUM_THREADS and OMP_THREAD_LIMIT: unset here.)
# TEST_WORKERS=N (a whole number, 0: one process) overrides. bench/suite_times.sh times the
# suite with the same count.
test_workers() {
  if [ -z "${TEST_WORKERS:-}" ]; then
    printf '%s\n' "$(($(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) + 1))"
  elif [[ $TEST_WORKERS =~ ^[0-9]+$ ]]; then
    printf '%s\n' "$TEST_WORKERS"
  else
    printf 'TEST_WORKERS must be a whole number, not %q\n' "$TEST_WORKERS" >&2
    return 1
  fi
}
