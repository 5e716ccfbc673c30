/**
 * The text of a request body: strict UTF-8, and a JSON object read from it. A leaf that the handler's routes
 * (handler/http.ts) and the webhook intake (webhooks/received-webhook.ts) both read bodies with.
 */
import { isJsonObject, PaykitError } from '@paykit/core';

/** A strict UTF-8 decoder: each `decode` without `stream` starts afresh, so one serves every body. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text; throws the decoder's `TypeError` when they are not well-formed UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string {
  return UTF8.decode(bytes);
}

/** The bytes as a JSON object: 400 `invalid_json` when they are not well-formed UTF-8 JSON, or not an object. */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(decodeUtf8(bytes));
  } catch (error) {
    throw new PaykitError('invalid_json', 'The body is not well-formed JSON', { cause: error });
  }
  if (!isJsonObject(value)) {
    throw new PaykitError('invalid_json', 'The body must be a JSON object');
  }
  return value;
}
