/**
 * What `npm start` and `npm run dev` expose, started as
 * people start them (scripts/start.ts, scripts/dev.ts through tsx), each on
 * free ports with its own data folder:
 * - demo mode on an address other machines can reach warns loudly at start
 *   (and again under the URL); on loopback, or with SCMS_DEMO=0, it does not;
 * - CORS: an origin that is not allowed gets no Access-Control-Allow-Origin,
 *   neither on an answer nor on a preflight; the allowed one does
 *   (SCMS_ALLOWED_ORIGINS, default the public URL's origin);
 * - npm run dev, where Vite serves the app from another port and proxies
 *   /api, still signs in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { freePort, projectRoot } from '../../scripts/pocketbase/server.ts';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import { scriptProcess } from '../support/script-process.ts';

const STARTED_MS = 150_000;
const FOREIGN = 'https://evil.example';

interface Started {
  stdout: () => string;
  stderr: () => string;
  port: number;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Stops a script and everything it started: its own process group, Ctrl-C first as a person would. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGINT');
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone already
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

/** Runs `npx tsx <script>` with `env` until its output says `ready`. */
async function run(script: string, env: Record<string, string>, ready: string): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'scms-exposure-'));
  const port = await freePort();
  const child = spawn(...scriptProcess(script), {
    cwd: projectRoot,
    // No build: the API is what is checked (and dist/ belongs to others).
    env: {
      ...process.env,
      SCMS_SKIP_BUILD: '1',
      PORT: String(port),
      TELEPHONY_STANDIN_PORT: String(await freePort()),
      SCMS_DATA_DIR: join(dir, 'pb_data'),
      SCMS_DEMO: '',
      HOST: '',
      SCMS_ALLOWED_ORIGINS: '',
      SCMS_PUBLIC_URL: '',
      ...env,
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => stopGroup(child));
  const deadline = Date.now() + STARTED_MS;
  while (!out.includes(ready)) {
    if (child.exitCode !== null) throw new Error(`${script} exited (${child.exitCode}):\n${out}\n${err}`);
    if (Date.now() > deadline) throw new Error(`${script} did not start:\n${out}\n${err}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { stdout: () => out, stderr: () => err, port };
}

const WARNING = /WARNING: demo mode is on and the server listens on (\S+), an address other machines can reach\./;

/** The CORS answer to `origin`: of a GET, and of a preflight for a signed-in POST. */
async function cors(url: string, origin: string): Promise<{ get: string | null; preflight: string | null }> {
  const get = await fetch(`${url}/api/health`, { headers: { Origin: origin } });
  const preflight = await fetch(`${url}/api/collections/users/auth-with-password`, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization,content-type',
    },
  });
  return {
    get: get.headers.get('access-control-allow-origin'),
    preflight: preflight.headers.get('access-control-allow-origin'),
  };
}

describe('npm start', () => {
  test('demo mode on 0.0.0.0: a loud warning at start and under the URL; CORS answers only the public origin', async () => {
    const s = await run('scripts/start.ts', { HOST: '0.0.0.0' }, 'Press Ctrl-C to stop.');
    expect(s.stderr()).toMatch(WARNING);
    expect(WARNING.exec(s.stderr())?.[1]).toBe(`0.0.0.0:${s.port}`);
    expect(s.stderr()).toContain('Production: start with SCMS_DEMO=0');
    // Again beside the URL and the demo sign-in, the last thing read.
    const tail = s.stdout().slice(s.stdout().indexOf('SCMS is running at'));
    expect(tail).toMatch(WARNING);
    expect(tail).toContain(`Demo sign-in: ${DEMO_DIRECTOR.email}`);

    const url = `http://127.0.0.1:${s.port}`;
    expect(await cors(url, FOREIGN)).toEqual({ get: null, preflight: null });
    expect(await cors(url, `http://127.0.0.1:${s.port + 1}`)).toEqual({ get: null, preflight: null });
    expect(await cors(url, url)).toEqual({ get: url, preflight: url });
    expect(tail).toContain(`Other sites' pages may call the API from: ${url} (SCMS_ALLOWED_ORIGINS).`);
  }, 200_000);

  test('SCMS_DEMO=0 on 0.0.0.0: no warning, no demo sign-in; SCMS_ALLOWED_ORIGINS lists the origins CORS answers', async () => {
    const allowed = 'https://patrol.example.com';
    const s = await run(
      'scripts/start.ts',
      { HOST: '0.0.0.0', SCMS_DEMO: '0', SCMS_ALLOWED_ORIGINS: `${allowed}, https://desk.example.com:8443` },
      'Press Ctrl-C to stop.',
    );
    expect(s.stderr()).not.toMatch(/WARNING/);
    expect(s.stdout()).not.toMatch(/WARNING|Demo sign-in/);
    const url = `http://127.0.0.1:${s.port}`;
    expect((await fetch(`${url}/api/scms/demo`)).status).toBe(404);
    expect(await cors(url, allowed)).toEqual({ get: allowed, preflight: allowed });
    expect(await cors(url, 'https://desk.example.com:8443')).toEqual({
      get: 'https://desk.example.com:8443',
      preflight: 'https://desk.example.com:8443',
    });
    expect(await cors(url, FOREIGN)).toEqual({ get: null, preflight: null });
    // Listed origins only: the server's own address is not one of them (its pages need no CORS).
    expect(await cors(url, url)).toEqual({ get: null, preflight: null });
  }, 200_000);
});

describe('npm run dev', () => {
  test('demo mode on loopback: no warning; the app from Vite signs in through its /api proxy; PocketBase answers no other origin', async () => {
    const vitePort = await freePort();
    const s = await run('scripts/dev.ts', { VITE_PORT: String(vitePort) }, 'API (PocketBase):');
    expect(s.stderr()).not.toMatch(/WARNING/);
    expect(s.stdout()).not.toMatch(/WARNING/);
    const vite = `http://localhost:${vitePort}`;
    expect((await fetch(`${vite}/`)).status).toBe(200);
    // As the page does it: same origin to Vite, which passes the Origin header on to PocketBase.
    const signIn = await fetch(`${vite}/api/collections/users/auth-with-password`, {
      method: 'POST',
      headers: { Origin: vite, 'Content-Type': 'application/json' },
      body: JSON.stringify({ identity: DEMO_DIRECTOR.email, password: DEMO_DIRECTOR.password }),
    });
    // A 502 is Vite failing to reach PocketBase: what both printed says why.
    expect(signIn.status, `dev printed:\n${s.stdout()}\n${s.stderr()}`).toBe(200);
    expect(((await signIn.json()) as { token?: string }).token).toEqual(expect.any(String));
    const pocketbase = `http://127.0.0.1:${s.port}`;
    expect(await cors(pocketbase, FOREIGN)).toEqual({ get: null, preflight: null });
  }, 200_000);
});
