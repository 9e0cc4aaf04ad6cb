#!/usr/bin/env bash
# Prints a Node 22 binary for the tools that need it (the MCP conformance CLI, the `skills` CLI):
# this machine's node when it is 22 or newer, else a pinned Node 22 from the npm registry, installed
# once under .tools/ (its progress on stderr).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
node22_version=22.23.3
if [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 22 ]; then
  command -v node
  exit 0
fi
platform="$(node -p 'process.platform + "-" + process.arch')"
node_bin="$root/.tools/node-$node22_version/node_modules/node-$platform/bin/node"
if [ ! -x "$node_bin" ]; then
  echo "installing Node $node22_version into .tools/node-$node22_version" >&2
  npm install --silent --no-save --no-package-lock --prefix "$root/.tools/node-$node22_version" \
    "node-$platform@$node22_version" >/dev/null
fi
echo "$node_bin"
