/**
 * The linter keeps the layers of docs/architecture.md (eslint.config.js, layerRules): a
 * wrong import in each layer is an error, and the imports each layer may
 * make are not.
 */
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';
import { projectRoot } from '../../scripts/pocketbase/server.ts';

const eslint = new ESLint({ cwd: projectRoot });

/** The no-restricted-imports messages for one import line in a file of the given path. */
async function layerErrors(filePath: string, from: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${from}';\nexport const y = x;\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('wrong imports fail the lint', () => {
  test.each([
    ['src/domain/rule.ts', '../data/db.ts', 'src/domain depends on nothing'],
    ['src/domain/rule.ts', '../api/records.ts', 'src/domain depends on nothing'],
    ['src/api/thing.ts', '../data/db.ts', 'src/api may use src/domain only'],
    ['src/data/thing.ts', '../features/homes/HomeCard.tsx', 'src/data talks to src/api and src/domain only'],
    ['src/data/thing.ts', '../ui/toast.tsx', 'src/data talks to src/api and src/domain only'],
    ['src/data/sync/thing.ts', '../../features/homes/HomeCard.tsx', 'src/data talks to src/api and src/domain only'],
    ['src/ui/Thing.tsx', '../data/hooks.ts', 'src/ui holds shared components'],
    ['src/features/homes/Thing.tsx', '../users/UserCard.tsx', 'A feature never imports another feature'],
    ['src/features/homes/Thing.tsx', '../../app/Layout.tsx', 'A feature never imports src/app'],
    ['src/features/homes/Thing.tsx', '../../data/sync/pull.ts', 'A feature never imports the sync machinery'],
    [
      'src/features/homes/Thing.tsx',
      '../../data/mirror/db.ts',
      'A feature never imports the sync machinery or the database',
    ],
    ['src/features/homes/Thing.tsx', '../../api/client.ts', 'A feature never uses the PocketBase client'],
    ['src/app/Thing.tsx', '../api/client.ts', 'Only src/data uses the PocketBase client'],
    ['sw/thing.ts', '../src/api/client.ts', 'Only src/data uses the PocketBase client'],
  ])('%s importing %s', async (file, from, message) => {
    const errors = await layerErrors(file, from);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
  });
});

describe('the arrows of docs/architecture.md pass', () => {
  test.each([
    ['src/features/homes/Thing.tsx', '../../data/hooks.ts'],
    ['src/features/homes/Thing.tsx', '../../data/resources/homes.ts'],
    ['src/features/homes/Thing.tsx', '../../ui/Sheet.tsx'],
    ['src/features/homes/Thing.tsx', '../../domain/search.ts'],
    ['src/features/homes/Thing.tsx', './HomeCard.tsx'],
    ['src/data/thing.ts', '../api/client.ts'],
    ['src/data/thing.ts', '../domain/pbDate.ts'],
    ['src/data/sync/thing.ts', '../../api/client.ts'],
    ['src/api/thing.ts', '../domain/recordId.ts'],
    ['src/domain/rule.ts', './search.ts'],
    ['src/app/Thing.tsx', '../features/homes/HomesPage.tsx'],
    ['sw/thing.ts', '../src/data/sync/replay.ts'],
  ])('%s importing %s', async (file, from) => {
    expect(await layerErrors(file, from)).toEqual([]);
  });
});
