import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { httpStatusOf, type PaykitError } from '@paykit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Answer, Exchange } from '../handler/exchange.js';
import { json, readBody } from '../handler/http.js';
import { webResponse } from '../handler/web-exchange.js';
import { toNodeListener, type NodeHandler } from './node.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/**
 * Whether the handlers of a test also answer a plain exchange (as paykit's own does), so that the adapter hands
 * them the request read straight off node:http, its web Request made only when read (`exchange.request()`, what
 * a hook gets), and writes their plain answer: every test below runs both ways.
 */
let deferred = false;

/** The answer of a web Response, as a handler that answers exchanges gives it (one value per header). */
async function answerOf(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  // Iteration gives each Set-Cookie apart: joined here, as any other repeated header.
  response.headers.forEach((value, name) => (headers[name] = name in headers ? `${headers[name]}, ${value}` : value));
  return { status: response.status, headers, body: response.body ? await response.text() : null };
}

async function serve(handler: (request: Request) => Promise<Response>): Promise<string> {
  const served: NodeHandler = deferred
    ? Object.assign(handler, {
        answer: async (exchange: Exchange) => answerOf(await handler(exchange.request())),
      })
    : handler;
  server = createServer(toNodeListener(served));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Sends a POST and goes away after `ms`, without waiting for the answer. */
function postAndLeave(url: string, ms: number): void {
  const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
  request.on('error', () => undefined);
  request.end('{}');
  setTimeout(() => request.destroy(), ms);
}

/** A GET with this exact request target and Host header, as `fetch` would never send it; the answer's body. */
function rawGet(port: number, target: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('end', () => resolve(text.slice(text.indexOf('\r\n\r\n') + 4)));
    socket.on('error', reject);
  });
}

function abortOf(signal: AbortSignal): Promise<string> {
  if (signal.aborted) return Promise.resolve('aborted');
  return new Promise((resolve) => {
    signal.addEventListener('abort', () => resolve('aborted'));
    setTimeout(() => resolve('still running'), 1_000);
  });
}

