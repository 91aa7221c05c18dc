/**
 * `npm start`: builds the PWA, applies the migrations, starts the telephony
 * stand-in (unless Twilio is configured; never for npm run start:prod), starts PocketBase serving app and
 * API, seeds the demo data in demo mode, and prints where to go.
 * Ctrl-C stops everything it started.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import PocketBase from 'pocketbase';
import { dataDir } from './config.ts';
import { startPocketBase, projectRoot } from './pocketbase/server.ts';
import { applyBackupSettings } from './production.ts';
import { prepareServices } from './services.ts';
import { startPushSenderBeside } from '../server/push/cli.ts';
import { startReplication } from './cluster/litestream.ts';
import { keepUploadsIn, streamTarget } from './cluster/streamSettings.ts';

function buildApp(): void {
  process.stdout.write('Building the app...\n');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: projectRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

/**
 * Starts everything. `production` (npm run start:prod, which has checked the
 * environment and turned demo mode off): also gives PocketBase the backup
 * schedule, and says where the data and the backups live.
 */
export async function start(production = false): Promise<void> {
  if (process.env.SCMS_SKIP_BUILD !== '1') buildApp();
  const services = await prepareServices({ production });
  const stopAll = async (code: number) => {
    await services.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const pocketbase = await startPocketBase({
    ...services.pocketBaseOptions,
    inheritOutput: false,
    startedWhen: 'listening',
  });
  services.onStop(() => pocketbase.stop());
  // Delivers the hooks' push notifications (server/push/sender.ts); stopped before PocketBase.
  const pushSender = await startPushSenderBeside(pocketbase.url, services.superuser);
  services.onStop(() => pushSender.stop());
  pocketbase.process.once('exit', (code) => {
    process.stderr.write(`PocketBase exited (code ${code}).\n${pocketbase.output().slice(-2000)}\n`);
    void stopAll(1);
  });
  await services.afterStart(pocketbase.url);
  if (production) {
    const pb = new PocketBase(pocketbase.url);
    await pb.collection('_superusers').authWithPassword(services.superuser.email, services.superuser.password);
    await applyBackupSettings(pb, process.env);
    // Several servers (docs/deploy.md): the database streamed off the machine, uploads kept there.
    const stream = streamTarget(process.env);
    if (stream) {
      await keepUploadsIn(pb, stream);
      const replication = startReplication(dataDir(), stream);
      services.onStop(() => replication.stop());
      services.notes.push(
        `Database streamed by Litestream to bucket ${stream.bucket}, ${stream.path}; uploads kept in that bucket.`,
      );
    }
    const settings = await pb.settings.getAll();
    const backups = settings.backups as { cron: string; cronMaxKeep: number; s3: { enabled: boolean; bucket: string } };
    services.notes.push(`App (dist/) and API served at ${pocketbase.url}, public address ${services.publicUrl}.`);
    services.notes.push(`Data folder: ${dataDir()}`);
    services.notes.push(
      `Backups: ${backups.s3.enabled ? `S3 bucket ${backups.s3.bucket}` : join(dataDir(), 'backups')}, on '${backups.cron}', the last ${backups.cronMaxKeep} kept.`,
    );
  }

  process.stdout.write(`\nSCMS is running at ${services.publicUrl}\n`);
  process.stdout.write(`PocketBase admin UI: ${services.publicUrl}/_/ (${services.superuser.email})\n`);
  for (const line of services.notes) process.stdout.write(`${line}\n`);
  process.stdout.write('Press Ctrl-C to stop.\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  start().catch((error: Error) => {
    process.stderr.write(`npm start failed: ${error.message}\n`);
    process.exit(1);
  });
}
