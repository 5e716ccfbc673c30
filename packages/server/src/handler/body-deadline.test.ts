/**
 * The body read deadline (`bodyTimeoutMs`) over a real `node:http` server and a raw socket that trickles its
 * body a byte at a time: the 408 comes near the deadline (not at Node's 300 s request timeout), the refusal is
 * actually written, and the connection ends even though the client is still sending.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { toNodeListener } from '../adapters/node.js';
import { createPaykitHandler } from './create-handler.js';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

let hookRuns = 0;

async function serve(bodyTimeoutMs?: number): Promise<number> {
  hookRuns = 0;
  const handler = createPaykitHandler({
    // Nothing reaches the API: every request here is refused while its body is read.
    api: { apiBaseUrl: 'http://127.0.0.1:9', apiKey: 'body-deadline-test-key' },
    createPaymentRequest: () => {
      hookRuns += 1;
      return { amount: '1.00', currency: 'SGD' };
    },
    logger: { warn: () => undefined, error: () => undefined },
    ...(bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs }),
  });
  server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

interface Trickled {
  /** The raw answer (status line, headers, body) as the client read it. */
  answer: string;
  /** When the first byte of the answer came, in ms from the start of the request. */
  answeredAfterMs: number;
  /** When the server ended the connection, in ms from the start. */
  closedAfterMs: number;
  /** Body bytes the client had sent when the answer came. */
  bytesSent: number;
}

/**
 * POSTs a JSON object of `length` bytes (`{`, spaces, `}`) to `path`, one byte every `everyMs`, and reads until
 * the connection ends. `close` asks for the connection to end after the answer (otherwise only the server's own
 * decision ends it).
 */
function trickle(port: number, path: string, length: number, everyMs: number, close = false): Promise<Trickled> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let answer = '';
    let answeredAfterMs = -1;
    let bytesSent = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    socket.on('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${length}\r\n${close ? 'Connection: close\r\n' : ''}\r\n{`,
      );
      bytesSent = 1;
      timer = setInterval(() => {
        if (bytesSent >= length || socket.destroyed || !socket.writable) return;
        socket.write(bytesSent === length - 1 ? '}' : ' ');
        bytesSent += 1;
      }, everyMs);
    });
    socket.on('data', (chunk: Buffer) => {
      if (answeredAfterMs < 0) answeredAfterMs = Date.now() - started;
      answer += chunk.toString('utf8');
    });
    const finish = () => {
      clearInterval(timer);
      resolve({ answer, answeredAfterMs, closedAfterMs: Date.now() - started, bytesSent });
    };
    socket.on('close', finish);
    // A write racing the close may fail with EPIPE or ECONNRESET; what was read is still the answer.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (answer === '') reject(error);
    });
  });
}

describe('bodyTimeoutMs', () => {
  it('answers 408 request_timeout near the deadline to a body trickled a byte at a time, then ends the connection', async () => {
    const port = await serve(1_000);
    const result = await trickle(port, '/paykit/payment-requests', 500, 200);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.answer.toLowerCase()).toContain('connection: close');
    const body = JSON.parse(result.answer.slice(result.answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'request_timeout', message: expect.any(String) });
    expect(result.answeredAfterMs).toBeGreaterThanOrEqual(950);
    expect(result.answeredAfterMs).toBeLessThan(2_500);
    // The client was still sending: the server closed the connection instead of waiting for the rest.
    expect(result.bytesSent).toBeLessThan(500);
    expect(result.closedAfterMs - result.answeredAfterMs).toBeLessThan(1_000);
    expect(hookRuns).toBe(0);
  });

  it('keeps the deadline on every route that reads a body (the webhooks route too)', async () => {
    const port = await serve(600);
    const result = await trickle(port, '/paykit/webhooks', 300, 100);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.answeredAfterMs).toBeLessThan(2_000);
  });

  it('has a 10 s default and refuses a deadline that is not a positive number', async () => {
    const base = { api: { apiBaseUrl: 'http://127.0.0.1:9', apiKey: 'body-deadline-test-key' } };
    for (const bodyTimeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() =>
        createPaykitHandler({ ...base, createPaymentRequest: () => ({ amount: 1, currency: 'SGD' }), bodyTimeoutMs }),
      ).toThrow(/bodyTimeoutMs/);
    }
    // A body trickled for 2 s is still read whole under the default, and then judged on its content.
    const port = await serve();
    const result = await trickle(port, '/paykit/payment-requests', 12, 180, true);
    expect(result.bytesSent).toBe(12);
    expect(result.answeredAfterMs).toBeGreaterThan(1_800);
    // The hook ran (the body was read whole); the API it then called is unreachable, which is another story.
    expect(result.answer).not.toMatch(/^HTTP\/1\.1 408 /);
    expect(hookRuns).toBe(1);
  });
});
