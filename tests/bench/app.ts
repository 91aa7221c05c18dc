/**
 * The built app a browser benchmark measures (bench:screens, bench:lighthouse):
 * `--dist DIR`, an existing build, or a fresh one made as `npm run build`
 * makes it (the hooks' shared libraries, then vite.config.ts with its service
 * worker and bundle budget) into a temporary folder.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { buildHookLibs } from '../../scripts/pocketbase/hook-libs.ts';
import { projectRoot } from '../../scripts/pocketbase/server.ts';

export interface AppBuild {
  distDir: string;
  /** Removes a build this module made; leaves a given `--dist` alone. */
  remove: () => void;
}

export async function appToMeasure(
  dist: string | undefined,
  name: string,
  progress: (message: string) => void,
): Promise<AppBuild> {
  if (dist) {
    const distDir = resolve(dist);
    if (!existsSync(join(distDir, 'index.html'))) throw new Error(`${distDir} holds no built app (index.html)`);
    progress(`measuring the build in ${distDir}`);
    return { distDir, remove: () => {} };
  }
  const distDir = mkdtempSync(join(tmpdir(), `scms-bench-${name}-dist-`));
  const remove = () => rmSync(distDir, { recursive: true, force: true });
  try {
    progress('building the app (vite.config.ts, as npm run build)');
    await buildHookLibs();
    await build({
      root: projectRoot,
      configFile: join(projectRoot, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: distDir, emptyOutDir: true },
    });
  } catch (error) {
    remove();
    throw error;
  }
  return { distDir, remove };
}
