/**
 * Compiles the domain modules the server shares with the app into CommonJS
 * for PocketBase's goja VM (pb_hooks/lib/generated/, not committed), so a
 * rule such as the call script exists once; and the hooks' own TypeScript
 * sources (pocketbase/hook-src/) that bundle a library from npm, such as
 * @noble/hashes' HMAC-SHA1 for Twilio's signatures. Runs before
 * PocketBase starts (startPocketBase: once per process, and not at all under
 * `npm test`, which runs it once for all its jobs) and in `npm run build`.
 *
 * A file is written only when its content changed, and then by an atomic
 * rename: `npm run dev` watches pb_hooks and restarts PocketBase on every
 * write there, so an unchanged rebuild (every test worker's server start)
 * must not touch the folder, and a changed one must never be seen half
 * written.
 */
import { build, type Plugin } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hooksDir, projectRoot } from './paths.ts';

/** source module → generated hook library name */
export const SHARED_MODULES: Record<string, string> = {
  'src/domain/callScript.ts': 'call_script',
  'src/domain/recordRules.ts': 'record_rules',
  'src/domain/quietHours.ts': 'quiet_hours',
  'src/domain/callHistory.ts': 'call_history',
  'src/domain/temporaryPassword.ts': 'temporary_password',
  'src/domain/houseCheckAnswer.ts': 'house_check_answer',
  'src/domain/homeSortKey.ts': 'home_sort_key',
  'src/domain/pullFilter.ts': 'pull_filter',
  'src/domain/changesRequest.ts': 'changes_request',
  'src/domain/checkpointCode.ts': 'checkpoint_code',
  'src/domain/tourBoard.ts': 'tour_board',
  'src/domain/directory.ts': 'directory',
  'pocketbase/hook-src/twilioSignature.ts': 'twilio_signature',
  'pocketbase/hook-src/telephonyAddress.ts': 'telephony_address',
};

/**
 * zod's `z` namespace carries every language's messages (`z.locales`),
 * which no tree shaking can drop from a namespace object; the hooks speak
 * English only (zod loads its English messages by themselves), so the
 * locale index is left empty: 140 kB less for every hook VM to parse.
 */
const noZodLocales: Plugin = {
  name: 'no-zod-locales',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes('/zod/') ? { path: 'zod-locales', namespace: 'empty' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

export const generatedDir = join(hooksDir, 'lib', 'generated');

export async function buildHookLibs(): Promise<void> {
  mkdirSync(generatedDir, { recursive: true });
  for (const [source, name] of Object.entries(SHARED_MODULES)) {
    const outfile = join(generatedDir, `${name}.js`);
    const built = await build({
      entryPoints: [join(projectRoot, source)],
      outfile,
      write: false,
      bundle: true,
      format: 'cjs',
      // goja runs ES2015-level code.
      target: 'es2015',
      platform: 'neutral',
      // Whitespace and syntax only: the names stay, so a hook's error points somewhere readable.
      minifyWhitespace: true,
      minifySyntax: true,
      plugins: [noZodLocales],
      logLevel: 'warning',
      banner: {
        js: `// GENERATED from ${source} by scripts/pocketbase/hook-libs.ts — edit the source, not this file.`,
      },
    });
    const text = built.outputFiles[0]!.text;
    if (existsSync(outfile) && readFileSync(outfile, 'utf8') === text) continue;
    const temporary = `${outfile}.${process.pid}.tmp`;
    writeFileSync(temporary, text);
    renameSync(temporary, outfile);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildHookLibs();
