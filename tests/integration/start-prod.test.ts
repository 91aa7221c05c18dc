/**
 * `npm run start:prod`, started as people start it (tsx
 * scripts/start-prod.ts) on free ports with its own data folder: it refuses,
 * with a message naming what is missing and a non-zero exit code, without an
 * explicit superuser and password or an https public URL; with them it starts
 * without demo data or the demo route, says ready, answers CORS for the app's
 * origin only, schedules PocketBase's backups, says where the data lives; and
 * `npm run backup` writes a backup of it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { superuserClient } from '../../scripts/backups.ts';
import { freePort, projectRoot } from '../../scripts/pocketbase/server.ts';
import { scriptProcess } from '../support/script-process.ts';
import { prodEnvironment, startProd } from '../support/start-prod.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SUPERUSER = { email: 'owner@patrol.test', password: 'a-long-production-secret' };

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scms-prod-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const COMPLETE = {
  SCMS_SUPERUSER_EMAIL: SUPERUSER.email,
  SCMS_SUPERUSER_PASSWORD: SUPERUSER.password,
  SCMS_PUBLIC_URL: 'https://patrol.example.com',
};

describe('npm run start:prod', () => {
  test.each([
    ['no superuser password', { SCMS_SUPERUSER_PASSWORD: '' }, /SCMS_SUPERUSER_PASSWORD is not set/],
    ['a short superuser password', { SCMS_SUPERUSER_PASSWORD: 'short' }, /SCMS_SUPERUSER_PASSWORD is too short/],
    ['no superuser e-mail', { SCMS_SUPERUSER_EMAIL: '' }, /SCMS_SUPERUSER_EMAIL is not set/],
    ['no public URL', { SCMS_PUBLIC_URL: '' }, /SCMS_PUBLIC_URL is not set/],
    ['a public URL that is no URL', { SCMS_PUBLIC_URL: 'patrol.example.com' }, /is not a web address/],
    ['an http public URL', { SCMS_PUBLIC_URL: 'http://patrol.example.com' }, /is not https/],
    ['a loopback public URL', { SCMS_PUBLIC_URL: 'https://127.0.0.1:8090' }, /is this machine only/],
    ['demo mode asked for', { SCMS_DEMO: '1' }, /never seeds demo data/],
    ['a backup count of 0', { SCMS_BACKUP_KEEP: '0' }, /SCMS_BACKUP_KEEP must be a whole number/],
    ['an S3 bucket without its keys', { SCMS_BACKUP_S3_BUCKET: 'b' }, /SCMS_BACKUP_S3_BUCKET is set, but not region/],
  ])(
    'refuses with %s, saying so, exit code 2, nothing started',
    async (_label, given, message) => {
      const dir = folder();
      const result = spawnSync(...scriptProcess('scripts/start-prod.ts'), {
        cwd: projectRoot,
        env: prodEnvironment(dir, await freePort(), { ...COMPLETE, ...given }),
        encoding: 'utf8',
      });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('npm run start:prod refused to start:');
      expect(result.stderr).toMatch(message);
      expect(existsSync(join(dir, 'pb_data'))).toBe(false);
    },
    60_000,
  );

  test('with them: no demo, ready, CORS for the app only, backups scheduled, npm run backup writes one, npm run restore restores it', async () => {
    const dir = folder();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = prodEnvironment(dir, port, {
      ...COMPLETE,
      SCMS_PUBLIC_URL: url,
      SCMS_ALLOW_HTTP: '1',
      SCMS_BACKUP_CRON: '30 2 * * *',
      SCMS_BACKUP_KEEP: '4',
      TELEPHONY_STANDIN_PORT: String(await freePort()),
    });
    const prod = await startProd(env);
    cleanups.push(() => prod.stop());
    const out = prod.out();
    const err = prod.err();

    expect(out).not.toMatch(/Demo sign-in|Demo data/);
    expect(err).not.toMatch(/WARNING/);
    expect(out).toContain(`Data folder: ${join(dir, 'pb_data')}`);
    expect(out).toContain(`Backups: ${join(dir, 'pb_data', 'backups')}, on '30 2 * * *', the last 4 kept.`);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    expect((await fetch(`${url}/api/scms/demo`)).status).toBe(404);
    const foreign = await fetch(`${url}/api/health`, { headers: { Origin: 'https://evil.example' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const own = await fetch(`${url}/api/health`, { headers: { Origin: url } });
    expect(own.headers.get('access-control-allow-origin')).toBe(url);

    const admin = await superuserClient(url, SUPERUSER);
    expect((await admin.collection('communities').getFullList()).length).toBe(0);
    expect((await admin.settings.getAll()).backups).toMatchObject({ cron: '30 2 * * *', cronMaxKeep: 4 });

    const backup = spawnSync(...scriptProcess('scripts/backup.ts'), { cwd: projectRoot, env, encoding: 'utf8' });
    expect(backup.stderr).not.toContain('failed');
    expect(backup.status).toBe(0);
    const written = /Backup (\S+\.zip) written to (\S+) /.exec(backup.stdout);
    expect(written?.[2]).toBe(join(dir, 'pb_data', 'backups'));
    expect(readdirSync(join(dir, 'pb_data', 'backups'))).toContain(written?.[1]);

    // npm run restore -- FILE: a community created after the backup is gone once it is restored.
    await admin.collection('communities').create({ name: 'After the backup', address: '1 Later Way' });
    const restore = spawnSync(...scriptProcess('scripts/restore.ts', join(dir, 'pb_data', 'backups', written![1]!)), {
      cwd: projectRoot,
      env,
      encoding: 'utf8',
    });
    expect(restore.stderr).not.toContain('failed');
    expect(restore.status).toBe(0);
    expect(restore.stdout).toContain(`Restored ${written![1]}; the server is ready again at ${url}.`);
    // This process's kept-alive connections went with the server's restart: the first request may meet a closed one.
    const after = await superuserClient(url, SUPERUSER).catch(() => superuserClient(url, SUPERUSER));
    expect(await after.collection('communities').getFullList()).toHaveLength(0);

    const missing = spawnSync(...scriptProcess('scripts/restore.ts', join(dir, 'nothing.zip')), {
      cwd: projectRoot,
      env,
      encoding: 'utf8',
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('give the backup zip to restore');
  }, 200_000);
});
