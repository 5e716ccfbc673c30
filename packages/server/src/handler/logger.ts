/**
 * Where the handler writes what went wrong. Whatever reaches the log passes through {@link redactingLogger}:
 * every secret value this process has handled ({@link rememberedSecrets}: API keys, the platform key, client
 * secrets, tokens, codes, verifiers) and the configured keys are masked wherever they appear, and so is
 * anything shaped like a credential (`Bearer …`, `client_secret=…`, `"access_token": "…"`), because a hook's
 * or a store's error may quote a request or a row.
 */
import { rememberedSecrets } from '../secrets.js';

/** Where log lines go: `console`, or the application's own logger. */
export interface Logger {
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

/** The default logger: `console`. */
export const consoleLogger: Logger = {
  warn: (message, detail) => (detail === undefined ? console.warn(message) : console.warn(message, detail)),
  error: (message, detail) => (detail === undefined ? console.error(message) : console.error(message, detail)),
};

const MASK = '[redacted]';

/** Credential shapes masked even when paykit does not know the value. */
const PATTERNS: readonly RegExp[] = [
  /(\bBearer\s+)[A-Za-z0-9._~+/-]+=*/gi,
  /(\b(?:client_secret|access_token|refresh_token|code_verifier|code|api_key|apiKey|platform_key|platformKey|x-business-api-key|x-platform-key|authorization)\b["']?\s*[:=]\s*["']?)[^"'&\s,;}]+/gi,
];

/** How deep causes and aggregated errors are followed (a cycle or a very long chain must not hang a log call). */
const MAX_DEPTH = 8;

/**
 * Masks known secret values and credential-shaped text in `text`. `secrets` are masked in the order given:
 * pass them longest first, so that a token containing another is masked whole.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 6 && out.includes(secret)) out = out.split(secret).join(MASK);
  for (const pattern of PATTERNS) out = out.replace(pattern, `$1${MASK}`);
  return out;
}

/**
 * A logger that redacts messages and details before `target` sees them. Errors become their text with every
 * cause and every member of an `AggregateError`; other details become JSON. What is masked is read on each
 * call: `configured` (the keys given in the options) and every secret remembered so far in the process, so a
 * token obtained after the logger was made is masked too.
 */
export function redactingLogger(target: Logger, configured: readonly string[]): Logger {
  const secrets = secretsWith(configured);
  const clean = (detail: unknown, known: readonly string[]): unknown => {
    if (detail === undefined) return undefined;
    if (detail instanceof Error) return redact(describeError(detail), known);
    if (typeof detail === 'string') return redact(detail, known);
    try {
      return redact(JSON.stringify(detail), known);
    } catch {
      return '[unprintable detail]';
    }
  };
  const write = (level: 'warn' | 'error', message: string, detail: unknown): void => {
    const known = secrets();
    const cleaned = clean(detail, known);
    if (cleaned === undefined) target[level](redact(message, known));
    else target[level](redact(message, known), cleaned);
  };
  return {
    warn: (message, detail) => write('warn', message, detail),
    error: (message, detail) => write('error', message, detail),
  };
}

/**
 * The redaction of {@link redactingLogger} as a function of text, for what is not a log line but may be read as
 * widely (a report, a command's output): the same secrets, the same patterns.
 */
export function redactor(configured: readonly string[]): (text: string) => string {
  const secrets = secretsWith(configured);
  return (text) => redact(text, secrets());
}

/** Every secret remembered so far and the configured ones, longest first, read anew on each call. */
function secretsWith(configured: readonly string[]): () => string[] {
  return () => {
    const known = rememberedSecrets();
    const extra = configured.filter((secret) => !known.includes(secret));
    return extra.length === 0 ? known : [...known, ...extra].sort((a, b) => b.length - a.length);
  };
}

/** An error as text: its stack (or name and message), then each cause and each aggregated error, indented. */
function describeError(error: unknown, depth = 0, seen = new Set<unknown>()): string {
  if (!(error instanceof Error)) return describeValue(error);
  // An error met twice (a cause shared by two members, or a cycle) is written once.
  if (seen.has(error)) return `${error.name} (the same as above)`;
  if (depth > MAX_DEPTH) return `${error.name} (more causes not shown)`;
  seen.add(error);
  let text = error.stack ?? `${error.name}: ${error.message}`;
  // A stack holds the message as it was when the error was made; a message changed later would escape it.
  if (error.stack !== undefined && !error.stack.includes(error.message)) text = `${error.message}\n${text}`;
  if (error instanceof AggregateError) {
    for (const member of Array.isArray(error.errors) ? error.errors : []) {
      text += `\n${indent(`member: ${describeError(member, depth + 1, seen)}`)}`;
    }
  }
  if (error.cause !== undefined) text += `\n${indent(`caused by: ${describeError(error.cause, depth + 1, seen)}`)}`;
  return text;
}

/** A cause that is not an Error (a string, an object a library rejected with). */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function indent(text: string): string {
  return text.replace(/\n/g, '\n  ');
}
