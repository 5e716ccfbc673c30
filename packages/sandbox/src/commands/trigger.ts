/**
 * `paykit-sandbox trigger <event-type>`: sends one event of a business on a running sandbox, about an object that
 * exists (`--object`) or a fresh one made for it, to the business's endpoints that listen or to `--to`, in every
 * format the service uses for it, signed with the business's salt (the control API's `/_sandbox/webhooks/trigger`).
 * `--print-salt` prints only the salt a receiver checks them with.
 */
import { isWebhookEventType, webhookEventTypes } from '@paykit/core';
import { parseArgs } from 'node:util';
import { SANDBOX_SEED } from '../seed.js';
import { callSandbox, CommandError, DEFAULT_SANDBOX_URL } from './control-client.js';

const USAGE = `usage: paykit-sandbox trigger <event-type> [--business <id>] [--object <id>] [--to <url>]
       paykit-sandbox trigger --print-salt [--business <id>]

  <event-type>      one of ${webhookEventTypes.join(', ')}
  --business <id>   the business whose event it is (default: the seeded business, ${SANDBOX_SEED.businessId})
  --object <id>     the object it is about (default: a fresh one made for it, named in the output)
  --to <url>        send every format there instead of to the business's endpoints and the object's webhook
  --print-salt      print only the business's salt (what its deliveries are signed with) and send nothing
  --sandbox <url>   the running sandbox (default ${DEFAULT_SANDBOX_URL})
  --help, -h        this text

A payment request's completion or failure, and a saved card's charge, also go as the payment notification (a
form with hmac). Every delivery is in the sandbox's log (GET /_sandbox/webhook-deliveries) and retried like any other.`;

/** A delivery as the sandbox answers it, what the output shows of it. */
interface DeliveryLine {
  format: string;
  url: string;
  status: string;
  response_status: number | null;
  last_error: string | null;
}

/** What `POST /_sandbox/webhooks/trigger` answers (the sandbox README, "Events on demand"). */
interface TriggerAnswer {
  event_type: string;
  business_id: string;
  object: { kind: string; id: string; fresh: boolean };
  deliveries: DeliveryLine[];
}

/** Runs `paykit-sandbox trigger …` with the arguments after `trigger`. */
export async function run(args: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        business: { type: 'string', default: SANDBOX_SEED.businessId },
        object: { type: 'string' },
        to: { type: 'string' },
        'print-salt': { type: 'boolean', default: false },
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
  const [type, ...extra] = positionals;
  if (values['print-salt']) {
    if (type !== undefined || values.object !== undefined || values.to !== undefined) {
      throw new CommandError('--print-salt prints the salt and sends nothing: give it alone, with --business', 2);
    }
    const path = `_sandbox/businesses/${encodeURIComponent(values.business)}/salt`;
    const { salt } = (await callSandbox(values.sandbox, 'GET', path)) as { salt: string };
    console.log(salt);
    return;
  }
  if (type === undefined) throw new CommandError(`name the event to send\n${USAGE}`, 2);
  if (extra.length) throw new CommandError(`trigger sends one event, not "${positionals.join(' ')}"`, 2);
  if (!isWebhookEventType(type)) {
    throw new CommandError(`"${type}" is not an event the service sends: one of ${webhookEventTypes.join(', ')}`, 2);
  }
  const body = {
    business_id: values.business,
    event_type: type,
    ...(values.object === undefined ? {} : { object_id: values.object }),
    ...(values.to === undefined ? {} : { url: values.to }),
  };
  const answer = (await callSandbox(values.sandbox, 'POST', '_sandbox/webhooks/trigger', body)) as TriggerAnswer;
  const made = answer.object.fresh ? ' (made for this event)' : '';
  console.log(`${answer.event_type} about ${answer.object.kind.replace('_', ' ')} ${answer.object.id}${made}`);
  for (const delivery of answer.deliveries)
    console.log(`  ${delivery.format} -> ${delivery.url}: ${outcome(delivery)}`);
}

/** `delivered (200)`, `failed (401)`, `pending (connect ECONNREFUSED …), retrying`. */
function outcome(delivery: DeliveryLine): string {
  const said = delivery.response_status ?? delivery.last_error ?? 'no answer yet';
  return delivery.status === 'pending' ? `not delivered yet (${said}), retrying` : `${delivery.status} (${said})`;
}
