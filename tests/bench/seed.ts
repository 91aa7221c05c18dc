/**
 * A PocketBase data folder holding the benchmark's community, seeded once
 * through PocketBase's batch API and cached in the temp dir. The cache is
 * keyed by SEED_VERSION, the scale and the month: reports spread over the 24 months
 * before seeding, so a folder from an earlier month would shift which
 * reports the first load takes.
 *
 * The community's checkpoint tours and their history (data.ts,
 * buildBenchTours) came after SEED_VERSION v3: a cached folder without
 * them (or with an older TOURS_VERSION) gets them added in place, once,
 * instead of seeding the whole community again (9 minutes at scale 4).
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
import {
  buildBenchData,
  buildBenchTours,
  recentTourWalks,
  type BenchData,
  type BenchTours,
  type TourRow,
} from './data.ts';

/** Bump when data.ts changes what it generates. */
export const SEED_VERSION = 'v3';
/** Bump when data.ts changes the tours it generates: a cached folder with other tours is then seeded again. */
export const TOURS_VERSION = 't1';
export const SUPERUSER = { email: 'superuser@bench.test', password: 'bench-superuser-pass-123' };

/** Batches in flight at once for collections whose order does not matter. */
const CONCURRENCY = 4;

export interface SeededFolder {
  /** A fresh copy of the cached folder, for this run only. */
  dataDir: string;
  data: BenchData;
  /** The checkpoints, tours and their history in the folder. */
  tours: BenchTours;
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
  /** TOURS_VERSION of the tours in the folder; absent: none (a folder of before them). */
  tours?: string;
  /** Time adding the tours took. */
  toursSeedMs?: number;
}

async function seedCollection(
  pb: PocketBase,
  collection: string,
  rows: readonly { id: string }[],
  concurrency: number,
  progress: (msg: string) => void,
): Promise<void> {
  await createInBatches(pb, collection, rows, concurrency);
  progress(`seeded ${rows.length} ${collection}`);
}

async function seedFolder(
  dir: string,
  data: BenchData,
  tours: BenchTours,
  progress: (msg: string) => void,
): Promise<void> {
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
    await seedTours(pb, tours, progress);
  } finally {
    await server.stop();
  }
  backdate(await ensurePocketBase(), dir, { calls: data.calls, tours: tours.tours });
  progress(`dated ${data.calls.length} calls over the year before, and the tours before their history`);
}

/**
 * The checkpoints (their token and short code made by the server's hook,
 * pb_hooks/tours.pb.js, as for any create), the tours, then the walks and
 * their scans (as superuser, a scan's code is not asked for; the hook still
 * works out where it was made).
 */
async function seedTours(pb: PocketBase, tours: BenchTours, progress: (msg: string) => void): Promise<void> {
  await seedCollection(pb, 'checkpoints', tours.checkpoints, CONCURRENCY, progress);
  await seedCollection(pb, 'tours', tours.tours, 1, progress);
  await seedCollection(pb, 'tour_walks', tours.walks, CONCURRENCY, progress);
  await seedCollection(pb, 'checkpoint_scans', tours.scans, CONCURRENCY, progress);
}

/**
 * Walks and scans of the rounds since the seed (data.ts, recentTourWalks),
 * added to a run's copy on its running server before the phone signs in:
 * the shift under way has been walked, whenever the community was seeded.
 */
export async function addRecentTourWalks(
  pb: PocketBase,
  seeded: SeededFolder,
  now = new Date(),
): Promise<{ walks: TourRow[]; scans: TourRow[] }> {
  const recent = recentTourWalks(seeded.tours, seeded.data.staff, now);
  await createInBatches(pb, 'tour_walks', recent.walks, CONCURRENCY);
  await createInBatches(pb, 'checkpoint_scans', recent.scans, CONCURRENCY);
  return recent;
}

