/**
 * `pnpm demo`: starts the sandbox and the demo shop, and prints where to go.
 */
import { startDemo } from './start-demo.js';

const demo = await startDemo({
  port: Number(process.env.PORT ?? 3000),
  sandboxPort: Number(process.env.SANDBOX_PORT ?? 4010),
});
console.log(`paykit sandbox listening on ${demo.sandbox.url}`);
console.log(`paykit demo shop: open ${demo.url}`);
console.log(`paykit demo in React and Vue: open ${demo.url}/react and ${demo.url}/vue`);
console.log(`paykit demo platform: open ${demo.url}/platform (sign in on the dashboard as owner@harbour.test)`);
console.log('Buy something, then "Pay" or "Fail" on the sandbox checkout. Ctrl+C stops.');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void demo.close().then(() => process.exit(0)));
}
