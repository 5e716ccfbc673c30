import type { ErrorCode, FieldError } from '@paykit/core';

/**
 * An error the sandbox answers with. The body is `{ message }` as the spec shows it, plus paykit's `code`
 * and field `errors` where they help (the spec does not show validation errors). `headers` go with the
 * answer (for example `WWW-Authenticate` on a refused Bearer token).
 */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: ErrorCode | (string & {}),
    readonly errors?: readonly FieldError[],
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }

  /** The JSON body of this error. */
  body(): { message: string; code?: string; errors?: FieldError[] } {
    return {
      message: this.message,
      ...(this.code ? { code: this.code } : {}),
      ...(this.errors?.length ? { errors: [...this.errors] } : {}),
    };
  }
}

/** 404 with the message the API would give. */
export const notFound = (message: string): SandboxError => new SandboxError(404, message, 'not_found');
