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
  /**
   * The folder is a copy of one this code base migrated, its superuser in
   * it (a test server's copy): no `migrate up` and no superuser upsert.
   */
  migrated?: boolean;
  /** Extra environment for the hooks (Twilio, AI, demo mode...). */
  env?: Record<string, string | undefined>;
  /** Print the server's output (npm start) instead of keeping it (tests). */
  inheritOutput?: boolean;
  /** Restart on changes in pb_hooks (npm run dev only: a restart mid-test fails requests). */
  watchHooks?: boolean;
  /**
   * Origins whose pages may call the API from another origin (CORS, PocketBase's
   * --origins). Default: the server's own origin only, which a browser never
   * needs CORS for: the app is served by this server, or (npm run dev) by Vite
   * proxying /api, so no other site's page can read an answer. PocketBase alone
   * would allow every origin.
   */
  origins?: readonly string[];
  /**
   * 'ready' (the default): return once /api/health says ready. 'listening':
   * return as soon as it answers at all, for a caller that seeds the demo
   * data first (health stays 503 until the seed is in) and then waits for
   * ready itself.
   */
  startedWhen?: StartedWhen;
}

export interface RunningPocketBase {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the server printed so far (when output is not inherited). */
  output: () => string;
  /** What the one-off commands before `serve` (migrate up, superuser upsert) printed. */
  setupLog: string;
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

/**
 * Runs a one-off PocketBase command (migrate up, superuser upsert). Hook
 * watching is always off here: PocketBase watches pb_hooks by default and
 * restarts the process on any change there, which closed the database under
 * a running `migrate up` ('sql: database is closed') whenever a parallel
 * test worker rebuilt the generated hook libraries. Returns what it printed.
 */
function runCommand(
  bin: string,
  command: string[],
  common: string[],
  positional: string[],
  env: NodeJS.ProcessEnv,
): string {
  // Flags first, then `--`, then the values: a value that starts with '-'
  // (a generated password can) is never read as a flag.
  const args = [...command, ...common, '--hooksWatch=false', ...(positional.length > 0 ? ['--', ...positional] : [])];
  const result = spawnSync(bin, args, { env, encoding: 'utf8' });
  const printed = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) {
    throw new Error(`pocketbase ${command.join(' ')} failed (exit ${result.status}): ${printed}`);
  }
  return printed;
}

/** How far the server must be before startPocketBase returns. */
export type StartedWhen = 'listening' | 'ready';

/**
 * Polls /api/health. 'listening': any HTTP answer. 'ready': 200, which the
 * readiness hook (pb_hooks/readiness.pb.js) gives only once every migration
 * is applied and, in demo mode, the demo seed is in.
 */
export async function waitForHealth(
  url: string,
  when: StartedWhen,
  child?: ChildProcess,
  output: () => string = () => '',
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`PocketBase exited with code ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok || when === 'listening') return;
      last = `${response.status} ${await response.text()}`;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`PocketBase was not ${when} within ${timeoutMs} ms (last health answer: ${last}):\n${output()}`);
}

/**
 * JS VMs kept ready for the hooks. Each JS handler on a record's create
 * chain holds a VM until the rest of the chain has run, and the 50 creates
 * of a batch (the outbox replays in batches) run nested one inside another:
 * with PocketBase's default of 15, a batch ran out of VMs and made new ones
 * for every record (measured: a batch of 50 reports took 150-200 ms with
 * 15 VMs, 80 ms with 60, 50-57 ms with 120). A home has three handlers on
 * its create chain (record_ids, houses, home_history), so a batch of 50
 * homes holds 150 VMs, and one more runs the request checks: with 120,
 * 5,000 homes took 19.4 s of the server's CPU, with 160 12.5 s. 160 VMs
 * cost about 40 MB of memory and 70 ms at start, and up to about 1.1 GB
 * more once each has run the request checks (docs/performance.md, "The
 * server's memory and CPU under batch writes").
 */
const HOOKS_POOL = 160;

/**
 * The hook libraries are built once per process; not at all when the
 * environment says a parent did (`npm test` builds them before its jobs:
 * otherwise each of the suite's two hundred server starts ran esbuild).
 */
export const HOOK_LIBS_BUILT = 'SCMS_HOOK_LIBS_BUILT';
let hookLibs: Promise<void> | null = null;
function hookLibsBuilt(): Promise<void> {
  if (process.env[HOOK_LIBS_BUILT] === '1') return Promise.resolve();
  hookLibs ??= buildHookLibs();
  return hookLibs;
}

export async function startPocketBase(options: PocketBaseOptions): Promise<RunningPocketBase> {
  const bin = await ensurePocketBase();
  await hookLibsBuilt();
  const host = options.host ?? '127.0.0.1';
  mkdirSync(options.dataDir, { recursive: true });
  // The readiness hook compares this folder with the applied migrations.
  const env: NodeJS.ProcessEnv = { ...process.env, SCMS_MIGRATIONS_DIR: migrationsDir, ...options.env };
  const common = [`--dir=${options.dataDir}`, `--migrationsDir=${migrationsDir}`, `--hooksDir=${hooksDir}`];

  // Apply the migrations first so that a broken one fails loudly here, and the
  // table statistics `serve` takes at its bootstrap (pb_hooks/query_planner.pb.js)
  // cover what they add; then the superuser, so it exists before anything
  // talks to the server. A folder the caller knows is migrated, with its
  // superuser (a test server's copy), skips both: two more processes, each
  // bootstrapping every hook, for nothing (each browser test's server).
  let setupLog = '';
  if (!options.migrated) {
    setupLog += runCommand(bin, ['migrate', 'up'], common, [], env);
    if (options.superuser) {
      setupLog += runCommand(
        bin,
        ['superuser', 'upsert'],
        common,
        [options.superuser.email, options.superuser.password],
        env,
      );
    }
  }
  return { ...(await serveOnFreePort(bin, common, env, host, options)), setupLog };
}

async function serveOnFreePort(
  bin: string,
  common: string[],
  env: NodeJS.ProcessEnv,
  host: string,
  options: PocketBaseOptions,
): Promise<Omit<RunningPocketBase, 'setupLog'>> {
  // A port found free can be taken by another process before PocketBase
  // binds it (the tests start many servers side by side): a port this
  // function chose is chosen again; a port the caller gave is the caller's.
  for (let attempt = 1; ; attempt++) {
    const port = options.port || (await freePort(host));
    try {
      return await serve(bin, common, env, host, port, options);
    } catch (error) {
      if (options.port || attempt >= 3 || !/address already in use/.test(String(error))) throw error;
    }
  }
}

/** Starts `pocketbase serve` on the port and waits for it (the data folder is set up). */
async function serve(
  bin: string,
  common: string[],
  env: NodeJS.ProcessEnv,
  host: string,
  port: number,
  options: PocketBaseOptions,
): Promise<Omit<RunningPocketBase, 'setupLog'>> {
  const args = [
    'serve',
    ...common,
    `--publicDir=${options.publicDir ?? join(projectRoot, 'dist')}`,
    `--http=${host}:${port}`,
    '--automigrate=false',
    `--hooksWatch=${options.watchHooks ? 'true' : 'false'}`,
    `--hooksPool=${HOOKS_POOL}`,
    `--origins=${(options.origins && options.origins.length > 0 ? options.origins : [`http://${host}:${port}`]).join(',')}`,
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
    await waitForHealth(url, options.startedWhen ?? 'ready', child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, process: child, output, stop };
}
