/**
 * Reading a body that may be multipart/form-data, as the service documents for creating products. Everything
 * else goes to the one body reader (`readBody`: JSON or form-urlencoded). The size limit holds as for any body:
 * the app-wide limit refuses a declared length over it before this runs, and a chunked body is cut there.
 */
import { decodeForm, isPaykitError } from '@paykit/core';
import { MAX_BODY_BYTES, readBody } from './body.js';
import { SandboxError } from './errors.js';

/** Fields of a body, and the names of the files it carried (the sandbox stores no files). */
export interface MultipartFields {
  fields: Record<string, unknown>;
  files: string[];
}

/**
 * Reads a multipart/form-data body into fields as a form body would give them (`category_ids[]` as a list),
 * leaving file parts out and naming them in `files`; any other body is read by `readBody`.
 */
export async function readBodyOrMultipart(request: Request): Promise<MultipartFields> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'multipart/form-data') return { fields: await readBody(request), files: [] };
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) {
    throw new SandboxError(413, `The body is larger than ${MAX_BODY_BYTES} bytes`, 'payload_too_large');
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new SandboxError(400, 'The body is not well-formed multipart/form-data', 'invalid_body');
  }
  const params = new URLSearchParams();
  const files: string[] = [];
  // forEach, not for..of: FormData's iterator is missing from the DOM lib some consumers compile this with.
  form.forEach((value, key) => {
    if (typeof value === 'string') params.append(key, value);
    else files.push(key);
  });
  try {
    return { fields: decodeForm(params), files };
  } catch (error) {
    if (isPaykitError(error)) throw new SandboxError(error.status ?? 400, error.message, error.code, error.errors);
    throw error;
  }
}