/**
 * Gives seeded records their `created`: the calls times over the past year,
 * the tours a day before their history (the Tours screen lists a round
 * that closed before its tour was made only if someone walked it, and
 * the daily report and the dashboard count the missed rounds of a day).
 * PocketBase sets `created` itself on every create, the superuser's too, so
 * the seed writes it afterwards with PocketBase's own `migrate up`, run on
 * a folder holding one throwaway migration (recorded as applied in the
 * bench's copy only; the server ignores a recorded file its folder does
 * not have).
 */
function backdate(
  bin: string,
  dir: string,
  rows: Partial<Record<'calls' | 'tours', readonly { id: string; created?: unknown }[]>>,
): void {
  const folder = mkdtempSync(join(tmpdir(), 'scms-bench-migration-'));
  try {
    const updates = Object.entries(rows).map(([table, list]) => {
      const times = Object.fromEntries(list.map((row) => [row.id, row.created]));
      return `  app.db().newQuery("UPDATE ${table} SET created = json_extract({:times}, '$.' || id) WHERE id IN (SELECT key FROM json_each({:times}))")
    .bind({ times: ${JSON.stringify(JSON.stringify(times))} }).execute();`;
    });
    writeFileSync(
      join(folder, '1999999999_bench_created_times.js'),
      `migrate((app) => {
${updates.join('\n')}
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
  // Tours of another version cannot be taken out of a folder (their records are write-once): seed it again.
  const toursThen = existsSync(metaPath) ? (JSON.parse(readFileSync(metaPath, 'utf8')) as Meta).tours : undefined;
  if (toursThen !== undefined && toursThen !== TOURS_VERSION) rmSync(cacheDir, { recursive: true, force: true });
  if (!existsSync(metaPath)) {
    progress(`seeding a new community into ${cacheDir} (cached for later runs this month)`);
    const started = performance.now();
    const data = buildBenchData(now, scale);
    // Seed beside the cache and rename at the end, so an interrupted seed never looks cached.
    const work = mkdtempSync(`${cacheDir}.seeding-`);
    try {
      await seedFolder(work, data, buildBenchTours(data, now), progress);
      const seedMs = Math.round(performance.now() - started);
      writeFileSync(
        join(work, 'bench-meta.json'),
        JSON.stringify({
          version: SEED_VERSION,
          generatedAt: now.toISOString(),
          seedMs,
          tours: TOURS_VERSION,
        } satisfies Meta),
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
  let meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Meta;
  const generatedAt = new Date(meta.generatedAt);
  const data = buildBenchData(generatedAt, scale);
  const tours = buildBenchTours(data, generatedAt);
  if (meta.tours !== TOURS_VERSION) {
    meta = await addTours(cacheDir, meta, tours, progress);
    cached = false;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'scms-bench-run-'));
  cpSync(cacheDir, dataDir, { recursive: true });
  return { dataDir, data, tours, seedMs: meta.seedMs, cached, cacheDir };
}

/**
 * Gives a cached community of before the tours its checkpoints, tours and
 * their history, dated from the folder's own seed. Done on a copy renamed
 * over the cache at the end, as a seed is.
 */
async function addTours(
  cacheDir: string,
  meta: Meta,
  tours: BenchTours,
  progress: (msg: string) => void,
): Promise<Meta> {
  progress(`adding the checkpoint tours and ${tours.walks.length} walks to the cached community (once)`);
  const started = performance.now();
  const work = mkdtempSync(`${cacheDir}.seeding-`);
  try {
    cpSync(cacheDir, work, { recursive: true });
    const server = await startPocketBase({ dataDir: work, superuser: SUPERUSER });
    try {
      const pb = new PocketBase(server.url);
      await pb.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
      await seedTours(pb, tours, progress);
    } finally {
      await server.stop();
    }
    backdate(await ensurePocketBase(), work, { tours: tours.tours });
    const toursSeedMs = Math.round(performance.now() - started);
    const next: Meta = { ...meta, tours: TOURS_VERSION, toursSeedMs };
    writeFileSync(join(work, 'bench-meta.json'), JSON.stringify(next));
    rmSync(cacheDir, { recursive: true, force: true });
    renameSync(work, cacheDir);
    progress(`tours added in ${(toursSeedMs / 1000).toFixed(1)} s`);
    return next;
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}
