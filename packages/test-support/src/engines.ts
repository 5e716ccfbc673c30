/**
 * The three browser engines every browser test runs in: Debian's Chromium, Firefox ESR and WebKitGTK (its
 * MiniBrowser driven by WebKitWebDriver, under a virtual display). `scripts/bootstrap.sh --browser` installs
 * them. `PAYKIT_BROWSERS` (a comma-separated list, e.g. `PAYKIT_BROWSERS=chromium` or `firefox,webkit`) runs
 * fewer; the default is all three. Browsers that download their own builds cannot be fetched on these machines
 * (TOOLCHAIN.md), so each engine is the distribution's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './loopback.js';

/** An engine the browser tests run in. */
export type Engine = 'chromium' | 'firefox' | 'webkit';

/** Every engine, in the order the tests run them. */
export const ENGINES: readonly Engine[] = ['chromium', 'firefox', 'webkit'];

/** What each engine is called in test names and messages. */
export const ENGINE_NAMES: Readonly<Record<Engine, string>> = {
  chromium: 'Chromium',
  firefox: 'Firefox',
  webkit: 'WebKit',
};

/**
 * The engines `PAYKIT_BROWSERS` asks for (all three when unset or empty). An unknown name throws, with the
 * list of known ones, rather than running fewer tests than the reader believes.
 */
export function selectedEngines(value = process.env.PAYKIT_BROWSERS): Engine[] {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) return [...ENGINES];
  for (const name of names) {
    if (!(ENGINES as readonly string[]).includes(name)) {
      throw new Error(`PAYKIT_BROWSERS names "${name}": the engines are ${ENGINES.join(', ')} (comma-separated)`);
    }
  }
  return ENGINES.filter((engine) => names.includes(engine));
}

/** Firefox ESR's executable: `$FIREFOX_PATH`, or Debian's (the real binary, not the /usr/bin link). */
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/lib/firefox-esr/firefox-esr';

/** WebKitGTK's MiniBrowser (package libwebkit2gtk-4.1-0): `$MINIBROWSER_PATH`, or Debian's. */
export const MINIBROWSER_PATH = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/**
 * The capabilities of a WebKitWebDriver session on MiniBrowser. `--automation` is what lets WebKitWebDriver
 * control it; WebDriver BiDi is not in Debian's WebKitWebDriver, so the classic protocol only. `allowPopups`
 * lets scripts open windows without a user's click, as puppeteer's Chromium and Firefox do by default: the
 * element tests click from script; the end-to-end tests click as a person does and keep WebKit's blocker.
 */
export function webkitCapabilities({ allowPopups = false } = {}): Record<string, unknown> {
  const args = ['--automation', ...(allowPopups ? ['--javascript-can-open-windows-automatically=true'] : [])];
  return { browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args } };
}

/** A WebKitWebDriver server started by {@link startWebKitDriver}. */
export interface WebKitDriver {
  /** The port of its WebDriver endpoint on 127.0.0.1. */
  readonly port: number;
  /** Stops the driver, its browsers and the virtual display. */
  stop(): Promise<void>;
  /** Kills the driver, its browsers and the virtual display at once (SIGKILL): for a process that is exiting. */
  kill(): void;
  /** The last of what the driver, its browsers and the display wrote to stderr: for the message of a failed command. */
  output(): string;
}

/** The virtual display's screen: xvfb-run's own default, restated because `-s` replaces it. */
const XVFB_SCREEN = '-screen 0 1280x1024x24';

/**
 * Starts `WebKitWebDriver` on a free port under `xvfb-run -a` (MiniBrowser has no headless mode: it needs a
 * display, and the virtual one is private to this driver). The driver runs in a process group of its own, so
 * that `stop()` ends the display and every browser it started with it.
 */
export async function startWebKitDriver(): Promise<WebKitDriver> {
  const port = await freePort();
  // `-noreset`: an X server resets when its last client leaves, and a client that connects meanwhile is refused.
  // Here the last client is a test's MiniBrowser, and the next test's starts at once: under load ("cannot open
  // display" after 70 sessions beside two busy loops; none in 150 with the flag), the driver then waited for a
  // browser that had already given up, and the test's `POST /session` timed out after 60 s.
  const server = `${XVFB_SCREEN} -noreset`;
  const child: ChildProcess = spawn('xvfb-run', ['-a', '-s', server, 'WebKitWebDriver', `--port=${port}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  // Only the end is kept: MiniBrowser may write a line per page through a whole run.
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return; // already gone
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(
        `WebKitWebDriver exited (${child.exitCode}) before answering: ${stderr.trim() || 'no output'}; ` +
          'install it with `bash scripts/bootstrap.sh --browser` (Debian packages webkit2gtk-driver and xvfb)',
      );
    }
    try {
      const status = await fetch(`http://127.0.0.1:${port}/status`);
      if (status.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`WebKitWebDriver did not answer on port ${port} within 20 s: ${stderr.trim() || 'no output'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const kill = (): void => {
    try {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  return { port, stop, kill, output: () => stderr.trim() };
}
