/**
 * Starting the server the way `npm start`, `npm run dev` and every test do:
 * readiness means usable (the demo sign-in works the moment anything says
 * ready), no generated value is read as a command-line flag, and a rebuild
 * of the hook libraries by another process never restarts a one-off
 * PocketBase command under its own feet.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PocketBase from 'pocketbase';
import { afterEach, describe, expect, test } from 'vitest';
import {
  freePort,
  hooksDir,
  projectRoot,
  startPocketBase,
  type RunningPocketBase,
} from '../../scripts/pocketbase/server.ts';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import { seedDemo } from '../../scripts/seed/seed.ts';
import { scriptProcess } from '../support/script-process.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scms-start-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(options: Parameters<typeof startPocketBase>[0]): Promise<RunningPocketBase> {
  const server = await startPocketBase(options);
  cleanups.push(() => server.stop());
  return server;
}

const DEMO_ENV = { SCMS_DEMO: '1', SCMS_DEMO_EMAIL: DEMO_DIRECTOR.email, SCMS_DEMO_PASSWORD: DEMO_DIRECTOR.password };

async function status(url: string): Promise<number> {
  return (await fetch(url)).status;
}

describe('readiness', () => {
  test('in demo mode, health and the demo sign-in wait for the seed; then the sign-in works at once', async () => {
    const superuser = { email: 'root@scms.test', password: 'root-password-123' };
    const server = await start({
      dataDir: join(tempDir(), 'pb_data'),
      superuser,
      env: DEMO_ENV,
      startedWhen: 'listening',
    });

    expect(await status(`${server.url}/api/health`)).toBe(503);
    const early = await fetch(`${server.url}/api/scms/demo`);
    expect(early.status).toBe(503);
    expect(((await early.json()) as { message: string }).message).toMatch(/being prepared/);

    const admin = new PocketBase(server.url);
    admin.autoCancellation(false);
    await admin.collection('_superusers').authWithPassword(superuser.email, superuser.password);
    await seedDemo(admin);

    expect(await status(`${server.url}/api/health`)).toBe(200);
    const demo = (await (await fetch(`${server.url}/api/scms/demo`)).json()) as { email: string; password: string };
    const officer = new PocketBase(server.url);
    await officer.collection('users').authWithPassword(demo.email, demo.password);
    expect(officer.authStore.isValid).toBe(true);
  });

  test('outside demo mode, health is ready as soon as the migrations are applied', async () => {
    const server = await start({ dataDir: join(tempDir(), 'pb_data') });
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await status(`${server.url}/api/scms/demo`)).toBe(404);
  });
});

describe('command-line arguments', () => {
  test('a superuser password that starts with "-" is a value, not a flag', async () => {
    const superuser = { email: 'dash@scms.test', password: '-xY_leading-dash-1' };
    const server = await start({ dataDir: join(tempDir(), 'pb_data'), superuser });
    const admin = new PocketBase(server.url);
    await admin.collection('_superusers').authWithPassword(superuser.email, superuser.password);
    expect(admin.authStore.isSuperuser).toBe(true);
  });

  test('a write into pb_hooks while the migrations run restarts nothing', async () => {
    // What a parallel test worker (or an editor) does: write a file in the
    // hooks folder, here every 60 ms, while servers start. PocketBase's hook
    // watcher restarts the process 50 ms after a write; a restart during
    // `migrate up` closed the database under it.
    // The writer is another process: spawnSync blocks this one while the
    // commands run, as it blocks nothing in a parallel test worker.
    const probe = join(hooksDir, 'lib', 'generated', `watch-probe-${process.pid}.txt`);
    const writer = spawn(
      process.execPath,
      [
        '-e',
        `let n = 0; setInterval(() => require('node:fs').writeFileSync(${JSON.stringify(probe)}, String(n++)), 60);`,
      ],
      { stdio: 'ignore' },
    );
    cleanups.push(() => {
      writer.kill();
      rmSync(probe, { force: true });
    });
    for (let i = 0; i < 6; i++) {
      const server = await startPocketBase({
        dataDir: join(tempDir(), 'pb_data'),
        superuser: { email: 'w@scms.test', password: 'watch-password-1' },
      });
      await server.stop();
      expect(server.setupLog).not.toMatch(/restarting/);
      expect(server.output()).not.toMatch(/restarting/);
    }
    // Six servers start one after another: on a loaded two-core CI run they took more than the layer's 30 s.
  }, 120_000);
});

describe('npm start', () => {
  test('prints the URL only once the demo sign-in works', async () => {
    const folder = tempDir();
    const port = await freePort();
    const standinPort = await freePort();
    const child = spawn(...scriptProcess(join(projectRoot, 'scripts', 'start.ts')), {
      cwd: projectRoot,
      env: {
        ...process.env,
        SCMS_SKIP_BUILD: '1',
        PORT: String(port),
        TELEPHONY_STANDIN_PORT: String(standinPort),
        SCMS_DATA_DIR: join(folder, 'pb_data'),
        SCMS_DEMO: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
    });
    let printed = '';
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start printed no URL within 60 s:\n${printed}`)), 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const match = /SCMS is running at (\S+)/.exec(printed);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      void exited.then(() => reject(new Error(`npm start exited:\n${printed}`)));
    });
    // The very first thing a new user does: ask for the demo sign-in and use it.
    const demo = await fetch(`${url}/api/scms/demo`);
    expect(demo.status).toBe(200);
    const account = (await demo.json()) as { email: string; password: string };
    const pb = new PocketBase(url);
    await pb.collection('users').authWithPassword(account.email, account.password);
    expect(pb.authStore.isValid).toBe(true);
    expect(printed).toContain(`Demo sign-in: ${DEMO_DIRECTOR.email} / ${DEMO_DIRECTOR.password}`);
  }, 90_000);
});
