/**
 * The server's VAPID key pair (RFC 8292): made once with web-push, kept in
 * `vapid.json` inside the PocketBase data folder, mode 0600.
 *
 * Inside the data folder, not beside it like superuser.json
 * (scripts/services.ts): a backup is PocketBase's zip of the data folder
 * (scripts/backups.ts), and the keys must travel with the database. Every
 * browser subscription in `push_subscriptions` was made for this public
 * key, and push services refuse a push signed with another one; a restore
 * that brought the database back with fresh keys would silence every phone
 * until each subscribed again. The superuser's password, by contrast, is set
 * again at every start, so it needs no backup.
 *
 * Read by the sender (server/push/sender.ts) and by the route that gives
 * browsers the public key (pocketbase/pb_hooks/lib/push.js, same file).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type PocketBase from 'pocketbase';
import webpush from 'web-push';

export interface VapidKeys {
  /** The uncompressed P-256 point, base64url (87 characters): the browsers' applicationServerKey. */
  publicKey: string;
  /** The private scalar, base64url (43 characters). */
  privateKey: string;
}

export const VAPID_FILE = 'vapid.json';

export function vapidFile(dataDir: string): string {
  return join(dataDir, VAPID_FILE);
}

function checked(value: unknown, file: string): VapidKeys {
  const keys = value as Partial<VapidKeys> | null;
  if (
    !keys ||
    typeof keys.publicKey !== 'string' ||
    !/^B[A-Za-z0-9_-]{86}$/.test(keys.publicKey) ||
    typeof keys.privateKey !== 'string' ||
    !/^[A-Za-z0-9_-]{43}$/.test(keys.privateKey)
  ) {
    // Never made anew over a broken file: new keys would orphan every subscription.
    throw new Error(`${file} holds no VAPID key pair; restore it from a backup, or delete it to make new keys.`);
  }
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}

/** The keys in `dir`/vapid.json, made there first if there are none. */
export function loadOrCreateVapidKeys(dir: string): VapidKeys {
  const file = vapidFile(dir);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const keys = webpush.generateVAPIDKeys();
    const saved = { ...keys, created: new Date().toISOString() };
    // Written whole under another name, then linked into place: a second
    // process starting at the same moment finds either no file or a complete
    // one, and the link fails for the one that comes second (it then reads the first's keys).
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temporary);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    parsed = null;
  }
  return checked(parsed, file);
}

/** The key of the database's copy in `scms_meta` (superusers only). */
export const VAPID_META_KEY = 'vapid_keys';

/**
 * Keeps a copy of the key pair in the database, and brings the file back
 * from it. A server restored from its Litestream stream
 * (scripts/cluster/litestream.ts) gets its database back but not the files
 * beside it; without this its first start would make new keys and silence
 * every phone's subscription. The file stays the keys' home (backups carry
 * it, the sender and the public-key route read it); the copy only
 * restores it. Run before the sender starts (`pb` signed in as superuser).
 */
export async function keepVapidCopyInDatabase(pb: PocketBase, dir: string): Promise<VapidKeys> {
  const meta = pb.collection('scms_meta');
  const row = await meta
    .getFirstListItem<{ id: string; value: unknown }>(pb.filter('key = {:key}', { key: VAPID_META_KEY }), {
      requestKey: null,
    })
    .catch((error: { status?: number }) => {
      if (error.status === 404) return null;
      throw error;
    });
  const file = vapidFile(dir);
  if (row && !existsSync(file)) {
    const keys = checked(row.value, `the database's copy (scms_meta ${VAPID_META_KEY})`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, `${JSON.stringify({ ...keys, restored: new Date().toISOString() }, null, 2)}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
  }
  const keys = loadOrCreateVapidKeys(dir);
  const copied = row?.value as Partial<VapidKeys> | undefined;
  if (!row) await meta.create({ key: VAPID_META_KEY, value: keys }, { requestKey: null });
  else if (copied?.publicKey !== keys.publicKey || copied.privateKey !== keys.privateKey)
    // The file is the keys' home: a copy that differs (a backup restored over the folder) follows it.
    await meta.update(row.id, { value: keys }, { requestKey: null });
  return keys;
}
