/**
 * Where a serving process's CPU goes, per request, from a `.cpuprofile` of `bench/cpu-per-request.ts`'s server (of
 * the two `CPU.*.0.001.cpuprofile` files, the one whose name has the later time and pid: the other is the bench's
 * own, at times the larger): self time by area (paykit's own code, zod, undici, Node's other internals, the socket
 * writes, garbage collection), and with a second profile, the functions that differ most between the two. Self time
 * includes what V8 inlined into a function, so a small function can carry its callees.
 *
 * ```
 * node --import tsx --cpu-prof --cpu-prof-dir=/tmp/handler bench/cpu-per-request.ts --requests 20000 --rounds 1 --paths handler
 * node --import tsx --cpu-prof --cpu-prof-dir=/tmp/proxy bench/cpu-per-request.ts --requests 20000 --rounds 1 --paths proxy
 * pnpm exec tsx bench/cpu-profile-breakdown.ts --requests 40000 <server's of /tmp/handler> [<server's of /tmp/proxy>]
 * ```
 * `--requests` is every request the server answered while profiled: the warm-up's and the measured ones (2 x
 * `--requests` of cpu-per-request for one round). The profiler itself adds to every figure; compare, do not quote.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  options: { requests: { type: 'string' }, top: { type: 'string', default: '30' } },
  allowPositionals: true,
});
const requests = Number(values.requests);
if (!Number.isInteger(requests) || requests <= 0 || positionals.length < 1 || positionals.length > 2) {
  console.error('usage: cpu-profile-breakdown.ts --requests N <profile> [<profile to compare with>]');
  process.exit(2);
}

/** A source address as short as still tells it apart: the package path under node_modules, the repo path. */
function shortUrl(url: string): string {
  return url.replace(/^.*node_modules\/(\.pnpm\/)?/, 'npm:').replace(/^file:\/\/.*?\/(packages|bench|demo)\//, '$1/');
}

/** The area a function belongs to. */
function areaOf({ url, functionName }: ProfileNode['callFrame']): string {
  // The server runs as a bundle of paykit's modules (cpu-per-request.ts), or its TypeScript with `--tsx`.
  if (url.includes('/packages/') || url.includes('/paykit-entries/')) return 'paykit';
  if (url.includes('/zod/')) return 'zod';
  if (url.includes('/pg') && url.includes('node_modules')) return 'pg';
  if (url.includes('undici')) return 'undici';
  if (url.startsWith('node:')) return 'node (other internals)';
  if (url === '') return functionName || '(native)';
  return `other: ${shortUrl(url)}`;
}

/** Self time per request (µs) by key, without idle time. */
function selfTimes(file: string, key: (frame: ProfileNode['callFrame']) => string): Map<string, number> {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const total = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  const perSample = total / profile.samples.length / requests;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const times = new Map<string, number>();
  for (const sample of profile.samples) {
    const frame = nodes.get(sample)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    const name = key(frame);
    times.set(name, (times.get(name) ?? 0) + perSample);
  }
  return times;
}

const sum = (times: Map<string, number>) => [...times.values()].reduce((a, b) => a + b, 0);
const µs = (value: number) => value.toFixed(1).padStart(7);
const [first, second] = positionals as [string, string | undefined];

const areas = [first, second].flatMap((file) => (file ? [selfTimes(file, areaOf)] : []));
console.log(`busy CPU per request (µs): ${areas.map((times) => sum(times).toFixed(0)).join(' against ')}\n`);
const areaNames = [...new Set(areas.flatMap((times) => [...times.keys()]))].sort(
  (a, b) => (areas[0]!.get(b) ?? 0) - (areas[0]!.get(a) ?? 0),
);
for (const name of areaNames.slice(0, 20)) console.log(areas.map((times) => µs(times.get(name) ?? 0)).join(''), name);

if (second) {
  const functionKey = (frame: ProfileNode['callFrame']) =>
    `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
  const [a, b] = [selfTimes(first, functionKey), selfTimes(second, functionKey)];
  const rows = [...new Set([...a.keys(), ...b.keys()])]
    .map((name) => ({ name, a: a.get(name) ?? 0, b: b.get(name) ?? 0 }))
    .sort((x, y) => y.a - y.b - (x.a - x.b));
  console.log('\nfunctions costing the first profile most over the second (difference, first, second; µs per request)');
  for (const row of rows.slice(0, Number(values.top)))
    console.log(`${µs(row.a - row.b)}${µs(row.a)}${µs(row.b)} ${row.name}`);
}
