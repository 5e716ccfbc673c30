/**
 * How a long-running command of paykit (`paykit-sandbox`, `pnpm sandbox`, `npm run demo`) stops and starts: it
 * stops cleanly, leaving no listener behind, on whatever a terminal, an IDE's stop button or a process manager
 * sends (SIGINT, SIGTERM, SIGHUP), and also when the process that started it goes away without passing the
 * signal on (a shell killed, a parent killed with SIGKILL): an orphaned server holding its port is what made
 * the next start fail. A port in use is one line that names the port, the likely cause and what changes it.
 */

/** The signals that stop the command. SIGHUP: the terminal was closed. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How often the parent is looked at: a stale server lasts at most this long after its parent is gone. */
const PARENT_POLL_MS = 500;

/**
 * Calls `close` once on the first stop signal, or when this process's parent is gone (it was re-parented), then
 * exits: 0 after a clean close, 1 if closing failed. A second signal while closing exits at once (1).
 */
export function stopOnSignals(
  close: () => Promise<void>,
  // A command's own output: the one place the sandbox writes to the terminal besides its CLI.
  // eslint-disable-next-line no-console
  log: (line: string) => void = console.error,
): void {
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) {
      log(`paykit: ${why} again while stopping: exiting now`);
      process.exit(1);
    }
    stopping = true;
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`paykit: could not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => stop(signal));
  const parent = process.ppid;
  // Unref'd: it never keeps the process alive by itself. A parent of 1 from the start (a container's init, a
  // daemon) is not watched: there is no parent to lose.
  if (parent > 1)
    setInterval(() => {
      if (process.ppid !== parent) stop('the process that started this one is gone');
    }, PARENT_POLL_MS).unref();
}

/**
 * One line for a failed `listen`, or `undefined` when it is not a port in use or refused: the port, the likely
 * cause and the setting that changes it (`settings` names it by port: the variable or flag the user can set).
 */
export function describeListenError(error: unknown, settings: Readonly<Record<number, string>>): string | undefined {
  if (typeof error !== 'object' || error === null || !('port' in error) || typeof error.port !== 'number')
    return undefined;
  const port = error.port;
  const address = 'address' in error ? error.address : undefined;
  const code = 'code' in error ? error.code : undefined;
  const where = `${typeof address === 'string' ? address : '127.0.0.1'}:${port}`;
  const setting = settings[port] ?? 'the port option';
  if (code === 'EADDRINUSE')
    return (
      `paykit: port ${port} (${where}) is in use, most likely by a sandbox or demo still running (see ` +
      `\`lsof -i :${port}\`, or \`ss -ltnp\`): stop it, or choose another port with ${setting} (0 picks a free one).`
    );
  if (code === 'EACCES')
    return `paykit: port ${port} (${where}) may not be used by this user: choose a port above 1023 with ${setting}.`;
  return undefined;
}
