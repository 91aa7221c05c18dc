/**
 * `npm run bench:load [-- --officers 25,100,250,500 --seconds 30]`: N
 * officers of one community against ONE PocketBase on the loopback, as the
 * app uses it at a peak shift (load-figures.ts PEAK_SHIFT):
 * - each officer is a real user of the community, signed in with its password;
 * - each holds a realtime subscription open (GET /api/realtime, then the ten
 *   subscription posts the SDK sends as src/data/sync/realtime.ts subscribes);
 * - incremental pulls as the app sends them (src/data/sync/pull.ts,
 *   changes.ts): the changes route with every collection scoped by its
 *   community, and a page each of residents and phones with the app's own
 *   filter, all from the officer's last pull;
 * - report creates (POST .../reports/records with a client id, as the
 *   outbox's replay sends one entry) and house checks (POST /api/batch:
 *   the report and the home's last-checked date, as queueHouseCheck queues
 *   them and replay.ts sends a batch);
 * - calls (POST /api/scms/call-resident), answered by the local telephony
 *   stand-in this script starts: no real provider is ever configured.
 * The HTTP load is autocannon's (one instance per kind, so each has its own
 * latency histogram); the realtime clients are `eventsource`'s.
 *
 * A last stage (`--first-syncs 20`, 0 for none) starts that many new
 * phones' first syncs at once (first-syncs.ts: every request of a whole
 * first sync) while 100 officers work: a shift change on shared phones.
 * Its row beside the 100-officer row shows what they cost the server and
 * everyone else's requests.
 *
 * `--servers 2`: two servers, each with its own community (a copy of the
 * same seeded one) and N officers, behind the cluster's proxy (Caddy,
 * scripts/cluster/caddyfile.ts), every request through its community's
 * path (`/c/north/…`, `/c/south/…`); a row per server and the proxy's own
 * CPU. Both servers share this machine's cores: it shows what the proxy
 * costs and that the servers stay apart, not the capacity of two machines.
 *
 * The community is bench:sync's scale 1 (5,000 homes, 20,000 reports; seed.ts,
 * cached per month). Rate limits are off in this run's copy: every officer
 * here comes from 127.0.0.1, where in the field each has its own address.
 * Bounded: each stage sends a fixed number of requests and is stopped after
 * its time plus a margin; the default run takes about 5 minutes.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EventSource } from 'eventsource';
import PocketBase from 'pocketbase';
import { startCaddy, type RunningCaddy } from '../../scripts/cluster/caddy.ts';
import { caddyfile } from '../../scripts/cluster/caddyfile.ts';
import { freePort, startPocketBase, type RunningPocketBase } from '../../scripts/pocketbase/server.ts';
import { startTelephonyStandin, type TelephonyStandin } from '../../scripts/standins/telephony.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { changesQuery } from '../../src/domain/changesRequest.ts';
import { ANSWERED_AT_ONCE, CURSOR_FILTER } from '../../src/domain/pullFilter.ts';
import { newRecordId } from '../../src/data/mirror/ids.ts';
import { REALTIME_COLLECTIONS } from '../../src/data/sync/realtime.ts';
import { settingsAwayFromQuietHours } from '../support/call-jobs.ts';
import { STAFF_PASSWORD, type BenchData } from './data.ts';
import { firstSync, type FirstSyncSource } from './first-syncs.ts';
import {
  cpuBoundOfficers,
  cpuPercent,
  cpuTicks,
  parseOfficers,
  PEAK_SHIFT,
  percentile,
  PULL_REQUESTS,
  rssMiB,
  stagePlan,
  table,
  verdict,
  type Kind,
  type KindFigures,
  type StageFigures,
  type StagePlan,
} from './load-figures.ts';
import { seededFolder, SUPERUSER } from './seed.ts';

// ---- autocannon (CommonJS, no types of its own: the slice used here) ---------------

interface AutocannonRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}
interface AutocannonResult {
  latency: { p50: number; p99: number };
  /** `total`: responses received. */
  requests: { total: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  stop(): void;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string;
  connections: number;
  amount: number;
  overallRate: number;
  ignoreCoordinatedOmission: boolean;
  timeout: number;
  requests: AutocannonRequest[];
}) => AutocannonInstance;

// ---- the run ------------------------------------------------------------------------

