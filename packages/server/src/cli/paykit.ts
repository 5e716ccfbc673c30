#!/usr/bin/env node
/**
 * `paykit reconcile`: runs `handler.reconcile` of the shop's own handler, for a cron job or a one-off catch-up
 * after an outage. The handler comes from a module of the shop's (its hooks decide what a fact does), which must
 * export it without starting a server:
 *
 * ```sh
 * paykit reconcile --handler ./dist/paykit.js --since 2h            # the last two hours
 * paykit reconcile --handler ./dist/paykit.js --since 2026-11-26T00:00:00Z --until 2026-11-26T06:00:00Z --json
 * paykit reconcile --handler ./dist/platform.js --since 2h --merchant <business id> --merchant <business id>
 * ```
 *
 * Exit status: 0 when the whole period was swept and every hook ran; 2 when it stopped early or a hook failed
 * (the next run carries on); 1 when it could not start (a wrong option, a module without a handler).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { PaykitHandler } from '../handler/create-handler.js';
import type { ReconcileReport } from '../facts/reconcile.js';
import { redact } from '../handler/logger.js';
import { rememberedSecrets } from '../secrets.js';

const USAGE =
  'usage: paykit reconcile --handler <module> [--export <name>] --since <2h | ISO date> [--until <...>] ' +
  '[--merchant <business id>]... [--deadline <seconds>] [--json]';

/** The commands there are. */
const COMMANDS = ['reconcile'] as const;

/** What `--help` prints: the usage and what each option means. */
const HELP = `${USAGE}

paykit reconcile: offers the payment requests of a period that are completed or failed, and not acted on yet, to
the onEvent hook of your handler (webhooks lost in an outage), through the handler's event store. That store must
be the one your server uses (FileEventStore on the same file, or createPostgresStores' stores.events).

  --handler <module>    a module exporting the value of createPaykitHandler(...) without starting a server
  --export <name>       the export to use (default: the default export, else "paykit")
  --since <when>        the start of the period: a duration before now (90m, 2h, 1d) or an ISO 8601 date
  --until <when>        the end of the period (default: now)
  --merchant <id>       a platform's connected merchant to sweep (repeat it)
  --deadline <seconds>  stop after this long and say it did not finish (default 60)
  --json                print the report as JSON
  --help                this text

Exit status: 0 swept and every hook ran; 2 stopped early or a hook failed (run again); 1 could not start.`;

/** A duration before now (`90m`, `2h`, `1d`) or a date, as ms since the epoch. */
function parseWhen(text: string, now = Date.now()): number | undefined {
  const ago = /^(\d+)(m|h|d)$/.exec(text.trim());
  // The pattern's second group is one of the three units.
  if (ago) return now - Number(ago[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[ago[2] as 'm' | 'h' | 'd'];
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at;
}

/** The report in one line, for a person reading a cron mail. */
function describeReport(report: ReconcileReport): string {
  const counts = [
    `${report.seen} seen`,
    `${report.acted} acted on now`,
    `${report.alreadyRecorded} already recorded`,
    `${report.inProgress} in progress elsewhere`,
    `${report.open} still open`,
    `${report.outsideRetention} before the event store remembers (not acted on: see the log)`,
    `${report.hookFailures} hook failures`,
  ].join(', ');
  const scope = `${report.merchants} merchant${report.merchants === 1 ? '' : 's'}, ${report.pages} pages`;
  const end = report.complete ? 'complete' : 'NOT complete: run again';
  const errors = report.errors.map((e) => `\n  ${e.merchant ?? 'shop'}: ${e.code}: ${e.message}`).join('');
  return `paykit reconcile ${report.since} .. ${report.until}: ${counts} (${scope}); ${end}${errors}`;
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (
    command === '--help' ||
    command === '-h' ||
    command === 'help' ||
    rest.includes('--help') ||
    rest.includes('-h')
  ) {
    console.log(HELP);
    return 0;
  }
  if (command !== 'reconcile') {
    console.error(
      command === undefined
        ? USAGE
        : `paykit: unknown command ${JSON.stringify(command)}; the commands are: ${COMMANDS.join(', ')}\n${USAGE}`,
    );
    return 1;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      handler: { type: 'string' },
      export: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      merchant: { type: 'string', multiple: true },
      deadline: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.handler || !values.since) {
    console.error(`--handler and --since are required\n${USAGE}`);
    return 1;
  }
  const since = parseWhen(values.since);
  const until = values.until === undefined ? undefined : parseWhen(values.until);
  if (since === undefined || (values.until !== undefined && until === undefined)) {
    console.error(`--since and --until take a duration before now (90m, 2h, 1d) or an ISO 8601 date\n${USAGE}`);
    return 1;
  }
  const deadlineSeconds = values.deadline === undefined ? undefined : Number(values.deadline);
  if (deadlineSeconds !== undefined && !(Number.isInteger(deadlineSeconds) && deadlineSeconds > 0)) {
    console.error('--deadline takes a whole number of seconds');
    return 1;
  }
  const handler = await loadHandler(values.handler, values.export);
  if (typeof handler === 'string') {
    console.error(handler);
    return 1;
  }
  const report = await handler.reconcile({
    since,
    ...(until === undefined ? {} : { until }),
    ...(values.merchant ? { merchants: values.merchant } : {}),
    ...(deadlineSeconds === undefined ? {} : { deadlineMs: deadlineSeconds * 1_000 }),
    // This process is not the shop's server: a store in memory would know nothing the server acted on.
    ownProcess: true,
  });
  console.log(values.json ? JSON.stringify(report, null, 2) : describeReport(report));
  return report.complete && report.hookFailures === 0 ? 0 : 2;
}

/** A handler made by createPaykitHandler: a function with `reconcile`. */
const isHandler = (value: unknown): value is PaykitHandler =>
  typeof value === 'function' && 'reconcile' in value && typeof value.reconcile === 'function';

/** The handler the module exports (`--export`, else `default`, else `paykit`), or what is wrong, in words. */
async function loadHandler(path: string, name: string | undefined): Promise<PaykitHandler | string> {
  let module: Record<string, unknown>;
  try {
    module = await import(pathToFileURL(resolve(path)).href);
  } catch (error) {
    return `--handler ${path} could not be imported: ${error instanceof Error ? error.message : String(error)}`;
  }
  const names = name === undefined ? ['default', 'paykit'] : [name];
  for (const each of names) {
    const value = module[each];
    if (isHandler(value)) return value;
  }
  return (
    `--handler ${path} exports no paykit handler as ${names.map((n) => `"${n}"`).join(' or ')}: export the ` +
    'value of createPaykitHandler(...) from a module that does not start a server'
  );
}

// Stores may hold connections open (a PostgreSQL pool): the sweep is done, so the process ends.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // The handler's own configuration (its keys) is remembered by now: the same masking as its log.
    console.error(
      `paykit reconcile failed: ${redact(error instanceof Error ? error.message : String(error), rememberedSecrets())}`,
    );
    process.exit(1);
  },
);
