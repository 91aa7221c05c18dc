/**
 * Seeds the demo data into a running PocketBase:
 *   npx tsx scripts/seed/cli.ts --url http://127.0.0.1:8090 \
 *     --superuser-email admin@scms.local --superuser-password ...
 * Safe to run again: records already there are left alone.
 */
import { parseArgs } from 'node:util';
import PocketBase from 'pocketbase';
import { DEMO_DIRECTOR } from './demo-account.ts';
import { seedDemo } from './seed.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:8090' },
    'superuser-email': { type: 'string' },
    'superuser-password': { type: 'string' },
  },
});

const email = values['superuser-email'] ?? process.env.SCMS_SUPERUSER_EMAIL;
const password = values['superuser-password'] ?? process.env.SCMS_SUPERUSER_PASSWORD;
if (!email || !password) {
  console.error('Usage: tsx scripts/seed/cli.ts --url URL --superuser-email EMAIL --superuser-password PASSWORD');
  process.exit(2);
}

const pb = new PocketBase(values.url);
pb.autoCancellation(false);
try {
  await pb.collection('_superusers').authWithPassword(email, password);
  const summary = await seedDemo(pb);
  for (const [collection, count] of Object.entries(summary.counts)) {
    console.log(
      `${collection.padEnd(12)} created ${String(count.created).padStart(4)}   already present ${String(count.present).padStart(4)}`,
    );
  }
  console.log(
    `Done in ${summary.durationMs} ms: ${summary.createdTotal} created, ${summary.presentTotal} already present.`,
  );
  console.log(`Demo sign-in: ${DEMO_DIRECTOR.email} / ${DEMO_DIRECTOR.password}`);
} catch (error) {
  const detail = (error as { response?: unknown }).response;
  console.error(
    'Seeding failed:',
    error instanceof Error ? error.message : error,
    detail ? JSON.stringify(detail) : '',
  );
  process.exit(1);
}
