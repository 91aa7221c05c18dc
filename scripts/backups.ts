/**
 * `npm run backup` and `npm run restore -- FILE` through PocketBase's own
 * backup facility (the superuser API), so a backup is taken and restored by
 * the running server the same way the scheduled ones are: a zip of the data
 * folder (database and uploaded files), written to SCMS_DATA_DIR/backups.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import PocketBase from 'pocketbase';
import { dataDir, env } from './config.ts';
import { waitForHealth } from './pocketbase/server.ts';
import { superuserCredentials } from './services.ts';

/** PocketBase accepts backup names of lowercase letters, digits, '_' and '-' ending in .zip. */
const BACKUP_NAME = /^[a-z0-9_-]+\.zip$/;

export async function superuserClient(
  url: string,
  superuser: { email: string; password: string },
): Promise<PocketBase> {
  const pb = new PocketBase(url);
  pb.autoCancellation(false);
  await pb.collection('_superusers').authWithPassword(superuser.email, superuser.password);
  return pb;
}

/** Takes a backup now; its name (the file in the data folder's backups/, or the S3 bucket). */
export async function createBackup(pb: PocketBase, now = new Date()): Promise<string> {
  const name =
    `scms_${now.toISOString().replace(/[-:]/g, '').replace('T', '_').replace(/\..*$/, '')}.zip`.toLowerCase();
  await pb.backups.create(name);
  return name;
}

/**
 * Restores a backup zip: uploads it unless the server already holds one of
 * that name, asks PocketBase to restore it, and returns once the server runs
 * on the restored data and is ready. PocketBase answers the request at once
 * and restores a second later (keeping the data folder it replaces aside,
 * then restarting itself), so nothing in its answers says when it is done:
 * a marker app name is set just before, which the restored settings do not
 * have; the restore is in once the server no longer reports it.
 */
export async function restoreBackup(
  pb: PocketBase,
  file: string,
  superuser: { email: string; password: string },
  timeoutMs = 120_000,
): Promise<string> {
  const name = basename(file);
  if (!BACKUP_NAME.test(name)) {
    throw new Error(
      `'${name}' is not a backup name PocketBase accepts (lowercase letters, digits, _ and -, ending in .zip).`,
    );
  }
  const held = await pb.backups.getFullList();
  if (!held.some((backup) => backup.key === name)) {
    const bytes = readFileSync(file);
    await pb.backups.upload({ file: new File([new Uint8Array(bytes)], name, { type: 'application/zip' }) });
  }
  const settings = await pb.settings.getAll();
  const meta = settings.meta as { appName: string };
  const marker = `restoring ${randomBytes(6).toString('hex')}`;
  await pb.settings.update({ meta: { appName: marker } });
  try {
    await pb.backups.restore(name);
  } catch (error) {
    await pb.settings.update({ meta: { appName: meta.appName } });
    throw error;
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      // Each look signs in afresh: the restored database may not know the token.
      const fresh = await superuserClient(pb.baseURL, superuser);
      const now = (await fresh.settings.getAll()).meta as { appName: string };
      if (now.appName !== marker) break;
    } catch {
      // restarting
    }
    if (Date.now() > deadline) throw new Error(`the server did not restore ${name} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await waitForHealth(pb.baseURL, 'ready', undefined, () => '', timeoutMs);
  return name;
}

/** The running server of this machine (PORT), as the superuser of SCMS_SUPERUSER_* or the generated one. */
export function localServer(): { url: string; superuser: { email: string; password: string }; backupsDir: string } {
  const url = env('SCMS_SERVER_URL') ?? `http://127.0.0.1:${env('PORT') ?? 8090}`;
  return { url, superuser: superuserCredentials(dataDir()), backupsDir: join(dataDir(), 'backups') };
}