describe.each([
  ['any handler (a web Request)', false],
  ["paykit's kind of handler (a plain exchange, its Request made only when read)", true],
])('toNodeListener, %s', (_name, deferring) => {
  beforeEach(() => {
    deferred = deferring;
  });

  it('hands over method, URL, headers and body, and writes back status, headers, every Set-Cookie and the length', async () => {
    const url = await serve(async (request) => {
      const headers = new Headers({ 'content-type': 'text/plain', 'x-seen': request.headers.get('x-test') ?? '' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return new Response(`${request.method} ${new URL(request.url).pathname}: ${await request.text()}`, {
        status: 202,
        headers,
      });
    });
    const answer = await fetch(`${url}/some/path?x=1`, { method: 'PUT', headers: { 'x-test': 'yes' }, body: 'héllo' });
    expect(answer.status).toBe(202);
    expect(answer.headers.get('x-seen')).toBe('yes');
    // A web Response's every Set-Cookie; an exchange's answer has one value per header (paykit sets no cookie).
    expect(answer.headers.getSetCookie()).toEqual(deferred ? ['a=1, b=2'] : ['a=1', 'b=2']);
    const text = await answer.text();
    expect(text).toBe('PUT /some/path: héllo');
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  });

  it('gives the Request the URL that the target resolves to against the Host', async () => {
    const url = await serve(
      async (request) =>
        new Response(request.url, { headers: { 'content-length': String(Buffer.byteLength(request.url)) } }),
    );
    const { port } = new URL(url);
    const cases: [target: string, host: string][] = [
      ['/paykit/payment-requests?merchant=b%20c', `127.0.0.1:${port}`],
      ['/a/./b/../c/%2e%2e/d', `Shop.Example:${port}`],
      ['//other.example/x', `127.0.0.1:${port}`],
      ['/\\other.example/x', `127.0.0.1:${port}`],
      ['http://absolute.example/y', `127.0.0.1:${port}`],
      ['/x', `[::1]:${port}`],
    ];
    for (const [target, host] of cases) {
      const answer = await rawGet(Number(port), target, host);
      expect(answer, `${target} with Host ${host}`).toBe(new URL(target, `http://${host}`).href);
    }
  });

  it('writes an answer made by json() from its text, with its length in bytes', async () => {
    const url = await serve(async () => webResponse(json({ message: 'déjà vu ✓' }, 201, { 'x-extra': '1' })));
    const answer = await fetch(url);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('x-extra')).toBe('1');
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength('{"message":"déjà vu ✓"}')));
    expect(await answer.json()).toEqual({ message: 'déjà vu ✓' });
  });

  it('aborts request.signal (and its clones) when the client goes away, whenever it is first read', async () => {
    const outcomes = new Map<string, Promise<string[]>>();
    const url = await serve(async (request) => {
      const path = new URL(request.url).pathname;
      // "/late" reads the signal only after the client has gone.
      if (path === '/late') await new Promise((resolve) => setTimeout(resolve, 300));
      const copy = request.clone();
      const outcome = Promise.all([abortOf(request.signal), abortOf(copy.signal)]);
      outcomes.set(path, outcome);
      await outcome;
      return new Response(null, { status: 204 });
    });
    postAndLeave(`${url}/early`, 100);
    postAndLeave(`${url}/late`, 100);
    await expect.poll(() => outcomes.size).toBe(2);
    expect(await outcomes.get('/early')).toEqual(['aborted', 'aborted']);
    expect(await outcomes.get('/late')).toEqual(['aborted', 'aborted']);
  });

  it('does not abort request.signal after a complete answer', async () => {
    let signal: AbortSignal | undefined;
    const url = await serve(async (request) => {
      signal = request.signal;
      return new Response('done');
    });
    expect(await (await fetch(url, { method: 'POST', body: '{}' })).text()).toBe('done');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signal?.aborted).toBe(false);
  });
});

/** Sends `chunks` as a chunked POST body, `pauseMs` apart (`end` false: the client stops sending, and stays). */
function postChunks(
  url: string,
  chunks: string[],
  options: { pauseMs?: number; end?: boolean } = {},
): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () =>
        resolve({ status: response.statusCode!, connection: response.headers.connection, body }),
      );
    });
    request.on('error', reject);
    void (async () => {
      for (const chunk of chunks) {
        if (request.destroyed) return;
        request.write(chunk);
        await new Promise((wait) => setTimeout(wait, options.pauseMs ?? 0));
      }
      if (options.end !== false) request.end();
    })();
  });
}

