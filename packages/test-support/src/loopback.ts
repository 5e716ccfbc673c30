/**
 * Test servers listen on a free port of 127.0.0.1 only: nothing a test starts is reachable from elsewhere.
 */
import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';

/** Starts `server` on a free port of 127.0.0.1 and resolves with its origin, `http://127.0.0.1:{port}`. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A port of 127.0.0.1 free right now: for a process that is told its port before it starts (nothing else takes it
 * in between on a test machine), or, left closed, a port where nothing listens (connection refused).
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
