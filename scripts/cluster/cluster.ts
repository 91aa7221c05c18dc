/**
 * A cluster on this machine: several PocketBase servers ("instances"),
 * each with its own data folder, port and communities, its database
 * streamed by Litestream and its uploads in S3-compatible storage, behind
 * one Caddy that routes by community, with the directory service beside
 * it. `npm run start:cluster` (scripts/cluster/start.ts), the drill
 * (scripts/cluster/drill.ts) and the two-server load test run it; a
 * production cluster is the same parts on several machines
 * (docs/deploy.md, "Several servers").
 *
 * An instance lives on a "machine": a folder here, a computer in
 * production. Losing a machine loses its folders; an instance is brought
 * back on another machine from its stream (`restore`), and a community
 * moves the same way: its instance stops, is restored on the other
 * machine, and its line in the directory changes.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import PocketBase from 'pocketbase';
import { formatDirectory, readDirectory, type DirectoryEntry } from '../../server/directory/directoryFile.ts';
import { startDirectoryService, type DirectoryService } from '../../server/directory/service.ts';
import { startPushSenderBeside } from '../../server/push/cli.ts';
import type { PushSender } from '../../server/push/sender.ts';
import { freePort, startPocketBase, waitForHealth, type RunningPocketBase } from '../pocketbase/server.ts';
import { DEMO_DIRECTOR } from '../seed/demo-account.ts';
import { seedDemo } from '../seed/seed.ts';
import { startCaddy, type RunningCaddy } from './caddy.ts';
import { caddyfile } from './caddyfile.ts';
import { keepUploadsIn } from './streamSettings.ts';
import { restoreDatabase, startReplication, syncReplica, type ReplicaTarget, type Replication } from './litestream.ts';

export interface CommunityPlacement {
  /** The community's name in links and routes (`palm-grove`). */
  slug: string;
  communityId: string;
  /** The demo community's key (scripts/seed/communities.ts) to seed, in demo mode. */
  demoKey?: string;
}

export interface InstancePlan {
  /** The instance's name: its folder, and its stream's folder in the bucket. */
  name: string;
  /** The machine it starts on. */
  machine: string;
  /** Its port when it first starts (default: a free one; a restore takes a free one). */
  port?: number;
  communities: CommunityPlacement[];
}

/** The S3-compatible storage of the cluster: the databases' streams and the uploaded files. */
export interface ClusterStorage {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The bucket of the streams (`replicas/<instance>`) and of the files. */
  bucket: string;
}

export interface ClusterOptions {
  /** Everything the cluster writes goes under it. */
  folder: string;
  instances: InstancePlan[];
  storage: ClusterStorage;
  superuser: { email: string; password: string };
  /** The proxy's port (default: a free one). */
  port?: number;
  /** Seed each instance's demo communities and show the demo sign-in. */
  demo?: boolean;
  /** The built app every instance serves (default dist/). */
  publicDir?: string;
  /** More environment for every instance's hooks (the telephony stand-in's). */
  env?: Record<string, string | undefined>;
  /** A push sender beside each instance (npm run start:cluster). */
  pushSenders?: boolean;
}

export interface RunningInstance {
  plan: InstancePlan;
  dataDir: string;
  pocketbase: RunningPocketBase;
  replication: Replication;
  pushSender?: PushSender;
}

export interface RunningCluster {
  /** The one origin of the app and every community. */
  url: string;
  directoryFile: string;
  instances: Map<string, RunningInstance>;
  caddy: RunningCaddy;
  directory: DirectoryService;
  /** The storage's target of an instance's stream. */
  replicaOf: (name: string) => ReplicaTarget;
  /** Kills an instance's server and stream at once, as a lost machine would; `removeData` deletes its folder too. */
  crash: (name: string, options?: { removeData?: boolean }) => Promise<void>;
  /** Stops an instance in order: its server, then its stream once the last commits are sent. */
  stopInstance: (name: string) => Promise<void>;
  /** Brings an instance up from its stream on `machine` (a new folder and port) and points the proxy at it. */
  restore: (name: string, machine: string) => Promise<RunningInstance>;
  /** Reloads the proxy from the directory file as it now reads (a community moved by hand). */
  reloadProxy: () => Promise<void>;
  stop: () => Promise<void>;
}