describe("toNodeListener with a handler of plain exchanges (paykit's): the body read off the stream, no web Request", () => {
  /** A handler that answers exchanges only: its web side is never called. */
  const deferredHandler = (answer: (exchange: Exchange) => Promise<Answer>): NodeHandler =>
    Object.assign(async () => new Response('the web side was called', { status: 500 }), { answer });
  /** The limits of the tests' reads: 10 s, longer than any of them runs. */
  const within = (maxBytes: number) => ({ maxBytes, timeoutMs: 10_000 });
  beforeEach(() => {
    // The handlers below answer exchanges themselves: serve() hands them over as they are.
    deferred = false;
  });

  it('reads a chunked body whole, and refuses one that grows past the limit with 413 and Connection: close', async () => {
    const url = await serve(
      deferredHandler(async (exchange) => {
        try {
          const { bytes } = await readBody(exchange, within(64), ['application/json']);
          return json({ length: bytes.byteLength, text: new TextDecoder().decode(bytes) });
        } catch (error) {
          const code = (error as PaykitError).code;
          return json({ code }, httpStatusOf(code));
        }
      }),
    );
    const whole = await postChunks(url, ['{"a":', '"é"', '}'], { pauseMs: 20 });
    expect(whole.status).toBe(200);
    expect(JSON.parse(whole.body)).toEqual({ length: 10, text: '{"a":"é"}' });
    // No Content-Length: the limit is found while reading. The client is still sending: the answer says the
    // connection ends, and is written all the same.
    const large = await postChunks(url, ['{"a":"', 'x'.repeat(50), 'x'.repeat(50), '"}'], { pauseMs: 20, end: false });
    expect(large.status).toBe(413);
    expect(JSON.parse(large.body)).toEqual({ code: 'payload_too_large' });
    expect(large.connection).toBe('close');
  });

  it('reads method, URL and headers as the Request would (repeated ones joined, Cookie by "; ", names in any case)', async () => {
    const names = ['Cookie', 'x-twice', 'X-TWICE', 'content-type', 'host', 'absent'];
    let seen: unknown;
    const url = await serve(
      deferredHandler(async (exchange) => {
        const real = exchange.request();
        seen = {
          method: [exchange.method, real.method],
          url: [exchange.url.href, real.url],
          headers: names.map((name) => [exchange.headers.get(name), real.headers.get(name)]),
        };
        return json({});
      }),
    );
    const { port } = new URL(url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.end(
          `DELETE /a/./b/../c?x=%20y HTTP/1.1\r\nHost: Shop.Example:${port}\r\ncookie: a=1\r\nCookie: b=2\r\n` +
            'X-Twice: one\r\nx-twice:  two \r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n',
        );
      });
      socket.on('data', () => undefined);
      socket.on('end', resolve);
      socket.on('error', reject);
    });
    const target = `http://shop.example:${port}/a/c?x=%20y`;
    expect(seen).toEqual({
      method: ['DELETE', 'DELETE'],
      url: [target, target],
      headers: [
        ['a=1; b=2', 'a=1; b=2'],
        ['one, two', 'one, two'],
        ['one, two', 'one, two'],
        ['text/plain', 'text/plain'],
        [`Shop.Example:${port}`, `Shop.Example:${port}`],
        [null, null],
      ],
    });
  });

  it("gives the merchant's code a real Request: headers, URL, a used body, a signal", async () => {
    let seen: Record<string, unknown> = {};
    const url = await serve(
      deferredHandler(async (exchange) => {
        const { bytes } = await readBody(exchange, within(1024), ['application/json']);
        // What a hook gets (hookContext): the Request the exchange stands for.
        const real = exchange.request();
        seen = {
          real: real instanceof Request,
          same: exchange.request() === real,
          body: new TextDecoder().decode(bytes),
          cookie: real.headers.get('cookie'),
          url: real.url,
          method: real.method,
          bodyUsed: real.bodyUsed,
          aborted: real.signal.aborted,
        };
        return json({});
      }),
    );
    await fetch(`${url}/paykit/payment-requests?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'sid=carol' },
      body: '{"reference":"sku-mug"}',
    });
    expect(seen).toEqual({
      real: true,
      same: true,
      body: '{"reference":"sku-mug"}',
      cookie: 'sid=carol',
      url: `${url}/paykit/payment-requests?x=1`,
      method: 'POST',
      bodyUsed: true,
      aborted: false,
    });
  });

  it('answers a client that goes away in the middle of its body, without waiting for it', async () => {
    let outcome: Promise<string> | undefined;
    const url = await serve(
      deferredHandler(async (exchange) => {
        outcome = readBody(exchange, within(1024), ['application/json']).then(
          () => 'read',
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
        await outcome;
        return json({});
      }),
    );
    const request = httpRequest(`${url}/`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    request.on('error', () => undefined);
    request.write('{"a":');
    await expect.poll(() => outcome !== undefined).toBe(true);
    request.destroy();
    // The read fails (Node's 'aborted' error, or the adapter's own when the connection closes first).
    expect(await outcome).not.toBe('read');
  });
});
