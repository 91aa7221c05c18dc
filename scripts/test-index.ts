/**
 * Where each module is tested: tests/INDEX.md, made from the imports.
 *
 * For every module of the app, the service worker, the server's hook
 * libraries and the scripts, the test files that reach it: those that load
 * it themselves or through a test helper ("directly"), else those that
 * reach it through other modules, with the module they go through. A
 * module no test file reaches that way is exercised by the browser
 * journeys (the built app) or, on the server, by every integration test
 * (each starts a PocketBase that loads every hook). `npm run test:index`
 * writes the file; a unit test (tests/unit/test-index.test.ts) fails when
 * it is out of date.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHARED_MODULES } from './pocketbase/hook-libs.ts';
import { projectRoot as root } from './pocketbase/paths.ts';

export const INDEX_PATH = 'tests/INDEX.md';

const SOURCE = /^(src|sw|scripts|pocketbase\/hook-src)\/.*\.(ts|tsx)$|^pocketbase\/pb_hooks\/lib\/[^/]+\.js$/;
const TEST_FILE = /^tests\/(unit|integration|e2e)\/.*\.test\.tsx?$/;
const HELPER = /^tests\/(support|bench|e2e)\/.*\.(ts|tsx)$/;

/** A generated hook library's name → the module it is compiled from (scripts/pocketbase/hook-libs.ts). */
const GENERATED_FROM = new Map(Object.entries(SHARED_MODULES).map(([source, name]) => [name, source]));

/** The repository's files, new ones too, in one order (git lists files not yet added after the others). */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean)
    .sort();
}

/** The repository files a file loads: relative imports, and hook libraries by name (loadHookLib, require). */
function loads(file: string, known: Set<string>): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = normalize(join(dirname(file), match[1]!));
    if (known.has(target)) found.push(target);
  }
  // A generated library is compiled from a module of src/domain or pocketbase/hook-src.
  for (const match of text.matchAll(
    /loadHookLib(?:<[\s\S]*?>)?\(\s*['"](generated\/)?([a-z_]+)\.js['"]|\/lib\/(generated\/)?([a-z_]+)\.js`/g,
  )) {
    const generated = (match[1] ?? match[3]) !== undefined;
    const name = match[2] ?? match[4];
    const target = generated ? GENERATED_FROM.get(name!) : `pocketbase/pb_hooks/lib/${name}.js`;
    if (target && known.has(target)) found.push(target);
  }
  return found;
}

/** Test files named per module; a module every test loads (a helper's server) gets a count for the rest. */
const LISTED = 6;

/** A test that reaches a module only through other modules, and the first of them on the way. */
interface Reach {
  test: string;
  through: string;
}

/** A test file as the index names it: its path under tests/. */
const named = (test: string) => `\`${test.replace(/^tests\//, '')}\``;

export function buildIndex(): string {
  const files = trackedFiles().filter((file) => existsSync(join(root, file)));
  const known = new Set(files);
  const sources = files.filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts'));
  const tests = files.filter((file) => TEST_FILE.test(file));
  const graph = new Map<string, string[]>();
  const edges = (file: string) => {
    let list = graph.get(file);
    if (!list) graph.set(file, (list = loads(file, known)));
    return list;
  };

  const direct = new Map<string, Set<string>>();
  const indirect = new Map<string, Reach>();
  for (const test of tests) {
    // The test and its helpers: what they load is "direct".
    const own = [test];
    const seen = new Set(own);
    const reached: string[] = [];
    while (own.length > 0) {
      for (const next of edges(own.pop()!)) {
        if (seen.has(next)) continue;
        seen.add(next);
        if (HELPER.test(next) && !TEST_FILE.test(next)) own.push(next);
        else if (SOURCE.test(next)) reached.push(next);
      }
    }
    for (const module of reached) (direct.get(module) ?? direct.set(module, new Set()).get(module)!).add(test);
    // Then what those modules load, remembering the first module on the way.
    const queue = reached.map((module) => [module, module] as const);
    while (queue.length > 0) {
      const [file, via] = queue.shift()!;
      for (const next of edges(file)) {
        if (seen.has(next) || !SOURCE.test(next)) continue;
        seen.add(next);
        if (!indirect.has(next)) indirect.set(next, { test, through: via });
        queue.push([next, via]);
      }
    }
  }

  const rows = sources.map((module) => {
    const tested = [...(direct.get(module) ?? [])].sort();
    let where: string;
    const listed = tested.slice(0, LISTED).map(named);
    if (tested.length > LISTED) listed.push(`and ${tested.length - LISTED} more`);
    if (tested.length > 0) where = listed.join(', ');
    else if (indirect.has(module)) {
      const { test, through } = indirect.get(module)!;
      where = `through \`${through}\`: ${named(test)} and others`;
    } else if (module.startsWith('pocketbase/')) where = 'the integration tests (every server they start loads it)';
    else if (module.startsWith('scripts/')) where = 'run by hand or by npm scripts (not by a test)';
    else where = 'the browser journeys (tests/e2e/, the built app)';
    return `| \`${module}\` | ${where} |`;
  });
  return [
    '# Where each module is tested',
    '',
    'Made by `npm run test:index` from the imports (scripts/test-index.ts); a unit',
    'test fails when it is out of date. A test file listed reaches the module',
    'itself or through a test helper; "through" names the module a test goes',
    'through when none does; the rest are exercised by the browser journeys or,',
    'for the server, by every integration test.',
    '',
    '| module | tested by |',
    '|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  writeFileSync(join(root, INDEX_PATH), buildIndex());
  console.log(`${INDEX_PATH} written`);
}
