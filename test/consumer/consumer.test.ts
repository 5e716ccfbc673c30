/**
 * A newcomer's first checkout, outside this repository (issue 26, item 2): a fresh application folder in the
 * system's temp directory installs the packed packages with npm (`pnpm pack:local`'s tarballs, one `npm install`,
 * no workspace links) and Express and Hono from the registry; its server is the server README's Express example in
 * its JavaScript (examples/js/express.js, run by plain Node: test/framework-examples.test.ts holds the README's
 * block to the example and the JavaScript to the TypeScript) and its pages the elements README's first example,
 * taken from the markdown as it is (only the placeholders a reader replaces are replaced: the script's URL, the
 * checkout origin), so a README that drifts fails here. The JavaScript Hono example runs too, on the same Node. The
 * sandbox is the installed `paykit-sandbox` command. Chromium buys the mug, pays on the sandbox checkout, and the
 * return page and the shop's own order route say it is paid. Then a platform: the sandbox started with
 * `--seed platform`, the server README's one-file platform and its two pages (with the values the seed printed),
 * and a merchant's owner connecting on the sandbox's dashboard. Needs `pnpm build` first.
 */
import { launchChromium } from '@paykit/test-support/browser';
import { freePort } from '@paykit/test-support/loopback';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLine, packOnce } from '../../scripts/pack-local.js';

const ROOT = new URL('../../', import.meta.url);
const run = promisify(execFile);

/** The first fenced block of `lang` after the heading `heading` in a package's README. */
async function readmeBlock(pkg: string, heading: string | undefined, lang: string): Promise<string> {
  const readme = await readFile(new URL(`packages/${pkg}/README.md`, ROOT), 'utf8');
  const from = heading === undefined ? 0 : readme.indexOf(`\n${heading}\n`);
  if (from < 0) throw new Error(`packages/${pkg}/README.md has no "${heading}" section`);
  const block = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'm').exec(readme.slice(from));
  if (!block) throw new Error(`packages/${pkg}/README.md has no ${lang} block after "${heading}"`);
  return block[1]!;
}

/** Replaces `placeholder` in `text`, failing when the README no longer has it. */
function fill(text: string, placeholder: string, value: string): string {
  if (!text.includes(placeholder)) throw new Error(`the README example no longer contains ${placeholder}`);
  return text.split(placeholder).join(value);
}

