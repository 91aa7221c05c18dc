/**
 * The push sender as `npm start` and `npm run start:prod` run it, beside
 * PocketBase (scripts/start.ts), and on its own for a server started some
 * other way:
 *
 *   npx tsx server/push/cli.ts     # SCMS_SERVER_URL, SCMS_DATA_DIR, the superuser as npm start has it
 *
 * The VAPID keys are the data folder's (server/push/vapid.ts), made on the
 * first start, before the first browser asks PocketBase for the public key.
 */
import { pathToFileURL } from 'node:url';
import { dataDir, env } from '../../scripts/config.ts';
import { superuserCredentials } from '../../scripts/services.ts';
import { startPushSender, type PushSender } from './sender.ts';
import PocketBase from 'pocketbase';
import { keepVapidCopyInDatabase, loadOrCreateVapidKeys } from './vapid.ts';

/** Starts the sender for the server at `pocketBaseUrl` with that server's data folder (this machine's by default). */
export async function startPushSenderBeside(
  pocketBaseUrl: string,
  superuser: { email: string; password: string },
  folder = dataDir(),
): Promise<PushSender> {
  const pb = new PocketBase(pocketBaseUrl);
  await pb.collection('_superusers').authWithPassword(superuser.email, superuser.password);
  // The keys, and their copy in the database that a server restored from its stream finds them in.
  await keepVapidCopyInDatabase(pb, folder);
  return startPushSender({ pocketBaseUrl, superuser, vapid: () => loadOrCreateVapidKeys(folder) });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const url = env('SCMS_SERVER_URL') ?? `http://127.0.0.1:${env('PORT') ?? '8090'}`;
  startPushSenderBeside(url, superuserCredentials(dataDir())).then(
    (sender) => {
      process.stdout.write(`Push sender delivering the notifications of ${url}.\n`);
      const stop = () =>
        void sender.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    },
    (error: Error) => {
      process.stderr.write(`The push sender did not start: ${error.message}\n`);
      process.exit(1);
    },
  );
}
