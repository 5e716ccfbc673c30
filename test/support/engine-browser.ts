/**
 * One small shopper's browser API over the three engines of the end-to-end tests: Chromium and Firefox through
 * puppeteer-core (CDP and WebDriver BiDi: Debian's Firefox ESR needs no driver), WebKitGTK through classic
 * WebDriver (WebKitWebDriver drives MiniBrowser under a virtual display; it has no BiDi). Playwright cannot drive
 * the distributions' Firefox and WebKit (its own builds download themselves), so the flows that must pass in
 * every engine are written against this: open a page, click a button or link by its words (through shadow
 * roots, as a person clicks, with real input events), fill a field by its label, read text, wait for an address.
 *
 * `problems()` are what the pages said went wrong: uncaught errors and unhandled rejections, console errors, and
 * the Content-Security-Policy violations the page saw. Under puppeteer these are the browser's own events, from
 * the first script on; under classic WebDriver (WebKit) a listener is put in each document once it has loaded,
 * so an error thrown while it loads shows only through its effect (the flow then fails). The violations are also
 * reported by the browsers to the demo and the sandbox (`report-uri`), in every engine: the tests read both.
 */
import { writeFile } from 'node:fs/promises';
import { CHROMIUM_ARGS, CHROMIUM_HEADLESS, CHROMIUM_PATH } from '@paykit/test-support/chromium-args';
import { FIREFOX_PATH, startWebKitDriver, webkitCapabilities, type Engine } from '@paykit/test-support/engines';
import puppeteer, {
  type Browser as PuppeteerBrowser,
  type BrowserContext,
  type ElementHandle,
  type Frame,
  type Page,
} from 'puppeteer-core';

/** A tab a test drives. */
export interface Tab {
  goto(url: string): Promise<void>;
  /** Clicks the button or link whose words match `name` (a paykit element's inner button by its host's words). */
  click(name: string | RegExp): Promise<void>;
  /** Types `value` into the field whose label contains `label`. */
  fill(label: string, value: string): Promise<void>;
  url(): Promise<URL>;
  /** Waits until the address passes `test`; resolves with it. */
  waitForUrl(test: (url: URL) => boolean, timeoutMs?: number): Promise<URL>;
  /** The text of the element at `path`: each selector inside the previous one's shadow root (or itself). */
  text(...path: string[]): Promise<string | null>;
  /** Whether a button or link whose words match `name` is on the page. */
  has(name: string | RegExp): Promise<boolean>;
  /** Runs `script` (a function's source) in the page and resolves with its (JSON) result. */
  run<T>(script: string): Promise<T>;
  /** The page's first iframe, driven as the page is (a framed embed code). */
  frame(): Promise<FrameView>;
  /**
   * The iframe at `path` (each selector inside the previous one's shadow root, as for `text`), driven as the page
   * is: an iframe in a shadow root (the drop-in's overlay) is not among the page's numbered frames in WebKit.
   */
  frameAt(...path: string[]): Promise<FrameView>;
  /** Double-clicks the button or link whose words match `name`, as a person does (two clicks, then `dblclick`). */
  doubleClick(name: string | RegExp): Promise<void>;
  /**
   * Taps the button or link whose words match `name` with a finger (touch input; the browser makes the click).
   * In Chromium the tab must have been opened with `{ touch: true }`. WebKit throws: WebKitGTK's WebDriver takes a
   * touch pointer's actions but delivers them as a mouse's (pointerType "mouse", no touch events; probed).
   */
  tap(name: string | RegExp): Promise<void>;
  /** Presses and releases `key` where the focus is (in a frame when the frame has it). */
  press(key: Key): Promise<void>;
  /**
   * Goes back one step in the tab's history, as the browser's back button does; resolves with the address the
   * document then has (once it differs from the one it left).
   */
  back(timeoutMs?: number): Promise<URL>;
  /** The other windows this tab's page opened (popups, new tabs), in order, with whether each has an opener. */
  opened(): Promise<{ url: URL; hasOpener: boolean }[]>;
  /** Uncaught errors, console errors and CSP violations of every page this tab showed (and of its frames). */
  problems(): Promise<string[]>;
  close(): Promise<void>;
  /** Loads the page again, as the browser's reload button does. */
  reload(): Promise<void>;
  /**
   * Waits for a window this tab's page opened (a popup) that no tab drives yet, and drives it. What goes wrong in
   * it is in this tab's `problems()` (one list for the windows of one test); its `close()` closes that window.
   */
  popup(timeoutMs?: number): Promise<Tab>;
  /**
   * Opens another tab of the same browser profile (cookies and localStorage shared, sessionStorage not), as a
   * person opening a link from an email does. Its problems are this tab's; its `close()` closes that tab only.
   */
  tabBeside(): Promise<Tab>;
  /** Whether this tab's window is gone (a popup that closed itself, or was closed). */
  isClosed(): Promise<boolean>;
  /** Clicks the element `selector` matches in the page (not only a button or link), with real input events. */
  clickOn(selector: string): Promise<void>;
  /** Saves a PNG of the page (the whole page in Chromium and Firefox; what the window shows in WebKit). */
  screenshot(path: string): Promise<void>;
}

