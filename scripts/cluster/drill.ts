/**
 * `npm run drill [-- --every-ms 50] [--dist DIR]`: proves that a lost
 * server is brought back from its stream, and that a community moves to
 * another machine, without officers' phones losing what they wrote.
 *
 * 1. A cluster of two servers (scripts/cluster/cluster.ts), Palm Grove
 *    Estates on machine a, Harbor Pointe on machine b, each streamed by
 *    Litestream to a local S3-compatible server, behind Caddy.
 * 2. A phone of each community signs in through the one address: Palm
 *    Grove's with its link (`/?c=palm-grove`), Harbor Pointe's with the
 *    e-mail alone (the directory route). Each files a report; Palm Grove's
 *    carries a photo (in the object storage).
 * 3. A steady writer adds a Palm Grove report every few milliseconds. In
 *    the middle of it machine a is lost: its server and its stream killed
 *    at once and its folder deleted. Palm Grove's phone files two reports
 *    while its server is gone.
 * 4. The server is restored from the stream on machine b (a new folder and
 *    port) and the proxy re-pointed. Printed: the acknowledged writes lost
 *    (and when they had been acknowledged, against the loss), the seconds
 *    from the loss to serving again, and whether the phone's queued
 *    reports landed exactly once, and the photo is still there.
 * 5. Harbor Pointe moves from machine b to machine c while its phone,
 *    offline, holds two queued reports; they land once after the move.
 *
 * Exits 1 if any queued write is lost or doubled, or a step fails; the
 * acknowledged writes lost in the stream's last second are a figure, not a
 * failure (docs/scaling.md, "Durability").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import PocketBase from 'pocketbase';
import { launchChromium } from '../browser/chromium.ts';
import { projectRoot } from '../pocketbase/server.ts';
import { DEMO_REGULAR, DEMO_SECOND_DIRECTOR } from '../seed/demo-account.ts';
import { DEMO_COMMUNITY_IDS } from '../seed/demo-data.ts';
import { startCluster, type RunningCluster } from './cluster.ts';
import { fileReport, keptServerPath, outboxEmptied, queuedWrites, signedInDevice, until } from './drillDevice.ts';
import { startSteadyWriter } from './drillWriter.ts';
import { startObjectStorage, type ObjectStorage } from './objectStorage.ts';
import { DEMO_INSTANCES } from './start.ts';

const { values: args } = parseArgs({
  options: { 'every-ms': { type: 'string', default: '50' }, dist: { type: 'string' } },
});
const EVERY_MS = Number(args['every-ms']);

/** A tiny PNG, the report's photo. */
const PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAAFUlEQVR42mPgndJBEmIY1TCqATsCAIV93sFVhzWVAAAAAElFTkSuQmCC',
  'base64',
);
const SUPERUSER = { email: 'drill@scms.local', password: 'drill-superuser-password' };

