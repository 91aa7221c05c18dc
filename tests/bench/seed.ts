/**
 * A PocketBase data folder holding the benchmark's community, seeded once
 * through PocketBase's batch API and cached in the temp dir. The cache is
 * keyed by SEED_VERSION, the scale and the month: reports spread over the 24 months
 * before seeding, so a folder from an earlier month would shift which
 * reports the first load takes.
 *
 * The benchmark changes data (server-side updates, 2,000 new reports), so
 * every run works on a copy and the cached folder stays pristine.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import PocketBase from 'pocketbase';
import { startPocketBase } from '../../scripts/pocketbase/server.ts';
import { ensurePocketBase } from '../../scripts/pocketbase/install.ts';
import { createInBatches } from '../support/batches.ts';
import { buildBenchData, type BenchData, type Row } from './data.ts';

/** Bump when data.ts changes what it generates. */
export const SEED_VERSION = 'v3';
export const SUPERUSER = { email: 'superuser@bench.test', password: 'bench-superuser-pass-123' };

/** Batches in flight at once for collections whose order does not matter. */
const CONCURRENCY = 4;

export interface SeededFolder {
  /** A fresh copy of the cached folder, for this run only. */
  dataDir: string;
  data: BenchData;
  /** Time the seeding took (in this run, or when the cached folder was made). */
  seedMs: number;
  /** The folder came from the cache: nothing was seeded in this run. */
  cached: boolean;
  cacheDir: string;
}

interface Meta {
  version: string;
  generatedAt: string;
  seedMs: number;
}

async function seedCollection(
  pb: PocketBase,
  collection: string,
  rows: readonly Row[],
  concurrency: number,
  progress: (msg: string) => void,
): Promise<void> {
  await createInBatches(pb, collection, rows, concurrency);
  progress(`seeded ${rows.length} ${collection}`);
}

async function seedFolder(dir: string, data: BenchData, progress: (msg: string) => void): Promise<void> {
  const server = await startPocketBase({ dataDir: dir, superuser: SUPERUSER });
  try {
    const pb = new PocketBase(server.url);
    await pb.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
    await pb.collection('communities').create(data.community);
    // One by one: the users hook keeps a chosen password only for a superuser's own create.
    for (const user of data.staff) await pb.collection('users').create(user);
    await seedCollection(pb, 'concerns', data.concerns, CONCURRENCY, progress);
    await seedCollection(pb, 'houses', data.houses, CONCURRENCY, progress);
    await seedCollection(pb, 'residents', data.residents, CONCURRENCY, progress);
    await seedCollection(pb, 'phones', data.phones, CONCURRENCY, progress);
    // In incident order, one batch at a time: `updated` then grows with the
    // incident time, as it does when officers file reports day by day.
    await seedCollection(pb, 'reports', data.reports, 1, progress);
    await seedCollection(pb, 'calls', data.calls, CONCURRENCY, progress);
  } finally {
    await server.stop();
  }
  backdateCalls(await ensurePocketBase(), dir, data.calls);
  progress(`dated ${data.calls.length} calls over the year before`);
}

/**
 * Gives the seeded calls their times over the past year. PocketBase sets
 * `created` itself on every create, the superuser's too, so the seed
 * writes it afterwards with PocketBase's own `migrate up`, run on a folder
 * holding one throwaway migration (recorded as applied in the bench's copy
 * only; the server ignores a recorded file its folder does not have).
 */
function backdateCalls(bin: string, dir: string, calls: readonly Row[]): void {
  const times = Object.fromEntries(calls.map((call) => [call.id, call.created]));
  const folder = mkdtempSync(join(tmpdir(), 'scms-bench-migration-'));
  try {
    writeFileSync(
      join(folder, '1999999999_bench_call_times.js'),
      `migrate((app) => {
  app.db().newQuery("UPDATE calls SET created = json_extract({:times}, '$.' || id) WHERE id IN (SELECT key FROM json_each({:times}))")
    .bind({ times: ${JSON.stringify(JSON.stringify(times))} }).execute();
});
`,
    );
    execFileSync(bin, ['migrate', 'up', `--dir=${dir}`, `--migrationsDir=${folder}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Returns a run copy of the seeded folder (scale 1 = 5,000 homes), seeding it first when the cache has none. */
export async function seededFolder(
  progress: (msg: string) => void,
  scale = 1,
  now = new Date(),
): Promise<SeededFolder> {
  const month = now.toISOString().slice(0, 7);
  const cacheDir = join(tmpdir(), `scms-bench-sync-${SEED_VERSION}${scale === 1 ? '' : `-x${scale}`}-${month}`);
  const metaPath = join(cacheDir, 'bench-meta.json');
  let cached = true;
  if (process.env.SCMS_BENCH_RESEED === '1') rmSync(cacheDir, { recursive: true, force: true });
  if (!existsSync(metaPath)) {
    progress(`seeding a new community into ${cacheDir} (cached for later runs this month)`);
    const started = performance.now();
    const data = buildBenchData(now, scale);
    // Seed beside the cache and rename at the end, so an interrupted seed never looks cached.
    const work = mkdtempSync(`${cacheDir}.seeding-`);
    try {
      await seedFolder(work, data, progress);
      const seedMs = Math.round(performance.now() - started);
      writeFileSync(
        join(work, 'bench-meta.json'),
        JSON.stringify({ version: SEED_VERSION, generatedAt: now.toISOString(), seedMs } satisfies Meta),
      );
      cached = false;
      rmSync(cacheDir, { recursive: true, force: true });
      renameSync(work, cacheDir);
    } catch (error) {
      rmSync(work, { recursive: true, force: true });
      throw error;
    }
  } else {
    progress(`using the cached community in ${cacheDir} (SCMS_BENCH_RESEED=1 seeds again)`);
  }
  const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Meta;
  const dataDir = mkdtempSync(join(tmpdir(), 'scms-bench-run-'));
  cpSync(cacheDir, dataDir, { recursive: true });
  return { dataDir, data: buildBenchData(new Date(meta.generatedAt), scale), seedMs: meta.seedMs, cached, cacheDir };
}
