#!/usr/bin/env bash
# What `npm run demo` builds before it starts the servers: the elements' script-tag files and the demo's React and
# Vue apps. PAYKIT_DEMO_PREBUILT=1 skips it when both are already built: the tests that start `npm run demo` to
# stop it with signals (test/stop-and-ports.test.ts) set it, so that a build emptying packages/elements/dist does
# not race the other tests reading it.
set -euo pipefail
if [ "${PAYKIT_DEMO_PREBUILT:-}" = 1 ] && [ -f packages/elements/dist/paykit.js ] && [ -d demo/dist/examples ]; then
  exit 0
fi
pnpm --filter @paykit/elements build
pnpm --filter @paykit/demo build
