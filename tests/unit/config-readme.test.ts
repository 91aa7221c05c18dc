import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { CONFIG } from '../../scripts/config.ts';
import { projectRoot } from '../../scripts/pocketbase/server.ts';

const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');

test.each(CONFIG.map((entry) => [entry.name]))('the README configuration table lists %s', (name) => {
  expect(readme).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
});

test('every variable the scripts read is in the configuration list', () => {
  const sources = [
    'scripts/services.ts',
    'scripts/dev.ts',
    'scripts/config.ts',
    'scripts/browser/chromium.ts',
    'scripts/pocketbase/install.ts',
    'scripts/cluster/litestream.ts',
    'scripts/cluster/caddy.ts',
    'scripts/cluster/start.ts',
    'scripts/cluster/cli.ts',
    'scripts/cluster/streamSettings.ts',
  ]
    .map((file) => readFileSync(join(projectRoot, file), 'utf8'))
    .join('\n');
  const read = new Set(
    [...sources.matchAll(/env\('([A-Z][A-Z0-9_]*)'\)|process\.env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1] ?? m[2]),
  );
  // Variables the scripts set for their children, not configuration.
  for (const internal of ['SCMS_API_URL', 'SCMS_SKIP_BUILD', 'PB_PORT']) read.delete(internal);
  const listed = new Set(CONFIG.map((entry) => entry.name));
  expect([...read].filter((name) => name && !listed.has(name))).toEqual([]);
});
