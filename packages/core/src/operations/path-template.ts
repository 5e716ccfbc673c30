/**
 * Path templates of the operation table (`/v1/payment-requests/{id}`): filling one in for a call, and telling
 * whether a request path is an instance of one. A parameter is always one whole, non-empty segment, as in the
 * API and in the sandbox's routes (Hono's `:id`).
 */
import { PaykitError } from '../errors.js';

const PARAMETER = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * `.` and `..`, which URL parsing resolves, also percent-encoded (`%2e`, `.%2E`): the transport encodes the `%`,
 * but a proxy or server that decodes twice would see a dot segment.
 */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** A slash or backslash, plain or percent-encoded: a proxy or server that decodes it sees two segments. */
const SEPARATOR = /[/\\]|%2f|%5c/i;

/**
 * Why `value` cannot be one segment of an API path, or undefined when it can: empty, `.` or `..` (which URL
 * parsing resolves, so that `GET /v1/payment-requests/..` is sent as `GET /v1/`), or holding a slash. An id from
 * any input (a webhook, a return URL, a caller) is checked with this before a URL is built from it.
 *
 * @example pathSegmentProblem('..') // 'must not be "." or "..", which name another path'
 */
export function pathSegmentProblem(value: string): string | undefined {
  if (value === '') return 'must not be empty';
  if (DOT_SEGMENT.test(value)) return 'must not be "." or "..", which name another path';
  if (SEPARATOR.test(value)) return 'must not contain a slash or a backslash, plain or encoded';
  return undefined;
}

/** The name of the parameter a template segment stands for (`{id}` is `id`), or undefined for a literal. */
export function parameterOf(segment: string): string | undefined {
  return PARAMETER.exec(segment)?.[1];
}

/** The segments of a template or path, without the empty one before its leading `/`. */
function segmentsOf(path: string): string[] {
  return path.replace(/^\//, '').split('/');
}

/**
 * A template's segments, each with the name of the parameter it stands for: worked out once per template, since
 * every call of the client expands one. Bounded: the operation table has about a hundred templates, and a caller
 * that builds its own (with an id written in) must not grow this without end.
 */
const templates = new Map<string, ParsedTemplate>();
const TEMPLATES_KEPT = 512;

/** A template's segments, each with the name of the parameter it stands for (undefined for a literal). */
type ParsedTemplate = readonly { segment: string; name: string | undefined }[];

function templateOf(template: string): ParsedTemplate {
  let parsed = templates.get(template);
  if (parsed === undefined) {
    parsed = segmentsOf(template).map((segment) => ({ segment, name: parameterOf(segment) }));
    if (templates.size < TEMPLATES_KEPT) templates.set(template, parsed);
  }
  return parsed;
}

/**
 * The segments of `template` with each `{name}` replaced by `params[name]`, unencoded (the transport encodes
 * each segment, so that a value can never change the route). Throws `validation_failed` naming the parameter
 * when it has no value, an empty one, or one that is not a single segment ({@link pathSegmentProblem}: `.`,
 * `..`, a slash), before any request leaves.
 *
 * @example expandPath('/v1/payment-requests/{id}', { id: 'a?b' }) // ['v1', 'payment-requests', 'a?b']
 */
export function expandPath(template: string, params: Readonly<Record<string, string>> = {}): string[] {
  return templateOf(template).map(({ segment, name }) => {
    if (name === undefined) return segment;
    const value = params[name];
    if (value === undefined || value === '') {
      const message = `must be given to call ${template}`;
      throw new PaykitError('validation_failed', `"${name}" ${message}`, { errors: [{ path: name, message }] });
    }
    const problem = pathSegmentProblem(value);
    if (problem !== undefined) {
      throw new PaykitError(
        'validation_failed',
        `"${name}" ${problem}: it is one segment of ${template}, and nothing was sent`,
        { errors: [{ path: name, message: problem }] },
      );
    }
    return value;
  });
}

/**
 * True when `path` (no query string) is an instance of `template`: the same number of segments, literals
 * equal, and each parameter standing for one non-empty segment.
 */
export function matchesTemplate(template: string, path: string): boolean {
  const want = segmentsOf(template);
  const got = segmentsOf(path);
  if (want.length !== got.length) return false;
  return want.every((segment, i) => {
    const actual = got[i]!;
    return parameterOf(segment) === undefined ? segment === actual : actual.length > 0;
  });
}
