/**
 * Loads a PocketBase hook library (pocketbase/pb_hooks/lib/*.js) the way
 * goja runs it: as a CommonJS script in a bare context with no Node API
 * (no process, Buffer, TextEncoder, btoa), so a library that leaned on one
 * would fail here as it would on the server. Its `require` loads only other
 * hook libraries (`${__hooks}/lib/….js`), the same way.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runInNewContext } from 'node:vm';
import { projectRoot } from '../../scripts/pocketbase/server.ts';

const hooksDir = join(projectRoot, 'pocketbase', 'pb_hooks');

export function loadHookLib<T>(name: string): T {
  const file = join(hooksDir, 'lib', name);
  const module = { exports: {} as Record<string, unknown> };
  const requireLib = (path: string): unknown => {
    const inLib = relative(join(hooksDir, 'lib'), path);
    if (inLib.startsWith('..') || !inLib.endsWith('.js'))
      throw new Error(`A hook library may require only hook libraries: ${path}`);
    return loadHookLib(inLib);
  };
  runInNewContext(
    `(function (module, exports, require, __hooks) {\n${readFileSync(file, 'utf8')}\n})`,
    {},
    { filename: file },
  )(module, module.exports, requireLib, hooksDir);
  return module.exports as T;
}
