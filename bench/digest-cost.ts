/**
 * Why `handler/idempotency.ts` hashes with `node:crypto`'s `createHash` where the runtime hands it out
 * (`process.getBuiltinModule`) instead of Web Crypto alone: the CPU of one SHA-256 of an idempotency scope, each
 * way, in this process. A keyed checkout makes three. `pnpm bench --only digest`.
 */
import { createHash } from 'node:crypto';

/** CPU microseconds per digest, each way (the median of three rounds of `rounds` digests). */
export async function measureDigestCost(rounds = 20_000): Promise<{ webCrypto: number; createHash: number }> {
  // A scope as the handler hashes it: the request's Cookie and Authorization.
  const text = JSON.stringify(['session=4f1c0a9e6b2d7c3e8a5f; theme=dark; consent=1', 'Bearer eyJhbGciOi...']);
  const encoder = new TextEncoder();
  const web = async () => Buffer.from(await crypto.subtle.digest('SHA-256', encoder.encode(text))).toString('hex');
  const node = async () => createHash('sha256').update(text).digest('hex');
  const cpuPerCall = async (digest: () => Promise<string>) => {
    const samples: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const start = process.cpuUsage();
      for (let i = 0; i < rounds; i += 1) await digest();
      const used = process.cpuUsage(start);
      samples.push((used.user + used.system) / rounds);
    }
    return samples.sort((a, b) => a - b)[1]!;
  };
  await cpuPerCall(web);
  await cpuPerCall(node);
  return { webCrypto: await cpuPerCall(web), createHash: await cpuPerCall(node) };
}
