/**
 * The real service's 422 body (its OpenAPI description: `{ message, errors: { <field>: [<text>] } }`) reaches
 * the caller as a `validation_failed` PaykitError with the service's message and paykit's field list, from a
 * real HTTP server on 127.0.0.1 answering that documented body. Before, the body was not recognised and the
 * service's message was replaced by a description of the answer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMerchantApi } from '../api/merchant-api.js';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(422, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        message: 'The given data was invalid.',
        errors: { amount: ['The amount must be between 0.3 and 999999999.99.'] },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("a 422 in the real service's shape becomes validation_failed with its message and field errors", async () => {
  const api = createMerchantApi({ apiBaseUrl: base, apiKey: 'test-key' });
  await expect(api.createPaymentRequest({ amount: '0.10', currency: 'SGD' })).rejects.toMatchObject({
    code: 'validation_failed',
    status: 422,
    message: 'The given data was invalid.',
    errors: [{ path: 'amount', message: 'The amount must be between 0.3 and 999999999.99.' }],
  });
});
