/** `npm run restore -- FILE`: the running server restores that backup zip and restarts (see scripts/backups.ts). */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { localServer, restoreBackup, superuserClient } from './backups.ts';

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file || !existsSync(file))
    throw new Error(`give the backup zip to restore: npm run restore -- FILE (got '${file ?? ''}')`);
  const server = localServer();
  const pb = await superuserClient(server.url, server.superuser);
  const name = await restoreBackup(pb, file, server.superuser);
  // Another zip of the same name was already on the server: this one was uploaded beside it.
  const as =
    name === basename(file) ? '' : ` (uploaded as ${name}: the server holds another backup named ${basename(file)})`;
  process.stdout.write(`Restored ${basename(file)}${as}; the server is ready again at ${server.url}.\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`npm run restore failed: ${error.message}\n`);
  process.exit(1);
});
