/**
 * `npm run bench:photos [-- --runs N]`: how long making a photo small on the
 * device takes (src/data/shrinkPhoto.ts, the app's own module built by Vite),
 * and what it leaves, in headless Chromium.
 *
 * The photos are made in the page by Chromium's JPEG encoder from
 * photo-like pixels (gradients, shapes and sensor-like noise,
 * tests/support/jpeg.ts) at a camera's quality: a 12 MP (4000×3000) photo
 * of several MB, and a 48 MP (8000×6000) one as today's phones take. Each
 * run times shrinkPhoto from the File to the prepared JPEG (decode with the
 * orientation applied, draw at most 2000 px, encode, and lower the quality
 * while over 1 MB); one warm-up run first is not counted. Prints a table
 * (p50 / p95 / max per size, bytes before and after) and writes
 * test-results/bench/photos.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { build, type Rollup } from 'vite';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { projectRoot } from '../../scripts/pocketbase/server.ts';
import { photoJpeg } from '../support/jpeg.ts';

const OUTPUT = join(projectRoot, 'test-results', 'bench', 'photos.json');

const { values: options } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
const RUNS = Math.max(3, Number(options.runs));

interface Case {
  name: string;
  width: number;
  height: number;
  runs: number;
}
const CASES: Case[] = [
  { name: '12 MP photo', width: 4000, height: 3000, runs: RUNS },
  { name: '48 MP photo', width: 8000, height: 6000, runs: Math.max(3, Math.round(RUNS / 4)) },
];

interface Measured {
  ms: number[];
  bytes: number;
  width: number;
  height: number;
  type: string;
}

declare global {
  interface Window {
    shrinkBench: typeof import('../../src/data/shrinkPhoto.ts');
    benchPhoto: Blob;
  }
}

/** src/data/shrinkPhoto.ts (and the rules it imports) as one script for the page. */
async function shrinkScript(): Promise<string> {
  const result = (await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      minify: true,
      lib: { entry: join(projectRoot, 'src', 'data', 'shrinkPhoto.ts'), formats: ['iife'], name: 'shrinkBench' },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const output = (Array.isArray(result) ? result[0]! : result).output[0];
  return output.code;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

const ms = (n: number) => (n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(2)} s`);
const size = (bytes: number) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.round(bytes / 1000)} kB`;

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0]!;
  const script = await shrinkScript();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>bench:photos</title>');
    await page.addScriptTag({ content: script });
    const results: Array<{ photo: Case; before: number; prepared: Measured }> = [];
    for (const c of CASES) {
      console.log(`[bench] ${c.name}: making a ${c.width}×${c.height} JPEG…`);
      const before = await photoJpeg(page, {
        width: c.width,
        height: c.height,
        quality: 0.92,
        noise: 32,
        keepAs: 'benchPhoto',
      });
      console.log(`[bench] ${c.name}: ${size(before)}; 1 warm-up + ${c.runs} runs…`);
      const measured = await page.evaluate(async (runs) => {
        const times: number[] = [];
        let last: File | null = null;
        for (let i = 0; i <= runs; i++) {
          const file = new File([window.benchPhoto], 'IMG_0001.jpg', { type: 'image/jpeg' });
          const start = performance.now();
          const prepared = await window.shrinkBench.shrinkPhoto(file);
          const elapsed = performance.now() - start;
          if (!prepared.ok) throw new Error(prepared.message);
          if (i > 0) times.push(elapsed);
          last = prepared.file;
        }
        const bitmap = await createImageBitmap(last!);
        const out = { ms: times, bytes: last!.size, width: bitmap.width, height: bitmap.height, type: last!.type };
        bitmap.close();
        return out;
      }, c.runs);
      results.push({ photo: c, before, prepared: measured });
    }

    const rows = [
      ['photo', 'picked', 'prepared', 'shrink p50', 'p95', 'max', 'runs'],
      ...results.map(({ photo, before, prepared }) => [
        photo.name,
        `${photo.width}×${photo.height}, ${size(before)}`,
        `${prepared.width}×${prepared.height}, ${size(prepared.bytes)} ${prepared.type}`,
        ms(percentile(prepared.ms, 50)),
        ms(percentile(prepared.ms, 95)),
        ms(Math.max(...prepared.ms)),
        String(prepared.ms.length),
      ]),
    ];
    const chromium = browser.version();
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: projectRoot }).toString().trim();
    console.log(`\nMaking photos small on the device (src/data/shrinkPhoto.ts), headless Chromium ${chromium}`);
    console.log(
      `${cpus().length} cores, load average ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}, commit ${commit}\n`,
    );
    console.log(table(rows));
    mkdirSync(dirname(OUTPUT), { recursive: true });
    writeFileSync(
      OUTPUT,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          commit,
          chromium,
          cores: cpus().length,
          load: { before: loadBefore, after: loadavg()[0]! },
          photos: results.map(({ photo, before, prepared }) => ({
            name: photo.name,
            picked: { width: photo.width, height: photo.height, bytes: before },
            prepared: { width: prepared.width, height: prepared.height, bytes: prepared.bytes, type: prepared.type },
            ms: {
              p50: percentile(prepared.ms, 50),
              p95: percentile(prepared.ms, 95),
              max: Math.max(...prepared.ms),
              runs: prepared.ms,
            },
          })),
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nwritten: ${OUTPUT}`);
  } finally {
    await browser.close();
  }
}

await main();
