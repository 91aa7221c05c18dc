/**
 * What `npm start` and `npm run dev` both need around PocketBase: the
 * configuration from the environment, the superuser, the telephony stand-in
 * when no Twilio account is configured, the environment for the hooks, and
 * the demo seed after the server is up.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import PocketBase from 'pocketbase';
import { dataDir, env } from './config.ts';
import { waitForHealth, type PocketBaseOptions } from './pocketbase/server.ts';
import { DEMO_DIRECTOR } from './seed/demo-account.ts';
import { seedDemo } from './seed/seed.ts';
import { startTelephonyStandin } from './standins/telephony.ts';
import { telephonyAddressProblem } from '../pocketbase/hook-src/telephonyAddress.ts';
import { temporaryPasswordHours } from '../src/domain/temporaryPassword.ts';

export interface Services {
  publicUrl: string;
  superuser: { email: string; password: string };
  pocketBaseOptions: PocketBaseOptions;
  /** Lines to print once everything runs. */
  notes: string[];
  /** Seeds the demo data (demo mode), then waits until /api/health says ready. Start PocketBase with startedWhen 'listening' before it. */
  afterStart: (serverUrl: string) => Promise<void>;
  onStop: (stop: () => Promise<void>) => void;
  stop: () => Promise<void>;
}

/** Loopback addresses: only this machine reaches a server listening there. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Demo mode hands the demo director's sign-in to whoever opens the login page
 * (or /api/scms/demo): fine on this machine, not on an address others reach.
 * The lines to print, or none when demo mode is off or the address is loopback.
 */
export function demoExposureWarning(demo: boolean, host: string, port: number): string[] {
  if (!demo || isLoopbackHost(host)) return [];
  const rule = '!'.repeat(78);
  return [
    rule,
    `WARNING: demo mode is on and the server listens on ${host}:${port}, an address other machines can reach.`,
    "Anyone who can open it is shown the demo director's e-mail and password on the login page",
    '(and at /api/scms/demo), and can read and change every record of the demo communities.',
    'Production: start with SCMS_DEMO=0 (no demo data, no demo sign-in). A demo for this machine only: HOST=127.0.0.1.',
    rule,
  ];
}

/**
 * The origins allowed to call the API from another origin (CORS): the
 * comma-separated SCMS_ALLOWED_ORIGINS, else the app's own (SCMS_PUBLIC_URL's)
 * origin. Each must be a bare origin (scheme, host, port), as browsers send it.
 */
export function allowedOrigins(configured: string | undefined, publicUrl: string): string[] {
  if (!configured) return [new URL(publicUrl).origin];
  return configured
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '')
    .map((value) => {
      const url = URL.canParse(value) ? new URL(value) : null;
      if (!url || !/^https?:$/.test(url.protocol) || url.origin !== value.replace(/\/$/, '')) {
        throw new Error(`SCMS_ALLOWED_ORIGINS: '${value}' is not an origin like https://patrol.example.com`);
      }
      return url.origin;
    });
}

/** The superuser's password is generated once and kept beside the data folder. */
export function superuserCredentials(folder: string): { email: string; password: string } {
  const email = env('SCMS_SUPERUSER_EMAIL') ?? 'admin@scms.local';
  const given = env('SCMS_SUPERUSER_PASSWORD');
  if (given) return { email, password: given };
  const file = join(dirname(folder), 'superuser.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { email: string; password: string };
    if (saved.email === email) return saved;
  }
  const created = { email, password: randomBytes(12).toString('base64url') };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(created, null, 2), { mode: 0o600 });
  return created;
}

