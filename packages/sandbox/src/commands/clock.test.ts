/**
 * `paykit-sandbox clock`, spawned as a process against a started sandbox: it prints a business's now, moves it
 * forward and prints what happened on the way, and every problem is one line with exit status 2 (a wrong
 * argument) or 1 (a sandbox that refused or is not there).
 */
import { nodeEntry } from '@paykit/test-support/node-entry';
import { freePort } from '@paykit/test-support/loopback';
import { call, submitPageForm } from '@paykit/test-support/sandbox-calls';
import { createBusiness } from '@paykit/test-support/sandbox-control';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

const cli = await nodeEntry(new URL('../cli.ts', import.meta.url));
const DAY_MS = 86_400_000;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [] } });
});
afterAll(() => sandbox.close());

/** Runs `paykit-sandbox clock …args` against the started sandbox (unless `--sandbox` is given). */
async function clock(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const withSandbox = args.includes('--sandbox') ? args : [...args, '--sandbox', sandbox.url];
  const child = spawn(process.execPath, [cli, 'clock', ...withSandbox], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out, err };
}

const clockOf = async (businessId: string) =>
  Date.parse((await call(sandbox, 'GET', `/_sandbox/businesses/${businessId}/clock`)).body.now as string);

describe('paykit-sandbox clock', () => {
  it("prints the business's now, as the control API reads it", async () => {
    const { businessId } = sandbox.seed;
    const before = await clockOf(businessId);
    const { code, out, err } = await clock('--business', businessId);
    expect([code, err]).toEqual([0, '']);
    const match = new RegExp(`^business ${businessId}: (\\S+)\\n$`).exec(out);
    expect(match, out).not.toBeNull();
    const printed = Date.parse(match![1]!);
    expect(printed).toBeGreaterThanOrEqual(before);
    expect(printed).toBeLessThanOrEqual((await clockOf(businessId)) + 1);
  });

  it('advance 30d moves that business 30 days, printing from -> to and the cycle it charged on the way', async () => {
    const business = await createBusiness(sandbox, { name: 'Coffee Roasters' });
    const seededBefore = await clockOf(sandbox.seed.businessId);
    const tomorrow = new Date((await clockOf(business.id)) + 8 * 3_600_000 + DAY_MS).toISOString().slice(0, 10);
    const made = await call(sandbox, 'POST', '/v1/recurring-billing', {
      apiKey: business.api_key,
      json: {
        name: 'Beans monthly',
        amount: 24,
        cycle: 'monthly',
        customer_email: 'ann@example.test',
        start_date: tomorrow,
        times_to_be_charged: 1,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    await submitPageForm(made.body.url as string, 'card_number=4242424242424242&outcome=save');

    const { code, out, err } = await clock('advance', '30d', '--business', business.id);
    expect([code, err]).toEqual([0, '']);
    const [head, ...happened] = out.trim().split('\n');
    const moved = new RegExp(`^business ${business.id}: (\\S+) -> (\\S+)$`).exec(head ?? '');
    expect(moved, out).not.toBeNull();
    // Thirty days on, plus the real milliseconds the walk took: a business clock keeps running.
    const span = Date.parse(moved![2]!) - Date.parse(moved![1]!);
    expect(span).toBeGreaterThanOrEqual(30 * DAY_MS);
    expect(span).toBeLessThan(30 * DAY_MS + 10_000);
    // The first cycle falls due at 00:00 in Singapore on its start date; the API's stamps are written in UTC.
    const dueAt = `${new Date(`${tomorrow}T00:00:00+08:00`).toISOString().slice(0, 19)}+00:00`;
    expect(happened).toEqual([
      `  ${dueAt}  charge.succeeded  recurring billing ${made.body.id as string}, cycle 1 of 1: SGD 24.00 charged`,
    ]);
    expect(await clockOf(business.id)).toBeGreaterThanOrEqual(Date.parse(moved![2]!));
    expect(
      (
        await call(sandbox, 'GET', `/v1/recurring-billing/${made.body.id as string}`, {
          apiKey: business.api_key,
        })
      ).body,
    ).toMatchObject({ times_charged: 1 });
    // Another business's clock stayed where it was.
    expect((await clockOf(sandbox.seed.businessId)) - seededBefore).toBeLessThan(DAY_MS);

    const quiet = await clock('advance', '1h', '--business', business.id);
    expect([quiet.code, quiet.out.trim().split('\n')[1]]).toEqual([0, '  nothing was due on the way']);
  });

  it('exits 2 with one line naming the duration format for a duration it cannot read', async () => {
    const before = await clockOf(sandbox.seed.businessId);
    const { code, out, err } = await clock('advance', '3x');
    expect([code, out]).toEqual([2, '']);
    expect(err).toBe('"3x" is not a duration: write a whole number and a unit, s, m, h, d or w (30d is thirty days)\n');
    expect((await clockOf(sandbox.seed.businessId)) - before).toBeLessThan(DAY_MS);
  });

  it("exits 1 with the sandbox's refusal for --to before the business's now", async () => {
    const now = await clockOf(sandbox.seed.businessId);
    const earlier = new Date(now - DAY_MS).toISOString();
    const { code, out, err } = await clock('advance', '--to', earlier);
    expect([code, out]).toEqual([1, '']);
    expect(err).toMatch(
      new RegExp(
        `^the sandbox refused \\(422\\): A clock only moves forward: ${earlier.replaceAll('.', '\\.')} is not after `,
      ),
    );
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  it('exits 1 saying to start a sandbox when none answers at the address', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const { code, out, err } = await clock('--sandbox', nobody);
    expect([code, out]).toEqual([1, '']);
    expect(err).toBe(
      `no sandbox answers at ${nobody}: start one with \`paykit-sandbox\`, or give its address with --sandbox <url>\n`,
    );
  });
});
