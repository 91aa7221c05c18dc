/**
 * Before each unit test file: a fresh, empty fake IndexedDB of its own.
 * The unit layer shares its modules between the files of a worker (no
 * isolation: a file would otherwise load React, Dexie and jsdom again,
 * three quarters of the layer's time), so what a file stored must not be
 * seen by the next, and the globals an environment's teardown removes must
 * be put back. Dexie reads the factory from its own `dependencies`, set too.
 */
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
