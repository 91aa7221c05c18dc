/**
 * Caddy (Debian's package, /usr/bin/caddy) as the cluster's proxy: started
 * with a generated Caddyfile (scripts/cluster/caddyfile.ts) and reloaded
 * through its admin endpoint when the directory changes, without dropping
 * the connections it holds. Its own state goes into the cluster's folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keptOutput, stopProcess } from '../tools/childProcess.ts';

export const CADDY_BIN = process.env.CADDY_BIN ?? '/usr/bin/caddy';

export interface RunningCaddy {
  process: ChildProcess;
  output: () => string;
  /** Loads a new Caddyfile (and keeps it in the folder). */
  reload: (caddyfileText: string) => Promise<void>;
  stop: () => Promise<void>;
}

async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  child: ChildProcess,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (child.exitCode !== null) throw new Error(`caddy exited (${child.exitCode}): ${log()}`);
    if (Date.now() > deadline) throw new Error(`caddy: ${what} not within 30 s: ${log()}`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

/** Starts Caddy with this Caddyfile, kept as `<folder>/Caddyfile`; returns once its admin endpoint answers. */
export async function startCaddy(folder: string, caddyfileText: string, adminAddress: string): Promise<RunningCaddy> {
  if (!existsSync(CADDY_BIN)) {
    throw new Error(
      `${CADDY_BIN} not found: install Debian's caddy package (README, "Before you start"), or set CADDY_BIN`,
    );
  }
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'Caddyfile');
  writeFileSync(file, caddyfileText);
  const env = {
    ...process.env,
    HOME: folder,
    XDG_DATA_HOME: join(folder, 'data'),
    XDG_CONFIG_HOME: join(folder, 'config'),
  };
  const child = spawn(CADDY_BIN, ['run', '--config', file, '--adapter', 'caddyfile'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = keptOutput(child);
  const admin = `http://${adminAddress}`;
  await waitFor(
    () =>
      fetch(`${admin}/config/`, { signal: AbortSignal.timeout(2_000) }).then(
        (response) => response.ok,
        () => false,
      ),
    'the admin endpoint',
    child,
    log,
  );
  return {
    process: child,
    output: log,
    reload: async (text) => {
      writeFileSync(file, text);
      const response = await fetch(`${admin}/load`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/caddyfile' },
        body: text,
      });
      if (!response.ok) throw new Error(`caddy reload failed (${response.status}): ${await response.text()}`);
    },
    stop: () => stopProcess(child),
  };
}