const { values: args } = parseArgs({
  options: {
    officers: { type: 'string' },
    servers: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '30' },
    'first-syncs': { type: 'string', default: '20' },
    // 'records-api': the first syncs read as from a server without the route made for loads (for comparison).
    'first-sync-source': { type: 'string', default: 'route' },
  },
  allowPositionals: false,
});
const SERVERS = Number(args.servers);
if (SERVERS !== 1 && SERVERS !== 2) throw new Error(`--servers must be 1 or 2, not ${args.servers}`);
/** Officers per server in each stage. */
const OFFICERS = parseOfficers(args.officers ?? (SERVERS === 1 ? '25,100,250,500' : '100,250'));
const SECONDS = Number(args.seconds);
const FIRST_SYNCS = SERVERS === 1 ? Number(args['first-syncs']) : 0;
if (!Number.isInteger(FIRST_SYNCS) || FIRST_SYNCS < 0 || FIRST_SYNCS > 200)
  throw new Error(`--first-syncs must be a whole number from 0 to 200, not ${args['first-syncs']}`);
const FIRST_SYNC_SOURCE = args['first-sync-source'] as FirstSyncSource;
if (FIRST_SYNC_SOURCE !== 'route' && FIRST_SYNC_SOURCE !== 'records-api')
  throw new Error(`--first-sync-source must be route or records-api, not ${args['first-sync-source']}`);
/** Officers at work while the new phones first-sync: a busy shift, within what one server holds. */
const BESIDE_FIRST_SYNCS = 100;
if (!Number.isInteger(SECONDS) || SECONDS < 5 || SECONDS > 120)
  throw new Error(`--seconds must be a whole number from 5 to 120, not ${args.seconds}`);
/** Realtime connects in flight at once when a stage opens its subscriptions (a shift starting). */
const CONNECT_CONCURRENCY = 20;
/** A stage still running this long after its time is stopped (bounded in time). */
const STAGE_MARGIN_MS = 30_000;
const TELEPHONY = { accountSid: `AC${'10ad'.repeat(8)}`, authToken: 'bench-load-telephony-token' };

const started = performance.now();
const progress = (message: string) =>
  console.log(`[load ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}`);

interface Officer {
  id: string;
  email: string;
  token: string;
  /** When this officer's last incremental pull began (its cursor). */
  pulledAt: Date;
}

const TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux
function processTicks(pid: number | undefined): number | null {
  try {
    return pid ? cpuTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) : null;
  } catch {
    return null;
  }
}

function processRss(pid: number | undefined): number | null {
  try {
    return pid ? rssMiB(readFileSync(`/proc/${pid}/status`, 'utf8')) : null;
  } catch {
    return null;
  }
}

async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** The officers of the largest stage: created by the superuser (batch API), each signed in with its password. */
async function officersOf(
  admin: PocketBase,
  data: BenchData,
  count: number,
): Promise<{ officers: Officer[]; signInMs: number[] }> {
  const community = data.community.id;
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newRecordId(),
    email: `officer-${String(i + 1).padStart(3, '0')}@load.bench.test`,
    emailVisibility: true,
    verified: true,
    password: STAFF_PASSWORD,
    passwordConfirm: STAFF_PASSWORD,
    first_name: 'Officer',
    last_name: String(i + 1),
    type: 'regular',
    community,
  }));
  // Batches of 10: each user's password is hashed (bcrypt) inside the batch, and a
  // batch of 50 outlasts the batch timeout (3 s) on a busy machine.
  const batches = Array.from({ length: Math.ceil(rows.length / 10) }, (_, i) => rows.slice(i * 10, i * 10 + 10));
  await inParallel(batches, 2, async (part) => {
    const batch = admin.createBatch();
    for (const row of part) batch.collection('users').create(row);
    await batch.send({ requestKey: null });
  });
  const officers: Officer[] = [];
  const signInMs: number[] = [];
  await inParallel(rows, 4, async (row) => {
    const pb = new PocketBase(admin.baseURL);
    pb.autoCancellation(false);
    const t0 = performance.now();
    await pb.collection('users').authWithPassword(row.email, STAFF_PASSWORD);
    signInMs.push(performance.now() - t0);
    officers.push({ id: row.id, email: row.email, token: pb.authStore.token, pulledAt: new Date() });
  });
  return { officers, signInMs };
}

interface RealtimeClients {
  connectMs: number[];
  errors: number;
  events: number;
  deliveryMs: number[];
  close: () => void;
}

