#!/usr/bin/env bash
# Times the two scripts on a clean clone of this checkout's HEAD, as a new user would run them:
#   cold: no .venv/, no .tools/, empty uv and npm caches (everything downloaded; the Debian
#         packages are whatever the machine has: apt-get is not undone);
#   warm: the same clone again, nothing changed.
# serve is timed until GET /api/v1/models answers; test until it exits. Prints a Markdown table
# (the README's development section quotes it) with the load average at each start.
#   bench/setup_times.sh [serve|test|both]   (test: about 10 minutes on 2 cores)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
WHAT=${1:-both}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PORT=${PORT:-8790}

clone() {
  git clone --quiet "$REPO" "$WORK/$1"
  mkdir -p "$WORK/cache-$1/uv" "$WORK/cache-$1/npm"
}

# run_env NAME CMD...: CMD in clone NAME with that clone's own (initially empty) caches.
run_env() {
  local name=$1; shift
  (cd "$WORK/$name" && PIP_NO_CACHE_DIR=1 UV_CACHE_DIR="$WORK/cache-$name/uv" npm_config_cache="$WORK/cache-$name/npm" "$@")
}

load() { cut -d' ' -f1 /proc/loadavg; }

time_serve() {
  local name=$1 start pid
  start=$(date +%s.%N)
  # shellcheck disable=SC2016  # $1 and $@ are the inner shell's
  setsid bash -c 'cd "$1" && shift && exec "$@"' _ "$WORK/$name" env PIP_NO_CACHE_DIR=1 UV_CACHE_DIR="$WORK/cache-$name/uv" \
    npm_config_cache="$WORK/cache-$name/npm" ./scripts/serve --port "$PORT" >"$WORK/serve-$name.log" 2>&1 &
  pid=$!
  until curl -sf -o /dev/null "http://127.0.0.1:$PORT/api/v1/models"; do
    kill -0 "$pid" 2>/dev/null || { cat "$WORK/serve-$name.log" >&2; exit 1; }
    sleep 0.05
  done
  echo "$(date +%s.%N) - $start" | bc
  kill -- -"$pid"; wait "$pid" 2>/dev/null || true
}

time_test() {
  local name=$1 start
  start=$(date +%s.%N)
  # The time counts whether or not every test passes; the summary line says which.
  run_env "$name" ./scripts/test >"$WORK/test-$name.log" 2>&1 || true
  echo "$(date +%s.%N) - $start" | bc
}

row() { printf '| %s | %s | %.1f s | %s | %s |\n' "$1" "$2" "$3" "$4" "${5:-}"; }
summary() { grep -E '^=+ .*(passed|failed).* =+$' "$WORK/test-$1.log" | tail -n 1 | tr -d '='; }

echo "| script | run | time | load (1 min) at start | result |"
echo "|---|---|---|---|---|"
if [ "$WHAT" != test ]; then
  clone serve
  l=$(load); t=$(time_serve serve); row "./scripts/serve (until it answers)" cold "$t" "$l"
  l=$(load); t=$(time_serve serve); row "./scripts/serve (until it answers)" warm "$t" "$l"
fi
if [ "$WHAT" != serve ]; then
  clone test
  l=$(load); t=$(time_test test); row "./scripts/test" cold "$t" "$l" "$(summary test)"
  l=$(load); t=$(time_test test); row "./scripts/test" warm "$t" "$l" "$(summary test)"
fi
