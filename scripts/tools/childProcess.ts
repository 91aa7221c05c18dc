/**
 * The cluster's long-running tools (Caddy, Litestream, moto: scripts/cluster/)
 * as child processes: the tail of what they print, kept for the error that
 * says why one failed, and a stop that waits until the process is gone.
 */
import type { ChildProcess } from 'node:child_process';

/** Keeps the last `limit` characters the process prints on stdout and stderr; returns how to read them. */
export function keptOutput(child: ChildProcess, limit = 20_000): () => string {
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-limit);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => log;
}

/** Asks the process to end (SIGTERM) and resolves once it has; at once if it already had. */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveStop();
    child.once('exit', () => resolveStop());
    child.kill('SIGTERM');
  });
}