/**
 * Opens a subscription per officer as the SDK does for src/data/sync/realtime.ts:
 * the event stream, then one post per subscribe call, each with every topic
 * so far (PB_CONNECT, then the nine collections). Reports created by this
 * run are recognised by id: the time from their create to each event is
 * the realtime delivery.
 */
async function openRealtime(
  url: string,
  officers: readonly Officer[],
  sentAt: Map<string, number>,
): Promise<RealtimeClients> {
  const sources: EventSource[] = [];
  const clients: RealtimeClients = {
    connectMs: [],
    errors: 0,
    events: 0,
    deliveryMs: [],
    close: () => sources.forEach((s) => s.close()),
  };
  const topics = ['PB_CONNECT', ...REALTIME_COLLECTIONS.map((c) => `${c}/*`)];
  await inParallel(officers, CONNECT_CONCURRENCY, async (officer) => {
    const t0 = performance.now();
    try {
      const source = new EventSource(`${url}/api/realtime`);
      sources.push(source);
      const clientId = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no PB_CONNECT within 15 s')), 15_000);
        source.addEventListener('PB_CONNECT', (event) => {
          clearTimeout(timer);
          resolve((JSON.parse(event.data) as { clientId: string }).clientId);
        });
        source.onerror = () => undefined; // it reconnects; a missed connect is the timeout's
      });
      for (const collection of REALTIME_COLLECTIONS) {
        source.addEventListener(`${collection}/*`, (event) => {
          clients.events++;
          if (collection !== 'reports' || clients.deliveryMs.length >= 500_000) return;
          const { record } = JSON.parse(event.data) as { record: { id: string } };
          const at = sentAt.get(record.id);
          if (at !== undefined) clients.deliveryMs.push(performance.now() - at);
        });
      }
      for (let n = 1; n <= topics.length; n++) {
        const response = await fetch(`${url}/api/realtime`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: officer.token },
          body: JSON.stringify({ clientId, subscriptions: topics.slice(0, n) }),
        });
        if (!response.ok) throw new Error(`subscription answered ${response.status}`);
      }
      clients.connectMs.push(performance.now() - t0);
    } catch {
      clients.errors++;
    }
  });
  return clients;
}

