#!/usr/bin/env bash
# Makes a machine ready for `npm run demo` and `npm test`: the pnpm that package.json pins (through
# corepack, or npm when corepack cannot), the workspace's dependencies, with --browser the three browsers of
# the browser tests (Debian's chromium-headless-shell, firefox-esr and webkit2gtk-driver with xvfb, installed with apt-get when
# missing; $CHROME_PATH / $FIREFOX_PATH instead), and
# with --runtimes the runtimes of the server's matrix (Node 22 and 24, Bun, Deno, workerd; see
# test/runtimes/runtimes.json) from the npm registry into ~/.cache/paykit/runtimes ($PAYKIT_RUNTIMES_DIR).
# Idempotent, and silent when everything is already there.
#
#   bash scripts/bootstrap.sh [--browser] [--runtimes]
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "bootstrap: $*" >&2; }
die() {
  echo "bootstrap: error: $*" >&2
  exit 1
}

want_browser=false
want_runtimes=false
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=true ;;
    --runtimes) want_runtimes=true ;;
    -h | --help)
      sed -n '2,10s/^# \{0,1\}//p' "$0"
      exit 0
      ;;
    *) die "unknown argument \"$arg\" (usage: bash scripts/bootstrap.sh [--browser] [--runtimes])" ;;
  esac
done

command -v node >/dev/null || die "Node.js is not on PATH: install Node 20.19 or newer"
# The same floor as package.json's engines: older Nodes fail later with errors that do not say why.
node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' ||
  die "Node $(node -p process.versions.node) is too old: install Node 20.19 or newer (package.json engines: >=20.19)"

# --- pnpm, at the version package.json pins -------------------------------------------------------------
pnpm_version=$(node -p "require('./package.json').packageManager.replace(/^pnpm@/, '').split('+')[0]")
# Corepack's bundled signing keys predate current pnpm releases on Node 20: skip that check (and its prompt).
export COREPACK_INTEGRITY_KEYS=0 COREPACK_ENABLE_DOWNLOAD_PROMPT=0

pnpm_found() { pnpm --version 2>/dev/null || true; }

if [ "$(pnpm_found)" != "$pnpm_version" ]; then
  say "installing pnpm $pnpm_version (found: $(pnpm_found | grep . || echo none))"
  if command -v corepack >/dev/null &&
    corepack enable pnpm && corepack prepare "pnpm@$pnpm_version" --activate >/dev/null &&
    hash -r && [ "$(pnpm_found)" = "$pnpm_version" ]; then
    say "pnpm $pnpm_version enabled by corepack at $(command -v pnpm)"
  else
    if command -v corepack >/dev/null; then
      say "corepack could not provide pnpm $pnpm_version; installing it with npm instead"
    else
      say "no corepack on this Node; installing pnpm $pnpm_version with npm"
    fi
    npm install --global --no-fund --no-audit --loglevel=error "pnpm@$pnpm_version" >/dev/null ||
      die "could not install pnpm $pnpm_version: run \`corepack enable pnpm\` or \`npm install --global pnpm@$pnpm_version\` with the rights to write $(dirname "$(command -v npm)")"
    hash -r
  fi
  found=$(pnpm_found)
  [ "$found" = "$pnpm_version" ] ||
    die "pnpm $pnpm_version was installed but \`pnpm\` on PATH is ${found:-missing}${found:+ at $(command -v pnpm)}: put $(npm prefix --global)/bin first on PATH"
fi

# --- the workspace's dependencies ------------------------------------------------------------------------
if [ ! -f node_modules/.modules.yaml ]; then
  say "installing dependencies (pnpm install --frozen-lockfile)"
  pnpm install --frozen-lockfile
else
  # Usually a no-op in well under a second; its output matters only when it fails.
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  if ! pnpm install --frozen-lockfile --prefer-offline >"$log" 2>&1; then
    cat "$log" >&2
    die "pnpm install failed (see above)"
  fi
fi

