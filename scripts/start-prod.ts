/**
 * `npm run start:prod`: `npm start` for a server others rely on. It refuses
 * to start unless the superuser's password and the public (https) address are
 * set explicitly, never seeds demo data nor offers the demo sign-in, answers
 * CORS for the app's origin only (SCMS_ALLOWED_ORIGINS, default the public
 * URL's), schedules PocketBase's backups, and prints where the data lives.
 * It never starts the telephony stand-in: without a Twilio account calls
 * are off (the call route answers 503 saying what is missing), and with one
 * it insists on the account's token and number.
 */
import { streamTarget } from './cluster/streamSettings.ts';
import { backupSettings, productionProblems } from './production.ts';
import { start } from './start.ts';

const problems = productionProblems(process.env);
for (const check of [backupSettings, streamTarget]) {
  try {
    check(process.env);
  } catch (error) {
    problems.push((error as Error).message);
  }
}
if (problems.length > 0) {
  process.stderr.write(`npm run start:prod refused to start:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  process.stderr.write('See docs/deploy.md.\n');
  process.exit(2);
}
process.env.SCMS_DEMO = '0';
start(true).catch((error: Error) => {
  process.stderr.write(`npm run start:prod failed: ${error.message}\n`);
  process.exit(1);
});