/** `production` (npm run start:prod): no telephony stand-in; calls wait for a Twilio account. */
export async function prepareServices(options: { port?: number; production?: boolean } = {}): Promise<Services> {
  const port = options.port ?? Number(env('PORT') ?? 8090);
  const host = env('HOST') ?? '127.0.0.1';
  const folder = dataDir();
  const publicUrl = (env('SCMS_PUBLIC_URL') ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(
    /\/$/,
    '',
  );
  const demo = env('SCMS_DEMO') !== '0';
  const superuser = superuserCredentials(folder);
  const stops: Array<() => Promise<void>> = [];
  const notes: string[] = [];
  const origins = allowedOrigins(env('SCMS_ALLOWED_ORIGINS'), publicUrl);
  const exposed = demoExposureWarning(demo, host, port);
  // Loud at once, and again beside the URL once everything runs (the last thing read).
  if (exposed.length > 0) process.stderr.write(`${exposed.join('\n')}\n`);

  const passwordHours = temporaryPasswordHours(env('SCMS_TEMPORARY_PASSWORD_HOURS'));
  notes.push(`Temporary passwords work for ${passwordHours} hours (SCMS_TEMPORARY_PASSWORD_HOURS).`);

  const hookEnv: Record<string, string | undefined> = {
    SCMS_PUBLIC_URL: publicUrl,
    SCMS_TEMPORARY_PASSWORD_HOURS: String(passwordHours),
    SCMS_DEMO: demo ? '1' : '0',
    SCMS_DEMO_EMAIL: demo ? DEMO_DIRECTOR.email : undefined,
    SCMS_DEMO_PASSWORD: demo ? DEMO_DIRECTOR.password : undefined,
  };

  if (env('TWILIO_ACCOUNT_SID')) {
    // Real Twilio posts the call status callbacks to SCMS_PUBLIC_URL from the
    // internet: the default loopback address would lose every one of them.
    const problem = telephonyAddressProblem(env('TWILIO_API_BASE') ?? '', publicUrl);
    if (problem !== '') throw new Error(problem);
    notes.push(`Calls go through the Twilio API at ${env('TWILIO_API_BASE') ?? 'https://api.twilio.com'}.`);
  } else if (options.production) {
    // A production server never places make-believe calls that staff would
    // take for real ones: without an account, calling a resident answers 503
    // 'Calling residents is not set up on this server (missing TWILIO_...)'.
    notes.push(
      'Calls are off: no TWILIO_ACCOUNT_SID, so calling a resident answers that it is not set up (docs/deploy.md, Calls).',
    );
  } else {
    // No account configured: a local stand-in speaking Twilio's protocol
    // answers, and posts signed status callbacks like Twilio would.
    const accountSid = `AC${'5c45'.repeat(8)}`;
    const authToken = randomBytes(16).toString('hex');
    const standin = await startTelephonyStandin({
      port: Number(env('TELEPHONY_STANDIN_PORT') ?? 8091),
      accountSid,
      authToken,
    });
    stops.push(() => standin.stop());
    Object.assign(hookEnv, {
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_API_BASE: standin.url,
    });
    notes.push(`Calls go to the local telephony stand-in at ${standin.url} (no real phone rings).`);
  }
  // Twilio's test number suits the stand-in only; start:prod insists on a real one with an account.
  hookEnv.TWILIO_FROM_NUMBER = env('TWILIO_FROM_NUMBER') ?? (options.production ? undefined : '+15005550006');
  // The hooks read SMTP_* themselves (pb_hooks/lib/passwords.js) from the environment PocketBase inherits.
  notes.push(
    env('SMTP_HOST')
      ? `Password-reset e-mails go through ${env('SMTP_HOST')}:${env('SMTP_PORT') ?? '587'}.`
      : 'No mail server (SMTP_HOST): forgotten passwords are reset by a director.',
  );
  notes.push(
    env('AI_BASE_URL') && env('AI_MODEL')
      ? `AI assist uses ${env('AI_MODEL')} at ${env('AI_BASE_URL')}.`
      : 'AI assist uses the built-in offline editor (set AI_BASE_URL and AI_MODEL for a model).',
  );

  const services: Services = {
    publicUrl,
    superuser,
    pocketBaseOptions: { dataDir: folder, port, host, superuser, env: hookEnv, origins },
    notes,
    afterStart: async (serverUrl) => {
      if (demo) {
        const pb = new PocketBase(serverUrl);
        pb.autoCancellation(false);
        await pb.collection('_superusers').authWithPassword(superuser.email, superuser.password);
        const summary = await seedDemo(pb);
        notes.unshift(
          `Demo data: ${summary.createdTotal === 0 ? 'already in place' : `${summary.createdTotal} records created`}.`,
        );
        notes.unshift(`Demo sign-in: ${DEMO_DIRECTOR.email} / ${DEMO_DIRECTOR.password}`);
      }
      notes.push(`Other sites' pages may call the API from: ${origins.join(', ')} (SCMS_ALLOWED_ORIGINS).`);
      notes.push(...exposed);
      // Only a server that says ready (migrations applied, demo seed in) is announced.
      await waitForHealth(serverUrl, 'ready');
    },
    onStop: (stop) => stops.unshift(stop),
    stop: async () => {
      for (const stop of stops) await stop().catch(() => undefined);
    },
  };
  return services;
}
