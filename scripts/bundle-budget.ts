/**
 * The bundle budget (README.md, Performance), checked on every production build (a Vite
 * plugin in vite.config.ts): the JavaScript the login page loads, and
 * everything loaded by the time the Homes screen shows, gzipped. Past the
 * budget the build fails, so a heavy import into the first load is caught
 * by `npm run build` and `npm test`, not by an officer's phone.
 *
 * What a route loads comes from Vite's manifest (`build.manifest`): the
 * chunks of the route's modules and, transitively, their static imports
 * (what index.html's modulepreload links and Vite's preload helper fetch
 * with them). Dynamic imports are not followed: they load later, on use.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Manifest, Plugin } from 'vite';

export type RouteName = 'login' | 'homes';

/** Bytes of gzipped JavaScript (kB = 1,000 bytes, as Vite prints sizes). */
export type Budget = Record<RouteName, number>;

export const BUNDLE_BUDGET: Budget = { login: 150_000, homes: 250_000 };

/**
 * The manifest keys (source paths) each route needs before it shows: the
 * entry for the login page; for Homes also the protected layout and the
 * screen, which App.tsx lazy-loads.
 */
export const ROUTE_MODULES: Record<RouteName, readonly string[]> = {
  login: ['index.html'],
  homes: ['index.html', 'src/app/signedIn.ts', 'src/features/homes/HomesPage.tsx'],
};

const LABELS: Record<RouteName, string> = { login: 'Login page', homes: 'Homes screen' };

export interface RouteSize {
  route: RouteName;
  /** The JavaScript files, relative to the output folder. */
  files: string[];
  gzipBytes: number;
  budgetBytes: number;
}

/** The JavaScript files the given modules load up front: their chunks and every chunk those import statically. */
export function routeFiles(manifest: Manifest, modules: readonly string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk)
      throw new Error(
        `the build's manifest has no chunk for ${key} (renamed? update ROUTE_MODULES in scripts/bundle-budget.ts)`,
      );
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of modules) visit(key);
  return [...files].sort();
}

export function readManifest(outDir: string): Manifest {
  return JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** Gzip at zlib's default level, what a server sends. */
export function gzipSize(path: string): number {
  return gzipSync(readFileSync(path)).length;
}

export function measureRoutes(outDir: string, budget: Budget = BUNDLE_BUDGET): RouteSize[] {
  const manifest = readManifest(outDir);
  return (Object.keys(ROUTE_MODULES) as RouteName[]).map((route) => {
    const files = routeFiles(manifest, ROUTE_MODULES[route]);
    return {
      route,
      files,
      gzipBytes: files.reduce((sum, file) => sum + gzipSize(join(outDir, file)), 0),
      budgetBytes: budget[route],
    };
  });
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export function describeSize(size: RouteSize): string {
  return `${LABELS[size.route]} JS: ${kB(size.gzipBytes)} gzip in ${size.files.length} file(s), budget ${kB(size.budgetBytes)}`;
}

/** The routes past their budget, as messages naming the files to look at; empty when all fit. */
export function overBudget(sizes: readonly RouteSize[]): string[] {
  return sizes
    .filter((s) => s.gzipBytes > s.budgetBytes)
    .map(
      (s) =>
        `${LABELS[s.route]} loads ${kB(s.gzipBytes)} of gzipped JS, over its ${kB(s.budgetBytes)} budget: ${s.files.join(', ')}`,
    );
}

/** The Vite plugin: prints both sizes after the bundle is written and fails the build past the budget. */
export function bundleBudget(budget: Budget = BUNDLE_BUDGET): Plugin {
  let outDir = 'dist';
  let info: (message: string) => void = () => {};
  return {
    name: 'scms-bundle-budget',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      info = (message) => config.logger.info(message);
    },
    writeBundle() {
      const sizes = measureRoutes(outDir, budget);
      for (const size of sizes) info(describeSize(size));
      const failures = overBudget(sizes);
      if (failures.length > 0) this.error(`bundle budget exceeded (scripts/bundle-budget.ts): ${failures.join('; ')}`);
    },
  };
}
