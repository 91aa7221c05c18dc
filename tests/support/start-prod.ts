/**
 * `npm run start:prod` as the start-up tests run it: the script itself
 * (tsx scripts/start-prod.ts) in a process group of its own, on a free port
 * and a data folder of the test's, with every setting of the server blank
 * unless the test gives it (this shell's own would leak in otherwise).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../scripts/pocketbase/server.ts';
import { scriptProcess } from './script-process.ts';

/** The environment of a start in `dir` on `port`: the given settings, every other one blank. */
export function prodEnvironment(dir: string, port: number, given: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    SCMS_SKIP_BUILD: '1',
    PORT: String(port),
    SCMS_DATA_DIR: join(dir, 'pb_data'),
    SCMS_DEMO: '',
    HOST: '',
    SCMS_ALLOWED_ORIGINS: '',
    SCMS_PUBLIC_URL: '',
    SCMS_ALLOW_HTTP: '',
    SCMS_SUPERUSER_EMAIL: '',
    SCMS_SUPERUSER_PASSWORD: '',
    SCMS_BACKUP_CRON: '',
    SCMS_BACKUP_KEEP: '',
    SCMS_BACKUP_S3_BUCKET: '',
    SCMS_SERVER_URL: '',
    SCMS_STREAM_S3_BUCKET: '',
    // No telephony account unless given.
    TWILIO_ACCOUNT_SID: '',
    TWILIO_AUTH_TOKEN: '',
    TWILIO_FROM_NUMBER: '',
    TWILIO_API_BASE: '',
    ...given,
  };
}

export interface RunningProd {
  child: ChildProcess;
  /** What it printed so far on stdout. */
  out: () => string;
  /** What it printed so far on stderr. */
  err: () => string;
  /** Ctrl-C to its whole group (npm start stops what it started), SIGKILL after 10 s. */
  stop: () => Promise<void>;
}

/** Starts `npm run start:prod` and resolves once it says it runs ('Press Ctrl-C to stop.'); throws with its output if it exits or takes over 150 s. */
export async function startProd(env: NodeJS.ProcessEnv): Promise<RunningProd> {
  const child = spawn(...scriptProcess('scripts/start-prod.ts'), {
    cwd: projectRoot,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const running: RunningProd = {
    child,
    out: () => out,
    err: () => err,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      process.kill(-child.pid, 'SIGINT');
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone already
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + 150_000;
  while (!out.includes('Press Ctrl-C to stop.')) {
    if (child.exitCode !== null) throw new Error(`start:prod exited (${child.exitCode}):\n${out}\n${err}`);
    if (Date.now() > deadline) {
      await running.stop();
      throw new Error(`start:prod did not start:\n${out}\n${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return running;
}
