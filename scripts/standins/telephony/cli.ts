/**
 * Runs the telephony stand-in on its own: TWILIO_ACCOUNT_SID and
 * TWILIO_AUTH_TOKEN as the credentials it accepts, TELEPHONY_STANDIN_PORT
 * (8091). `npm start` and `npm run dev` start it themselves
 * (scripts/services.ts); this is for trying the PocketBase side by hand:
 *   npx tsx scripts/standins/telephony/cli.ts
 */
import { startTelephonyStandin } from '../telephony.ts';

const accountSid = process.env.TWILIO_ACCOUNT_SID;
const authToken = process.env.TWILIO_AUTH_TOKEN;
if (!accountSid || !authToken) {
  console.error('telephony stand-in: set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
  process.exit(2);
}
const port = Number(process.env.TELEPHONY_STANDIN_PORT ?? 8091);
const standin = await startTelephonyStandin({ port, accountSid, authToken });
console.log(`telephony stand-in listening on ${standin.url}`);
const shutdown = (): void => {
  void standin.stop().then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