/** A tab a test drives, in a window of another tab's browser profile (`popup()`, `tabBeside()`). */
interface Within {
  context: BrowserContext;
  page: Page;
  problems: string[];
  csp: string[];
  /** The windows a tab drives already: `popup()` waits for another. */
  driven: Set<Page>;
}

/** The keys {@link Tab.press} presses (each has a WebDriver code point, below). */
export type Key = 'Escape' | 'Enter' | 'Tab';

/**
 * What a new tab is. For `viewport` and `colorScheme`: Chromium emulates both; Firefox sizes its viewport and shows
 * a dark page in a second Firefox started with a dark-theme preference (BiDi has no colour-scheme emulation);
 * WebKit starts its MiniBrowser with `--dark-mode` and sizes the window so that its viewport is `viewport`, but no
 * narrower than {@link WEBKIT_NARROWEST} (GTK's minimum for MiniBrowser's toolbar): read `innerWidth` for the width.
 */
export interface TabOptions {
  /** A touch screen, as a phone has (Chromium takes touch input only then; Firefox and WebKit always do). */
  touch?: boolean;
  /** The viewport's size in CSS pixels (the default is each engine's, about 1024 or 800 px wide). */
  viewport?: { width: number; height: number };
  /** What `prefers-color-scheme` answers (the default is light). */
  colorScheme?: 'light' | 'dark';
}

/** The narrowest viewport WebKitGTK's MiniBrowser window allows, in CSS pixels (its toolbar's minimum width). */
export const WEBKIT_NARROWEST = 447;

/** An iframe of a tab's page: clicks with real input events, as on the page. */
export type FrameView = Pick<Tab, 'click' | 'text' | 'has' | 'run'>;

/** A running browser of one engine. */
export interface EngineBrowser {
  readonly engine: Engine;
  newTab(options?: TabOptions): Promise<Tab>;
  /** Closes every tab still open (after a failed test: WebKitWebDriver holds one session at a time). */
  closeTabs(): Promise<void>;
  close(): Promise<void>;
  /** Whether the browser still answers (a crashed or closed one does not): a kept browser is checked before reuse. */
  alive(): Promise<boolean>;
  /** Kills the browser's processes at once (SIGKILL), synchronously: for a process that is exiting. */
  kill(): void;
}

/**
 * In the page: the clickable element whose words match, searched in the document and every open shadow root.
 * A paykit element counts as its inner button, named by the host's (slotted) words, as its accessible name is.
 */