/** Starts a process and resolves with the first match of `ready` in its output. */
function startUntil(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }, ready: RegExp) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const matched = new Promise<RegExpExecArray>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) resolve(match);
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}:\n${out}`)));
  });
  return { child, matched, output: () => out };
}

/** Starts the installed `paykit-sandbox` on a free port; its URL. */
async function startSandboxCommand(): Promise<string> {
  const sandbox = startUntil(
    join(app, 'node_modules/.bin/paykit-sandbox'),
    ['--port', '0'],
    { cwd: app },
    /listening on (http:\/\/127\.0\.0\.1:\d+)/,
  );
  children.push(sandbox.child);
  return (await sandbox.matched)[1]!;
}

/**
 * Copies an example's JavaScript (packages/server/examples/js) into the application as `as`, with the modules of
 * its own it imports (`./shop.js`), and runs it with plain Node, on a free port, with the seeded business's
 * settings in its environment; its origin once it says `ready`.
 */
async function startJavaScriptExample(example: string, as: string, sandboxUrl: string, ready: RegExp) {
  const examples = new URL('packages/server/examples/js/', ROOT);
  await copyFile(new URL(example, examples), join(app, as));
  const source = await readFile(new URL(example, examples), 'utf8');
  for (const [, own] of source.matchAll(/from '\.\/([^']+)'/g))
    await copyFile(new URL(own!, examples), join(app, own!));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const shop = startUntil(
    process.execPath,
    [as],
    {
      cwd: app,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        PUBLIC_ORIGIN: origin,
        PAYMENTS_API_URL: sandboxUrl,
        PAYMENTS_API_KEY: 'sandbox_api_key_demo_store',
        PAYMENTS_SALT: 'sandbox_salt_demo_store',
      },
    },
    ready,
  );
  children.push(shop.child);
  await shop.matched;
  return origin;
}

let dir: string;
let app: string;
let browser: Browser;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-consumer-'));
  app = join(dir, 'shop');
  await mkdir(join(app, 'public'), { recursive: true });
  // The run's tarballs of this build (packed once: the runtime matrix and check:packages use the same).
  const packed = await packOnce();
  const devDependencies = JSON.parse(await readFile(new URL('packages/server/package.json', ROOT), 'utf8'))
    .devDependencies as Record<string, string>;
  // Express for the README's shop, Hono and its Node server for the Hono example.
  const frameworks = ['express', 'hono', '@hono/node-server'].map((name) => `${name}@${devDependencies[name]}`);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }));
  // The line pnpm pack:local prints, plus the frameworks: one npm install, from the registry and the tarballs only.
  const [npm, install, ...tarballs] = installLine(packed).split(' ');
  await run(npm!, [install!, ...tarballs, ...frameworks, '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: app,
  });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('an Express shop outside the workspace, from the tarballs and the READMEs', () => {
  it('installed the packages from the tarballs, not from the workspace', async () => {
    const installed = JSON.parse(await readFile(join(app, 'package.json'), 'utf8')).dependencies as Record<
      string,
      string
    >;
    for (const name of ['@paykit/core', '@paykit/server', '@paykit/elements', '@paykit/sandbox'])
      expect(installed[name], name).toMatch(/^file:.*\.tgz$/);
    // A real copy in node_modules, not a link into packages/.
    const server = await readFile(join(app, 'node_modules/@paykit/server/package.json'), 'utf8');
    expect(JSON.parse(server).dependencies['@paykit/core']).toMatch(/^\^\d/);
  });

  it('takes a payment: pay button, sandbox checkout, return page, the shop’s order', { timeout: 120_000 }, async () => {
    const sandboxUrl = await startSandboxCommand();

    // The pages: the elements README's first example, split where it says "on the return page".
    const pages = await readmeBlock('elements', undefined, 'html');
    const [payPage, returnPart] = pages.split('<!-- on the return page -->');
    const script = fill(pages.split('\n')[0]!, 'https://your.cdn/paykit.js', '/js/paykit/paykit.js');
    const page = (body: string) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>\n${script}\n</head><body>\n${body}\n</body></html>`;
    await writeFile(join(app, 'public/index.html'), page(fill(payPage!, 'https://checkout.example', sandboxUrl)));
    await writeFile(join(app, 'public/thanks.html'), page(returnPart!));

    // The server: the server README's Express example (test/framework-examples.test.ts holds the README's block
    // to examples/express.ts), in its JavaScript, run by plain Node as a newcomer without a TypeScript loader does.
    const origin = await startJavaScriptExample('express.js', 'server.js', sandboxUrl, /shop on /);

    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on('pageerror', (error) => problems.push(String(error)));
    tab.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await tab.goto(`${origin}/index.html`);
    await tab.getByRole('button', { name: 'Buy the mug' }).click();
    await tab.waitForURL((url) => url.origin === sandboxUrl, { timeout: 20_000 });
    await tab.getByRole('button', { name: /^Pay / }).click();
    await tab.waitForURL((url) => url.origin === origin && url.pathname === '/thanks.html', { timeout: 20_000 });
    const reference = new URL(tab.url()).searchParams.get('reference');
    expect(reference).toBeTruthy();
    await expect
      .poll(() => tab.locator('paykit-return').getByRole('status').textContent(), { timeout: 15_000 })
      .toMatch(/payment (was )?(received|successful|complete)/i);
    await expect
      .poll(async () => (await (await fetch(`${origin}/orders/${reference}`)).json()) as { paid: boolean }, {
        timeout: 15_000,
      })
      .toEqual({ paid: true });
    expect(problems).toEqual([]);
    await tab.close();
  });

  it(
    'runs the JavaScript Hono example on this Node: a page of the shop starts a checkout',
    { timeout: 60_000 },
    async () => {
      const sandboxUrl = await startSandboxCommand();
      const origin = await startJavaScriptExample('hono.js', 'hono.js', sandboxUrl, /listening on /);
      const started = await fetch(`${origin}/paykit/payment-requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ reference: 'sku-mug' }),
      });
      expect(started.status).toBe(201);
      const body = (await started.json()) as { status: string; amount: string; url: string };
      expect(body).toMatchObject({ status: 'pending', amount: '12.50' });
      expect(new URL(body.url).origin).toBe(sandboxUrl);
      expect(await (await fetch(`${origin}/`)).text()).toBe('The shop');
    },
  );

  it(
    'connects a merchant: the seeded platform, its connect button, the sandbox dashboard, the return page',
    { timeout: 120_000 },
    async () => {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const redirectUri = `${origin}/return.html`;
      // The sandbox seeded for a platform, as the server README's "Connect end to end" starts it.
      const sandbox = startUntil(
        join(app, 'node_modules/.bin/paykit-sandbox'),
        ['--port', '0', '--seed', 'platform', '--redirect-uri', redirectUri],
        { cwd: app },
        /merchant "Lantern Books"/,
      );
      children.push(sandbox.child);
      await sandbox.matched;
      const printed = sandbox.output();
      const sandboxUrl = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)![1]!;
      const platformKey = /X-PLATFORM-KEY: (\S+)/.exec(printed.slice(printed.indexOf('platform "')))![1]!;
      const [, clientId, clientSecret] = /client id (\S+), client secret (\S+),/.exec(printed)!;

      // Its pages and its server: the README's one-file platform and the two pages after it.
      const section = '## Platforms: Connect end to end';
      const pages = await readmeBlock('server', section, 'html');
      const [connectPage, returnPage] = pages.split('<!-- return.html');
      let connect = fill(connectPage!, 'app_from_the_seed', clientId!);
      connect = fill(connect, 'http://localhost:3000/return.html', redirectUri);
      connect = fill(connect, 'http://127.0.0.1:4010', sandboxUrl);
      const page = (body: string) =>
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Platform</title></head><body>\n${body}\n</body></html>`;
      await mkdir(join(app, 'platform/public'), { recursive: true });
      await writeFile(join(app, 'platform/public/connect.html'), page(connect));
      await writeFile(join(app, 'platform/public/return.html'), page(`<!-- return.html${returnPage!}`));
      // The section's first TypeScript block: the platform in one file (step 2's needs your sessions and catalogue).
      const platformServer = await readmeBlock('server', section, 'ts');
      expect(platformServer).toContain('console.log(`platform on ${origin}`)');
      await writeFile(join(app, 'platform/server.ts'), platformServer);
      // node_modules is the shop's, one folder up: Express's static paths are relative to the working folder.
      await symlink('../node_modules', join(app, 'platform/node_modules'));
      const tsx = fileURLToPath(import.meta.resolve('tsx'));
      const server = startUntil(
        process.execPath,
        ['--import', tsx, 'server.ts'],
        {
          cwd: join(app, 'platform'),
          env: {
            ...process.env,
            PORT: String(port),
            PUBLIC_ORIGIN: origin,
            PAYMENTS_API_URL: sandboxUrl,
            PLATFORM_KEY: platformKey,
            CLIENT_ID: clientId,
            CLIENT_SECRET: clientSecret,
          },
        },
        /platform on /,
      );
      children.push(server.child);
      await server.matched;

      const tab = await browser.newPage();
      const problems: string[] = [];
      tab.on('pageerror', (error) => problems.push(String(error)));
      await tab.goto(`${origin}/connect.html`);
      await tab.getByRole('button', { name: 'Connect with Payments' }).click();
      await tab.waitForURL((url) => url.pathname === '/dashboard/sign-in', { timeout: 20_000 });
      await tab.getByLabel('Email').fill('owner@harbour-cafe.test');
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.waitForURL((url) => url.pathname === '/oauth/authorize');
      await tab.getByRole('button', { name: 'Connect' }).click();
      await tab.waitForURL((url) => url.origin === origin && url.pathname === '/return.html', { timeout: 20_000 });
      await expect
        .poll(() => tab.locator('paykit-return').getByRole('status').textContent(), { timeout: 15_000 })
        .toMatch(/Connected to Harbour Cafe/);
      const merchants = (await (await fetch(`${origin}/merchants`)).json()) as Record<string, string>;
      expect(Object.values(merchants)).toEqual(['Harbour Cafe']);
      expect(problems).toEqual([]);
      await tab.close();
    },
  );
});
