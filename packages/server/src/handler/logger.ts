/**
 * Where the handler writes what went wrong. Messages never contain keys, tokens or bodies; pass your own
 * logger to route them elsewhere.
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