/** The cluster's directory key, made once and kept in its folder. */
function directoryKey(folder: string): string {
  const file = join(folder, 'directory.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  mkdirSync(options.folder, { recursive: true });
  const port = options.port || (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const key = directoryKey(options.folder);
  const directoryFile = join(options.folder, 'directory.txt');
  const adminAddress = `127.0.0.1:${await freePort()}`;
  const instances = new Map<string, RunningInstance>();
  const stops: Array<() => Promise<void>> = [];

  const replicaOf = (name: string): ReplicaTarget => ({
    endpoint: options.storage.endpoint,
    region: options.storage.region,
    bucket: options.storage.bucket,
    path: `replicas/${name}`,
    accessKeyId: options.storage.accessKeyId,
    secretAccessKey: options.storage.secretAccessKey,
  });
  const dataDirOf = (plan: InstancePlan) => join(options.folder, 'machines', plan.machine, plan.name, 'pb_data');

  const entries = (): DirectoryEntry[] =>
    [...instances.values()].flatMap((instance) =>
      instance.plan.communities.map((community) => ({
        slug: community.slug,
        communityId: community.communityId,
        server: instance.pocketbase.url,
      })),
    );

  async function startInstance(plan: InstancePlan, restored: boolean): Promise<RunningInstance> {
    const dataDir = dataDirOf(plan);
    const first = plan.communities[0];
    const pocketbase = await startPocketBase({
      dataDir,
      port: restored ? undefined : plan.port,
      publicDir: options.publicDir,
      superuser: options.superuser,
      startedWhen: 'listening',
      origins: [origin],
      env: {
        ...options.env,
        // Twilio's callbacks reach this instance through the proxy, by its first community's path.
        SCMS_PUBLIC_URL: first ? `${origin}/c/${first.slug}` : origin,
        SCMS_DIRECTORY_KEY: key,
        SCMS_DEMO: options.demo ? '1' : '0',
        SCMS_DEMO_EMAIL: options.demo ? DEMO_DIRECTOR.email : undefined,
        SCMS_DEMO_PASSWORD: options.demo ? DEMO_DIRECTOR.password : undefined,
      },
    });
    try {
      if (!restored) {
        const admin = new PocketBase(pocketbase.url);
        await admin.collection('_superusers').authWithPassword(options.superuser.email, options.superuser.password);
        // Uploads go to the storage from the start: settings live in the database, so a restore keeps them.
        await keepUploadsIn(admin, replicaOf(plan.name));
        const demoKeys = plan.communities.flatMap((community) => (community.demoKey ? [community.demoKey] : []));
        if (options.demo) {
          const pb = new PocketBase(pocketbase.url);
          pb.autoCancellation(false);
          await pb.collection('_superusers').authWithPassword(options.superuser.email, options.superuser.password);
          await seedDemo(pb, { communityKeys: demoKeys });
        }
      }
      await waitForHealth(pocketbase.url, 'ready');
    } catch (error) {
      await pocketbase.stop();
      throw error;
    }
    const replication = startReplication(dataDir, replicaOf(plan.name));
    const pushSender = options.pushSenders
      ? await startPushSenderBeside(pocketbase.url, options.superuser, dataDir)
      : undefined;
    const instance = { plan, dataDir, pocketbase, replication, pushSender };
    instances.set(plan.name, instance);
    return instance;
  }

  for (const plan of options.instances) await startInstance(plan, false);
  writeFileSync(directoryFile, formatDirectory(entries()));
  const directory = await startDirectoryService({ directoryFile, key, port: await freePort() });
  stops.push(() => directory.stop());
  // The proxy is always configured from the directory file: what a person edits is what it routes by.
  const proxyConfig = () =>
    caddyfile({
      site: origin,
      adminAddress,
      directoryService: new URL(directory.url).host,
      entries: readDirectory(directoryFile),
    });
  const caddy = await startCaddy(join(options.folder, 'caddy'), proxyConfig(), adminAddress);
  stops.push(() => caddy.stop());
  const reloadProxy = () => caddy.reload(proxyConfig());

  /** The directory and the proxy follow the instances (one changed line per moved community). */
  async function repoint(): Promise<void> {
    writeFileSync(directoryFile, formatDirectory(entries()));
    await reloadProxy();
  }

  const stopProcesses = async (instance: RunningInstance) => {
    await instance.pushSender?.stop();
    await instance.pocketbase.stop();
    await instance.replication.stop();
  };

  return {
    url: origin,
    directoryFile,
    instances,
    caddy,
    directory,
    replicaOf,
    crash: async (name, crashOptions = {}) => {
      const instance = instances.get(name);
      if (!instance) throw new Error(`no instance ${name}`);
      // Both at the same instant, as a machine's power going: nothing is flushed.
      instance.pocketbase.process.kill('SIGKILL');
      instance.replication.process.kill('SIGKILL');
      await Promise.all([instance.pocketbase.stop(), instance.replication.stop(), instance.pushSender?.stop()]);
      if (crashOptions.removeData) rmSync(join(instance.dataDir, '..'), { recursive: true, force: true });
    },
    stopInstance: async (name) => {
      const instance = instances.get(name);
      if (!instance) throw new Error(`no instance ${name}`);
      await instance.pushSender?.stop();
      await instance.pocketbase.stop();
      // Every commit sent before the stream stops: a planned stop loses nothing.
      syncReplica(instance.dataDir);
      await instance.replication.stop();
    },
    restore: async (name, machine) => {
      const previous = instances.get(name);
      if (!previous) throw new Error(`no instance ${name}`);
      const plan = { ...previous.plan, machine };
      restoreDatabase(dataDirOf(plan), replicaOf(name));
      const instance = await startInstance(plan, true);
      await repoint();
      return instance;
    },
    reloadProxy,
    stop: async () => {
      for (const instance of instances.values()) await stopProcesses(instance).catch(() => undefined);
      for (const stop of stops) await stop().catch(() => undefined);
    },
  };
}
