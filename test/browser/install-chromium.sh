#!/usr/bin/env bash
# Debian's chromium for the browser suites (decision 0068): installed once with apt-get, never a
# browser download. Prints its version; playwright-core in test/package.json is pinned beside it.
set -euo pipefail
chromium="${RDE_CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "browser tests: installing Debian's chromium (first run only)" >&2
  sudo=
  ((EUID == 0)) || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
"$chromium" --version
