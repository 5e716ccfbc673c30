#!/usr/bin/env node
/**
 * `paykit-sandbox`: with no command (or options only) it runs the sandbox (`commands/serve.ts`); `clock` reads or
 * moves a business's clock and `trigger` sends an event, on a sandbox already running. Each command is its own
 * module, loaded only when named.
 */
import { CommandError } from './commands/control-client.js';

/** The commands that act on a running sandbox, each loaded only when named. */
const COMMANDS: Record<string, () => Promise<{ run(args: string[]): Promise<void> }>> = {
  clock: () => import('./commands/clock.js'),
  trigger: () => import('./commands/trigger.js'),
};

const [first, ...rest] = process.argv.slice(2);
const command = first === undefined ? undefined : COMMANDS[first];
try {
  if (command) await (await command()).run(rest);
  else await (await import('./commands/serve.js')).serve(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof CommandError)) throw error;
  console.error(error.message);
  process.exit(error.exitCode);
}
