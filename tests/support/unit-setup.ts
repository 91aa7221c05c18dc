/**
 * Before each unit test file: a fresh, empty fake IndexedDB of its own.
 * The unit layer shares its modules between the files of a worker (no
 * isolation: a file would otherwise load React, Dexie and jsdom again,
 * three quarters of the layer's time), so what a file stored must not be
 * seen by the next, and the globals an environment's teardown removes must
 * be put back. Dexie reads the factory from its own `dependencies`, set too.
 */
import { configure } from '@testing-library/react';
import Dexie from 'dexie';
import * as fakeIndexedDb from 'fake-indexeddb';
import { vi } from 'vitest';

const factory = new fakeIndexedDb.IDBFactory();
const globals: Record<string, unknown> = { indexedDB: factory };
// The interfaces a browser has beside indexedDB (IDBKeyRange, IDBDatabase...), as fake-indexeddb/auto sets them.
for (const [name, value] of Object.entries(fakeIndexedDb)) if (name.startsWith('IDB')) globals[name] = value;
for (const [name, value] of Object.entries(globals)) {
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true, enumerable: false });
}
Dexie.dependencies.indexedDB = factory;
Dexie.dependencies.IDBKeyRange = fakeIndexedDb.IDBKeyRange;

// The app's own modules start afresh in each file (their module-level state:
// open mirrors, listeners, remembered scroll positions); the packages they
// use (React, Dexie, Testing Library) stay loaded, which is the saving.
vi.resetModules();

// A jsdom environment is kept between the files of a worker too: each file
// starts with an empty page and empty storage, as a fresh browser tab would.
if (typeof document !== 'undefined') document.body.replaceChildren();
if (typeof localStorage !== 'undefined') localStorage.clear();
if (typeof sessionStorage !== 'undefined') sessionStorage.clear();

// A wait (findBy…, waitFor) ends as soon as what it waits for is there; its
// cap is only how long to keep trying. Testing Library's default cap of 1 s
// is a tight timeout: on a loaded two-core machine (load average 13, with a
// second `npm test` running) a mirror write took 1.6 s to reach the screen,
// and the test failed though nothing was wrong. 10 s, half the unit layer's
// test timeout (vitest.config.ts), so a wait that fails still fails with its
// own message and the page it saw.
configure({ asyncUtilTimeout: 10_000 });
