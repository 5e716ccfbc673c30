/**
 * A web-test-runner command for the drop-in tests: `checkout-frame-focused` answers whether the drop-in's checkout
 * frame (another origin than the test page, so out of the page's reach) has focused its first control.
 *
 * Why a command: the overlay focuses its frame and then posts it `focus`; the frame, a renderer process of its own,
 * focuses its selected method when that message arrives. A test that presses Tab before then starts from the frame's
 * document instead of the method, and lands on another button ("Pay" instead of "Fail payment"). A fixed pause was
 * too short on a busy machine (a CI run's Chromium waited 20 s for a failure that never came), so the tests wait for
 * what they read. Chromium and Firefox are asked through puppeteer's frames, WebKit through WebDriver's frames.
 */
import type { TestRunnerPlugin } from '@web/test-runner';
import type { Frame, Page } from 'puppeteer-core';
import type { Browser as WebDriverBrowser } from 'webdriverio';

/** The command's name, as the tests call it with `executeServerCommand`. */
export const CHECKOUT_FRAME_FOCUSED = 'checkout-frame-focused';

/**
 * What the frame's drop-in script focuses first (the sandbox's drop-in-frame-script.ts), read in the frame, and the
 * frame's document holding the focus. The active element alone was not enough: an idle timing run's Chromium
 * (`pnpm test:timings`) saw it while its keys still went to the top page (Tab then Enter reached the overlay's own
 * button, not the frame's "Pay"). The frame's renderer learns that its document has focus from the browser
 * process, the one that routes keys, so `hasFocus()` is only true once keys will go to the frame.
 */
const FIRST_CONTROL_FOCUSED = `(() => {
  const first = document.querySelector('input[name=payment_method]:checked, main button, main a[href]');
  return !!first && document.activeElement === first && document.hasFocus();
})()`;

/**
 * WebKit refuses the frame script's `focus()` (its active element stays the body after the message, seen through
 * WebDriver here), so keys start from the frame's document: what is waited for there is that the document has focus.
 */
const FRAME_DOCUMENT_FOCUSED = `document.readyState === 'complete' && document.hasFocus()`;

/** The drop-in overlay's frame, as the test page's script finds it (the overlay lives in a shadow root). */
const OVERLAY_FRAME = `return document.querySelector('[data-hitpay-drop-in]')?.shadowRoot?.querySelector('iframe') ?? null`;

interface PuppeteerSession {
  type: 'puppeteer';
  getPage(sessionId: string): Page;
}
interface WebDriverSession {
  type: 'webdriver';
  driver: WebDriverBrowser;
}

async function inPuppeteer(page: Page, origin: string): Promise<boolean> {
  const frame: Frame | undefined = page.frames().find((candidate) => candidate.url().startsWith(`${origin}/`));
  return frame ? Boolean(await frame.evaluate(FIRST_CONTROL_FOCUSED)) : false;
}

async function inWebDriver(driver: WebDriverBrowser): Promise<boolean> {
  const frame = await driver.execute(OVERLAY_FRAME);
  if (!frame) return false;
  await driver.switchFrame(frame as Parameters<WebDriverBrowser['switchFrame']>[0]);
  try {
    return Boolean(await driver.execute(`return ${FRAME_DOCUMENT_FOCUSED}`));
  } finally {
    await driver.switchFrame(null);
  }
}

/** The plugin that answers {@link CHECKOUT_FRAME_FOCUSED} `{ origin }` (the checkout's origin) with a boolean. */
export function checkoutFramePlugin(): TestRunnerPlugin {
  return {
    name: 'paykit-checkout-frame',
    async executeCommand({ command, payload, session }) {
      if (command !== CHECKOUT_FRAME_FOCUSED) return undefined;
      const { origin } = payload as { origin: string };
      const browser = session.browser as unknown as PuppeteerSession | WebDriverSession;
      try {
        return browser.type === 'puppeteer'
          ? await inPuppeteer(browser.getPage(session.id), origin)
          : await inWebDriver(browser.driver);
      } catch {
        // A frame that navigated or closed while being read: not focused yet, asked again.
        return false;
      }
    },
  };
}
