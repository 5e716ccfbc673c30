/**
 * `--seed platform` (issue 26, item 3): what it makes is enough for a platform's first two connects, with nothing
 * else created by hand: each merchant's owner approves the seeded app at its redirect URI, the printed client
 * secret exchanges the code, and the tokens act for that merchant; and the command line prints it, and after a
 * restart from its data file prints what it loaded and the platform kept there, not a second seed.
 */
import { nodeEntry } from '@paykit/test-support/node-entry';
import { call } from '@paykit/test-support/sandbox-calls';
import { approveOnSandbox, exchangeCodeOnSandbox } from '@paykit/test-support/sandbox-oauth';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedPlatform, SEEDED_PLATFORM } from './seed-platform.js';
import { startSandbox } from './start.js';

const cli = await nodeEntry(new URL('./cli.ts', import.meta.url));

const REDIRECT = 'http://localhost:3000/return';

describe('seedPlatform', () => {
  it('makes a platform whose app both merchants’ owners can connect, and whose key acts for them', async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const seeded = await seedPlatform(sandbox.url, [REDIRECT]);
      expect(seeded.merchants.map((m) => m.name)).toEqual(['Harbour Cafe', 'Lantern Books']);
      for (const merchant of seeded.merchants) {
        const owner = sandbox.context.oauth.userByEmail(merchant.ownerEmail)!;
        const approval = await approveOnSandbox(sandbox, {
          userId: owner.id,
          clientId: seeded.app.clientId,
          redirectUri: REDIRECT,
          scope: SEEDED_PLATFORM.scopes.join(' '),
          businessId: merchant.id,
        });
        const tokens = await exchangeCodeOnSandbox(
          sandbox,
          { client_id: seeded.app.clientId, client_secret: seeded.app.clientSecret! },
          { code: approval.code, redirectUri: REDIRECT },
        );
        expect(tokens.status).toBe(200);
        const info = await call(sandbox, 'GET', '/v1/info', {
          apiKey: null,
          headers: {
            authorization: `Bearer ${tokens.body.access_token}`,
            'x-platform-key': seeded.platform.platformKey,
          },
        });
        expect(info.body.name).toBe(merchant.name);
      }
    } finally {
      await sandbox.close();
    }
  });

  it('gives each merchant a history a merchant view can show: paid and failed payments, a refund, a payout', async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const seeded = await seedPlatform(sandbox.url, [REDIRECT]);
      const [harbour, lantern] = seeded.merchants.map((m) => sandbox.context.state.businesses.get(m.id)!);
      const charges = async (apiKey: string) =>
        (
          (await call(sandbox, 'GET', '/v1/charges', { apiKey })).body.data as {
            status: string;
            refunded_amount: number;
          }[]
        )
          .map((c) => [c.status, c.refunded_amount])
          .sort();
      expect(await charges(harbour!.apiKey)).toEqual(
        [
          ['failed', 0],
          ['partially_refunded', 5],
          ['succeeded', 0],
          ['succeeded', 0],
        ].sort(),
      );
      expect(await charges(lantern!.apiKey)).toEqual([
        ['succeeded', 0],
        ['succeeded', 0],
      ]);
      const payouts = sandbox.context.state.resources.list('payouts', harbour!.id);
      expect(payouts).toHaveLength(1);
      expect(payouts[0]).toMatchObject({ status: 'scheduled', currency: 'sgd' });
      expect(sandbox.context.state.resources.list('payouts', lantern!.id)).toHaveLength(0);
    } finally {
      await sandbox.close();
    }
  });
});

describe('paykit-sandbox --seed platform', () => {
  const run = (args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [cli, '--port', '0', ...args], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        // The last line of what it prints: the second merchant.
        if (out.includes('"Lantern Books"') && out.endsWith('\n')) child.kill('SIGTERM');
      });
      child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${out}`))));
    });

  it('prints what it made; restarted from the data file, what it loaded and the platform kept', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paykit-seed-'));
    const data = join(dir, 'state.json');
    try {
      const first = await run(['--seed', 'platform', '--redirect-uri', REDIRECT, '--data', data]);
      expect(first).toContain('seeded business "Demo Store"');
      expect(first).toMatch(/seeded: platform "Sandbox Marketplace" \(business [\w-]+\): X-PLATFORM-KEY: \S+/);
      const clientId =
        /client id (app_[\w-]+), client secret cs_sandbox_\S+, redirect URI http:\/\/localhost:3000\/return/.exec(
          first,
        )?.[1];
      expect(clientId).toBeDefined();
      expect(first).toContain('merchant "Harbour Cafe"');
      expect(first).toContain('owner owner@lantern-books.test');

      const second = await run(['--seed', 'platform', '--redirect-uri', REDIRECT, '--data', data]);
      expect(second).toMatch(/loaded .*state\.json: 4 businesses, 4 users, 1 OAuth app, 6 payment requests/);
      expect(second).not.toMatch(/^seeded/m);
      expect(second).toContain(`kept in ${data}: platform "Sandbox Marketplace"`);
      expect(second).toContain(`client id ${clientId}, client secret as printed when it was seeded`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('without --redirect-uri says what to add, and starts nothing', async () => {
    const child = spawn(process.execPath, [cli, '--seed', 'platform'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(2);
    expect(err).toContain('--redirect-uri http://localhost:3000/connected');
  });
});