function say(line: string): void {
  process.stdout.write(`[drill ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

function appDir(): string {
  if (args.dist) return args.dist;
  const dist = join(projectRoot, 'dist');
  if (process.env.SCMS_SKIP_BUILD !== '1' || !existsSync(join(dist, 'index.html'))) {
    say('building the app...');
    const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: projectRoot, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the build failed');
  }
  return dist;
}

/** The superuser's client of an instance (the drill's source of truth). */
async function admin(cluster: RunningCluster, instance: string): Promise<PocketBase> {
  const pb = new PocketBase(cluster.instances.get(instance)!.pocketbase.url);
  pb.autoCancellation(false);
  await pb.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
  return pb;
}

/** How many of these ids the server holds. */
async function present(pb: PocketBase, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 50) {
    const part = ids.slice(i, i + 50);
    const filter = part.map((id, n) => pb.filter(`id = {:id${n}}`, { [`id${n}`]: id })).join(' || ');
    for (const record of await pb.collection('reports').getFullList({ filter, fields: 'id' })) found.add(record.id);
  }
  return found;
}

/** Is each of these reports on the server exactly once? Each that is not is a problem. */
async function landedOnce(pb: PocketBase, narratives: string[], problems: string[]): Promise<boolean> {
  let once = true;
  for (const narrative of narratives) {
    const list = await pb
      .collection('reports')
      .getList(1, 1, { filter: pb.filter('narative = {:n}', { n: narrative }) });
    if (list.totalItems !== 1) {
      once = false;
      problems.push(`'${narrative}' is on the server ${list.totalItems} times`);
    }
  }
  return once;
}

/** Seconds until the community's health answers 200 through the proxy. */
async function servingAgain(cluster: RunningCluster, slug: string, since: number): Promise<number> {
  await until(`${slug} serving through the proxy`, async () => {
    const response = await fetch(`${cluster.url}/c/${slug}/api/health`).catch(() => null);
    return response?.ok === true;
  });
  return (Date.now() - since) / 1000;
}

async function firstHouse(
  pb: PocketBase,
  community: string,
): Promise<{ id: string; address: string; community: string }> {
  const house = await pb
    .collection('houses')
    .getFirstListItem(pb.filter('community = {:c}', { c: community }), { sort: 'address' });
  return { id: house.id, address: String(house.address), community };
}

async function main(): Promise<number> {
  const dist = appDir();
  const folder = mkdtempSync(join(tmpdir(), 'scms-drill-'));
  const problems: string[] = [];
  let storage: ObjectStorage | undefined;
  let cluster: RunningCluster | undefined;
  let browser: Browser | undefined;
  try {
    storage = await startObjectStorage();
    const bucket = 'scms-drill';
    await storage.createBucket(bucket);
    say(`object storage (moto) at ${storage.endpoint}; starting two servers behind Caddy...`);
    cluster = await startCluster({
      folder,
      // The demo's servers on free ports, so that the drill runs beside anything.
      instances: DEMO_INSTANCES.map(({ port: _port, ...plan }) => plan),
      storage: { ...storage, bucket },
      superuser: SUPERUSER,
      demo: true,
      publicDir: dist,
    });
    for (const instance of cluster.instances.values())
      say(
        `  ${instance.plan.name} on machine ${instance.plan.machine}: ${instance.pocketbase.url} (${instance.plan.communities[0]!.slug})`,
      );
    say(`the app at ${cluster.url}`);

    const palm = await firstHouse(await admin(cluster, 'one'), DEMO_COMMUNITY_IDS.primary);
    const harbor = await firstHouse(await admin(cluster, 'two'), DEMO_COMMUNITY_IDS.second);

    browser = await launchChromium();
    const phoneP = await signedInDevice(browser, 'Palm Grove phone', `${cluster.url}/?c=palm-grove`, DEMO_REGULAR);
    const phoneH = await signedInDevice(browser, 'Harbor Pointe phone', `${cluster.url}/`, DEMO_SECOND_DIRECTOR);
    const paths = [await keptServerPath(phoneP), await keptServerPath(phoneH)];
    say(`signed in: Palm Grove by its link (server ${paths[0]}), Harbor Pointe by e-mail alone (server ${paths[1]})`);
    if (paths[0] !== '/c/palm-grove' || paths[1] !== '/c/harbor-pointe')
      problems.push(`servers kept: ${paths.join(', ')}`);

    const tag = Date.now().toString(36);
    const withPhoto = `Drill ${tag}: gate arm broken, photo attached.`;
    await fileReport(phoneP, palm.address, withPhoto, PHOTO);
    await fileReport(phoneH, harbor.address, `Drill ${tag}: Harbor Pointe report before the move.`);
    await Promise.all([outboxEmptied(phoneP), outboxEmptied(phoneH)]);
    const adminOne = await admin(cluster, 'one');
    const photoReport = await adminOne
      .collection('reports')
      .getFirstListItem(adminOne.filter('narative = {:n}', { n: withPhoto }));
    const photoName = (photoReport.photos as string[])[0]!;
    say(`both phones wrote; the photo ${photoName} is in the object storage`);

    // ---- the loss ---------------------------------------------------------
    const writer = await startSteadyWriter(`${cluster.url}/c/palm-grove`, DEMO_REGULAR, palm, EVERY_MS);
    await until('100 acknowledged steady writes', async () => writer.acknowledged.length >= 100, 60_000);
    const lostAt = Date.now();
    await cluster.crash('one', { removeData: true });
    say(
      `machine a lost (server and stream killed, folder deleted) after ${writer.acknowledged.length} acknowledged writes`,
    );
    const queuedDuringLoss = [
      `Drill ${tag}: written while the server was lost (1).`,
      `Drill ${tag}: written while the server was lost (2).`,
    ];
    for (const narrative of queuedDuringLoss) await fileReport(phoneP, palm.address, narrative);
    say(`Palm Grove's phone queued ${await queuedWrites(phoneP)} writes while its server was gone`);

    await cluster.restore('one', 'b');
    const lossSeconds = await servingAgain(cluster, 'palm-grove', lostAt);
    say(
      `restored from the stream on machine b (${cluster.instances.get('one')!.pocketbase.url}); serving again ${lossSeconds.toFixed(1)} s after the loss`,
    );
    await new Promise((wait) => setTimeout(wait, 2_000));
    await writer.stop();

    const restored = await admin(cluster, 'one');
    const acknowledgedBefore = writer.acknowledged.filter((write) => write.at <= lostAt);
    const held = await present(
      restored,
      writer.acknowledged.map((write) => write.id),
    );
    const lost = writer.acknowledged.filter((write) => !held.has(write.id));
    const window =
      lost.length > 0
        ? `acknowledged ${((lostAt - Math.min(...lost.map((w) => w.at))) / 1000).toFixed(2)} s or less before the loss`
        : 'none';
    say(
      `acknowledged writes lost: ${lost.length} of ${acknowledgedBefore.length} acknowledged before the loss (${window})`,
    );

    await outboxEmptied(phoneP);
    const restoredOnce = await landedOnce(restored, queuedDuringLoss, problems);
    say(
      `Palm Grove's queued writes after the restore, each on the server exactly once: ${restoredOnce ? 'yes' : 'NO'}`,
    );
    const token = await restored.files.getToken();
    const photo = await fetch(restored.files.getURL(photoReport, photoName, { token }));
    const photoBack = photo.ok && Buffer.from(await photo.arrayBuffer()).length > 0;
    say(`the photo after the restore: ${photoBack ? 'served' : `MISSING (${photo.status})`}`);
    if (!photoBack) problems.push('the photo did not survive the restore');

    // ---- the move ---------------------------------------------------------
    await phoneH.context.setOffline(true);
    const queuedDuringMove = [
      `Drill ${tag}: written offline during the move (1).`,
      `Drill ${tag}: written offline during the move (2).`,
    ];
    for (const narrative of queuedDuringMove) await fileReport(phoneH, harbor.address, narrative);
    const movedAt = Date.now();
    const from = cluster.instances.get('two')!;
    await cluster.stopInstance('two');
    await cluster.restore('two', 'c');
    rmSync(join(from.dataDir, '..'), { recursive: true, force: true });
    const moveSeconds = await servingAgain(cluster, 'harbor-pointe', movedAt);
    say(
      `Harbor Pointe moved from machine b to c (${cluster.instances.get('two')!.pocketbase.url}) in ${moveSeconds.toFixed(1)} s, its phone holding ${await queuedWrites(phoneH)} queued writes`,
    );
    await phoneH.context.setOffline(false);
    await outboxEmptied(phoneH);
    const movedOnce = await landedOnce(await admin(cluster, 'two'), queuedDuringMove, problems);
    say(`Harbor Pointe's queued writes after the move, each on the server exactly once: ${movedOnce ? 'yes' : 'NO'}`);

    const lines = [
      '',
      '| drill | figure |',
      '|---|---|',
      `| acknowledged writes lost when machine a was lost (a write every ${EVERY_MS} ms) | ${lost.length} of ${acknowledgedBefore.length} (${window}) |`,
      `| seconds from the loss to serving again (restore from the stream on another machine, proxy re-pointed) | ${lossSeconds.toFixed(1)} s |`,
      `| the phone's writes queued during the loss, landed exactly once | ${restoredOnce ? `yes (${queuedDuringLoss.length})` : 'no'} |`,
      `| the photo (object storage) after the restore | ${photoBack ? 'served' : 'missing'} |`,
      `| moving a community to another machine: seconds unavailable | ${moveSeconds.toFixed(1)} s |`,
      `| the phone's writes queued during the move, landed exactly once | ${movedOnce ? `yes (${queuedDuringMove.length})` : 'no'} |`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  } catch (error) {
    problems.push(`a step failed: ${(error as Error).stack ?? String(error)}`);
  } finally {
    await browser?.close().catch(() => undefined);
    await cluster?.stop().catch(() => undefined);
    await storage?.stop().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
  }
  for (const problem of problems) process.stderr.write(`drill: ${problem}\n`);
  return problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`npm run drill failed: ${error.message}\n`);
    process.exit(1);
  },
);