const FIND = `(source, flags) => {
  const words = new RegExp(source, flags);
  const named = (el) => (el.textContent || el.value || '').replace(/\\s+/g, ' ').trim();
  const search = (root) => {
    for (const el of root.querySelectorAll('button, a[href], input[type=submit], paykit-pay-button, paykit-connect-button')) {
      if (el.shadowRoot && el.localName.startsWith('paykit-')) {
        const inner = el.shadowRoot.querySelector('button');
        if (inner && words.test(named(el))) return inner;
      } else if (words.test(named(el))) return el;
    }
    for (const host of root.querySelectorAll('*')) {
      if (host.shadowRoot) {
        const found = search(host.shadowRoot);
        if (found) return found;
      }
    }
    return null;
  };
  return search(document);
}`;

/** In the page: the field a label containing `label` names. */
const FIELD = `(label) => [...document.querySelectorAll('label')].find((l) => l.textContent.includes(label))?.control ?? null`;

/** In the page: the element at a path of selectors, each inside the previous one's shadow root (or itself). */
const AT = `(path) => {
  let root = document;
  let el = null;
  for (const selector of path) {
    el = root.querySelector(selector);
    if (!el) return null;
    root = el.shadowRoot ?? el;
  }
  return el;
}`;

/** In the page: the text of the element at a path of selectors (as AT walks it). */
const TEXT = `(path) => (${AT})(path)?.textContent ?? null`;

/** In the page: records what goes wrong from now on, once per document (WebKit, after load). */
const LISTEN = `() => {
  if (window.__paykitProblems) return;
  const problems = (window.__paykitProblems = []);
  addEventListener('error', (event) => problems.push('uncaught: ' + (event.error?.stack || event.message)));
  addEventListener('unhandledrejection', (event) => problems.push('unhandled rejection: ' + String(event.reason)));
  document.addEventListener('securitypolicyviolation', (event) =>
    problems.push('CSP violation: ' + event.violatedDirective + ' blocked ' + event.blockedURI));
  const error = console.error;
  console.error = (...args) => { problems.push('console.error: ' + args.map(String).join(' ')); error.apply(console, args); };
}`;

/**
 * Reads the tab's address until it passes `test`. A timeout says where the tab was instead: its origin and path,
 * and the names of its query's parameters but not their values (an OAuth callback's code and state).
 */
async function waitForAddress(read: () => Promise<URL>, test: (url: URL) => boolean, timeoutMs?: number): Promise<URL> {
  let seen: URL | undefined;
  return poll(
    async () => {
      seen = await read();
      return test(seen) ? seen : undefined;
    },
    () => {
      if (!seen) return 'the address (none read)';
      const names = [...new Set(seen.searchParams.keys())];
      return `the address (it was ${seen.origin}${seen.pathname}${names.length ? ` with ${names.join(', ')}` : ''})`;
    },
    timeoutMs,
  );
}

