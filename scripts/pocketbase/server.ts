/**
 * Starts a PocketBase process with this project's migrations and hooks.
 * Used by `npm start`, `npm run dev`, the seed script and every integration
 * test (each with its own data folder and port), so there is one way to run
 * the server.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { buildHookLibs } from './hook-libs.ts';
import { ensurePocketBase } from './install.ts';
import { hooksDir, migrationsDir, projectRoot } from './paths.ts';

export { hooksDir, migrationsDir, projectRoot };

export interface PocketBaseOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** The folder served at / (the built PWA). */
  publicDir?: string;
  /** Superuser created (or updated) before the server starts. */
  superuser?: { email: string; password: string };
  /** Extra environment for the hooks (Twilio, AI, demo mode...). */
  env?: Record<string, string | undefined>;
  /** Print the server's output (npm start) instead of keeping it (tests). */
  inheritOutput?: boolean;
  /** Restart on changes in pb_hooks (npm run dev only: a restart mid-test fails requests). */
  watchHooks?: boolean;
}

export interface RunningPocketBase {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the server printed so far (when output is not inherited). */
  output: () => string;
  stop: () => Promise<void>;
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolvePort(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

function runCommand(bin: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(bin, args, { env, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`pocketbase ${args[0]} ${args[1] ?? ''} failed (exit ${result.status}): ${result.stderr || result.stdout}`);
  }
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`PocketBase exited with code ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`PocketBase did not become healthy within ${timeoutMs} ms:\n${output()}`);
}

export async function startPocketBase(options: PocketBaseOptions): Promise<RunningPocketBase> {
  const bin = await ensurePocketBase();
  buildHookLibs();
  const host = options.host ?? '127.0.0.1';
  const port = options.port || (await freePort(host));
  mkdirSync(options.dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  const common = [`--dir=${options.dataDir}`, `--migrationsDir=${migrationsDir}`, `--hooksDir=${hooksDir}`];

  // Apply the migrations first so that a broken one fails loudly here, and the
  // superuser exists before anything talks to the server.
  runCommand(bin, ['migrate', 'up', ...common], env);
  if (options.superuser) {
    runCommand(bin, ['superuser', 'upsert', options.superuser.email, options.superuser.password, ...common], env);
  }

  const args = [
    'serve',
    ...common,
    `--publicDir=${options.publicDir ?? join(projectRoot, 'dist')}`,
    `--http=${host}:${port}`,
    '--automigrate=false',
    `--hooksWatch=${options.watchHooks ? 'true' : 'false'}`,
  ];
  const child = spawn(bin, args, { env, stdio: options.inheritOutput ? 'inherit' : 'pipe' });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const output = () => log;
  const url = `http://${host}:${port}`;

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await waitForHealth(url, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, process: child, output, stop };
}
