/**
 * Which operation a request is, from its method and path: how a server that receives calls (the sandbox's scope
 * check) finds the row for them without a second table of patterns.
 */
import { matchesTemplate, parameterOf } from './path-template.js';
import { OPERATION_IDS, OPERATION_ROUTES, type OperationId } from './routes.js';

/**
 * The operation `method` on `path` (from `/v1`, no query string) is, or undefined when the table has none.
 * `HEAD` is the `GET` operation of the same path, since servers answer it with the `GET` handler. A path
 * matches a row's template or one of its aliases; when several match, the one with fewer parameters wins
 * (`/v1/transfers/estimate` is not the transfer whose id is `estimate`), whatever the table's order.
 */
export function findOperation(method: string, path: string): OperationId | undefined {
  const verb = method === 'HEAD' ? 'GET' : method;
  let best: { id: OperationId; parameters: number } | undefined;
  for (const id of OPERATION_IDS) {
    const route: { method: string; path: string; aliases?: readonly string[] } = OPERATION_ROUTES[id];
    if (route.method !== verb) continue;
    for (const template of [route.path, ...(route.aliases ?? [])]) {
      if (!matchesTemplate(template, path)) continue;
      const parameters = template.split('/').filter((segment) => parameterOf(segment) !== undefined).length;
      if (!best || parameters < best.parameters) best = { id, parameters };
    }
  }
  return best?.id;
}
