/**
 * A pay or connect button inside a frame (a site builder's embed code, a widget in someone else's page). The
 * checkout and the authorization page refuse to be framed, so the button takes the top window, with one
 * navigation only (WebKit cancels two started together, `Dapta-Tech/dapta-forms` pull request 157); where the
 * frame's `sandbox` forbids that, it opens a new tab from the click itself; failing both, `navigation_blocked`.
 * Each case is in the elements README ("Inside a frame") and beside its code below. Nothing here reads the parent
 * page (an exception there would leave the button busy, `Adyen/adyen-web` issue 2440).
 *
 * Lazy chunk: busy-button.ts imports it only when `top !== self`, as soon as the button is on the page.
 */
import type { PaykitError } from '@paykit/core/browser';
import { topAllowed } from './top-allowed.js';
import type { ButtonHost } from '../button-host.js';
import { text, type FramedMessages } from '../messages.js';

/** English; a locale table may carry its own (see {@link FramedMessages}). */
const EN: FramedMessages = {
  checkoutInTab: 'The checkout opened in a new tab. Please finish paying there.',
  connectInTab: 'The sign-in page opened in a new tab. Please continue there.',
  pressAgain: 'Your browser stopped the page from opening. Press the button again to continue.',
  frameBlocked: "This embedded page can't open the checkout. Please open the shop's own website to continue.",
};

/** How long a page left by a refused navigation is opened by the next click instead of a new backend call. */
export const PRESS_AGAIN_MS = 60_000;

/** The blank tab a click opened, until the backend's answer sends it somewhere (or the click fails). */
const opened = new WeakMap<EventTarget, Window>();

/** The page a refused navigation left for the next click: for the button's settings of then, until `until`. */
const left = new WeakMap<ButtonHost, { url: string; settings: string; until: number }>();

/**
 * Buttons whose click found that neither the top nor a tab can be reached, even from a click: the click's end
 * says so (the button shows the error and fires `paykit-error`).
 */
const doomed = new WeakSet<EventTarget>();

function words(button: ButtonHost): FramedMessages {
  // A locale table may carry these words beside its Messages (none of them in English's table).
  return { ...EN, ...(text(button) as Partial<FramedMessages>) };
}

/** What the button would ask the backend for: a change (a quantity, another product) voids a page left. */
function settingsOf(button: ButtonHost): string {
  return JSON.stringify([
    'choice' in button ? button.choice : undefined,
    Array.from(button.attributes, (attribute) => [attribute.name, attribute.value]),
  ]);
}

/**
 * A new tab, severed from this page, sent to `url` (blank without one): `null` when the browser refuses it (a
 * sandbox without `allow-popups`, where Firefox throws; a popup blocker once the click's activation is gone).
 */
function openTab(url?: string): Window | null {
  let tab: Window | null;
  try {
    tab = open('', '_blank');
  } catch {
    return null;
  }
  try {
    // The checkout cannot reach back to this page (reverse tabnabbing).
    tab!.opener = null;
  } catch {
    // A tab sandboxed with an opaque origin: not this page's to change, and not able to reach it either.
  }
  if (url) tab?.location.replace(url);
  return tab;
}

/** The shopper is told where the page went. */
function inTab(button: ButtonHost): void {
  const said = words(button);
  // The pay button has a `choice`; the connect button none.
  button.show('choice' in button ? said.checkoutInTab : said.connectInTab);
}

/** Takes the top window to `url`, else opens it in a new tab: which, or `undefined` when the browser refused both. */
function leave(button: ButtonHost, url: string): 'top' | 'tab' | undefined {
  try {
    // The one navigation of the top. A frame of another origin may set `href` (not call `assign`).
    top!.location.href = url;
    return 'top';
  } catch {
    // Refused by the frame's sandbox (a SecurityError in every engine), or by a lapsed activation.
  }
  if (!openTab(url)) return undefined;
  inTab(button);
  return 'tab';
}

/**
 * Where the click goes, once the button's event (`paykit-checkout`, `paykit-connect`) was not cancelled: `url` is
 * the checkout or the authorization page. The top window leaving, the button stays busy, as on a page of its own;
 * otherwise it says where the page went (and is ready again). Throws `navigation_blocked` when the click found
 * that nothing can be opened: the button shows it and fires `paykit-error`. The button hands over the error class:
 * this chunk importing it splits the development file (`paykit.development.js` then imports a shared chunk at load,
 * and a page that copied it alone runs nothing).
 */
export function go(button: ButtonHost, url: string, Failure: typeof PaykitError): void {
  const tab = end(button);
  if (doomed.delete(button)) throw new Failure('navigation_blocked', words(button).frameBlocked);
  if (tab && !tab.closed) {
    tab.location.replace(url);
    inTab(button);
  } else if (!leave(button, url)) {
    // The click's activation is spent (a slow backend, WebKit's one second for a window): the next click has its own.
    left.set(button, { url, settings: settingsOf(button), until: Date.now() + PRESS_AGAIN_MS });
    button.show(words(button).pressAgain);
  }
}

/** The click of `button` is over: its blank tab, if it opened one, is handed over (and forgotten here). */
function end(button: EventTarget): Window | undefined {
  const tab = opened.get(button);
  opened.delete(button);
  return tab;
}

/** The button whose own native button a click reached, if it is ready. */
function clicked(event: Event): ButtonHost | undefined {
  const path = event.composedPath();
  // A pay or connect button (ButtonHost's public `show`), not another paykit element with buttons (`<paykit-return>`).
  const at = path.findIndex(
    (node) => node instanceof HTMLElement && node.localName.startsWith('paykit-') && 'show' in node,
  );
  if (at < 0) return undefined;
  const inner = path
    .slice(0, at)
    .find((node): node is HTMLButtonElement => node instanceof HTMLButtonElement && node.part.contains('button'));
  // Busy: the button ignores the click (one click, one action).
  // path[at] is the node findIndex checked just above.
  return inner && inner.getAttribute('aria-busy') !== 'true' ? (path[at] as ButtonHost) : undefined;
}

/** The click of the event's button is over without a navigation: its blank tab, if any, closes. */
function abandon({ target }: Event): void {
  if (!target) return;
  end(target)?.close();
  doomed.delete(target);
}

/** On the window, in the capture phase: before the button's own handler, and in the click itself. */
function listen(): void {
  addEventListener(
    'click',
    (event) => {
      const button = clicked(event);
      if (!button) return;
      const page = left.get(button);
      left.delete(button);
      if (page && page.until > Date.now() && page.settings === settingsOf(button)) {
        // A new activation opens the page the last click could not, and the button's own handler does not run: the
        // backend is not asked again. When even this click cannot, the button's click ends with the error.
        if (leave(button, page.url)) event.stopImmediatePropagation();
        else doomed.add(button);
      } else if (topAllowed() === false && !('popup' in button && button.popup)) {
        // Opened now, in the click (a popup connect button opens its own window in it).
        const tab = openTab();
        if (tab) opened.set(button, tab);
        else doomed.add(button);
      }
    },
    true,
  );

  // A click that failed: its blank tab closes.
  addEventListener('paykit-error', abandon, true);
  // A click whose navigation a listener cancelled (an SPA that goes there itself), once every listener has run.
  for (const type of ['paykit-checkout', 'paykit-connect'])
    addEventListener(
      type,
      (event) =>
        queueMicrotask(() => {
          if (event.defaultPrevented) abandon(event);
        }),
      true,
    );
}

listen();
