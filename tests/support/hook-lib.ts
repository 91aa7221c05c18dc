/**
 * Loads a PocketBase hook library (pocketbase/pb_hooks/lib/*.js) the way
 * goja runs it: as a CommonJS script in a bare context with no Node API
 * (no require, process, Buffer, TextEncoder, btoa), so a library that
 * leaned on one would fail here as it would on the server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { projectRoot } from '../../scripts/pocketbase/server.ts';

export function loadHookLib<T>(name: string): T {
  const file = join(projectRoot, 'pocketbase', 'pb_hooks', 'lib', name);
  const module = { exports: {} as Record<string, unknown> };
  runInNewContext(
    `(function (module, exports) {\n${readFileSync(file, 'utf8')}\n})`,
    {},
    { filename: file },
  )(module, module.exports);
  return module.exports as T;
}
