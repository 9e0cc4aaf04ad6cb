#!/usr/bin/env bash
# Installs what RDE needs to build and run from a fresh clone, then builds it. Idempotent and
# quick when nothing changed: pnpm's store and tsc's incremental build do the caching.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

pnpm_version="$(node -p "require('./package.json').packageManager.split('@')[1]")"
pnpm="$root/.tools/node_modules/.bin/pnpm"
# Package scripts call pnpm by name.
export PATH="$root/.tools/node_modules/.bin:$PATH"

# pnpm pinned by packageManager, installed beside the project (no global install, no corepack).
if [ ! -x "$pnpm" ] || [ "$("$pnpm" --version)" != "$pnpm_version" ]; then
  echo "bootstrap: installing pnpm $pnpm_version" >&2
  npm install --prefix "$root/.tools" --no-save --no-package-lock "pnpm@$pnpm_version" >/dev/null
fi

# The browser suites drive Debian's chromium (decision 0068): no package may download a browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
"$pnpm" install --frozen-lockfile --reporter=silent >&2
"$pnpm" run --silent build >&2
