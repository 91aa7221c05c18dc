/**
 * Before each unit test file: a fresh, empty fake IndexedDB of its own.
 * The unit layer shares its modules between the files of a worker (no
 * isolation: a file would otherwise load React, Dexie and the app again,
 * three quarters of the layer's time), so what a file stored must not be
 * seen by the next, and the globals a jsdom environment resets must be put
 * back. Dexie reads the factory from its own `dependencies`, kept too.
 */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { vi } from 'vitest';
import {
  IDBCursor,
  IDBCursorWithValue,
  IDBDatabase,
  IDBFactory,
  IDBIndex,
  IDBKeyRange,
  IDBObjectStore,
  IDBOpenDBRequest,
  IDBRequest,
  IDBTransaction,
  IDBVersionChangeEvent,
} from 'fake-indexeddb';

const factory = new IDBFactory();
const globals = {
  indexedDB: factory,
  IDBCursor,
  IDBCursorWithValue,
  IDBDatabase,
  IDBFactory,
  IDBIndex,
  IDBKeyRange,
  IDBObjectStore,
  IDBOpenDBRequest,
  IDBRequest,
  IDBTransaction,
  IDBVersionChangeEvent,
};
for (const [name, value] of Object.entries(globals)) {
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true, enumerable: false });
}
Dexie.dependencies.indexedDB = factory;
Dexie.dependencies.IDBKeyRange = IDBKeyRange;

// The app's own modules start afresh in each file (their module-level state:
// open mirrors, listeners, remembered scroll positions); the packages they
// use (React, Dexie, Testing Library) stay loaded, which is the saving.
vi.resetModules();

// A jsdom environment is kept between the files of a worker too: each file
// starts with an empty page and empty storage, as a fresh browser tab would.
if (typeof document !== 'undefined') document.body.replaceChildren();
if (typeof localStorage !== 'undefined') localStorage.clear();
if (typeof sessionStorage !== 'undefined') sessionStorage.clear();
