/**
 * tests/INDEX.md, the table of where each module is tested, is the one
 * scripts/test-index.ts makes from the imports as they are now: a module
 * added, moved or tested anew shows there once `npm run test:index` ran.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { projectRoot } from '../../scripts/pocketbase/server.ts';
import { buildIndex, INDEX_PATH } from '../../scripts/test-index.ts';

test('tests/INDEX.md is up to date (npm run test:index writes it)', () => {
  const index = buildIndex();
  expect(readFileSync(join(projectRoot, INDEX_PATH), 'utf8')).toBe(index);
});

test('it names the tests of a module tested directly, and the route of one tested through another', () => {
  const index = buildIndex();
  expect(index).toMatch(/^\| `src\/data\/sync\/session\.ts` \| .*`integration\/engine\.test\.ts`/m);
  expect(index).toMatch(
    /^\| `pocketbase\/pb_hooks\/lib\/offline_editor_words\.js` \| through `pocketbase\/pb_hooks\/lib\/offline_editor\.js`/m,
  );
  // Every module of the app is in it, once.
  const rows = index.split('\n').filter((line) => line.startsWith('| `src/'));
  expect(new Set(rows.map((row) => row.split(' | ')[0])).size).toBe(rows.length);
  expect(rows.length).toBeGreaterThan(100);
});
