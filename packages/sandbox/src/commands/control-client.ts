/**
 * How the commands that act on a running sandbox (`clock`, `trigger`) reach it: its control API over HTTP, like
 * any test. A sandbox that does not answer, or that refuses, is one line that says what to do, never a stack trace.
 */

/** Where a command looks for the sandbox unless `--sandbox <url>` says otherwise: the address `paykit-sandbox` takes. */
export const DEFAULT_SANDBOX_URL = 'http://127.0.0.1:4010';

/** A command that cannot go on: its message is printed alone and the process exits with `exitCode`. */
export class CommandError extends Error {
  override readonly name = 'CommandError';

  constructor(
    message: string,
    /** 2 for a wrong option or argument, 1 for a sandbox that is not there or refused. */
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

/**
 * Sends `body` (as JSON; none for a GET) to `path` of the sandbox at `base` and answers the parsed JSON. Throws a
 * {@link CommandError} naming the address when nothing answers there, or with the sandbox's own message (and its
 * field errors) when it refuses.
 */
export async function callSandbox(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    throw new CommandError(
      `no sandbox answers at ${url.origin}: start one with \`paykit-sandbox\`, or give its address with --sandbox <url>`,
    );
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    throw new CommandError(`${url.origin} answered ${response.status} without JSON: is it a paykit sandbox?`);
  }
  if (!response.ok) throw new CommandError(refusal(response.status, parsed));
  return parsed;
}

/** The sandbox's `{ message, errors }` as one line: `the sandbox refused (422): … (seconds: must be positive)`. */
function refusal(status: number, body: unknown): string {
  const { message, errors } = (body ?? {}) as { message?: unknown; errors?: Record<string, unknown> };
  const fields = Object.entries(errors ?? {})
    .map(([path, texts]) => `${path}: ${Array.isArray(texts) ? texts.join('; ') : String(texts)}`)
    .join(', ');
  const said = typeof message === 'string' ? message : 'no message';
  return `the sandbox refused (${status}): ${said}${fields ? ` (${fields})` : ''}`;
}
