/**
 * The sandbox's clock (issue 37): how long moving a business's clock a year takes when a monthly subscription
 * falls due twelve times on the way, each cycle a charge and two signed deliveries (the notification to the
 * record's `webhook`, `charge.created` to an endpoint) answered by a receiver on 127.0.0.1 before the next cycle.
 * Everything is real HTTP against a sandbox started here; the figure is the advance call's wall time.
 */
import { startSandbox } from '@paykit/sandbox';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Wall times of `runs` year-long advances (a fresh subscription each), and what each produced. */
export async function measureClockAdvance(
  runs: number,
): Promise<{ ms: number[]; charges: number; deliveries: number }> {
  let deliveries = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries += 1;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const sandbox = await startSandbox({ port: 0 });
  const post = async (path: string, body: unknown, form = false) => {
    const response = await fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: {
        'x-business-api-key': sandbox.seed.apiKey,
        'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      },
      body: form ? String(body) : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const ms: number[] = [];
  let charges = 0;
  try {
    await post('/_sandbox/webhook-endpoints', {
      business_id: sandbox.seed.businessId,
      url: `${hook}/events`,
      event_types: ['charge.created'],
    });
    for (let run = 0; run < runs; run += 1) {
      const clock = (await (
        await fetch(`${sandbox.url}/_sandbox/businesses/${sandbox.seed.businessId}/clock`)
      ).json()) as {
        now: string;
      };
      const tomorrow = new Date(Date.parse(clock.now) + 8 * 3_600_000 + 86_400_000).toISOString().slice(0, 10);
      const record = await post('/v1/recurring-billing', {
        name: 'Coffee club',
        amount: 9.9,
        cycle: 'monthly',
        customer_email: 'ann@example.test',
        start_date: tomorrow,
        times_to_be_charged: 12,
        webhook: `${hook}/notify`,
      });
      await fetch(String(record.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'card_number=4242424242424242&outcome=save',
        redirect: 'manual',
      });
      const started = performance.now();
      const moved = await post(`/_sandbox/businesses/${sandbox.seed.businessId}/clock/advance`, {
        seconds: 365 * 86_400,
      });
      ms.push(performance.now() - started);
      charges += (moved.happened as { type: string }[]).filter((e) => e.type === 'charge.succeeded').length;
    }
  } finally {
    await sandbox.close();
    await new Promise((resolve) => receiver.close(resolve));
  }
  return { ms, charges, deliveries };
}
