/**
 * Where the handler writes what went wrong. Whatever reaches the log passes through {@link redactingLogger}:
 * the configured keys are masked wherever they appear, and so is anything shaped like a credential
 * (`Bearer …`, `client_secret=…`, `"access_token": "…"`), because a hook's error may quote a request.
 */
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

/** Masks known secret values and credential-shaped text in `text`. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 6) out = out.split(secret).join(MASK);
  for (const pattern of PATTERNS) out = out.replace(pattern, `$1${MASK}`);
  return out;
}

/** A logger that redacts messages and details (errors become their redacted stack) before `target` sees them. */
export function redactingLogger(target: Logger, secrets: readonly string[]): Logger {
  const clean = (detail: unknown): unknown => {
    if (detail === undefined) return undefined;
    if (detail instanceof Error) return redact(describeError(detail), secrets);
    if (typeof detail === 'string') return redact(detail, secrets);
    try {
      return redact(JSON.stringify(detail), secrets);
    } catch {
      return '[unprintable detail]';
    }
  };
  return {
    warn: (message, detail) => target.warn(redact(message, secrets), clean(detail)),
    error: (message, detail) => target.error(redact(message, secrets), clean(detail)),
  };
}

/** An error with its causes, as text. */
function describeError(error: Error): string {
  let text = error.stack ?? `${error.name}: ${error.message}`;
  let cause = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    text += `\ncaused by: ${cause.stack ?? cause.message}`;
    cause = cause.cause;
  }
  return text;
}
