/**
 * The bundle budget (scripts/bundle-budget.ts, a plugin of vite.config.ts):
 * a real production build prints both sizes within the budget, the login
 * page loads none of the signed-in screens' libraries, and the plugin fails
 * a build whose route is one byte over its budget. The same build also
 * prints no warning (a warning on every build hides the one that matters:
 * it was Rolldown's 'inlineDynamicImports option is deprecated', from the
 * service worker's bundle format) and emits the service worker. One build
 * for all of them: each costs seconds of CPU, and the suite runs on two cores.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Manifest, Plugin } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  BUNDLE_BUDGET,
  bundleBudget,
  measureRoutes,
  overBudget,
  routeFiles,
  type Budget,
} from '../../scripts/bundle-budget.ts';
import { projectRoot } from '../../scripts/pocketbase/server.ts';

let outDir = '';
let printed = '';

beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), 'scms-budget-'));
  // As `npm run build` runs it: without Vitest's NODE_ENV=test (React's development build).
  const env = { ...process.env };
  delete env.NODE_ENV;
  const build = spawnSync(
    process.execPath,
    [join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', outDir, '--emptyOutDir'],
    { cwd: projectRoot, encoding: 'utf8', env },
  );
  printed = `${build.stdout}\n${build.stderr}`;
  if (build.status !== 0) throw new Error(`vite build failed:\n${printed}`);
}, 240_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Runs the plugin's hooks as Vite does after writing the bundle in outDir. */
function runPlugin(budget: Budget): string[] {
  const plugin: Plugin = bundleBudget(budget);
  const lines: string[] = [];
  (plugin.configResolved as (config: unknown) => void)({
    root: projectRoot,
    build: { outDir },
    logger: { info: (line: string) => lines.push(line) },
  });
  const context = {
    error: (message: string) => {
      throw new Error(message);
    },
  };
  (plugin.writeBundle as (this: typeof context) => void).call(context);
  return lines;
}

test('vite build warns about nothing and emits the service worker', () => {
  expect(
    printed.split('\n').filter((line) => /warn|deprecat/i.test(line)),
    printed,
  ).toEqual([]);
  expect(existsSync(join(outDir, 'sw.js'))).toBe(true);
  expect(existsSync(join(outDir, 'index.html'))).toBe(true);
});

test('a route loads its chunks and their static imports, not their dynamic imports', () => {
  const manifest: Manifest = {
    'index.html': {
      file: 'assets/index.js',
      isEntry: true,
      imports: ['_shared.js'],
      dynamicImports: ['src/Lazy.tsx'],
      css: ['assets/index.css'],
    },
    '_shared.js': { file: 'assets/shared.js', imports: ['_deeper.js'] },
    '_deeper.js': { file: 'assets/deeper.js', imports: ['_shared.js'] },
    'src/Lazy.tsx': { file: 'assets/Lazy.js', isDynamicEntry: true, imports: ['_shared.js', '_only-lazy.js'] },
    '_only-lazy.js': { file: 'assets/only-lazy.js' },
    '_style.css': { file: 'assets/style.css' },
  };
  expect(routeFiles(manifest, ['index.html'])).toEqual(['assets/deeper.js', 'assets/index.js', 'assets/shared.js']);
  expect(routeFiles(manifest, ['index.html', 'src/Lazy.tsx'])).toEqual([
    'assets/Lazy.js',
    'assets/deeper.js',
    'assets/index.js',
    'assets/only-lazy.js',
    'assets/shared.js',
  ]);
  expect(() => routeFiles(manifest, ['src/Renamed.tsx'])).toThrow(/no chunk for src\/Renamed\.tsx/);
});

test('the production build prints both sizes and fits the budget', () => {
  expect(printed).toMatch(/Login page JS: [\d.]+ kB gzip in \d+ file\(s\), budget 150\.0 kB/);
  expect(printed).toMatch(/Homes screen JS: [\d.]+ kB gzip in \d+ file\(s\), budget 250\.0 kB/);
  const sizes = measureRoutes(outDir);
  expect(overBudget(sizes)).toEqual([]);
  const [login, homes] = sizes;
  // Homes loads everything the login page does, and more.
  expect(homes!.files).toEqual(expect.arrayContaining(login!.files));
  expect(homes!.gzipBytes).toBeGreaterThan(login!.gzipBytes);
});

test('the login page loads none of the libraries only signed-in screens need', () => {
  const login = measureRoutes(outDir).find((s) => s.route === 'login')!;
  // The bundler's own runtime chunk has no source map (it has no source of ours).
  const sources = login.files
    .filter((file) => !/\/rolldown-runtime-[\w-]+\.js$/.test(file))
    .flatMap(
      (file) => (JSON.parse(readFileSync(join(outDir, `${file}.map`), 'utf8')) as { sources: string[] }).sources,
    );
  expect(sources.some((s) => s.includes('node_modules/react-dom/'))).toBe(true);
  // Of the data layer only the session (who is signed in, signing in, the
  // reset options), which the login page needs itself and which loads no
  // mirror: every other module of src/data/ is for signed-in screens.
  const signedInOnly = [
    'libphonenumber-js',
    'react-phone-number-input',
    'react-day-picker',
    'dexie',
    '@headlessui/react',
    'src/data/',
  ];
  const loaded = (name: string) => sources.some((s) => s.includes(name) && !s.endsWith('src/data/auth.ts'));
  expect(signedInOnly.filter(loaded)).toEqual([]);
  expect(sources.filter((s) => s.includes('src/data/')).map((s) => s.slice(s.indexOf('src/data/')))).toEqual([
    'src/data/auth.ts',
  ]);
});

test('the plugin fails the build one byte past a budget and passes at the budget', () => {
  const [login, homes] = measureRoutes(outDir);
  expect(runPlugin(BUNDLE_BUDGET)).toHaveLength(2);
  expect(() => runPlugin({ ...BUNDLE_BUDGET, login: login!.gzipBytes - 1 })).toThrow(
    /bundle budget exceeded.*Login page loads/,
  );
  expect(() => runPlugin({ ...BUNDLE_BUDGET, homes: homes!.gzipBytes - 1 })).toThrow(
    /bundle budget exceeded.*Homes screen loads/,
  );
  expect(runPlugin({ login: login!.gzipBytes, homes: homes!.gzipBytes })).toHaveLength(2);
});
