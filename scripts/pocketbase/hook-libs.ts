/**
 * Compiles the domain modules the server shares with the app into CommonJS
 * for PocketBase's goja VM (pb_hooks/lib/generated/, not committed), so a
 * rule such as the call script exists once. Runs before every PocketBase
 * start (startPocketBase) and in `npm run build`.
 */
import { buildSync } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hooksDir, projectRoot } from './paths.ts';

/** domain module → generated hook library name */
export const SHARED_MODULES: Record<string, string> = {
  'src/domain/callScript.ts': 'call_script',
};

export const generatedDir = join(hooksDir, 'lib', 'generated');

export function buildHookLibs(): void {
  for (const [source, name] of Object.entries(SHARED_MODULES)) {
    buildSync({
      entryPoints: [join(projectRoot, source)],
      outfile: join(generatedDir, `${name}.js`),
      bundle: true,
      format: 'cjs',
      // goja runs ES2015-level code.
      target: 'es2015',
      platform: 'neutral',
      logLevel: 'warning',
      banner: { js: `// GENERATED from ${source} by scripts/pocketbase/hook-libs.ts — edit the source, not this file.` },
    });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) buildHookLibs();
