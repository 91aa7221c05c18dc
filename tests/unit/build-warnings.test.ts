/**
 * The production build prints no warning: a warning on every build hides
 * the one that matters (it was Rolldown's 'inlineDynamicImports option is
 * deprecated', from the service worker's bundle format).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { projectRoot } from '../../scripts/pocketbase/server.ts';

test('vite build warns about nothing and emits the service worker', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'scms-build-'));
  try {
    // As `npm run build` runs it: without Vitest's NODE_ENV=test, which would
    // make Vite bundle React's development build.
    const env = { ...process.env };
    delete env.NODE_ENV;
    const build = spawnSync(
      process.execPath,
      [join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', outDir, '--emptyOutDir'],
      { cwd: projectRoot, encoding: 'utf8', env },
    );
    expect(build.status, build.stderr).toBe(0);
    const printed = `${build.stdout}\n${build.stderr}`;
    expect(
      printed.split('\n').filter((line) => /warn|deprecat/i.test(line)),
      printed,
    ).toEqual([]);
    expect(existsSync(join(outDir, 'sw.js'))).toBe(true);
    expect(existsSync(join(outDir, 'index.html'))).toBe(true);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}, 120_000);
