/**
 * `pnpm bench`: prints every figure of BENCHMARKS.md beside its budget. Byte budgets are enforced (exit code 1
 * when one is broken); time figures are reported, never asserted.
 *
 * `pnpm bench [--only sizes|browser|handler|runtimes|refresh|clock|drivers|instances|outage] [--seconds N]`
 */
import { parseArgs } from 'node:util';
import { measureBrowserTimings } from './browser-timing.js';
import { measureBundles } from './bundle-sizes.js';
import { measureClockAdvance } from './clock-advance.js';
import { measureHandlerThroughput, type LoadFigures } from './handler-throughput.js';
import { measureInstances } from './instances.js';
import { measureRuntimes } from './runtime-throughput.js';
import { measurePostgresDrivers } from './postgres-drivers.js';
import { reportStoreOutage } from './store-outage.js';
import { measureDigestCost } from './digest-cost.js';
import { measureTokenRefresh } from './token-refresh.js';

const { values } = parseArgs({ options: { only: { type: 'string' }, seconds: { type: 'string', default: '5' } } });
const wanted = (section: string) => values.only === undefined || values.only === section;
let failed = false;

/** paykit's own code in `paykit.js` (every element), over the bare one-property Lit element: bytes of gzip. */
const OWN_CODE_BUDGET = 4_500;

if (wanted('sizes')) {
  console.log('\n## Bytes a page downloads (Vite, minified ES module; gzip -9, brotli q11)');
  console.log('| bundle | min | gzip | brotli | gzip budget |\n|---|---|---|---|---|');
  const sizes = await measureBundles();
  for (const size of sizes) {
    const verdict = size.budget === undefined ? '' : `${size.budget} ${size.gzip <= size.budget ? 'ok' : 'BROKEN'}`;
    console.log(`| ${size.name} | ${size.minified} | ${size.gzip} | ${size.brotli} | ${verdict} |`);
    if (size.budget !== undefined && size.gzip > size.budget) failed = true;
    if (size.leaks.length > 0) {
      // Other elements' code, a diagnostic in a production bundle (or one missing from the development build), or a
      // script-tag file that loads more than itself.
      console.log(`BROKEN: "${size.name}" fails its checks: ${size.leaks.join(', ')}`);
      failed = true;
    }
  }
  const all = sizes.find((size) => size.name.includes('all elements'));
  const floor = sizes.find((size) => size.name.startsWith('floor'));
  if (all && floor) {
    const own = all.gzip - floor.gzip;
    const verdict = own <= OWN_CODE_BUDGET ? 'ok' : 'BROKEN';
    console.log(`\npaykit's own code over the bare Lit floor: ${own} B gzip (budget ${OWN_CODE_BUDGET}: ${verdict})`);
    if (own > OWN_CODE_BUDGET) failed = true;
  }
}

if (wanted('browser')) {
  console.log('\n## Headless Chromium, median of 20 loads');
  const t = await measureBrowserTimings(20);
  const row = (what: string, ms: number, floor: number) =>
    console.log(`| ${what} | ${ms.toFixed(2)} | ${floor.toFixed(2)} | ${(ms / floor).toFixed(2)} |`);
  console.log('| measure | paykit ms | bare Lit ms | ratio |\n|---|---|---|---|');
  row('script start to first element rendered', t.renderPaykit, t.renderBare);
  row('click to navigation start: pay button (backend answers at once)', t.clickPay, t.clickBare);
  row('click to navigation start: connect button (PKCE included)', t.clickConnect, t.clickBare);
}

if (wanted('handler')) {
  const seconds = Number(values.seconds);
  console.log(
    `\n## Server handler: POST /payment-requests, 10 connections, ${seconds} one-second rounds each, 127.0.0.1`,
  );
  console.log(
    '| sandbox | path | req/s | p99 ms | event-loop delay p99 ms | bench process CPU µs/request | non-2xx |\n|---|---|---|---|---|---|---|',
  );
  const ratios: string[] = [];
  for (const where of ['same process', 'own process'] as const) {
    const { sandbox, proxy, handler } = await measureHandlerThroughput(seconds, where);
    const row = (path: string, load: LoadFigures) =>
      console.log(
        `| ${where} | ${path} | ${load.requestsPerSecond.toFixed(0)} | ${load.p99Ms.toFixed(1)} | ${load.loopDelayP99Ms?.toFixed(1) ?? ''} | ${load.cpuUsPerRequest?.toFixed(0) ?? ''} | ${load.non2xx} |`,
      );
    row('sandbox alone (POST /v1/payment-requests)', sandbox);
    row('bare proxy: node:http + fetch -> sandbox, no paykit', proxy);
    row('handler via node adapter -> sandbox', handler);
    ratios.push(
      `sandbox in ${where}: handler / bare proxy ${(handler.requestsPerSecond / proxy.requestsPerSecond).toFixed(2)} (throughput, goal >= 0.85), ` +
        `${(handler.p99Ms / Math.max(proxy.p99Ms, 1)).toFixed(2)} (p99, goal <= 1.5), ` +
        `${((proxy.cpuUsPerRequest ?? 0) / Math.max(handler.cpuUsPerRequest ?? 1, 1e-9)).toFixed(2)} (bench process CPU per request, proxy / handler)`,
    );
    if (handler.non2xx > 0 || sandbox.non2xx > 0) failed = true;
  }
  for (const line of ratios) console.log(line);
}