const pattern = (name: string | RegExp): [string, string] =>
  typeof name === 'string' ? [`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, ''] : [name.source, name.flags];

/**
 * Reads until `read` gives a value; `what` names it in the timeout's message (a function: what it was instead). The
 * default limit is a hang detector, not a measure: a WebKit tab beside the other worker's axe runs once took over
 * 10 s to come back to the shop after paying on the sandbox's checkout.
 */
async function poll<T>(
  read: () => Promise<T | undefined>,
  what: string | (() => string),
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Launches `engine`. */
export async function launchEngine(engine: Engine): Promise<EngineBrowser> {
  return engine === 'webkit' ? launchWebKit() : launchPuppeteer(engine);
}

async function launchPuppeteer(engine: 'chromium' | 'firefox'): Promise<EngineBrowser> {
  const browser: PuppeteerBrowser =
    engine === 'chromium'
      ? await puppeteer.launch({ executablePath: CHROMIUM_PATH, headless: CHROMIUM_HEADLESS, args: CHROMIUM_ARGS })
      : await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true });
  const contexts = new Set<BrowserContext>();
  // Firefox's colour scheme is a preference of the whole browser: dark tabs open in a second Firefox, started once.
  let darkFirefox: Promise<PuppeteerBrowser> | undefined;
  /** The dark Firefox once it has started, for `kill()`, which cannot wait. */
  let darkStarted: PuppeteerBrowser | undefined;
  const browserFor = (options: TabOptions): Promise<PuppeteerBrowser> =>
    engine === 'firefox' && options.colorScheme === 'dark'
      ? (darkFirefox ??= puppeteer
          .launch({
            browser: 'firefox',
            executablePath: FIREFOX_PATH,
            headless: true,
            extraPrefsFirefox: { 'layout.css.prefers-color-scheme.content-override': 0, 'ui.systemUsesDarkTheme': 1 },
          })
          .then((dark) => (darkStarted = dark)))
      : Promise.resolve(browser);
  const self = {
    engine,
    async closeTabs() {
      for (const context of contexts) await context.close().catch(() => undefined);
      contexts.clear();
    },
    async newTab(options: TabOptions = {}, within?: Within): Promise<Tab> {
      const { touch = false, viewport } = options;
      // A context of its own per tab: no cookie or storage shared with another test.
      const context = within?.context ?? (await (await browserFor(options)).createBrowserContext());
      contexts.add(context);
      const page: Page = within?.page ?? (await context.newPage());
      // Before the first page: setting it later reloads the page.
      if (touch && engine === 'chromium' && !within)
        await page.setViewport({ width: 800, height: 600, ...viewport, hasTouch: true });
      else if (viewport && !within) await page.setViewport(viewport);
      if (engine === 'chromium' && options.colorScheme && !within) {
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: options.colorScheme }]);
      }
      const driven = within?.driven ?? new Set<Page>([page]);
      driven.add(page);
      const problems: string[] = within?.problems ?? [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`uncaught: ${String(error)}`));
      await page.evaluateOnNewDocument(`(${LISTEN})()`);
      const find = async (
        name: string | RegExp,
        frame: Frame = page.mainFrame(),
      ): Promise<ElementHandle<Element> | null> => {
        const handle = await frame.evaluateHandle(`(${FIND})(...${JSON.stringify(pattern(name))})`);
        const element = handle.asElement() as ElementHandle<Element> | null;
        if (!element) await handle.dispose();
        return element;
      };
      const seen = async (): Promise<string[]> => {
        // CSP violations only: errors are heard from the browser itself (above), which sees them from the start;
        // a frame's uncaught errors too, from the frame's document (a frame of another site is another process).
        const lines: string[] = [];
        for (const frame of page.frames()) {
          const inFrame = (await frame.evaluate('window.__paykitProblems || []').catch(() => [])) as string[];
          lines.push(...inFrame.filter((line) => line.startsWith('CSP') || frame !== page.mainFrame()));
        }
        return lines;
      };
      const clickIn = async (frame: Frame, name: string | RegExp, how: 'click' | 'double' | 'tap' = 'click') => {
        const element = await poll(async () => (await find(name, frame)) ?? undefined, `a button or link "${name}"`);
        await keep();
        // A tab behind another gets no animation frames, which a click waits for: to the front, as a person does.
        if (driven.size > 1) await page.bringToFront();
        if (how === 'tap') await element.tap();
        // As a locator: the click waits until the element is visible, enabled and in one place over two animation
        // frames. A frame of another site paints in a process of its own; a click before it has (on a busy CI
        // machine) reached nothing: no request, no tab, nothing said.
        else await element.asLocator().click(how === 'double' ? { count: 2 } : {});
      };
      const csp: string[] = within?.csp ?? [];
      const keep = async () => csp.push(...(await seen()));
      const share = (other: Page): Within => ({ context, page: other, problems, csp, driven });
      return {
        async goto(url) {
          await keep();
          await page.goto(url);
        },
        click: (name) => clickIn(page.mainFrame(), name),
        async fill(label, value) {
          const field = await poll(
            async () => (await page.evaluateHandle(`(${FIELD})(${JSON.stringify(label)})`)).asElement() ?? undefined,
            `a field labelled "${label}"`,
          );
          await (field as ElementHandle<Element>).type(value);
        },
        url: async () => new URL(page.url()),
        waitForUrl: (test, timeoutMs) => waitForAddress(async () => new URL(page.url()), test, timeoutMs),
        text: async (...path) => (await page.evaluate(`(${TEXT})(${JSON.stringify(path)})`)) as string | null,
        has: async (name) => (await find(name)) !== null,
        run: async <T>(script: string) => (await page.evaluate(`(${script})()`)) as T,
        async frame() {
          const frame = await poll(
            async () => page.frames().find((candidate) => candidate !== page.mainFrame()),
            'an iframe',
          );
          return {
            click: (name) => clickIn(frame, name),
            text: async (...path) => (await frame.evaluate(`(${TEXT})(${JSON.stringify(path)})`)) as string | null,
            has: async (name) => (await find(name, frame)) !== null,
            run: async <T>(script: string) => (await frame.evaluate(`(${script})()`)) as T,
          };
        },
        async frameAt(...path) {
          const frame = await poll(
            async () => {
              const handle = await page.evaluateHandle(`(${AT})(${JSON.stringify(path)})`);
              const found = (await handle.asElement()?.contentFrame()) ?? undefined;
              await handle.dispose();
              return found;
            },
            `the iframe at ${path.join(' ')}`,
          );
          return {
            click: (name) => clickIn(frame, name),
            text: async (...inner) => (await frame.evaluate(`(${TEXT})(${JSON.stringify(inner)})`)) as string | null,
            has: async (name) => (await find(name, frame)) !== null,
            run: async <T>(script: string) => (await frame.evaluate(`(${script})()`)) as T,
          };
        },
        doubleClick: (name) => clickIn(page.mainFrame(), name, 'double'),
        tap: (name) => clickIn(page.mainFrame(), name, 'tap'),
        press: (key) => page.keyboard.press(key),
        async back(timeoutMs = 15_000) {
          await keep();
          const from = page.url();
          const here = () => page.evaluate('location.href').catch(() => from) as Promise<string>;
          // Not awaited: a page restored from the back-forward cache fires no load, and Firefox's BiDi then reports
          // no navigation (puppeteer's goBack times out and page.url() stays behind): the document's own address
          // says where the tab is.
          void page.goBack({ timeout: timeoutMs }).catch(() => null);
          return new URL(
            await poll(async () => ((await here()) !== from ? here() : undefined), 'the previous page', timeoutMs),
          );
        },
        async opened() {
          const others = (await context.pages()).filter((other) => other !== page);
          return Promise.all(
            others.map(async (other) => ({
              url: new URL(other.url()),
              hasOpener: (await other.evaluate('window.opener !== null').catch(() => false)) as boolean,
            })),
          );
        },
        async problems() {
          await keep();
          return [...problems, ...new Set(csp)];
        },
        async close() {
          if (within) return void (await page.close().catch(() => undefined));
          contexts.delete(context);
          await context.close();
        },
        async reload() {
          await keep();
          await page.reload();
        },
        async popup(timeoutMs) {
          const other = await poll(
            async () => (await context.pages()).find((candidate) => !driven.has(candidate)),
            'a popup',
            timeoutMs,
          );
          return self.newTab({}, share(other));
        },
        tabBeside: async () => self.newTab({}, share(await context.newPage())),
        isClosed: async () => page.isClosed(),
        async clickOn(selector) {
          const element = await poll(async () => (await page.$(selector)) ?? undefined, `an element "${selector}"`);
          await keep();
          await element.asLocator().click();
        },
        async screenshot(path) {
          await page.screenshot({ path: path as `${string}.png`, fullPage: true });
        },
      };
    },
    async close() {
      await Promise.all([browser.close(), darkFirefox?.then((dark) => dark.close())]);
    },
    alive: async () => browser.connected && (darkStarted?.connected ?? true),
    kill() {
      for (const running of [browser, darkStarted]) running?.process()?.kill('SIGKILL');
    },
  };
  return self;
}

/** A W3C WebDriver element reference. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** The WebDriver code points of the keys {@link Tab.press} presses. */
const KEYS: Readonly<Record<Key, string>> = { Escape: '\uE00C', Enter: '\uE007', Tab: '\uE004' };

async function launchWebKit(): Promise<EngineBrowser> {
  const driver = await startWebKitDriver();
  const base = `http://127.0.0.1:${driver.port}`;
  /** A failed command's error, with what the driver, its browsers and the display last said (why, often). */
  const failed = (message: string): Error => {
    const said = driver.output();
    return new Error(said ? `${message}\nWebKitWebDriver said:\n${said}` : message);
  };
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const answer = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      // A command that never answers fails the test with its name, rather than at the test's timeout. A new
      // session starts a MiniBrowser: on a loaded machine that took over 20 s (seen once in 8 runs), and a session
      // given up on would still start and hold WebKitWebDriver's one session.
      signal: AbortSignal.timeout(path === '/session' ? 60_000 : 20_000),
    }).catch((error: unknown) => {
      throw failed(`WebDriver ${method} ${path}: ${String(error)}`);
    });
    const { value } = (await answer.json()) as { value: unknown };
    if (!answer.ok) throw failed(`WebDriver ${method} ${path}: ${JSON.stringify(value)}`);
    return value;
  };
  const sessions = new Set<string>();
  const closeAll = async (): Promise<void> => {
    for (const id of sessions) await call('DELETE', `/session/${id}`).catch(() => undefined);
    sessions.clear();
  };
  return {
    engine: 'webkit',
    closeTabs: closeAll,
    async newTab(options: TabOptions = {}) {
      // A session of its own per tab: a new MiniBrowser, no cookie or storage shared with another test.
      const capabilities = webkitCapabilities() as { 'webkitgtk:browserOptions': { args: string[] } };
      if (options.colorScheme === 'dark') capabilities['webkitgtk:browserOptions'].args.push('--dark-mode');
      const { sessionId } = (await call('POST', '/session', {
        capabilities: { alwaysMatch: capabilities },
      })) as { sessionId: string };
      sessions.add(sessionId);
      const session = `/session/${sessionId}`;
      /** This tab's window: its methods act in the session's current window, which `inWindow` leaves on it. */
      const home = (await call('GET', `${session}/window`)) as string;
      const driven = new Set([home]);
      const run = (script: string, args: unknown[] = []) => call('POST', `${session}/execute/sync`, { script, args });
      if (options.viewport) {
        // The window is sized, not the viewport: add what the toolbar and borders take. GTK may apply the size
        // after WebDriver has answered (a fresh-clone run read MiniBrowser's default 1,024 px right after), so
        // the size is asked again until the viewport has it, for up to 5 s.
        const [width, height] = (await run('return [outerWidth - innerWidth, outerHeight - innerHeight]')) as number[];
        const wanted = Math.max(options.viewport.width, WEBKIT_NARROWEST);
        for (const deadline = Date.now() + 5_000; ;) {
          await call('POST', `${session}/window/rect`, {
            width: options.viewport.width + width!,
            height: options.viewport.height + height!,
          });
          const sized = async () => (await run('return innerWidth')) === wanted;
          if ((await sized()) || Date.now() > deadline) break;
          await new Promise((resolve) => setTimeout(resolve, 250));
          if (await sized()) break;
        }
      }
      const problems: string[] = [];
      /** Collects the current document's problems, and listens in it if it is new. */
      const harvest = async (): Promise<void> => {
        const found = (await run(
          `const seen = window.__paykitProblems ? window.__paykitProblems.splice(0) : []; (${LISTEN})(); return seen;`,
        ).catch(() => [])) as string[];
        problems.push(...found);
      };
      const find = async (name: string | RegExp): Promise<string | undefined> => {
        const found = (await run(`return (${FIND})(...arguments)`, pattern(name))) as Record<string, string> | null;
        return found?.[ELEMENT];
      };
      const click = async (name: string | RegExp) => {
        const id = await poll(() => find(name), `a button or link "${name}"`);
        await harvest();
        await call('POST', `${session}/element/${id}/click`, {});
      };
      /** Mouse actions on the element `name` finds: the left button down and up `times` times. */
      const point = async (name: string | RegExp, times: number) => {
        const id = await poll(() => find(name), `a button or link "${name}"`);
        await harvest();
        const press = [
          { type: 'pointerDown', button: 0 },
          { type: 'pointerUp', button: 0 },
        ];
        await call('POST', `${session}/actions`, {
          actions: [
            {
              type: 'pointer',
              id: 'mouse',
              parameters: { pointerType: 'mouse' },
              actions: [
                { type: 'pointerMove', duration: 0, origin: { [ELEMENT]: id }, x: 0, y: 0 },
                ...Array.from({ length: times }, () => press).flat(),
              ],
            },
          ],
        });
        await call('DELETE', `${session}/actions`);
      };
      const text = async (...path: string[]) => (await run(`return (${TEXT})(arguments[0])`, [path])) as string | null;
      const evaluate = async <T>(script: string) => (await run(`return (${script})()`)) as T;
      /**
       * Classic WebDriver acts in one browsing context at a time: in the first iframe (or the one `locate` names:
       * a frame number or an element reference) for `act`, then back.
       */
      const inFrame = async <T>(act: () => Promise<T>, locate: () => Promise<unknown> = async () => 0): Promise<T> => {
        await poll(async () => {
          const id = await locate().catch(() => null);
          if (id === null) return undefined;
          return call('POST', `${session}/frame`, { id }).then(
            () => true,
            () => undefined,
          );
        }, 'an iframe');
        try {
          await harvest();
          return await act();
        } finally {
          await harvest();
          // Back to the top; when the click took the top elsewhere the frame is gone, and so is its parent.
          await call('POST', `${session}/frame`, { id: null }).catch(async () => {
            const handle = await call('GET', `${session}/window`);
            await call('POST', `${session}/window`, { handle });
          });
        }
      };
      const tab: Tab = {
        async goto(url) {
          await harvest();
          await call('POST', `${session}/url`, { url });
          await harvest();
        },
        click,
        async fill(label, value) {
          const field = await poll(async () => {
            const found = (await run(`return (${FIELD})(arguments[0])`, [label])) as Record<string, string> | null;
            return found?.[ELEMENT];
          }, `a field labelled "${label}"`);
          await call('POST', `${session}/element/${field}/value`, { text: value });
        },
        url: async () => new URL((await call('GET', `${session}/url`)) as string),
        waitForUrl: async (test, timeoutMs) => {
          const url = await waitForAddress(
            async () => new URL((await call('GET', `${session}/url`)) as string),
            test,
            timeoutMs,
          );
          await harvest();
          return url;
        },
        text,
        has: async (name) => (await find(name)) !== undefined,
        run: evaluate,
        async frame() {
          await inFrame(async () => undefined);
          return {
            click: (name) => inFrame(() => click(name)),
            text: (...path) => inFrame(() => text(...path)),
            has: (name) => inFrame(async () => (await find(name)) !== undefined),
            run: <T>(script: string) => inFrame(() => evaluate<T>(script)),
          };
        },
        async frameAt(...path) {
          const locate = async () => await run(`return (${AT})(arguments[0])`, [path]);
          await inFrame(async () => undefined, locate);
          return {
            click: (name) => inFrame(() => click(name), locate),
            text: (...inner) => inFrame(() => text(...inner), locate),
            has: (name) => inFrame(async () => (await find(name)) !== undefined, locate),
            run: <T>(script: string) => inFrame(() => evaluate<T>(script), locate),
          };
        },
        doubleClick: (name) => point(name, 2),
        tap: async () => {
          throw new Error(
            "WebKitGTK's WebDriver delivers touch actions as mouse input: a tap cannot be tested in WebKit",
          );
        },
        async press(key) {
          const value = KEYS[key];
          await call('POST', `${session}/actions`, {
            actions: [
              {
                type: 'key',
                id: 'keyboard',
                actions: [
                  { type: 'keyDown', value },
                  { type: 'keyUp', value },
                ],
              },
            ],
          });
          await call('DELETE', `${session}/actions`);
        },
        async back() {
          await harvest();
          // Classic WebDriver's Back waits until the page has loaded (or was restored from the back-forward cache).
          await call('POST', `${session}/back`, {});
          await harvest();
          return new URL((await call('GET', `${session}/url`)) as string);
        },
        async opened() {
          const self = (await call('GET', `${session}/window`)) as string;
          const handles = ((await call('GET', `${session}/window/handles`)) as string[]).filter((h) => h !== self);
          const others: { url: URL; hasOpener: boolean }[] = [];
          try {
            for (const handle of handles) {
              await call('POST', `${session}/window`, { handle });
              others.push({
                url: new URL((await call('GET', `${session}/url`)) as string),
                hasOpener: (await run('return window.opener !== null')) as boolean,
              });
            }
          } finally {
            if (handles.length > 0) await call('POST', `${session}/window`, { handle: self });
          }
          return others;
        },
        async problems() {
          await harvest();
          return [...problems];
        },
        async close() {
          sessions.delete(sessionId);
          await call('DELETE', session).catch(() => undefined);
        },
        async reload() {
          await harvest();
          await call('POST', `${session}/refresh`, {});
          await harvest();
        },
        async popup(timeoutMs) {
          const handle = await poll(
            async () => ((await call('GET', `${session}/window/handles`)) as string[]).find((h) => !driven.has(h)),
            'a popup',
            timeoutMs,
          );
          return inWindow(handle);
        },
        async tabBeside() {
          const { handle } = (await call('POST', `${session}/window/new`, { type: 'tab' })) as { handle: string };
          return inWindow(handle);
        },
        isClosed: async () =>
          !sessions.has(sessionId) ||
          !((await call('GET', `${session}/window/handles`).catch(() => [])) as string[]).includes(home),
        async clickOn(selector) {
          const id = await poll(async () => {
            const found = (await run('return document.querySelector(arguments[0])', [selector])) as Record<
              string,
              string
            > | null;
            return found?.[ELEMENT];
          }, `an element "${selector}"`);
          await harvest();
          await call('POST', `${session}/element/${id}/click`, {});
        },
        async screenshot(path) {
          await writeFile(path, Buffer.from((await call('GET', `${session}/screenshot`)) as string, 'base64'));
        },
      };
      /**
       * Another window of this session, driven by this tab's own methods run there: each switches to it and back
       * (classic WebDriver acts in one window at a time), so this tab's methods always find their window current.
       */
      const inWindow = (handle: string): Tab => {
        driven.add(handle);
        const there =
          <A extends unknown[], R>(act: (...args: A) => Promise<R>) =>
          async (...args: A): Promise<R> => {
            await call('POST', `${session}/window`, { handle });
            try {
              return await act(...args);
            } finally {
              await call('POST', `${session}/window`, { handle: home }).catch(() => undefined);
            }
          };
        const methods = Object.fromEntries(
          Object.entries(tab).map(([key, method]) => [key, there(method as () => Promise<unknown>)]),
        ) as unknown as Tab;
        /** A frame of that window: its methods too switch there and back. */
        const frameThere = (view: FrameView): FrameView =>
          Object.fromEntries(
            Object.entries(view).map(([key, method]) => [key, there(method as () => Promise<unknown>)]),
          ) as unknown as FrameView;
        return {
          ...methods,
          frame: there(async () => frameThere(await tab.frame())),
          frameAt: there(async (...path: string[]) => frameThere(await tab.frameAt(...path))),
          close: there(async () => void (await call('DELETE', `${session}/window`))),
          isClosed: async () => !((await call('GET', `${session}/window/handles`)) as string[]).includes(handle),
        };
      };
      return tab;
    },
    async close() {
      await closeAll();
      await driver.stop();
    },
    alive: () =>
      fetch(`${base}/status`, { signal: AbortSignal.timeout(5_000) }).then(
        (answer) => answer.ok,
        () => false,
      ),
    kill: () => driver.kill(),
  };
}