/** The requests of each kind, each from the next officer in turn with that officer's token. */
function requestsOf(world: World, sentAt: Map<string, number>): Record<Exclude<Kind, 'realtime'>, AutocannonRequest> {
  const { officers, data } = world;
  let pulls = 0;
  // Only its filter(), which writes a filter's text as the app's requests carry it.
  const filterText = new PocketBase('');
  let reports = 0;
  let checks = 0;
  let calls = 0;
  const community = data.community.id;
  const json = (officer: Officer) => ({ 'Content-Type': 'application/json', Authorization: officer.token });
  const reportBody = (officer: Officer, type: string, houseIndex: number) => {
    const house = data.houses[houseIndex % data.houses.length]!;
    return {
      id: newRecordId(),
      narative:
        type === 'house_check'
          ? 'House check: everything OK.'
          : 'Garage door open at night; rang the bell, the resident closed it.',
      ai_generated_narative: '',
      type,
      weather: 'clear',
      incident_time: pbDate(new Date()),
      phone_number: '',
      injury: false,
      ems_pbso: false,
      community,
      house: house.id,
      resident: '',
      created_by: officer.id,
      // As the app sends a house check: its answer beside the narrative (empty on other reports).
      everything_ok: type === 'house_check' ? 'yes' : '',
    };
  };
  return {
    pull: {
      method: 'GET',
      path: '/',
      setupRequest: (request) => {
        const n = pulls++;
        const officer = officers[Math.floor(n / PULL_REQUESTS) % officers.length]!;
        const part = n % PULL_REQUESTS;
        // A time, and the lowest id: every record changed from that instant on.
        const cursor = { updated: pbDate(officer.pulledAt), id: '0' };
        // The pull's last request moves the officer's cursor to now.
        if (part === PULL_REQUESTS - 1) officer.pulledAt = new Date();
        const headers = { Authorization: officer.token };
        if (part === 0) {
          const cursors = Object.fromEntries(ANSWERED_AT_ONCE.map((collection) => [collection, cursor]));
          return { ...request, path: `/api/scms/changes?${new URLSearchParams(changesQuery({ cursors }))}`, headers };
        }
        const query = new URLSearchParams({
          page: '1',
          perPage: '500',
          skipTotal: '1',
          // The app's own filter (readAfter): residents and phones keep PocketBase's wait for empty answers.
          filter: filterText.filter(CURSOR_FILTER, { u: cursor.updated, id: cursor.id }),
          sort: 'updated,id',
        });
        return {
          ...request,
          path: `/api/collections/${part === 1 ? 'residents' : 'phones'}/records?${query}`,
          headers,
        };
      },
    },
    report: {
      method: 'POST',
      path: '/api/collections/reports/records',
      setupRequest: (request) => {
        const officer = officers[reports++ % officers.length]!;
        const body = reportBody(officer, 'open_garage_door', reports * 37);
        sentAt.set(body.id, performance.now());
        return { ...request, headers: json(officer), body: JSON.stringify(body) };
      },
    },
    houseCheck: {
      method: 'POST',
      path: '/api/batch',
      setupRequest: (request) => {
        const officer = officers[checks++ % officers.length]!;
        const houseIndex = checks * 53;
        const house = data.houses[houseIndex % data.houses.length]!;
        const report = reportBody(officer, 'house_check', houseIndex);
        sentAt.set(report.id, performance.now());
        // As the SDK's createBatch().send() posts it: multipart with the requests in @jsonPayload.
        const payload = JSON.stringify({
          requests: [
            { method: 'POST', url: '/api/collections/reports/records', body: report },
            {
              method: 'PATCH',
              url: `/api/collections/houses/records/${house.id}`,
              body: { house_check_last_date: pbDate(new Date()) },
            },
          ],
        });
        const boundary = `----scmsbench${report.id}`;
        return {
          ...request,
          headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, Authorization: officer.token },
          body: `--${boundary}\r\nContent-Disposition: form-data; name="@jsonPayload"\r\n\r\n${payload}\r\n--${boundary}--\r\n`,
        };
      },
    },
    call: {
      method: 'POST',
      path: '/api/scms/call-resident',
      setupRequest: (request) => {
        const officer = officers[calls % officers.length]!;
        // A home nobody is calling yet: a second call to a home being called is refused (409).
        const house = data.houses[world.nextCallHouse++ % data.houses.length]!;
        calls++;
        const concerns = data.concerns.slice(0, 2).map((c) => ({ id: c.id, name: c.name, selected: true }));
        return { ...request, headers: json(officer), body: JSON.stringify({ h_id: house.id, concerns }) };
      },
    },
  };
}

interface World {
  server: RunningPocketBase;
  /** Where its officers send their requests: the server, or its community's path behind the proxy. */
  url: string;
  standin: TelephonyStandin;
  data: BenchData;
  officers: Officer[];
  nextCallHouse: number;
}

/** The requests sent under a community's path behind the proxy ('' : straight to the server). */
function underPath<K extends string>(
  prefix: string,
  requests: Record<K, AutocannonRequest>,
): Record<K, AutocannonRequest> {
  if (prefix === '') return requests;
  const prefixed = (request: AutocannonRequest) =>
    request.path.startsWith(`${prefix}/`) ? request : { ...request, path: `${prefix}${request.path}` };
  return Object.fromEntries(
    Object.entries<AutocannonRequest>(requests).map(([kind, request]) => {
      const setup = request.setupRequest;
      return [kind, { ...prefixed(request), setupRequest: (r: AutocannonRequest) => prefixed(setup ? setup(r) : r) }];
    }),
  ) as Record<K, AutocannonRequest>;
}

