/**
 * Every secret value this process has handled (API keys, the platform key, client secrets, access and refresh
 * tokens, authorization codes, PKCE verifiers), so that the redacting logger masks them wherever they turn up:
 * in a hook's error that quotes a request, in a store's error that quotes a row. Patterns (`Bearer …`) catch
 * the shapes paykit can guess; this catches the values it knows, whatever the shape around them.
 *
 * The list is bounded (the newest {@link MAX_REMEMBERED} values): tokens rotate, and a long-lived process must
 * not grow without end. It is kept on `globalThis` under a registered symbol so that two copies of this
 * package in one process (an ESM and a CJS import, two versions) share it.
 */

/** How many values are remembered; the oldest are forgotten first. */
export const MAX_REMEMBERED = 10_000;

/** Shorter values are not masked: a 4-character "secret" would mask ordinary words in every log line. */
const MIN_LENGTH = 8;

const REGISTRY = Symbol.for('paykit.server.secrets');

function registry(): Set<string> {
  // One registry per process, shared by every copy of this module (a global keyed by a registered symbol).
  const holder = globalThis as { [REGISTRY]?: Set<string> };
  return (holder[REGISTRY] ??= new Set());
}

/** Remembers `value` as a secret to mask in logs. Empty, short and non-string values are ignored. */
export function rememberSecret(value: unknown): void {
  if (typeof value !== 'string' || value.length < MIN_LENGTH) return;
  const known = registry();
  // Re-inserting moves a value to the newest end, so one in use is never the one forgotten.
  known.delete(value);
  known.add(value);
  if (known.size > MAX_REMEMBERED) {
    const oldest = known.values().next().value;
    if (oldest !== undefined) known.delete(oldest);
  }
}

/** The secrets remembered so far, longest first (a token that contains another is masked whole). */
export function rememberedSecrets(): string[] {
  return [...registry()].sort((a, b) => b.length - a.length);
}
