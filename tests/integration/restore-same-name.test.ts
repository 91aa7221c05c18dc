/**
 * `npm run restore -- FILE` when the server already holds a backup of the
 * same name: the file given is what gets restored.
 * - A copy of the server's own backup (same bytes) restores that backup;
 *   nothing is uploaded beside it.
 * - Another zip of the same name (a backup taken on another server, whose
 *   scheduled backups are named the same way) is uploaded under the name
 *   with its digest added and restored; the server's own backup of that
 *   name stays as it was. Before, the server's own one was restored
 *   silently instead of the file given.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type PocketBase from 'pocketbase';
import { afterEach, describe, expect, test } from 'vitest';
import { restoreBackup, superuserClient } from '../../scripts/backups.ts';
import { startPocketBase } from '../../scripts/pocketbase/server.ts';
import { SUPERUSER } from '../support/pocketbase.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scms-restore-name-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function server(): Promise<PocketBase> {
  const running = await startPocketBase({ dataDir: folder(), superuser: SUPERUSER });
  cleanups.push(() => running.stop());
  return superuserClient(running.url, SUPERUSER);
}

const community = (pb: PocketBase, name: string) =>
  pb.collection('communities').create({ name, address: `1 ${name} Way, Jupiter, FL` });

async function communityNames(pb: PocketBase): Promise<string[]> {
  // A fresh sign-in: the restarted server may have dropped this client's connection and token.
  const fresh = await superuserClient(pb.baseURL, SUPERUSER).catch(() => superuserClient(pb.baseURL, SUPERUSER));
  return (await fresh.collection('communities').getFullList({ sort: 'name' })).map((c) => c.name as string);
}

/** A backup taken now under `name`, downloaded to `dir`/name. */
async function backupTo(pb: PocketBase, name: string, dir: string): Promise<string> {
  await pb.backups.create(name);
  const response = await fetch(pb.backups.getDownloadURL(await pb.files.getToken(), name));
  expect(response.status).toBe(200);
  const file = join(dir, name);
  writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

const keys = async (pb: PocketBase) => (await pb.backups.getFullList()).map((b) => b.key).sort();

describe('npm run restore -- FILE, a backup of that name already on the server', () => {
  test('a copy of the same backup restores it, without uploading it again', async () => {
    const pb = await server();
    await community(pb, 'Before');
    const copy = join(folder(), 'scms_20261124_030000.zip');
    copyFileSync(await backupTo(pb, 'scms_20261124_030000.zip', folder()), copy);
    await community(pb, 'After');

    expect(await restoreBackup(pb, copy, SUPERUSER)).toBe('scms_20261124_030000.zip');
    expect(await communityNames(pb)).toEqual(['Before']);
    const fresh = await superuserClient(pb.baseURL, SUPERUSER);
    expect(await keys(fresh)).toEqual(['scms_20261124_030000.zip']);
  }, 120_000);

  test("another zip of the same name is restored, uploaded beside the server's own, which stays", async () => {
    const elsewhere = await server();
    await community(elsewhere, 'From the other server');
    const theirs = await backupTo(elsewhere, 'scms_20261124_030000.zip', folder());

    const pb = await server();
    await community(pb, 'Here');
    const ours = await backupTo(pb, 'scms_20261124_030000.zip', folder());
    await community(pb, 'After');

    const name = await restoreBackup(pb, theirs, SUPERUSER);
    expect(name).toMatch(/^scms_20261124_030000-[0-9a-f]{12}\.zip$/);
    expect(await communityNames(pb)).toEqual(['From the other server']);

    // The restored data holds no backups of its own list: both zips are files in the backups folder, untouched.
    const fresh = await superuserClient(pb.baseURL, SUPERUSER);
    expect(await keys(fresh)).toEqual(['scms_20261124_030000.zip', name].sort());
    // Restoring the same file again uses the upload already there.
    expect(await restoreBackup(fresh, theirs, SUPERUSER)).toBe(name);
    expect(await keys(await superuserClient(pb.baseURL, SUPERUSER))).toHaveLength(2);
    // And the server's own backup still restores what it held.
    expect(await restoreBackup(await superuserClient(pb.baseURL, SUPERUSER), ours, SUPERUSER)).toBe(
      'scms_20261124_030000.zip',
    );
    expect(await communityNames(pb)).toEqual(['Here']);
  }, 180_000);

  test('a name PocketBase would refuse is refused before anything is sent', async () => {
    const pb = await server();
    const file = join(folder(), 'Backup 1.ZIP');
    writeFileSync(file, 'not a zip');
    await expect(restoreBackup(pb, file, SUPERUSER)).rejects.toThrow(/is not a backup name PocketBase accepts/);
    expect(await keys(pb)).toEqual([]);
  }, 60_000);
});
