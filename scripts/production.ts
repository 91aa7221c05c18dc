/**
 * What `npm run start:prod` insists on before it starts (a production server
 * must not come up with a generated superuser password nobody wrote down, or
 * announce a loopback address it cannot be reached at), and the backup
 * schedule it gives PocketBase's own backup facility.
 */
import type PocketBase from 'pocketbase';
import { isLoopbackHost } from './services.ts';

type Env = Record<string, string | undefined>;

function value(environment: Env, name: string): string | undefined {
  const given = environment[name];
  return given === undefined || given === '' ? undefined : given;
}

/** Every reason the environment is not fit for production, each a sentence saying what to set; none when it is. */
export function productionProblems(environment: Env): string[] {
  const problems: string[] = [];
  if (!value(environment, 'SCMS_SUPERUSER_EMAIL')) {
    problems.push('SCMS_SUPERUSER_EMAIL is not set: give the e-mail of the PocketBase superuser (admin UI at /_/).');
  }
  const password = value(environment, 'SCMS_SUPERUSER_PASSWORD');
  if (!password) {
    problems.push('SCMS_SUPERUSER_PASSWORD is not set: give the superuser a password of at least 10 characters.');
  } else if (password.length < 10) {
    problems.push('SCMS_SUPERUSER_PASSWORD is too short: use at least 10 characters.');
  }
  const publicUrl = value(environment, 'SCMS_PUBLIC_URL');
  const allowHttp = value(environment, 'SCMS_ALLOW_HTTP') === '1';
  if (!publicUrl) {
    problems.push('SCMS_PUBLIC_URL is not set: give the https address people open, e.g. https://patrol.example.com.');
  } else if (!URL.canParse(publicUrl) || !/^https?:$/.test(new URL(publicUrl).protocol)) {
    problems.push(`SCMS_PUBLIC_URL '${publicUrl}' is not a web address like https://patrol.example.com.`);
  } else {
    const url = new URL(publicUrl);
    if (url.protocol !== 'https:' && !allowHttp) {
      problems.push(
        `SCMS_PUBLIC_URL '${publicUrl}' is not https: devices sign in over it, so put TLS in front (docs/deploy.md), or set SCMS_ALLOW_HTTP=1 to test on this machine.`,
      );
    } else if (isLoopbackHost(url.hostname) && !allowHttp) {
      problems.push(
        `SCMS_PUBLIC_URL '${publicUrl}' is this machine only: no device reaches it. Set SCMS_ALLOW_HTTP=1 to test on this machine.`,
      );
    }
  }
  // Calls are off without an account (no stand-in in production); with one, every setting it needs.
  if (value(environment, 'TWILIO_ACCOUNT_SID')) {
    const missing = ['TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'].filter((name) => !value(environment, name));
    if (missing.length > 0)
      problems.push(
        `TWILIO_ACCOUNT_SID is set, but not ${missing.join(' and ')}: calls need the account's token and one of its numbers (E.164).`,
      );
  }
  if (value(environment, 'SCMS_DEMO') === '1') {
    problems.push('SCMS_DEMO=1 is demo mode: npm run start:prod never seeds demo data; unset it.');
  }
  return problems;
}

/** PocketBase's backup settings (settings.backups) from the environment: a daily local backup, the last 7 kept, S3 when a bucket is configured. */
export function backupSettings(environment: Env): {
  cron: string;
  cronMaxKeep: number;
  s3: {
    enabled: boolean;
    bucket: string;
    region: string;
    endpoint: string;
    accessKey: string;
    secret: string;
    forcePathStyle: boolean;
  };
} {
  const keep = Number(value(environment, 'SCMS_BACKUP_KEEP') ?? 7);
  if (!Number.isInteger(keep) || keep < 1) throw new Error('SCMS_BACKUP_KEEP must be a whole number of at least 1.');
  const bucket = value(environment, 'SCMS_BACKUP_S3_BUCKET');
  const s3 = {
    enabled: bucket !== undefined,
    bucket: bucket ?? '',
    region: value(environment, 'SCMS_BACKUP_S3_REGION') ?? '',
    endpoint: value(environment, 'SCMS_BACKUP_S3_ENDPOINT') ?? '',
    accessKey: value(environment, 'SCMS_BACKUP_S3_ACCESS_KEY') ?? '',
    secret: value(environment, 'SCMS_BACKUP_S3_SECRET') ?? '',
    forcePathStyle: value(environment, 'SCMS_BACKUP_S3_FORCE_PATH_STYLE') === '1',
  };
  if (s3.enabled) {
    const missing = (['region', 'endpoint', 'accessKey', 'secret'] as const).filter((key) => s3[key] === '');
    if (missing.length > 0) {
      throw new Error(`SCMS_BACKUP_S3_BUCKET is set, but not ${missing.join(', ')} (SCMS_BACKUP_S3_* in the README).`);
    }
  }
  return { cron: value(environment, 'SCMS_BACKUP_CRON') ?? '0 3 * * *', cronMaxKeep: keep, s3 };
}

/** Gives the running server the backup schedule (superuser client). */
export async function applyBackupSettings(pb: PocketBase, environment: Env): Promise<void> {
  await pb.settings.update({ backups: backupSettings(environment) });
}
