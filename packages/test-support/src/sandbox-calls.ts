/**
 * Raw HTTP calls to a running sandbox, for tests that check the emulator itself (the server package's
 * client is tested separately, against the same sandbox).
 */
import type { RunningSandbox } from '@paykit/sandbox';

/** A decoded answer. */
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Options of one call. */
export interface CallOptions {
  /** JSON body. */
  json?: unknown;
  /** Form body. */
  form?: URLSearchParams | string;
  /** API key; defaults to the seeded business's. `null` sends none. */
  apiKey?: string | null;
  headers?: Record<string, string>;
}

/** Calls the sandbox and decodes the JSON answer (or keeps the text when it is not JSON). */
export async function call(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const apiKey = options.apiKey === undefined ? sandbox.seed.apiKey : options.apiKey;
  if (apiKey !== null) headers['x-business-api-key'] = apiKey;
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = String(options.form);
  }
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let decoded: unknown = text;
  try {
    decoded = text ? JSON.parse(text) : null;
  } catch {
    // keep the text
  }
  return { status: response.status, headers: response.headers, body: decoded };
}

/**
 * The fields a sandbox 422 names, sorted: the keys of its `errors`, which the sandbox answers in the real
 * service's shape (`{ errors: { <field>: [<text>, ...] } }`). A list (paykit's own form, which the sandbox does
 * not answer) would give `'0', '1'` and fail the test that reads it.
 */
export function errorFields(body: { errors?: unknown }): string[] {
  return Object.keys((body.errors ?? {}) as object).sort();
}

/**
 * Posts a form to one of the sandbox's HTML pages (a checkout's `url`, say) as a browser's form submission
 * would, and keeps the page's redirect as the answer instead of following it.
 *
 * @example await submitPageForm(record.url, 'card_number=4242424242424242&outcome=save')
 */
export function submitPageForm(url: string, body: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    redirect: 'manual',
  });
}
