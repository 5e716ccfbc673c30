/**
 * One browser per engine per vitest worker, kept open across every end-to-end file the worker runs (issue 34 item
 * 2): launching Firefox costs about 4 s and a CPU's worth of work, and each e2e file used to launch three or four
 * browsers. The e2e project runs without isolation (vite.config.ts), so a worker process runs many files in turn
 * and its `globalThis` outlives each file's modules; the browsers are kept there.
 *
 * What one file leaves behind cannot reach the next: every tab is a fresh browser context (puppeteer) or a fresh
 * WebDriver session with its own MiniBrowser (WebKit), and `browserForBlock` closes every tab after each test. A
 * browser that crashed or was closed is launched again. When the worker exits, every kept browser is killed with
 * it, on `exit` or vitest's SIGTERM (WebKit's driver runs in a process group of its own, which no parent's exit would
 * end).
 */
import type { Engine } from '@paykit/test-support/engines';
import { launchEngine, type EngineBrowser } from './engine-browser.js';

/** The kept browsers of this process, under a key every evaluation of this module shares. */
interface Kept {
  launching: Map<Engine, Promise<EngineBrowser>>;
  started: Set<EngineBrowser>;
}

const KEPT = Symbol.for('paykit.test.worker-browsers');

function kept(): Kept {
  const holder = globalThis as { [KEPT]?: Kept };
  if (holder[KEPT]) return holder[KEPT];
  const fresh: Kept = { launching: new Map(), started: new Set() };
  holder[KEPT] = fresh;
  const killAll = (): void => {
    for (const browser of fresh.started) browser.kill();
  };
  process.once('exit', killAll);
  // vitest ends a worker process with SIGTERM, which does not emit 'exit'.
  process.once('SIGTERM', () => {
    killAll();
    process.exit(143);
  });
  return fresh;
}

/**
 * This worker's browser of `engine`, launched on first use and kept for the worker's next files. Never close it:
 * close its tabs (`closeTabs()`), as `browserForBlock` does.
 */
export async function workerBrowser(engine: Engine): Promise<EngineBrowser> {
  const { launching, started } = kept();
  const held = await launching.get(engine)?.catch(() => undefined);
  if (held && (await held.alive())) return held;
  if (held) {
    started.delete(held);
    held.kill();
  }
  const launch = launchEngine(engine).then((browser) => {
    started.add(browser);
    return browser;
  });
  launching.set(engine, launch);
  return launch;
}
