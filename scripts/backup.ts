/** `npm run backup`: a backup of the running server now (see scripts/backups.ts). */
import { createBackup, localServer, superuserClient } from './backups.ts';

async function main(): Promise<void> {
  const server = localServer();
  const pb = await superuserClient(server.url, server.superuser);
  const name = await createBackup(pb);
  process.stdout.write(`Backup ${name} written to ${server.backupsDir} (or the S3 bucket when one is configured).\n`);
}

main().catch((error: Error) => {
  process.stderr.write(
    `npm run backup failed: ${error.message}\nIs the server running (npm start or npm run start:prod)?\n`,
  );
  process.exit(1);
});
