#!/usr/bin/env bash
# Times the test suite of this checkout's HEAD against an older commit, side by side on this
# machine: the whole suite and the test files both commits have, runs alternating (base, head,
# base, head...) so that both see the same load. Each commit gets a clean clone and its own
# .venv with the same package versions (HEAD's uv.lock; the base is installed with pip and that
# lock as constraints, as commits before uv were); both use this checkout's .tools/ (Node tools).
# HEAD runs as scripts/test runs it (scripts/lib/workers.sh: CPUs + 1 workers) and in one
# process; the base in one process.
# Prints a Markdown table: wall and CPU seconds (user + system, workers and children included),
# tests, and the load average at each start (docs/PERFORMANCE.md, "Test suite", quotes it).
#   bench/suite_times.sh BASE_REV [ROUNDS]   (one round: about 15 minutes on 2 quiet cores)
# LOGS=DIR keeps each run's pytest output there (its failures, its summary). WHOLE_ONLY=1 runs
# only the whole suite, base then HEAD as scripts/test runs it (about 4 minutes a round).
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: bench/suite_times.sh BASE_REV [ROUNDS]" >&2
  exit 2
fi
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/lib/workers.sh"
WORKERS=$(test_workers) || exit 2
BASE_REV=$1
ROUNDS=${2:-1}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

clone() {  # clone NAME REV
  git clone --quiet "$REPO" "$WORK/$1"
  git -C "$WORK/$1" checkout --quiet "$2"
  cp -a "$REPO/.tools" "$WORK/$1/.tools"
}

# The clones sit side by side in $WORK, so `../shared` (the upstream raw files the importer and
# refresh tests read) is linked there as it sits beside a checkout.
if [ -d "$REPO/../shared" ]; then
  ln -s "$(cd "$REPO/../shared" && pwd)" "$WORK/shared"
fi
clone head "$(git -C "$REPO" rev-parse HEAD)"
# As scripts/test sets HEAD up: its packages and its own modules compiled to bytecode (the base
# is installed with pip, which compiles the packages; its scripts compiled nothing else).
(cd "$WORK/head" && UV_COMPILE_BYTECODE=1 .tools/uv/bin/uv sync --quiet --locked --extra test &&
  .venv/bin/python -m compileall -q -j 0 generator mcp_server)
# and with its test modules as pytest rewrote them cached in tests/**/__pycache__, as after
# scripts/test's first run there (it runs pytest without PYTHONDONTWRITEBYTECODE; with it,
# each worker rewrote every test module at each run: about 4 CPU seconds a worker).
(cd "$WORK/head" && env -u PYTHONDONTWRITEBYTECODE .venv/bin/python -m pytest --collect-only -q \
  -p no:cacheprovider >/dev/null)
(cd "$WORK/head" && .tools/uv/bin/uv export --quiet --format requirements-txt --extra test \
  --no-hashes --no-emit-project >"$WORK/constraints.txt")
clone base "$(git -C "$REPO" rev-parse "$BASE_REV")"
python3 -m venv "$WORK/base/.venv"
"$WORK/base/.venv/bin/pip" install --quiet -c "$WORK/constraints.txt" -e "$WORK/base[test]"
# The test files both commits have, by name: a file may sit in a stage folder in one of them.
for tree in base head; do
  (cd "$WORK/$tree" && find tests -name 'test_*.py' -not -path 'tests/data/*' | sort) \
    >"$WORK/$tree-files.txt"
done
awk -F/ -v base="$WORK/common-base.txt" -v head="$WORK/common-head.txt" \
  'NR == FNR { path[$NF] = $0; next } ($NF in path) { print > base; print path[$NF] > head }' \
  "$WORK/head-files.txt" "$WORK/base-files.txt"

# run LABEL TREE PYTEST_ARGS...: one timed pytest run; prints a table row. HEAD runs as
# scripts/test runs it (without PYTHONDONTWRITEBYTECODE), the base as before.
run() {
  local label=$1 tree=$2 load unset=()
  shift 2
  [ "$tree" = head ] && unset=(-u PYTHONDONTWRITEBYTECODE)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  (cd "$WORK/$tree" && /usr/bin/time -f '%e %U %S' -o "$WORK/time" env "${unset[@]}" \
    .venv/bin/python -m pytest -q -p no:cacheprovider -rfs "$@" >"$WORK/out" 2>&1) || true
  if [ -n "${LOGS:-}" ]; then
    mkdir -p "$LOGS"
    cp "$WORK/out" "$LOGS/$(date +%H%M%S)-$tree.log"
  fi
  read -r wall user sys < <(tail -n 1 "$WORK/time")  # after "exited with status N", if any
  printf '| %s | %s | %.0f | %s | %s |\n' "$label" "$wall" "$(echo "$user + $sys" | bc)" \
    "$(tail -n 1 "$WORK/out" | tr -d '=')" "$load"
}

mapfile -t COMMON <"$WORK/common-base.txt"
mapfile -t COMMON_HEAD <"$WORK/common-head.txt"
echo "| run | wall s | CPU s | pytest's summary | load average at start (1, 5, 15 min) |"
echo "|---|---|---|---|---|"
for _ in $(seq "$ROUNDS"); do
  run "base $BASE_REV, whole suite" base
  run "HEAD, whole suite, $WORKERS workers" head -n "$WORKERS" --dist loadfile --no-loadscope-reorder
  [ -n "${WHOLE_ONLY:-}" ] && continue
  run "HEAD, whole suite, 1 process" head
  run "base, the ${#COMMON[@]} shared files" base "${COMMON[@]}"
  run "HEAD, the ${#COMMON[@]} shared files, $WORKERS workers" head -n "$WORKERS" --dist loadfile \
    --no-loadscope-reorder "${COMMON_HEAD[@]}"
  run "HEAD, the ${#COMMON[@]} shared files, 1 process" head "${COMMON_HEAD[@]}"
done