const failed = (r: AutocannonResult) => r.errors + r.timeouts + r.non2xx;
const fmtSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function runStage(world: World, count: number, firstSyncs = 0): Promise<StageFigures> {
  const officers = world.officers.slice(0, count);
  const plan: StagePlan = stagePlan(count, SECONDS);
  const sentAt = new Map<string, number>();
  progress(`${count} officers: opening ${count} realtime subscriptions`);
  const realtime = await openRealtime(world.url, officers, sentAt);
  // Each officer last pulled a minute ago: the first pulls bring a minute of changes.
  for (const officer of officers) officer.pulledAt = new Date(Date.now() - PEAK_SHIFT.pullEverySeconds * 1000);
  const requests = underPath(
    new URL(world.url).pathname.replace(/\/$/, ''),
    requestsOf({ ...world, officers }, sentAt),
  );
  const planned = Object.values(plan).reduce((s, p) => s + p.amount, 0);
  progress(
    `${count} officers: ${planned} requests over ${SECONDS} s (${Object.entries(plan)
      .map(([k, p]) => `${k} ${p.amount} at ${p.rate.toFixed(2)}/s`)
      .join(', ')})`,
  );
  const serverBefore = processTicks(world.server.process.pid);
  const benchBefore = process.cpuUsage();
  const t0 = performance.now();
  const instances = (Object.keys(plan) as Array<keyof StagePlan>).map((kind) => {
    const instance = autocannon({
      url: new URL(world.url).origin,
      connections: plan[kind].connections,
      amount: plan[kind].amount,
      overallRate: plan[kind].overallRate,
      // Its correction assumes 1/rate ms between requests (1 ms at 1 request/s) and fills
      // the histogram with made-up samples; a server falling behind shows as requests not served in time instead.
      ignoreCoordinatedOmission: true,
      timeout: 10,
      requests: [requests[kind]],
    });
    const guard = setTimeout(() => instance.stop(), SECONDS * 1000 + STAGE_MARGIN_MS);
    return Promise.resolve(instance).then((result) => {
      clearTimeout(guard);
      return [kind, result] as const;
    });
  });
  // New phones signing in as the load starts (a shift change): each a whole first sync, all at once.
  const syncing = Promise.all(
    Array.from({ length: firstSyncs }, (_, i) =>
      firstSync(world.url, officers[i % officers.length]!.token, FIRST_SYNC_SOURCE),
    ),
  );
  const results = Object.fromEntries(await Promise.all(instances)) as Record<keyof StagePlan, AutocannonResult>;
  const synced = await syncing;
  const elapsed = performance.now() - t0;
  const serverAfter = processTicks(world.server.process.pid);
  const bench = process.cpuUsage(benchBefore);
  // Events still on their way to the last subscribers.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  realtime.close();

  const kinds = {} as Record<Kind, KindFigures>;
  for (const kind of Object.keys(plan) as Array<keyof StagePlan>) {
    const r = results[kind];
    kinds[kind] = { count: r.requests.total - r.non2xx, p50: r.latency.p50, p99: r.latency.p99, errors: failed(r) };
    const codes = Object.entries(r.statusCodeStats)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, s]) => `${s.count}× ${code}`);
    if (failed(r) > 0)
      progress(
        `  ${kind}: ${failed(r)} failed (${[...codes, `${r.errors} errors`, `${r.timeouts} timeouts`].join(', ')})`,
      );
  }
  kinds.realtime = {
    count: realtime.connectMs.length,
    p50: percentile(realtime.connectMs, 50),
    p99: percentile(realtime.connectMs, 99),
    errors: realtime.errors,
  };
  const completed = (Object.keys(plan) as Array<keyof StagePlan>).reduce((s, k) => s + kinds[k].count, 0);
  const stage: StageFigures = {
    officers: count,
    planned,
    completed,
    plannedSeconds: SECONDS,
    // Longer than planned when the server fell behind.
    seconds: Math.max(SECONDS, elapsed / 1000),
    kinds,
    delivery: {
      events: realtime.events,
      p50: percentile(realtime.deliveryMs, 50),
      p99: percentile(realtime.deliveryMs, 99),
    },
    serverCpu:
      serverBefore === null || serverAfter === null
        ? null
        : cpuPercent(serverBefore, serverAfter, elapsed, TICKS_PER_SECOND),
    serverRssMiB: processRss(world.server.process.pid),
    benchCpu: ((bench.user + bench.system) / 1000 / elapsed) * 100,
    load1: loadavg()[0]!,
    ...(firstSyncs > 0
      ? {
          firstSyncs: {
            count: firstSyncs,
            p50Ms: percentile(
              synced.map((f) => f.ms),
              50,
            ),
            maxMs: Math.max(...synced.map((f) => f.ms)),
            requests: synced.reduce((n, f) => n + f.requests, 0),
            failed: synced.reduce((n, f) => n + f.failed, 0),
            failures: synced.flatMap((f) => f.failures),
          },
        }
      : {}),
  };
  progress(
    `${count} officers: ${completed} of ${planned} in ${(elapsed / 1000).toFixed(1)} s, ${realtime.events} realtime events delivered`,
  );
  return stage;
}

