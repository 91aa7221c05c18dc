/**
 * A server's database streamed by Litestream to S3-compatible storage (a
 * local moto server) and its uploads kept there by PocketBase's S3 file
 * storage, then the machine lost (server and stream killed at once, the
 * data folder deleted) and the server restored from the stream into a new
 * folder on a new port (scripts/cluster/litestream.ts): every record the
 * stream had is back, the photo is served, the officer's session still
 * holds, the push keys come back from their copy in the database
 * (server/push/vapid.ts), and the restored server takes writes and streams
 * them on.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  restoreDatabase,
  startReplication,
  syncReplica,
  type ReplicaTarget,
  type Replication,
} from '../../scripts/cluster/litestream.ts';
import { startObjectStorage, type ObjectStorage } from '../../scripts/cluster/objectStorage.ts';
import { startPocketBase, type RunningPocketBase } from '../../scripts/pocketbase/server.ts';
import { keepVapidCopyInDatabase, loadOrCreateVapidKeys, vapidFile } from '../../server/push/vapid.ts';
import { newRecordId } from '../../src/data/mirror/ids.ts';
import { pbDate } from '../../src/data/sync/pull.ts';
import { createCommunity, startTestServer, SUPERUSER, type TestServer } from '../support/pocketbase.ts';
import { solidPng } from '../support/png.ts';

const PNG = solidPng(16, 12, [0, 128, 128]);

let storage: ObjectStorage;
let lost: TestServer;
let replication: Replication | undefined;
let restored: RunningPocketBase | undefined;
let restoredReplication: Replication | undefined;
const folders: string[] = [];

beforeAll(async () => {
  storage = await startObjectStorage();
  await storage.createBucket('scms-test');
  lost = await startTestServer();
});
afterAll(async () => {
  await restoredReplication?.stop();
  await restored?.stop();
  await replication?.stop();
  await lost?.stop();
  await storage?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const target = (path: string): ReplicaTarget => ({
  endpoint: storage.endpoint,
  region: storage.region,
  bucket: 'scms-test',
  path,
  accessKeyId: storage.accessKeyId,
  secretAccessKey: storage.secretAccessKey,
});

function report(community: string, officer: string, narrative: string) {
  return {
    id: newRecordId(),
    narative: narrative,
    type: 'loud_noise',
    weather: 'clear',
    incident_time: pbDate(new Date()),
    community,
    created_by: officer,
  };
}

test('a lost machine is restored from the stream: records, the photo and the session are back, and it streams on', async () => {
  await lost.admin.settings.update({
    s3: {
      enabled: true,
      bucket: 'scms-test',
      region: storage.region,
      endpoint: storage.endpoint,
      accessKey: storage.accessKeyId,
      secret: storage.secretAccessKey,
      forcePathStyle: true,
    },
  });
  replication = startReplication(lost.dataDir, target('replicas/one'));
  // As the push sender's start does: the keys in the data folder, their copy in the database.
  const pushKeys = await keepVapidCopyInDatabase(lost.admin, lost.dataDir);
  const f = await createCommunity(lost.admin, 'stream');
  const officer = await lost.signIn(f.regular.email);
  const written: string[] = [];
  for (let n = 0; n < 30; n++) {
    written.push((await officer.collection('reports').create(report(f.community.id, f.regular.id, `Round ${n}`))).id);
  }
  const withPhoto = await officer.collection('reports').create({
    ...report(f.community.id, f.regular.id, 'Gate arm broken'),
    photos: [new File([new Uint8Array(PNG)], 'gate.png', { type: 'image/png' })],
  });
  const photoName = (withPhoto.photos as string[])[0]!;
  // The photo is in the storage, not in the data folder that is about to go.
  expect((await storage.listKeys('scms-test')).some((key) => key.endsWith(photoName))).toBe(true);

  // The stream has every commit; then the machine goes: both processes at once, then its disk.
  syncReplica(lost.dataDir);
  lost.server.process.kill('SIGKILL');
  replication.process.kill('SIGKILL');
  await Promise.all([lost.server.stop(), replication.stop()]);
  rmSync(lost.dataDir, { recursive: true, force: true });

  const dataDir = join(mkdtempSync(join(tmpdir(), 'scms-restored-')), 'pb_data');
  folders.push(join(dataDir, '..'));
  expect(restoreDatabase(dataDir, target('replicas/one'))).toBeDefined();
  restored = await startPocketBase({ dataDir, migrated: true });
  expect(restored.url).not.toBe(lost.url);

  const admin = new PocketBase(restored.url);
  await admin.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
  // The data folder came back without vapid.json; the sender's start writes it from the copy, the same keys.
  expect(existsSync(vapidFile(dataDir))).toBe(false);
  expect(await keepVapidCopyInDatabase(admin, dataDir)).toEqual(pushKeys);
  expect(loadOrCreateVapidKeys(dataDir)).toEqual(pushKeys);
  expect(statSync(vapidFile(dataDir)).mode & 0o777).toBe(0o600);
  const back = await admin
    .collection('reports')
    .getFullList({ filter: admin.filter('community = {:c}', { c: f.community.id }) });
  expect(back.map((record) => record.id).sort()).toEqual([...written, withPhoto.id].sort());

  // The officer's session from before the loss holds on the restored server (same database, same keys).
  const sameOfficer = new PocketBase(restored.url);
  sameOfficer.authStore.save(officer.authStore.token, officer.authStore.record);
  const photoRecord = await sameOfficer.collection('reports').getOne(withPhoto.id);
  const token = await sameOfficer.files.getToken();
  const photo = await fetch(sameOfficer.files.getURL(photoRecord, photoName, { token }));
  expect(photo.status).toBe(200);
  expect(Buffer.from(await photo.arrayBuffer()).equals(PNG)).toBe(true);

  // It takes writes and streams them on: a second restore has them.
  restoredReplication = startReplication(dataDir, target('replicas/one'));
  const after = await sameOfficer
    .collection('reports')
    .create(report(f.community.id, f.regular.id, 'After the restore'));
  syncReplica(dataDir);
  const again = join(mkdtempSync(join(tmpdir(), 'scms-restored-')), 'pb_data');
  folders.push(join(again, '..'));
  restoreDatabase(again, target('replicas/one'));
  const second = await startPocketBase({ dataDir: again, migrated: true });
  try {
    const secondAdmin = new PocketBase(second.url);
    await secondAdmin.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
    expect((await secondAdmin.collection('reports').getOne(after.id)).narative).toBe('After the restore');
  } finally {
    await second.stop();
  }
});

test('a restore never writes over a data folder that has a database', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'scms-restored-')), 'pb_data');
  folders.push(join(dataDir, '..'));
  restoreDatabase(dataDir, target('replicas/one'));
  expect(() => restoreDatabase(dataDir, target('replicas/one'))).toThrow(
    /exists: a restore writes a new data folder only/,
  );
});

test('a restore from a stream that does not exist fails and says so', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'scms-restored-')), 'pb_data');
  folders.push(join(dataDir, '..'));
  expect(() => restoreDatabase(dataDir, target('replicas/nothing-here'))).toThrow(/litestream restore failed/);
});
