/**
 * `npm run cluster -- <command>`: the cluster's parts for production
 * (docs/deploy.md, "Several servers"). Each server itself is
 * `npm run start:prod` with its own environment file.
 *
 *   proxy --directory FILE --site DOMAIN [--directory-service HOST:PORT] [--admin HOST:PORT]
 *       prints the Caddyfile for the directory (scripts/cluster/caddyfile.ts)
 *   directory --directory FILE [--port 8099]
 *       runs the directory service (server/directory/service.ts); SCMS_DIRECTORY_KEY as the servers have it
 *   restore
 *       brings SCMS_DATA_DIR's database back from its stream (SCMS_STREAM_*), before the server starts
 */
import { parseArgs } from 'node:util';
import { readDirectory } from '../../server/directory/directoryFile.ts';
import { startDirectoryService } from '../../server/directory/service.ts';
import { dataDir, env } from '../config.ts';
import { caddyfile } from './caddyfile.ts';
import { restoreDatabase } from './litestream.ts';
import { streamTarget } from './streamSettings.ts';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    directory: { type: 'string' },
    site: { type: 'string' },
    'directory-service': { type: 'string', default: '127.0.0.1:8099' },
    admin: { type: 'string', default: 'localhost:2019' },
    port: { type: 'string', default: '8099' },
  },
});

function required(name: 'directory' | 'site'): string {
  const given = args[name];
  if (!given) throw new Error(`--${name} is required`);
  return given;
}

async function main(): Promise<void> {
  const command = positionals[0];
  if (command === 'proxy') {
    const entries = readDirectory(required('directory'));
    process.stdout.write(
      caddyfile({
        site: required('site'),
        adminAddress: args.admin!,
        directoryService: args['directory-service']!,
        entries,
      }),
    );
  } else if (command === 'directory') {
    const key = env('SCMS_DIRECTORY_KEY') ?? '';
    const service = await startDirectoryService({
      directoryFile: required('directory'),
      key,
      port: Number(args.port),
    });
    process.stdout.write(`Directory service at ${service.url} (${required('directory')}).\n`);
    const stop = () => void service.stop().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  } else if (command === 'restore') {
    const target = streamTarget(process.env);
    if (!target) throw new Error('SCMS_STREAM_S3_BUCKET is not set: there is no stream to restore from.');
    process.stdout.write(restoreDatabase(dataDir(), target));
    process.stdout.write(`Restored ${dataDir()} from ${target.bucket}/${target.path}. Start the server now.\n`);
  } else {
    throw new Error(
      `unknown command '${command ?? ''}': proxy, directory or restore (see the top of scripts/cluster/cli.ts)`,
    );
  }
}

main().catch((error: Error) => {
  process.stderr.write(`npm run cluster failed: ${error.message}\n`);
  process.exit(1);
});