# --- the runtimes of the matrix (test/runtimes/runtimes.json), from the npm registry -----------------------
# Each package at its pinned version in a folder of its own under the cache, reused by every clone; a folder
# counts as installed once its binary has answered --version (the .installed stamp), so an interrupted install
# is redone. A failure names the runtime and the step.
if $want_runtimes; then
  runtimes_dir=${PAYKIT_RUNTIMES_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/paykit/runtimes}
  mkdir -p "$runtimes_dir" || die "cannot create the runtimes folder $runtimes_dir (set PAYKIT_RUNTIMES_DIR to another)"
  while IFS='|' read -r label package version bin; do
    dir="$runtimes_dir/$package@$version"
    [ -f "$dir/.installed" ] && [ -x "$dir/$bin" ] && continue
    say "installing $label: $package@$version into $dir"
    rm -rf "$dir" && mkdir -p "$dir" && echo '{ "private": true }' >"$dir/package.json" ||
      die "runtime $label: step 'create $dir' failed"
    npm install --prefix "$dir" --no-fund --no-audit --no-package-lock --loglevel=error "$package@$version" >/dev/null ||
      die "runtime $label: step 'npm install $package@$version' failed (see above; the npm registry must be reachable)"
    [ -x "$dir/$bin" ] ||
      die "runtime $label: step 'find the binary' failed: $package@$version installed but $dir/$bin is missing (did npm skip its install script?)"
    found=$("$dir/$bin" --version 2>&1) ||
      die "runtime $label: step 'run $bin --version' failed: $found"
    echo "$found" >"$dir/.installed"
    say "$label ready: $(echo "$found" | head -n 1)"
  done < <(node -e '
    for (const r of require("./test/runtimes/runtimes.json").runtimes)
      console.log([r.label, r.package, r.version, r.bin].join("|"));
  ')
fi

# --- the browsers of the browser and end-to-end tests: Chromium, Firefox ESR, WebKitGTK ---------------------------
# Debian's, each from its package (builds that download themselves cannot be fetched on these machines):
# chromium-headless-shell (Chromium built as the headless shell, a third of the full browser's CPU for the same
# tests; $CHROME_PATH instead when set), firefox-esr (driven over WebDriver BiDi, no driver needed), webkit2gtk-driver
# (WebKitWebDriver and MiniBrowser) and xvfb (MiniBrowser has no headless mode). One apt-get for what is missing.
if $want_browser; then
  if [ -n "${CHROME_PATH:-}" ] && [ ! -x "$CHROME_PATH" ]; then
    die "CHROME_PATH=$CHROME_PATH is not an executable; unset it to use Debian's /usr/bin/chromium-headless-shell"
  fi
  missing=()
  [ -n "${CHROME_PATH:-}" ] || [ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
  [ -n "${FIREFOX_PATH:-}" ] || [ -x /usr/lib/firefox-esr/firefox-esr ] || missing+=(firefox-esr)
  command -v WebKitWebDriver >/dev/null || missing+=(webkit2gtk-driver)
  command -v xvfb-run >/dev/null || missing+=(xvfb)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian's ${missing[*]} for the browser tests (apt-get install)"
    command -v apt-get >/dev/null ||
      die "missing ${missing[*]} and no apt-get: install them (or set CHROME_PATH / FIREFOX_PATH to the browsers)"
    if [ "$(id -u)" -eq 0 ]; then
      as_root=()
    elif command -v sudo >/dev/null; then
      as_root=(sudo)
    else
      die "installing ${missing[*]} needs root: run \`apt-get install -y ${missing[*]}\` as root"
    fi
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    [ -n "${CHROME_PATH:-}" ] || [ -x /usr/bin/chromium-headless-shell ] ||
      die "apt-get installed chromium-headless-shell but /usr/bin/chromium-headless-shell is missing; set CHROME_PATH"
    [ -n "${FIREFOX_PATH:-}" ] || [ -x /usr/lib/firefox-esr/firefox-esr ] ||
      die "apt-get installed firefox-esr but /usr/lib/firefox-esr/firefox-esr is missing; set FIREFOX_PATH"
    command -v WebKitWebDriver >/dev/null || die "apt-get installed webkit2gtk-driver but WebKitWebDriver is not on PATH"
    command -v xvfb-run >/dev/null || die "apt-get installed xvfb but xvfb-run is not on PATH"
    say "browsers ready: ${missing[*]}"
  fi
fi
