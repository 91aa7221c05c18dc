/**
 * `npm run backup` and `npm run restore -- FILE` through PocketBase's own
 * backup facility (the superuser API), so a backup is taken and restored by
 * the running server the same way the scheduled ones are: a zip of the data
 * folder (database and uploaded files), written to SCMS_DATA_DIR/backups.
 */
import { createHash, randomBytes } from 'node:crypto';
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
 * The name the server restores `file` under. A backup of that name the
 * server already holds is used when it is the same zip (the file given is
 * the one in the backups folder, or a copy of it); when it is another zip
 * that happens to share the name (the scheduled backups of two servers, a
 * copy from another machine), the file is uploaded under the name with its
 * digest added, so what is restored is always the file given, and the held
 * backup stays as it was.
 */
async function uploadedName(pb: PocketBase, file: string, name: string): Promise<string> {
  const bytes = readFileSync(file);
  const digest = createHash('sha256').update(bytes).digest('hex');
  const held = await pb.backups.getFullList();
  const sameBytes = async (key: string) => {
    const backup = held.find((b) => b.key === key);
    if (!backup) return null;
    if (backup.size !== bytes.length) return false;
    const response = await fetch(pb.backups.getDownloadURL(await pb.files.getToken(), key));
    if (!response.ok) throw new Error(`could not read the server's backup ${key} (${response.status})`);
    return (
      createHash('sha256')
        .update(Buffer.from(await response.arrayBuffer()))
        .digest('hex') === digest
    );
  };
  let target = name;
  const same = await sameBytes(name);
  if (same === true) return name;
  if (same === false) {
    target = name.replace(/\.zip$/, `-${digest.slice(0, 12)}.zip`);
    // This very file uploaded under that name by an earlier restore.
    if ((await sameBytes(target)) === true) return target;
  }
  await pb.backups.upload({ file: new File([new Uint8Array(bytes)], target, { type: 'application/zip' }) });
  return target;
}

/**
 * Restores a backup zip: uploads it unless the server already holds this
 * very zip (uploadedName), asks PocketBase to restore it, and returns once
 * the server runs on the restored data and is ready. PocketBase answers the
 * request at once and restores a second later (keeping the data folder it replaces aside,
 * then restarting itself), so nothing in its answers says when it is done:
 * a marker app name is set just before, which the restored settings do not
 * have; the restore is in once the server no longer reports it. Returns the
 * name restored (the file's, or with its digest added when the server held
 * another zip of that name).
 */
export async function restoreBackup(
  pb: PocketBase,
  file: string,
  superuser: { email: string; password: string },
  timeoutMs = 120_000,
): Promise<string> {
  const given = basename(file);
  if (!BACKUP_NAME.test(given)) {
    throw new Error(
      `'${given}' is not a backup name PocketBase accepts (lowercase letters, digits, _ and -, ending in .zip).`,
    );
  }
  const name = await uploadedName(pb, file, given);
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
