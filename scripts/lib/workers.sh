# shellcheck shell=bash
# The pytest-xdist workers scripts/test runs (sourced): one more than the usable CPUs, so a
# worker waiting on a child (a server, netlify dev, Chromium) leaves its CPU to another.
# TEST_WORKERS=N overrides. bench/suite_times.sh times the suite with the same count.
test_workers() {
  if [ -n "${TEST_WORKERS:-}" ]; then
    printf '%s\n' "$TEST_WORKERS"
  else
    printf '%s\n' "$(($(nproc) + 1))"
  fi
}
