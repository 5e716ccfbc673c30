/**
 * `paykit-sandbox clock`: reads a business's clock, or moves it forward on a running sandbox and prints what
 * happened on the way (the control API's `/_sandbox/businesses/{id}/clock`).
 */
import { parseArgs } from 'node:util';
import { SANDBOX_SEED } from '../seed.js';
import { callSandbox, CommandError, DEFAULT_SANDBOX_URL } from './control-client.js';

const USAGE = `usage: paykit-sandbox clock [--business <id>]                       print the business's clock
       paykit-sandbox clock advance <duration> [--business <id>]    move it forward, e.g. 30d, 12h, 90m, 45s, 2w
       paykit-sandbox clock advance --to <date-time> [--business <id>]

  --business <id>   the business whose clock it is (default: the seeded business, ${SANDBOX_SEED.businessId})
  --to <date-time>  move to this instant (ISO 8601, e.g. 2027-11-29T00:00:00Z) instead of by a duration
  --sandbox <url>   the running sandbox (default ${DEFAULT_SANDBOX_URL})
  --help, -h        this text

A clock only moves forward. Everything time-based of that business follows it, in order, as if the time had
passed: recurring billing cycles, payment requests' expiry, its OAuth codes and tokens, webhook retries,
transfers and payouts.`;

/** Units a duration may be given in, in seconds. Months and years are not units: their length varies. */
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 };

/** `30d` → 2,592,000; a duration that is not `<whole number><s|m|h|d|w>` is a {@link CommandError}. */
export function durationSeconds(text: string): number {
  const match = /^(\d+)([smhdw])$/.exec(text.trim());
  const unit = match?.[2] === undefined ? undefined : UNIT_SECONDS[match[2]];
  if (!match || unit === undefined || Number(match[1]) === 0) {
    throw new CommandError(
      `"${text}" is not a duration: write a whole number and a unit, s, m, h, d or w (30d is thirty days)`,
      2,
    );
  }
  return Number(match[1]) * unit;
}

/** What `POST …/clock/advance` answers (the sandbox README, "Clocks"). */
interface AdvanceAnswer {
  business_id: string;
  from: string;
  now: string;
  happened: { at: string; type: string; object_id: string; summary: string }[];
}

/** Runs `paykit-sandbox clock …` with the arguments after `clock`. */
export async function run(args: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        business: { type: 'string', default: SANDBOX_SEED.businessId },
        to: { type: 'string' },
        sandbox: { type: 'string', default: DEFAULT_SANDBOX_URL },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new CommandError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const path = `_sandbox/businesses/${encodeURIComponent(values.business)}/clock`;
  const [action, duration, ...extra] = positionals;
  if (action === undefined) {
    if (values.to !== undefined)
      throw new CommandError('--to goes with advance: paykit-sandbox clock advance --to …', 2);
    const { now } = (await callSandbox(values.sandbox, 'GET', path)) as { now: string };
    console.log(`business ${values.business}: ${now}`);
    return;
  }
  if (action !== 'advance') throw new CommandError(`unknown clock action "${action}"\n${USAGE}`, 2);
  if (extra.length) throw new CommandError(`advance takes one duration, not "${[duration, ...extra].join(' ')}"`, 2);
  if ((duration === undefined) === (values.to === undefined)) {
    throw new CommandError('advance takes either a duration (30d) or --to <date-time>, one of the two', 2);
  }
  const body = duration === undefined ? { to: values.to } : { seconds: durationSeconds(duration) };
  const answer = (await callSandbox(values.sandbox, 'POST', `${path}/advance`, body)) as AdvanceAnswer;
  console.log(`business ${answer.business_id}: ${answer.from} -> ${answer.now}`);
  if (!answer.happened.length) console.log('  nothing was due on the way');
  for (const event of answer.happened) console.log(`  ${event.at}  ${event.type}  ${event.summary}`);
}
