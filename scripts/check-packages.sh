#!/usr/bin/env bash
# Checks what npm would publish for each package (after `pnpm build`): publint --strict on the packed files,
# and "are the types wrong" on the tarball, for ESM-only packages (no CommonJS entry on purpose). Private
# packages (@paykit/test-support) are never published and are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
# The tarballs of this build (`name tarball` lines), packed once for the run (scripts/pack-local.ts packOnce): the
# consumer test and the runtime matrix install the same files.
tarballs=$(pnpm exec tsx scripts/pack-local.ts --once)
for dir in packages/*/; do
  name=$(node -p "require('./${dir}package.json').name")
  if [ "$(node -p "require('./${dir}package.json').private === true")" = true ]; then
    echo "== $name: private, not published, skipped"
    continue
  fi
  echo "== $name"
  (cd "$dir" && pnpm exec publint --pack pnpm --strict)
  tarball=$(awk -v name="$name" '$1 == name { print $2 }' <<<"$tarballs")
  [ -n "$tarball" ] || { echo "check-packages: packOnce packed no tarball for $name (scripts/pack-local.ts --once)" >&2; exit 1; }
  pnpm exec attw "$tarball" --profile esm-only --format table-flipped
done