/** A server on a seeded folder, rate limits off, calls allowed now; its superuser client. */
async function startServer(dataDir: string, standin: TelephonyStandin, communityId: string) {
  const port = await freePort();
  const server = await startPocketBase({
    dataDir,
    port,
    superuser: SUPERUSER,
    env: {
      // The stand-in only: a bench never reaches a real provider, whatever this shell has set.
      TWILIO_ACCOUNT_SID: TELEPHONY.accountSid,
      TWILIO_AUTH_TOKEN: TELEPHONY.authToken,
      TWILIO_FROM_NUMBER: '+15615550100',
      TWILIO_API_BASE: standin.url,
      SCMS_PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
  });
  const admin = new PocketBase(server.url);
  admin.autoCancellation(false);
  await admin.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
  await admin.settings.update({ rateLimits: { enabled: false } });
  await admin.collection('call_settings').create(settingsAwayFromQuietHours(communityId));
  return { server, admin };
}

/** The communities' paths behind the proxy, when there are two servers. */
const SLUGS = ['north', 'south'] as const;

async function main(): Promise<void> {
  progress(
    `officers ${OFFICERS.join(', ')}${SERVERS === 2 ? ' on each of two servers behind the proxy' : ''}; ${SECONDS} s of load each; ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}`,
  );
  const seeded = await seededFolder(progress, 1);
  // The second server's community: a copy of the first's folder (its own database from here on).
  const folders = [seeded.dataDir];
  if (SERVERS === 2) {
    const copy = join(mkdtempSync(join(tmpdir(), 'scms-load-')), 'pb_data');
    cpSync(seeded.dataDir, copy, { recursive: true });
    folders.push(copy);
  }
  const running: Array<{ server: RunningPocketBase; admin: PocketBase }> = [];
  let standin: TelephonyStandin | undefined;
  let caddy: RunningCaddy | undefined;
  try {
    standin = await startTelephonyStandin({ ...TELEPHONY, stepDelayMs: 1_000 });
    for (const folder of folders) running.push(await startServer(folder, standin, seeded.data.community.id));
    let urls = running.map(({ server }) => server.url);
    if (SERVERS === 2) {
      const proxyPort = await freePort();
      const adminAddress = `127.0.0.1:${await freePort()}`;
      const site = `http://127.0.0.1:${proxyPort}`;
      const entries = running.map(({ server }, i) => ({
        slug: SLUGS[i]!,
        communityId: seeded.data.community.id,
        server: server.url,
      }));
      // No directory service: the officers are signed in already (a port nothing listens on).
      const proxyConfig = caddyfile({ site, adminAddress, directoryService: '127.0.0.1:9', entries });
      caddy = await startCaddy(join(folders[folders.length - 1]!, '..', 'caddy'), proxyConfig, adminAddress);
      urls = SLUGS.map((slug) => `${site}/c/${slug}`);
      progress(`Caddy at ${site} (pid ${caddy.process.pid}): ${urls.join(', ')}`);
    }
    const most = OFFICERS[OFFICERS.length - 1]!;
    const worlds: World[] = [];
    for (const [i, { server, admin }] of running.entries()) {
      const { officers, signInMs } = await officersOf(admin, seeded.data, most);
      progress(
        `PocketBase at ${server.url} (pid ${server.process.pid}): ${officers.length} officers created and signed in (sign-in p50 ${Math.round(percentile(signInMs, 50))} ms, p99 ${Math.round(percentile(signInMs, 99))} ms)`,
      );
      worlds.push({ server, url: urls[i]!, standin, data: seeded.data, officers, nextCallHouse: 0 });
    }
    const stagesOf: StageFigures[][] = worlds.map(() => []);
    const proxyCpu: Array<number | null> = [];
    for (const count of OFFICERS) {
      const caddyBefore = processTicks(caddy?.process.pid);
      const t0 = performance.now();
      const figures = await Promise.all(worlds.map((world) => runStage(world, count)));
      const caddyAfter = processTicks(caddy?.process.pid);
      figures.forEach((stage, i) => stagesOf[i]!.push(stage));
      proxyCpu.push(
        caddyBefore === null || caddyAfter === null
          ? null
          : cpuPercent(caddyBefore, caddyAfter, performance.now() - t0, TICKS_PER_SECOND),
      );
    }
    const beside = Math.min(BESIDE_FIRST_SYNCS, most);
    if (FIRST_SYNCS > 0) {
      progress(`${beside} officers at work while ${FIRST_SYNCS} new phones make their first sync`);
      stagesOf[0]!.push(await runStage(worlds[0]!, beside, FIRST_SYNCS));
    }

    const peak = `Per officer at a peak shift: a pull of ${PULL_REQUESTS} requests every ${PEAK_SHIFT.pullEverySeconds} s, a house check every ${PEAK_SHIFT.houseCheckEverySeconds} s, a report every ${PEAK_SHIFT.reportEverySeconds} s, a call every ${PEAK_SHIFT.callEverySeconds} s; ${SECONDS} s per row. CPU in percent of one core (200 % = the whole machine); the bench itself runs on the same two cores.`;
    const community = `${seeded.data.houses.length.toLocaleString('en-US')} homes, ${seeded.data.reports.length.toLocaleString('en-US')} reports`;
    if (SERVERS === 2) {
      console.log(
        `\n## Load: two servers behind the proxy, a community of ${community} on each (${cpus().length} cores, shared)\n`,
      );
      console.log(`${peak} Each row's officers work on each server at once, every request through Caddy.\n`);
      worlds.forEach((world, i) => {
        console.log(`### ${world.url}\n`);
        console.log(table(stagesOf[i]!));
        console.log('');
      });
      console.log('| Officers (each server) | Caddy CPU |');
      console.log('|---|---|');
      OFFICERS.forEach((count, i) => {
        const cpu = proxyCpu[i];
        console.log(`| ${count} | ${cpu === null || cpu === undefined ? 'n/a' : `${Math.round(cpu)} %`} |`);
      });
      console.log(`\nCalls placed at the stand-in: ${standin.calls.length} (no real provider).`);
      console.log(`Total runtime: ${((performance.now() - started) / 60_000).toFixed(1)} min.`);
      return;
    }
    const stages = stagesOf[0]!;
    const admin = running[0]!.admin;
    console.log(`\n## Load: N officers of one community on one PocketBase (${cpus().length} cores, shared)\n`);
    console.log(`Community: ${community}. ${peak}\n`);
    console.log(table(stages));
    console.log('');
    // The officer stages say how many officers one server holds; the first syncs' row stands beside them.
    const officerStages = stages.filter((stage) => !stage.firstSyncs);
    console.log(verdict(officerStages));
    const bound = cpuBoundOfficers(officerStages, cpus().length);
    const last = officerStages[officerStages.length - 1]!;
    if (bound !== null)
      console.log(
        `PocketBase used ${Math.round(last.serverCpu!)} % of one core for ${last.officers} officers: both cores at 80 % would hold about ${bound} officers at this rate, linearly (an upper bound: the realtime fan-out grows faster than the officers).`,
      );
    const syncs = stages.find((stage) => stage.firstSyncs)?.firstSyncs;
    if (syncs)
      console.log(
        `First syncs (${FIRST_SYNC_SOURCE === 'route' ? 'the route made for loads' : 'the records API only'}): ${syncs.count} phones at once, each the whole community (${syncs.requests} requests in all, ${syncs.failed} failed${syncs.failures.length ? `: ${syncs.failures.join(', ')}` : ''}): done in ${fmtSeconds(syncs.p50Ms)} at the median, ${fmtSeconds(syncs.maxMs)} for the last, without the phones' own writes (bench:sync and bench:screens time those).`,
      );
    if (syncs?.failed) {
      // What the server said about them (its request log keeps the error of each 5xx).
      const logged = await admin.logs.getList(1, 10, {
        filter: "data.status >= 500 && data.url ~ '/api/scms/first-load/'",
        sort: '-created',
      });
      for (const entry of logged.items) console.log(`  server: ${entry.message} ${JSON.stringify(entry.data)}`);
    }
    console.log(`Calls placed at the stand-in: ${standin.calls.length} (no real provider).`);
    console.log(`Total runtime: ${((performance.now() - started) / 60_000).toFixed(1)} min.`);
  } finally {
    // The stand-in first: callbacks it still has scheduled would meet a stopped server.
    await standin?.stop();
    await caddy?.stop();
    for (const { server } of running) await server.stop();
    for (const folder of folders)
      rmSync(folder === seeded.dataDir ? folder : join(folder, '..'), { recursive: true, force: true });
  }
  // Keep-alive sockets of the realtime clients may linger: the run is over.
  process.exit(process.exitCode ?? 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
