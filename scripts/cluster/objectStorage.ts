/**
 * A local S3-compatible server for the tests, the drill and
 * `npm run start:cluster`: moto's server mode, from the Python registry at
 * the versions pinned in scripts/cluster/moto-requirements.txt, installed
 * into a project-local virtual environment (`.tools/moto/`). Nothing here
 * reaches the internet; a production cluster points at real storage
 * instead (docs/deploy.md, "Several servers").
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '../pocketbase/server.ts';
import { keptOutput, stopProcess } from '../tools/childProcess.ts';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const requirementsFile = join(projectRoot, 'scripts', 'cluster', 'moto-requirements.txt');
const venvDir = join(projectRoot, '.tools', 'moto');
/** The requirements' hash the virtual environment was made from: a changed pin makes it again. */
const stampFile = join(venvDir, 'requirements.sha256');

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) throw new Error(`${command} could not be run: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed: ${`${result.stdout}${result.stderr}`.trim().split('\n').slice(-5).join(' ')}`,
    );
}

/** The moto_server executable, installing the pinned moto into `.tools/moto/` when needed. */
export function ensureMoto(): string {
  const bin = join(venvDir, 'bin', 'moto_server');
  const wanted = createHash('sha256').update(readFileSync(requirementsFile)).digest('hex');
  if (existsSync(bin) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === wanted) return bin;
  process.stderr.write('[moto] installing the local S3-compatible server (moto, pip)...\n');
  run('python3', ['-m', 'venv', '--clear', venvDir]);
  run(join(venvDir, 'bin', 'python'), [
    '-m',
    'pip',
    'install',
    '--disable-pip-version-check',
    '-q',
    '--no-deps',
    '-r',
    requirementsFile,
  ]);
  writeFileSync(stampFile, wanted);
  return bin;
}

export interface ObjectStorage {
  /** The endpoint to give S3 clients (`http://127.0.0.1:PORT`). */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Creates a bucket (nothing if it exists). */
  createBucket: (bucket: string) => Promise<void>;
  /** The keys of a bucket under a prefix. */
  listKeys: (bucket: string, prefix?: string) => Promise<string[]>;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/** Starts moto's S3 server on a free loopback port and waits until it answers. */
export async function startObjectStorage(options: { port?: number } = {}): Promise<ObjectStorage> {
  const bin = ensureMoto();
  const port = options.port ?? (await freePort());
  const child = spawn(bin, ['-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = keptOutput(child, 10_000);
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited (${child.exitCode}): ${log()}`);
    const answered = await fetch(`${endpoint}/`, { signal: AbortSignal.timeout(2_000) }).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) throw new Error(`moto_server did not answer within 60 s: ${log()}`);
    await new Promise((wait) => setTimeout(wait, 200));
  }
  // moto takes any credentials; these are what the servers are given.
  const storage: ObjectStorage = {
    endpoint,
    region: 'us-east-1',
    accessKeyId: 'scms-local',
    secretAccessKey: 'scms-local-secret',
    createBucket: async (bucket) => {
      const response = await fetch(`${endpoint}/${bucket}`, { method: 'PUT' });
      if (!response.ok && response.status !== 409) throw new Error(`creating bucket ${bucket}: ${response.status}`);
    },
    listKeys: async (bucket, prefix = '') => {
      const keys: string[] = [];
      let token = '';
      for (;;) {
        const query = new URLSearchParams({ 'list-type': '2', prefix });
        if (token) query.set('continuation-token', token);
        const text = await (await fetch(`${endpoint}/${bucket}?${query}`)).text();
        for (const match of text.matchAll(/<Key>([^<]*)<\/Key>/g)) keys.push(match[1]!);
        token = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(text)?.[1] ?? '';
        if (!token) return keys;
      }
    },
    process: child,
    stop: () => stopProcess(child),
  };
  return storage;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${ensureMoto()}\n`);
}
