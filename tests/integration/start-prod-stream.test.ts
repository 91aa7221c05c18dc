/**
 * `npm run start:prod` with a stream (SCMS_STREAM_*, docs/deploy.md
 * "Several servers"), started as people start it against a local
 * S3-compatible server (moto): it streams its database with Litestream
 * and keeps uploads in the bucket; `npm run cluster -- restore` then fills
 * a new data folder from the stream, and a server started there has what
 * was written. A stream set up halfway is refused before anything starts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { superuserClient } from '../../scripts/backups.ts';
import { syncReplica } from '../../scripts/cluster/litestream.ts';
import { startObjectStorage, type ObjectStorage } from '../../scripts/cluster/objectStorage.ts';
import { freePort, projectRoot, startPocketBase } from '../../scripts/pocketbase/server.ts';
import { scriptProcess } from '../support/script-process.ts';
import { prodEnvironment, startProd, type RunningProd } from '../support/start-prod.ts';

const SUPERUSER = { email: 'owner@patrol.test', password: 'a-long-production-secret' };
let storage: ObjectStorage;
const folders: string[] = [];
const started: RunningProd[] = [];

beforeAll(async () => {
  storage = await startObjectStorage();
  await storage.createBucket('scms-prod');
});
afterAll(async () => {
  for (const prod of started) await prod.stop();
  await storage?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scms-prod-stream-'));
  folders.push(dir);
  return dir;
}

/** A start with its superuser, a local http address and the stream in moto's bucket. */
function environment(dir: string, port: number, given: Record<string, string> = {}): NodeJS.ProcessEnv {
  return prodEnvironment(dir, port, {
    SCMS_PUBLIC_URL: `http://127.0.0.1:${port}`,
    SCMS_ALLOW_HTTP: '1',
    SCMS_SUPERUSER_EMAIL: SUPERUSER.email,
    SCMS_SUPERUSER_PASSWORD: SUPERUSER.password,
    SCMS_STREAM_S3_BUCKET: 'scms-prod',
    SCMS_STREAM_S3_REGION: storage.region,
    SCMS_STREAM_S3_ENDPOINT: storage.endpoint,
    SCMS_STREAM_S3_ACCESS_KEY: storage.accessKeyId,
    SCMS_STREAM_S3_SECRET: storage.secretAccessKey,
    SCMS_STREAM_PATH: 'servers/one',
    ...given,
  });
}

test('a stream set up halfway is refused, saying what is missing, before anything starts', () => {
  const dir = folder();
  const result = spawnSync(...scriptProcess('scripts/start-prod.ts'), {
    cwd: projectRoot,
    env: environment(dir, 1, { SCMS_STREAM_S3_SECRET: '', SCMS_STREAM_PATH: '' }),
    encoding: 'utf8',
  });
  expect(result.status).toBe(2);
  expect(result.stderr).toContain('SCMS_STREAM_S3_BUCKET is set, but not SCMS_STREAM_S3_SECRET, SCMS_STREAM_PATH.');
  expect(existsSync(join(dir, 'pb_data'))).toBe(false);
});

test('start:prod streams its database and keeps uploads in the bucket; cluster restore brings them back elsewhere', async () => {
  const dir = folder();
  const port = await freePort();
  const env = environment(dir, port, { TELEPHONY_STANDIN_PORT: String(await freePort()) });
  const prod = await startProd(env);
  started.push(prod);
  expect(prod.out()).toContain(
    'Database streamed by Litestream to bucket scms-prod, servers/one; uploads kept in that bucket.',
  );

  const url = `http://127.0.0.1:${port}`;
  const admin = await superuserClient(url, SUPERUSER);
  expect((await admin.settings.getAll()).s3).toMatchObject({ enabled: true, bucket: 'scms-prod' });
  const community = await admin.collection('communities').create({ name: 'Streamed Estates', address: '1 Stream Way' });
  syncReplica(join(dir, 'pb_data'));
  expect((await storage.listKeys('scms-prod', 'servers/one/')).length).toBeGreaterThan(0);

  // Another machine: an empty data folder, filled by the one command, then a server on it.
  const elsewhere = folder();
  const restore = spawnSync(...scriptProcess('scripts/cluster/cli.ts', 'restore'), {
    cwd: projectRoot,
    env: environment(elsewhere, port),
    encoding: 'utf8',
  });
  expect(restore.stderr).not.toContain('failed');
  expect(restore.status).toBe(0);
  expect(restore.stdout).toContain(`Restored ${join(elsewhere, 'pb_data')} from scms-prod/servers/one.`);
  const again = spawnSync(...scriptProcess('scripts/cluster/cli.ts', 'restore'), {
    cwd: projectRoot,
    env: environment(elsewhere, port),
    encoding: 'utf8',
  });
  expect(again.status).toBe(1);
  expect(again.stderr).toContain('exists: a restore writes a new data folder only');

  const restored = await startPocketBase({ dataDir: join(elsewhere, 'pb_data'), migrated: true });
  try {
    const restoredAdmin = await superuserClient(restored.url, SUPERUSER);
    expect((await restoredAdmin.collection('communities').getOne(community.id)).name).toBe('Streamed Estates');
    // The uploads' settings came back with the database.
    expect((await restoredAdmin.settings.getAll()).s3).toMatchObject({ enabled: true, bucket: 'scms-prod' });
  } finally {
    await restored.stop();
  }
}, 240_000);
