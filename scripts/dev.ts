/**
 * `npm run dev`: PocketBase (with the same services as `npm start`) plus the
 * Vite dev server with hot reload, which proxies /api to PocketBase.
 */
import { createServer } from 'vite';
import { env } from './config.ts';
import { startPocketBase } from './pocketbase/server.ts';
import { prepareServices } from './services.ts';

async function main(): Promise<void> {
  const services = await prepareServices();
  const pocketbase = await startPocketBase({
    ...services.pocketBaseOptions,
    watchHooks: true,
    startedWhen: 'listening',
  });
  services.onStop(() => pocketbase.stop());
  await services.afterStart(pocketbase.url);

  // vite.config.ts reads SCMS_API_URL for its /api proxy.
  process.env.SCMS_API_URL = pocketbase.url;
  const vite = await createServer({ server: { port: Number(env('VITE_PORT') ?? 5173) } });
  await vite.listen();
  services.onStop(() => vite.close());

  const stop = async () => {
    await services.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  vite.printUrls();
  process.stdout.write(`API (PocketBase): ${pocketbase.url}\n`);
  for (const line of services.notes) process.stdout.write(`${line}\n`);
}

main().catch((error: Error & { url?: string; status?: number }) => {
  // A request the start made (the demo seed) says which one failed: the SDK's own message does not.
  const request = error.url ? ` (${error.status ?? ''} ${error.url})` : '';
  process.stderr.write(`npm run dev failed: ${error.message}${request}\n`);
  process.exit(1);
});
