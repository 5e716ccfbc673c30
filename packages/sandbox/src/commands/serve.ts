/**
 * `paykit-sandbox [options]` (in this repository `pnpm sandbox`): runs the sandbox until stopped. `--help` lists the options;
 * the sandbox README documents them. With `--data`, the state is loaded from that JSON file and written back to
 * it, so it survives a restart, and the start says what it loaded; `--seed platform` creates a platform, its
 * OAuth app and two merchants with owners, and prints them.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SandboxDataFileError } from '../data-file.js';
import { describeListenError, stopOnSignals } from '../process-lifetime.js';
import { SANDBOX_SEED } from '../seed.js';
import { seededPlatformIn, seedPlatform, type SeededPlatform } from '../seed-platform.js';
import { startSandbox, type RunningSandbox } from '../start.js';

const USAGE = `usage: paykit-sandbox [options]                  run the sandbox
       paykit-sandbox clock [advance <duration>]   read or move a business's clock (paykit-sandbox clock --help)
       paykit-sandbox trigger <event-type>         send an event on demand (paykit-sandbox trigger --help)

  --port <n>            port to listen on (default 4010; 0 picks a free one)
  --host <address>      interface to listen on (default 127.0.0.1)
  --data <file>         keep the state in this JSON file across restarts (created if missing)
  --seed platform       also create a platform, its OAuth app and two merchants with owners, and print them
  --redirect-uri <uri>  with --seed platform: the app's registered redirect URI (repeat for more)
  --help, -h            this text

Stops on Ctrl+C (SIGINT), SIGTERM or SIGHUP, and when the process that started it goes away.`;

/** Says what is wrong in one line (no stack trace) and exits: 2 for a wrong option, 1 for a start that failed. */
function fail(line: string, status = 2): never {
  console.error(line);
  process.exit(status);
}

/** Runs the sandbox with the options in `args` (the command line after `paykit-sandbox`) until stopped. */
export async function serve(args: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        data: { type: 'string' },
        seed: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const { values } = parsed;
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be a port number from 0 to 65535, not "${values.port}"`);
  if (values.data === '') fail('--data must name a file, e.g. --data .sandbox/state.json');
  if (values.seed !== undefined && values.seed !== 'platform')
    fail(`--seed takes "platform" (a platform, its OAuth app and two merchants), not "${values.seed}"`);
  const redirectUris = values['redirect-uri'] ?? [];
  if (values.seed === 'platform' && redirectUris.length === 0)
    fail("--seed platform needs the OAuth app's redirect URI: --redirect-uri http://localhost:3000/connected");
  if (values.seed === undefined && redirectUris.length > 0) fail('--redirect-uri is for --seed platform');

  // Whether the start loads a previous state (and so seeds nothing: what is loaded is said instead).
  const loading = values.data !== undefined && existsSync(values.data);
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({ port, host: values.host, ...(values.data ? { dataFile: values.data } : {}) });
  } catch (error) {
    // A data file it cannot use, a port in use: the user's to fix, said in one line without a stack trace.
    if (error instanceof SandboxDataFileError) fail(error.message, 1);
    const line = describeListenError(error, { [port]: `--port (now ${port})` });
    if (line) fail(line, 1);
    throw error;
  }
  // From here on a stop signal closes the sandbox, whatever it is doing (seeding included).
  stopOnSignals(() => sandbox.close());
  console.log(`paykit sandbox listening on ${sandbox.url}`);
  const { state, oauth } = sandbox.context;
  const demoStore = state.businesses.get(SANDBOX_SEED.businessId);
  if (loading) {
    const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
    console.log(
      `loaded ${values.data}: ${count(state.businesses.size, 'business', 'businesses')}, ` +
        `${count(oauth.users.size, 'user')}, ${count(oauth.apps.size, 'OAuth app')}, ` +
        `${count(state.paymentRequests.size, 'payment request')} (delete the file to start from the seed)`,
    );
  }
  if (demoStore)
    console.log(
      `${loading ? 'business' : 'seeded business'} "${demoStore.name}": X-BUSINESS-API-KEY: ${SANDBOX_SEED.apiKey}`,
    );
  console.log(`dashboard: ${sandbox.url}/dashboard/sign-in as ${sandbox.seed.ownerEmail} (no password in the sandbox)`);
  if (values.data && !loading) console.log(`state kept in ${values.data} (delete it to start from the seed)`);
  if (values.seed === 'platform') {
    // A restart from the data file finds the platform seeded before rather than making a second one.
    const kept = loading ? seededPlatformIn(sandbox.context) : undefined;
    if (kept) printPlatform(sandbox.url, kept, `kept in ${values.data}`);
    else printPlatform(sandbox.url, await seedPlatform(sandbox.url, redirectUris), 'seeded');
  }
}

/** What `--seed platform` made, as a platform developer needs it (the secrets are the sandbox's own). */
function printPlatform(url: string, seeded: SeededPlatform, how: string): void {
  const { platform, app, merchants } = seeded;
  console.log(`${how}: platform "${platform.name}" (business ${platform.id}): X-PLATFORM-KEY: ${platform.platformKey}`);
  const secret =
    app.clientSecret ??
    `as printed when it was seeded (POST ${url}/_sandbox/apps/${app.clientId}/secret makes a new one)`;
  console.log(
    `  OAuth app: client id ${app.clientId}, client secret ${secret}, redirect URI ` +
      `${app.redirectUris.join(' ')}, scopes ${app.scopes.join(' ')}`,
  );
  for (const merchant of merchants)
    console.log(
      `  merchant "${merchant.name}" (business ${merchant.id}): owner ${merchant.ownerEmail} signs in at ` +
        `${url}/dashboard/sign-in to approve the connection`,
    );
}
