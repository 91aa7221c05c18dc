/**
 * Backups that restore: through the same functions as
 * `npm run backup` and `npm run restore -- FILE` (scripts/backups.ts), against
 * a real PocketBase with its own data folder.
 * - A server filled with records and uploaded photos is backed up, the backup
 *   zip downloaded, the data folder wiped; a fresh server restores the zip and
 *   holds every record and every file, byte for byte (files are protected:
 *   fetched with a file token, as the app does).
 * - A device with queued writes while an OLDER backup is restored: once the
 *   server is back, every queued write is delivered exactly once, and sending
 *   them again (a device that never heard the answers) makes no twin. A
 *   restore predates the server's tombstones (deleted_records) of later
 *   deletes, and loses what was written after the backup: client ids are what
 *   keeps the re-delivery idempotent.
 */
import '../support/browser-globals.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PocketBase, { type RecordModel } from 'pocketbase';
import { afterEach, describe, expect, test } from 'vitest';
import { createBackup, restoreBackup, superuserClient } from '../../scripts/backups.ts';
import { applyBackupSettings } from '../../scripts/production.ts';
import { startPocketBase, type RunningPocketBase } from '../../scripts/pocketbase/server.ts';
import { ScmsDatabase, type OutboxOperation } from '../../src/data/mirror/db.ts';
import { newRecordId } from '../../src/data/mirror/ids.ts';
import { enqueue, outboxEntries } from '../../src/data/sync/outbox.ts';
import { pbDate } from '../../src/data/sync/pull.ts';
import { replayOutbox } from '../../src/data/sync/replay.ts';
import { createCommunity, newId, SUPERUSER, TEST_PASSWORD, type CommunityFixture } from '../support/pocketbase.ts';
import { solidPng } from '../support/png.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Server {
  dataDir: string;
  running: RunningPocketBase;
  admin: PocketBase;
}

/** A server on `dataDir` (a new folder when absent), the superuser upserted as npm start does. */
async function server(dataDir = mkdtempSync(join(tmpdir(), 'scms-backup-'))): Promise<Server> {
  const running = await startPocketBase({ dataDir, superuser: SUPERUSER });
  cleanups.push(() => running.stop());
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return { dataDir, running, admin: await superuserClient(running.url, SUPERUSER) };
}

function withPhoto(fields: Record<string, unknown>, field: string, bytes: Buffer, name: string): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  form.append(field, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  return form;
}