if (wanted('runtimes')) {
  const seconds = Number(values.seconds);
  console.log(
    `\n## The handler on each runtime: POST /payment-requests, 10 connections, ${seconds} one-second rounds each, sandbox in its own process`,
  );
  console.log(
    '| runtime | bare proxy req/s | handler req/s | throughput ratio | bare proxy p99 ms | handler p99 ms | p99 ratio | non-2xx |\n|---|---|---|---|---|---|---|---|',
  );
  for (const { runtime, proxy, handler } of await measureRuntimes(seconds)) {
    console.log(
      `| ${runtime} | ${proxy.requestsPerSecond.toFixed(0)} | ${handler.requestsPerSecond.toFixed(0)} | ` +
        `${(handler.requestsPerSecond / proxy.requestsPerSecond).toFixed(2)} | ${proxy.p99Ms.toFixed(1)} | ` +
        `${handler.p99Ms.toFixed(1)} | ${(handler.p99Ms / Math.max(proxy.p99Ms, 1)).toFixed(2)} | ${proxy.non2xx + handler.non2xx} |`,
    );
    if (handler.non2xx > 0) failed = true;
  }
}

if (wanted('refresh')) {
  console.log('\n## Token refresh: 1,000 concurrent callers on an expired token');
  const figures = await measureTokenRefresh(1000);
  console.log(
    `callers ${figures.callers}, token endpoint requests ${figures.tokenRequests} (goal 1), API requests ${figures.apiRequests}, ${figures.elapsedMs.toFixed(0)} ms`,
  );
  if (figures.tokenRequests !== 1) failed = true;
}

if (wanted('clock')) {
  console.log('\n## Sandbox clock: a year of a monthly plan (12 charges, 24 signed deliveries to 127.0.0.1), 5 runs');
  const figures = await measureClockAdvance(5);
  const sorted = [...figures.ms].sort((a, b) => a - b);
  console.log(
    `advance 365 days: median ${sorted[2]!.toFixed(0)} ms, slowest ${sorted[4]!.toFixed(0)} ms (goal under 2,000); ` +
      `${figures.charges} charges and ${figures.deliveries} deliveries in all`,
  );
}

if (wanted('drivers')) {
  console.log(
    '\n## PostgreSQL drivers: the same stores, 5,000 ops per workload, 20 in flight, pool of 10 (median of 3 rounds)',
  );
  console.log(
    '| driver | idempotency claim+complete/s | p99 ms | connection get()/s | p99 ms |\n|---|---|---|---|---|',
  );
  for (const figures of await measurePostgresDrivers()) {
    const { idempotency: i, connectionGet: g } = figures;
    console.log(
      `| ${figures.driver} | ${i.opsPerSecond.toFixed(0)} | ${i.p99Ms.toFixed(1)} | ${g.opsPerSecond.toFixed(0)} | ${g.p99Ms.toFixed(1)} |`,
    );
  }
}

if (wanted('instances')) {
  const seconds = Number(values.seconds);
  console.log(
    `\n## Shared stores: POST /paykit/payment-requests (new Idempotency-Key each), 10 connections, ${seconds} s`,
  );
  const figures = await measureInstances(seconds);
  console.log('| stores | req/s | p99 ms | non-2xx |\n|---|---|---|---|');
  for (const [name, load] of [
    ['memory (one process)', figures.memory],
    ['PostgreSQL (shared)', figures.postgres],
  ] as const) {
    console.log(`| ${name} | ${load.requestsPerSecond.toFixed(0)} | ${load.p99Ms.toFixed(1)} | ${load.non2xx} |`);
  }
  console.log(
    `PostgreSQL / memory: ${(figures.postgres.requestsPerSecond / figures.memory.requestsPerSecond).toFixed(2)} (throughput), ${(figures.postgres.p99Ms / Math.max(figures.memory.p99Ms, 1)).toFixed(2)} (p99)`,
  );
  const r = figures.refresh;
  console.log(
    `\n${r.processes} processes x ${r.calls / r.processes} concurrent calls on an expired token: ${r.tokenRequests} token request(s) (goal 1), ${r.failedCalls} failed call(s), ${r.wallMs.toFixed(0)} ms until every call was answered`,
  );
  if (r.tokenRequests !== 1 || r.failedCalls > 0 || figures.memory.non2xx > 0 || figures.postgres.non2xx > 0)
    failed = true;
}

if (wanted('outage')) await reportStoreOutage();

if (wanted('digest')) {
  const cost = await measureDigestCost();
  console.log('\n## One SHA-256 of an idempotency scope, CPU per digest (`pnpm bench --only digest`)');
  console.log(
    `| Web Crypto | ${cost.webCrypto.toFixed(1)} µs |\n| node:crypto createHash | ${cost.createHash.toFixed(1)} µs |`,
  );
  console.log(
    `A keyed checkout makes three: ${(3 * (cost.webCrypto - cost.createHash)).toFixed(0)} µs of CPU per request saved where the runtime hands out node:crypto (handler/idempotency.ts).`,
  );
}

process.exit(failed ? 1 : 0);
