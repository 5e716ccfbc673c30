/// <reference types="mocha" />
/**
 * The browser side of the element tests' backend (backend.ts beside this file runs in Node, inside
 * web-test-runner): imported by the element tests under `src`, never shipped. What the element tests learn
 * from their backend: the sandbox checkout origin, how many payment requests and OAuth callbacks there were,
 * and the dashboard's approval; and helpers to hear the console.
 */
import { waitUntil } from '@open-wc/testing';

export async function backendState(): Promise<BackendState> {
  return (await (await fetch('/__test/config')).json()) as BackendState;
}

/** See backend.ts, `GET /__test/config`. */
export interface BackendState {
  checkoutOrigin: string;
  /** Payment requests on the sandbox. */
  count: number;
  callbacks: number;
  /** Requests to any path ending in `/payment-requests` that reached the test server. */
  attempts: number;
  /** The `Idempotency-Key` of every `POST /paykit/payment-requests`, in order. */
  keys: string[];
}

/** The merchant approves on the sandbox dashboard; resolves with the callback URL (`code` and `state`). */
export async function approveOnDashboard(input: {
  redirect_uri: string;
  state: string;
  code_challenge: string;
}): Promise<string> {
  const answer = await fetch('/__test/approve', { method: 'POST', body: JSON.stringify(input) });
  return ((await answer.json()) as { redirect: string }).redirect;
}

/** Pays or fails a payment request as a shopper on the sandbox checkout would. */
export async function settle(id: string, outcome: 'succeeded' | 'failed'): Promise<void> {
  const answer = await fetch(`/__test/pay/${id}/${outcome}`, { method: 'POST' });
  if (!answer.ok) throw new Error(`could not settle ${id}: ${answer.status}`);
}

/** Lets a pending payment request's time run out: the sandbox answers it `expired` from now on. */
export async function expire(id: string): Promise<void> {
  const answer = await fetch(`/__test/expire/${id}`, { method: 'POST' });
  if (!answer.ok) throw new Error(`could not expire ${id}: ${answer.status}`);
}

/** Resolves with the next `type` event on `target`. */
export function next<E extends Event>(target: EventTarget, type: string): Promise<E> {
  return new Promise((resolve) => target.addEventListener(type, (event) => resolve(event as E), { once: true }));
}

/** Arms a fault on the sandbox behind the real handler (see the sandbox README, "Fault injection"). */
export async function injectFault(fault: Record<string, unknown>): Promise<void> {
  const answer = await fetch('/__test/fault', { method: 'POST', body: JSON.stringify(fault) });
  if (answer.status !== 201) throw new Error(`could not arm ${JSON.stringify(fault)}: ${answer.status}`);
}

/**
 * While `on`, the backend creates each payment request asked of `/paykit` and then drops the connection before
 * answering: the page gets `network_error` although the payment request exists (see backend.ts).
 */
export async function loseAnswers(on: boolean): Promise<void> {
  const answer = await fetch('/__test/lose-answers', { method: 'POST', body: JSON.stringify({ on }) });
  if (answer.status !== 204) throw new Error(`could not set lose-answers to ${on}: ${answer.status}`);
}

/**
 * Records what `console.warn` and `console.error` print while `run` runs (the development build's diagnostics),
 * as one line each, then restores them.
 */
export async function consoleDuring(run: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const { warn, error } = console;
  // eslint-disable-next-line no-console
  console.warn = console.error = (...args: unknown[]) =>
    void lines.push(args.filter((a) => typeof a === 'string').join(' '));
  try {
    await run();
  } finally {
    Object.assign(console, { warn, error });
  }
  return lines;
}

/** The engine this test page runs in (web-test-runner runs every file in Chromium, Firefox and WebKit). */
export const engine: 'chromium' | 'firefox' | 'webkit' = / Firefox\//.test(navigator.userAgent)
  ? 'firefox'
  : /Chrome\//.test(navigator.userAgent)
    ? 'chromium'
    : 'webkit';

/**
 * `it`, except in `engines`, where the test is registered as skipped with its one-line `reason` in its title and
 * in the browser's log (web-test-runner prints it under the file): no test is left out silently.
 */
export function itExcept(
  engines: readonly (typeof engine)[],
  reason: string,
  title: string,
  test: (this: Mocha.Context) => Promise<void>,
): void {
  if (!engines.includes(engine)) {
    it(title, test);
    return;
  }
  // eslint-disable-next-line no-console
  console.warn(`skipped in ${engine}: "${title}": ${reason}`);
  it.skip(`${title} (skipped in ${engine}: ${reason})`, test);
}

/**
 * open-wc's `waitUntil` with room for a loaded machine: it resolves as soon as `predicate` holds and fails only
 * after `timeout` (default 15 s, within mocha's 20 s; open-wc's own default is 1 s, which the engines side by side on
 * two cores outran: a popup took longer than a second to reach the authorization server). A wait for
 * something to happen, never a clock: a test that must show that something does not happen waits for its own
 * bound and says why.
 */
export function waitFor(
  predicate: () => unknown,
  message?: string,
  options: { interval?: number; timeout?: number } = {},
): Promise<void> {
  return waitUntil(predicate, message, { timeout: 15_000, ...options });
}
