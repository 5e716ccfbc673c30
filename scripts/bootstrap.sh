#!/usr/bin/env bash
# Makes a fresh machine ready for `npm run demo` and `npm test`: the pinned pnpm (through corepack), the
# workspace's dependencies, and with --browser, Debian's Chromium for the browser tests. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=false
[ "${1:-}" = "--browser" ] && want_browser=true

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
export COREPACK_ENABLE_DOWNLOAD_PROMPT=0

if [ "$(pnpm --version 2>/dev/null || true)" != "$pnpm_version" ]; then
  echo "bootstrap: installing pnpm $pnpm_version with corepack"
  # Corepack's bundled signing keys predate the current pnpm releases on this Node: skip that check only.
  if ! (COREPACK_INTEGRITY_KEYS=0 corepack enable pnpm && COREPACK_INTEGRITY_KEYS=0 corepack prepare "pnpm@$pnpm_version" --activate); then
    echo "bootstrap: corepack could not install pnpm; using npm instead"
    npm install --global "pnpm@$pnpm_version"
  fi
fi

if [ "${CI:-}" = "true" ] || [ ! -d node_modules/.pnpm ]; then
  pnpm install --frozen-lockfile
else
  pnpm install --frozen-lockfile --prefer-offline >/dev/null
fi

if $want_browser; then
  chrome=${CHROME_PATH:-/usr/bin/chromium}
  if [ ! -x "$chrome" ]; then
    echo "bootstrap: installing Debian's chromium (browser tests need it)"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
  fi
fi
