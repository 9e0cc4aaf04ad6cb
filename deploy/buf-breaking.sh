#!/usr/bin/env bash
# buf breaking: the contracts must stay compatible with the last commit of main that had them,
# so a service can be deployed alone. On main itself that is the parent commit.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
base="${RDE_BREAKING_BASE:-}"
if [ -z "$base" ]; then
  if git rev-parse -q --verify origin/main >/dev/null && [ "$(git rev-parse HEAD)" != "$(git rev-parse origin/main)" ]; then
    base="$(git merge-base HEAD origin/main)"
  else
    base="$(git rev-parse -q --verify HEAD~1 || true)"
  fi
fi
if [ -z "$base" ] || ! git cat-file -e "$base:proto/buf.yaml" 2>/dev/null; then
  echo "buf breaking: no earlier contracts to compare with"
  exit 0
fi
cd proto
exec ./node_modules/.bin/buf breaking --against "$root/.git#ref=$base,subdir=proto"