/** Downloads a file as the community's officer does: with a file token. */
async function download(pb: PocketBase, record: RecordModel, name: string): Promise<Buffer> {
  const token = await pb.files.getToken();
  const response = await fetch(pb.files.getURL(record, name, { token }));
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function signIn(url: string, email: string): Promise<PocketBase> {
  const pb = new PocketBase(url);
  pb.autoCancellation(false);
  await pb.collection('users').authWithPassword(email, TEST_PASSWORD);
  return pb;
}

describe('backup and restore', () => {
  test('a full server, backed up, wiped and restored, holds every record and every file', async () => {
    const first = await server();
    const f = await createCommunity(first.admin, 'bk');
    const photos = new Map<string, Buffer>();
    const records: RecordModel[] = [];
    for (let i = 0; i < 3; i += 1) {
      const image = solidPng(40 + i, 30, [10 * i, 100, 200]);
      const house = await first.admin
        .collection('houses')
        .create(
          withPhoto(
            { address: `${i + 1} Backup Way`, city: 'Jupiter', state: 'FL', zip: '33458', community: f.community.id },
            'image',
            image,
            `house${i}.png`,
          ),
        );
      photos.set(`${house.id}/${house.image as string}`, image);
      records.push(house);
      const photo = solidPng(50, 20 + i, [200, 20 * i, 30]);
      const report = await first.admin.collection('reports').create(
        withPhoto(
          {
            narative: `Gate left open ${i} ${newId()}`,
            type: 'loud_noise',
            weather: 'clear',
            incident_time: pbDate(new Date()),
            community: f.community.id,
            created_by: f.regular.id,
            house: house.id,
          },
          'photos',
          photo,
          `gate${i}.png`,
        ),
      );
      photos.set(`${report.id}/${(report.photos as string[])[0]!}`, photo);
      records.push(report);
    }
    expect(photos.size).toBe(6);

    const name = await createBackup(first.admin);
    const token = await first.admin.files.getToken();
    const zip = join(mkdtempSync(join(tmpdir(), 'scms-backup-zip-')), name);
    cleanups.push(() => rmSync(join(zip, '..'), { recursive: true, force: true }));
    const response = await fetch(first.admin.backups.getDownloadURL(token, name));
    expect(response.status).toBe(200);
    writeFileSync(zip, Buffer.from(await response.arrayBuffer()));

    // The machine is lost: the data folder goes; a fresh server starts on an empty one.
    await first.running.stop();
    rmSync(first.dataDir, { recursive: true, force: true });
    const second = await server(first.dataDir);
    expect(await second.admin.collection('reports').getFullList()).toHaveLength(0);

    await restoreBackup(second.admin, zip, SUPERUSER);
    const admin = await superuserClient(second.running.url, SUPERUSER);
    for (const record of records) {
      const restored = await admin.collection(record.collectionName).getOne(record.id);
      expect(restored).toMatchObject(
        record.collectionName === 'houses'
          ? { address: record.address, image: record.image }
          : { narative: record.narative, photos: record.photos, house: record.house },
      );
    }
    const officer = await signIn(second.running.url, f.regular.email);
    for (const record of records) {
      const names = record.collectionName === 'houses' ? [record.image as string] : (record.photos as string[]);
      for (const fileName of names) {
        expect(await download(officer, record, fileName)).toEqual(photos.get(`${record.id}/${fileName}`));
      }
    }
  }, 120_000);

  test('an older backup restored while a device has queued writes: each is delivered exactly once', async () => {
    const s = await server();
    const f: CommunityFixture = await createCommunity(s.admin, 'old');
    const house = await s.admin
      .collection('houses')
      .create({ address: '9 Old Way', city: 'Jupiter', state: 'FL', zip: '33458', community: f.community.id });
    const older = await createBackup(s.admin);

    const pb = await signIn(s.running.url, f.regular.email);
    const db = new ScmsDatabase(`${f.regular.id}-${newId()}`);
    cleanups.push(() => db.delete());
    const report = (label: string): OutboxOperation => ({
      action: 'create',
      collection: 'reports',
      id: newRecordId(),
      body: {
        narative: `${label} ${newId()}`,
        type: 'loud_noise',
        weather: 'clear',
        incident_time: pbDate(new Date()),
        community: f.community.id,
        created_by: f.regular.id,
      },
    });
    const replay = () => replayOutbox({ pb, db, owner: 'tab', now: () => Date.now() });

    // Delivered after the backup: the restore takes it away (and a later delete's tombstone with it).
    const delivered = report('Delivered before the restore');
    await enqueue(db, { userId: f.regular.id, label: 'report', ops: [delivered] });
    await replay();
    expect(await outboxEntries(db)).toHaveLength(0);
    await s.admin.collection('reports').getOne(delivered.id);

    // Queued on the device while the server is restored to the older backup.
    const queued = [report('Queued one'), report('Queued two')];
    const check: OutboxOperation = {
      action: 'update',
      collection: 'houses',
      id: house.id,
      body: { house_check_last_date: pbDate(new Date()), house_check_note: `Checked ${newId()}` },
    };
    await enqueue(db, { userId: f.regular.id, label: 'report', ops: [queued[0]!] });
    await enqueue(db, { userId: f.regular.id, label: 'house check', ops: [queued[1]!, check] });
    await restoreBackup(s.admin, join(s.dataDir, 'backups', older), SUPERUSER);
    const admin = await superuserClient(s.running.url, SUPERUSER);
    await expect(admin.collection('reports').getOne(delivered.id)).rejects.toMatchObject({ status: 404 });

    await replay();
    expect(await outboxEntries(db)).toHaveLength(0);
    // The same writes again, as from a device that never heard the answers: their client ids make no twins.
    await enqueue(db, { userId: f.regular.id, label: 'report', ops: [queued[0]!] });
    await enqueue(db, { userId: f.regular.id, label: 'house check', ops: [queued[1]!, check] });
    await replay();
    await replay();
    expect(await outboxEntries(db)).toHaveLength(0);

    const reports = await admin.collection('reports').getFullList({ filter: `community = "${f.community.id}"` });
    expect(reports.map((r) => r.id).sort()).toEqual(queued.map((op) => op.id).sort());
    for (const op of queued) {
      expect(reports.filter((r) => r.narative === op.body.narative)).toHaveLength(1);
    }
    expect(await admin.collection('houses').getOne(house.id)).toMatchObject({
      house_check_note: check.body.house_check_note,
    });
  }, 120_000);

  test('the backup schedule and S3 storage from the environment are the settings PocketBase keeps', async () => {
    const s = await server();
    await applyBackupSettings(s.admin, {
      SCMS_BACKUP_CRON: '15 4 * * *',
      SCMS_BACKUP_KEEP: '3',
      SCMS_BACKUP_S3_BUCKET: 'scms-backups',
      SCMS_BACKUP_S3_REGION: 'eu-west-1',
      SCMS_BACKUP_S3_ENDPOINT: 'https://s3.example.com',
      SCMS_BACKUP_S3_ACCESS_KEY: 'access-key',
      SCMS_BACKUP_S3_SECRET: 'secret-key',
      SCMS_BACKUP_S3_FORCE_PATH_STYLE: '1',
    });
    // Every field name is PocketBase's own: one it did not know would not come back.
    expect((await s.admin.settings.getAll()).backups).toMatchObject({
      cron: '15 4 * * *',
      cronMaxKeep: 3,
      s3: {
        enabled: true,
        bucket: 'scms-backups',
        region: 'eu-west-1',
        endpoint: 'https://s3.example.com',
        accessKey: 'access-key',
        forcePathStyle: true,
      },
    });
    await applyBackupSettings(s.admin, {});
    expect((await s.admin.settings.getAll()).backups).toMatchObject({
      cron: '0 3 * * *',
      cronMaxKeep: 7,
      s3: { enabled: false },
    });
  }, 60_000);
});
