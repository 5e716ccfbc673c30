/**
 * Every text the elements show, one table per locale. English is built in; other locales are registered by
 * importing their module (`@paykit/elements/locales/fr`, `/ar`), so a page downloads only the languages it
 * uses. The locale is the nearest `lang` attribute of the element, else the page's `lang`, else English. The
 * backend's own messages (written for shoppers by `@paykit/server`) are shown as they come.
 */
import type { MerchantViewMessages } from './merchant-view/view-message-keys.js';

const en = {
  pay: 'Pay',
  network: 'The shop could not be reached. Check your connection and try again.',
  timeout: 'The shop took too long to answer. Please try again.',
  failed: 'Something went wrong. Please try again.',
  // Configuration and addresses a page refuses (the development build's console says which and why).
  misconfigured: 'This button is not set up correctly.',
  noReference: 'This page was opened without a payment reference.',
  checking: 'Confirming your payment…',
  completed: 'Payment received. Thank you!',
  failedPayment: 'The payment failed.',
  canceled: 'The payment was canceled.',
  stillConfirming: "We're still confirming your payment. Please don't pay again.",
  notCompleted: 'The payment was not completed.',
  reference: 'Reference: ',
  tryAgain: 'Try again',
  checkAgain: 'Check again',
  connect: 'Connect with Payments',
  connecting: 'Finishing the connection…',
  connected: 'Connected to ',
  connectCancelled: 'Connection cancelled. Nothing was shared.',
  // Every refused callback (no state, another tab's, expired, a replayed code, another issuer): one sentence, since
  // the merchant's remedy is the same; the error's `code` stays exact and the development build's console says why.
  connectFailed: 'The connection did not go through. Please connect again.',
  stateUsed: 'This connection was already handled.',
  connectAgain: 'Connect again',
};

/** A message table: every key of the English one. */
export type Messages = { readonly [K in keyof typeof en]: string };

/**
 * The words of a button inside a frame (framed/framed.ts): their English is in that lazy chunk, which only a page
 * in a frame downloads, rather than in this table, which every page does. A locale table may carry them.
 */
export interface FramedMessages {
  /** The pay button's checkout opened in a new tab, since the frame may not take the top window there. */
  readonly checkoutInTab: string;
  /** The connect button's authorization page opened in a new tab, likewise. */
  readonly connectInTab: string;
  /** The browser refused both the top window and a new tab after the backend's answer: the next click opens it. */
  readonly pressAgain: string;
  /** The frame may do neither: the shopper can only open the page on its own. */
  readonly frameBlocked: string;
}

/** Fired on `window` when a table is registered: elements already on the page render again in it. */
export const MESSAGES_CHANGED = 'paykit-messages';

/**
 * The tables, shared by every copy of this module on the page: a locale module loaded beside the script-tag
 * file is a separate copy (`dist/locales/fr.js` imports `dist/messages.js`), and must reach the elements.
 */
// A global keyed by a registered symbol, which TypeScript cannot type: every copy writes the same shape.
const tables = ((globalThis as { [key: symbol]: unknown })[Symbol.for('paykit.messages')] ??= { en }) as Record<
  string,
  Messages
>;

/**
 * Registers (or replaces) the table of a locale such as `fr` or `pt-BR`. Elements already rendered switch to it:
 * on a script-tag page, a locale module runs after the elements have rendered. A key the table lacks is shown in
 * English.
 */
export function registerMessages(
  lang: string,
  table: Messages & Partial<FramedMessages> & Partial<MerchantViewMessages>,
): void {
  // English fills a key the table lacks (one written before the key existed): a label is never empty.
  tables[lang.toLowerCase()] = { ...en, ...table };
  globalThis.dispatchEvent?.(new Event(MESSAGES_CHANGED));
}

/** The language of `context`: its nearest `lang`, else the page's, else `en` (lower case). */
export function langOf(context?: Element): string {
  // `globalThis.document`: there is none when this module is imported on a server (SSR).
  return (
    (context?.closest<HTMLElement>('[lang]') ?? globalThis.document?.documentElement)?.lang || 'en'
  ).toLowerCase();
}

/** The table for `context` (its nearest `lang`), or for the page when there is no element. */
export function text(context?: Element): Messages {
  const lang = langOf(context);
  return tables[lang] ?? tables[lang.split('-')[0]!] ?? en;
}
