/**
 * `npm run start:cluster`: the demo as a cluster on this machine. Two
 * PocketBase servers, each with one demo community (Palm Grove Estates on
 * the first, Harbor Pointe on the second), each database streamed by
 * Litestream to a local S3-compatible server (moto) that also holds the
 * uploads, behind one Caddy routing by community, with the directory
 * service the sign-in asks. The app is at one address; an officer's link
 * names the community (`/?c=palm-grove`), or the e-mail alone finds it.
 *
 * The local storage is in memory: it lives as long as this command. A
 * production cluster points at real storage and runs each part as a
 * service (docs/deploy.md, "Several servers").
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { env } from '../config.ts';
import { projectRoot } from '../pocketbase/server.ts';
import { DEMO_COMMUNITY_IDS } from '../seed/demo-data.ts';
import { DEMO_DIRECTOR, DEMO_SECOND_DIRECTOR } from '../seed/demo-account.ts';
import { superuserCredentials } from '../services.ts';
import { startTelephonyStandin } from '../standins/telephony.ts';
import { startCluster, type InstancePlan } from './cluster.ts';
import { startObjectStorage } from './objectStorage.ts';

/** The demo cluster: one community per server. */
export const DEMO_INSTANCES: InstancePlan[] = [
  {
    name: 'one',
    machine: 'a',
    port: 8101,
    communities: [{ slug: 'palm-grove', communityId: DEMO_COMMUNITY_IDS.primary, demoKey: 'pge' }],
  },
  {
    name: 'two',
    machine: 'b',
    port: 8102,
    communities: [{ slug: 'harbor-pointe', communityId: DEMO_COMMUNITY_IDS.second, demoKey: 'hpt' }],
  },
];

async function main(): Promise<void> {
  if (env('SCMS_SKIP_BUILD') !== '1') {
    process.stdout.write('Building the app...\n');
    const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: projectRoot, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the build failed');
  }
  const folder = join(projectRoot, '.data', 'cluster');
  const storage = await startObjectStorage();
  const bucket = 'scms-cluster';
  await storage.createBucket(bucket);
  const accountSid = `AC${'5c45'.repeat(8)}`;
  const authToken = randomBytes(16).toString('hex');
  const telephony = await startTelephonyStandin({ port: 0, accountSid, authToken });
  const cluster = await startCluster({
    folder,
    instances: DEMO_INSTANCES,
    storage: { ...storage, bucket },
    superuser: superuserCredentials(join(folder, 'pb_data')),
    port: Number(env('PORT') ?? 8090),
    demo: true,
    pushSenders: true,
    env: {
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_API_BASE: telephony.url,
      TWILIO_FROM_NUMBER: '+15005550006',
    },
  });
  // Moving a community by hand: change its server in the directory; the proxy follows.
  watchFile(cluster.directoryFile, { interval: 1_000 }, () => {
    cluster.reloadProxy().then(
      () => process.stdout.write(`The proxy now routes by ${cluster.directoryFile} as changed.\n`),
      (error: Error) => process.stderr.write(`The directory was not taken: ${error.message}\n`),
    );
  });
  const stop = async (code: number) => {
    unwatchFile(cluster.directoryFile);
    await cluster.stop();
    await telephony.stop();
    await storage.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  const lines = [
    '',
    `SCMS cluster running at ${cluster.url} (Caddy), two servers:`,
    ...[...cluster.instances.values()].map(
      (instance) =>
        `  ${instance.plan.name}: ${instance.pocketbase.url}, ${instance.plan.communities.map((c) => `${cluster.url}/?c=${c.slug}`).join(', ')}`,
    ),
    `Directory: ${cluster.directoryFile} (move a community: change its server there; the proxy follows)`,
    `Databases streamed by Litestream, uploads stored, in the local S3-compatible server at ${storage.endpoint} (bucket ${bucket}, in memory).`,
    `Demo sign-ins: ${DEMO_DIRECTOR.email} / ${DEMO_DIRECTOR.password} (Palm Grove Estates), ${DEMO_SECOND_DIRECTOR.email} / ${DEMO_SECOND_DIRECTOR.password} (Harbor Pointe).`,
    `Calls go to the local telephony stand-in at ${telephony.url} (no real phone rings).`,
    'Press Ctrl-C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: Error) => {
    process.stderr.write(`npm run start:cluster failed: ${error.message}\n`);
    process.exit(1);
  });
}
