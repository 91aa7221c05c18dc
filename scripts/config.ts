/**
 * Every environment variable the project reads, with its default, in one
 * place. The README's configuration table lists the same names (a unit test
 * checks that none is missing there).
 */
import { resolve } from 'node:path';
import { projectRoot } from './pocketbase/server.ts';

export interface ConfigEntry {
  name: string;
  default: string;
  description: string;
}

export const CONFIG: ConfigEntry[] = [
  { name: 'PORT', default: '8090', description: 'Port of the app and API.' },
  {
    name: 'HOST',
    default: '127.0.0.1',
    description: 'Address the server listens on (0.0.0.0 to reach it from phones on the LAN).',
  },
  {
    name: 'SCMS_DATA_DIR',
    default: '.data/pb_data',
    description: 'PocketBase data folder (database, uploaded files).',
  },
  {
    name: 'SCMS_DEMO',
    default: '1',
    description:
      'Demo mode: seeds the demo communities and shows the demo sign-in on the login page. 0 turns it off (production).',
  },
  {
    name: 'SCMS_ALLOWED_ORIGINS',
    default: 'the origin of SCMS_PUBLIC_URL',
    description:
      'Comma-separated origins (https://patrol.example.com) whose pages may call the API from another origin (CORS); the app itself, served by the same server, needs none. Any other origin gets no Access-Control-Allow-Origin.',
  },
  {
    name: 'SCMS_PUBLIC_URL',
    default: 'http://HOST:PORT',
    description:
      'Public base URL of the server; the telephony provider posts call status callbacks to it. With real Twilio it must be an address Twilio can reach, or npm start and every call are refused.',
  },
  {
    name: 'SCMS_PUSH_HOSTS',
    default: 'the public push services',
    description:
      'Comma-separated push-service hosts (host, *.domain or host:port) a browser may register a subscription with and the server sends to; https only unless a port is named. Default: the push services of Chrome, Firefox, Safari and Edge.',
  },
  {
    name: 'SCMS_PUSH_SUBJECT',
    default: 'mailto: the superuser e-mail',
    description: 'Contact the push services see with every notification (VAPID subject: a mailto: or https: address).',
  },
  {
    name: 'SCMS_SUPERUSER_EMAIL',
    default: 'admin@scms.local',
    description: 'PocketBase superuser (admin UI at /_/) created or updated at start.',
  },
  {
    name: 'SCMS_SUPERUSER_PASSWORD',
    default: 'generated, kept in SCMS_DATA_DIR/../superuser.json',
    description: 'Its password.',
  },
  {
    name: 'SCMS_ALLOW_HTTP',
    default: '0',
    description:
      '1: npm run start:prod accepts an http or loopback SCMS_PUBLIC_URL (testing on this machine only; devices need https).',
  },
  {
    name: 'SCMS_TEMPORARY_PASSWORD_HOURS',
    default: '72',
    description:
      "How long a temporary password (a new user's, or a director's reset) works before a director must reset it again (1 to 720).",
  },
  {
    name: 'SCMS_BACKUP_CRON',
    default: '0 3 * * *',
    description: 'npm run start:prod: when PocketBase backs up the data folder (cron, server time).',
  },
  { name: 'SCMS_BACKUP_KEEP', default: '7', description: 'How many scheduled backups are kept (the oldest go).' },
  {
    name: 'SCMS_BACKUP_S3_BUCKET',
    default: 'unset',
    description: 'S3-compatible bucket for the backups. Unset: SCMS_DATA_DIR/backups.',
  },
  { name: 'SCMS_BACKUP_S3_REGION', default: 'unset', description: 'Its region.' },
  { name: 'SCMS_BACKUP_S3_ENDPOINT', default: 'unset', description: 'Its endpoint URL.' },
  { name: 'SCMS_BACKUP_S3_ACCESS_KEY', default: 'unset', description: 'Its access key.' },
  { name: 'SCMS_BACKUP_S3_SECRET', default: 'unset', description: 'Its secret.' },
  {
    name: 'SCMS_BACKUP_S3_FORCE_PATH_STYLE',
    default: '0',
    description: '1: path-style bucket addresses (MinIO and other self-hosted storage).',
  },
  {
    name: 'SCMS_SERVER_URL',
    default: 'http://127.0.0.1:PORT',
    description: 'The running server npm run backup and npm run restore talk to.',
  },
  {
    name: 'TWILIO_ACCOUNT_SID',
    default: 'local stand-in',
    description: 'Twilio account SID. Unset: a local Twilio-compatible stand-in places pretend calls.',
  },
  {
    name: 'TWILIO_AUTH_TOKEN',
    default: 'local stand-in',
    description: "Twilio auth token (also checks the status callbacks' signatures).",
  },
  { name: 'TWILIO_FROM_NUMBER', default: '+15005550006', description: 'Caller number in E.164.' },
  {
    name: 'TWILIO_API_BASE',
    default: 'https://api.twilio.com (the stand-in when no SID is set)',
    description: 'Base URL of the Twilio REST API.',
  },
  { name: 'TELEPHONY_STANDIN_PORT', default: '8091', description: 'Port of the local telephony stand-in.' },
  {
    name: 'AI_BASE_URL',
    default: 'unset',
    description:
      'OpenAI-compatible API base, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama). Unset: the built-in offline editor.',
  },
  { name: 'AI_API_KEY', default: 'unset', description: 'Bearer key for the AI API (not needed for a local server).' },
  { name: 'AI_MODEL', default: 'unset', description: 'Model name, e.g. gpt-4o-mini or llama3.1.' },
  {
    name: 'SMTP_HOST',
    default: 'unset',
    description:
      "Mail server for password-reset e-mails ('Forgot password?'). Unset: no mail; the login page tells people to ask their director, who resets the password.",
  },
  { name: 'SMTP_PORT', default: '587', description: 'Its port.' },
  { name: 'SMTP_USERNAME', default: 'unset', description: 'Its user name (none: no authentication).' },
  { name: 'SMTP_PASSWORD', default: 'unset', description: 'Its password.' },
  {
    name: 'SMTP_TLS',
    default: '0',
    description: '1: TLS from the first byte (port 465); otherwise STARTTLS when the server offers it.',
  },
  { name: 'SMTP_SENDER', default: 'no-reply@SMTP_HOST', description: 'From address of the e-mails.' },
  {
    name: 'POCKETBASE_BIN',
    default: 'unset',
    description: 'Use this PocketBase binary instead of the project-local pinned one.',
  },
  { name: 'VITE_PORT', default: '5173', description: 'Port of the Vite dev server (npm run dev).' },
  {
    name: 'CHROMIUM_PATH',
    default: '/usr/bin/chromium',
    description: 'Chromium for the browser tests and benchmarks.',
  },
  {
    name: 'SCMS_STREAM_S3_BUCKET',
    default: 'unset',
    description:
      '`npm run start:prod`: stream the database with Litestream to this S3-compatible bucket (within a second of each commit) and keep uploads there; `npm run cluster -- restore` restores from it. Unset: no stream.',
  },
  { name: 'SCMS_STREAM_S3_REGION', default: 'unset', description: "The stream's region." },
  {
    name: 'SCMS_STREAM_S3_ENDPOINT',
    default: "Amazon S3's",
    description: "The stream's endpoint URL (other S3-compatible storage).",
  },
  { name: 'SCMS_STREAM_S3_ACCESS_KEY', default: 'unset', description: "The stream's access key." },
  { name: 'SCMS_STREAM_S3_SECRET', default: 'unset', description: "The stream's secret." },
  {
    name: 'SCMS_STREAM_PATH',
    default: 'unset',
    description: "This server's folder in the bucket (`servers/palm-grove`); one per server.",
  },
  {
    name: 'SCMS_DIRECTORY_KEY',
    default: 'unset',
    description:
      "Several servers behind one proxy: the key (32 characters or more) the directory service asks each server's account lookup with; the cluster scripts set it. Unset: the lookup does not exist.",
  },
  {
    name: 'LITESTREAM_BIN',
    default: 'unset',
    description: 'Use this Litestream binary instead of the project-local pinned one (the cluster scripts).',
  },
  {
    name: 'CADDY_BIN',
    default: '/usr/bin/caddy',
    description: "The cluster's proxy (npm run start:cluster, the drill).",
  },
];

export function env(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

export function dataDir(): string {
  return resolve(projectRoot, env('SCMS_DATA_DIR') ?? '.data/pb_data');
}
